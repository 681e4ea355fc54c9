/* Entry points for the Python face (shengji/core.py), where crossing into C costs about
 * 15 ns per argument: the hot calls with only the arguments that vary (54-count buffers,
 * no info or error struct: on a failure Python asks the full entry point again for
 * details), and batches that ask many questions about one position in one call. Each
 * is a loop over, or a call of, the public entry point it names, with its validation. */
#include <stddef.h>

#include "shengji_core.h"

int sj_follow_code(const sj_rules *r, const sj_lead *lead, const uint8_t *hand,
                   const uint8_t *play)
{
    return sj_check_follow(r, lead, hand, SJ_NK, play, SJ_NK, NULL, NULL);
}

/* the number of components (>= 1), or an error code (< 0) */
int sj_decompose54(const sj_rules *r, const uint8_t *cards, sj_lead *out)
{
    int rc = sj_decompose(r, cards, SJ_NK, out, NULL);
    return rc ? rc : out->ncomp;
}

/* the number of components of a lead (>= 1), or an error code (< 0); nothing kept */
int sj_ncomp(const sj_rules *r, const uint8_t *cards)
{
    sj_lead l;
    int rc = sj_decompose(r, cards, SJ_NK, &l, NULL);
    return rc ? rc : l.ncomp;
}

/* per component of a decomposed lead: (w - 1) * 54 + kind for a single or a tuple
 * (w 1..4: its index in a table of the 216 such components), 255 for a tractor; returns
 * the number of components, or an error code */
int sj_comp_ids(const sj_lead *lead, uint8_t *out, int cap)
{
    if (!lead || !out || lead->ncomp < 0 || lead->ncomp > SJ_MAXCARDS || lead->ncomp > cap)
        return SJ_ERR_ARG;
    for (int i = 0; i < lead->ncomp; i++) {
        const sj_comp *c = &lead->comps[i];
        /* (a rainbow's rank groups are no tuples: built by the caller too) */
        int ok = lead->esuit != SJ_RAINBOW && c->len == 1 && c->w >= 1 && c->w <= 4 && c->first < SJ_MAXCARDS &&
                 lead->kinds[c->first] < SJ_NK;
        out[i] = ok ? (uint8_t)((c->w - 1) * SJ_NK + lead->kinds[c->first]) : 255;
    }
    return lead->ncomp;
}

/* sj_comp_ids of the decomposition of cards, made on the stack (nothing kept) */
int sj_decompose_ids(const sj_rules *r, const uint8_t *cards, uint8_t *out, int cap)
{
    sj_lead l;
    int rc = sj_decompose(r, cards, SJ_NK, &l, NULL);
    return rc ? rc : sj_comp_ids(&l, out, cap);
}

int sj_winner_code(const sj_rules *r, const uint8_t *plays, int m)
{
    return sj_trick_winner(r, plays, m * SJ_NK, m, NULL);
}

int sj_check_follows(const sj_rules *r, const sj_lead *lead, const uint8_t *hand,
                     const uint8_t *plays, int m, uint8_t *out, int32_t *at)
{
    if (!plays || !out || !at || m < 0)
        return SJ_ERR_ARG;
    for (int i = 0; i < m; i++) {
        int rc = sj_check_follow(r, lead, hand, SJ_NK, plays + (size_t)i * SJ_NK, SJ_NK, NULL,
                                 NULL);
        if (rc < 0) {
            *at = i;
            return rc;
        }
        out[i] = (uint8_t)rc;
    }
    return SJ_OK;
}

int sj_trick_winners(const sj_rules *r, const uint8_t *tricks, const int32_t *sizes, int n,
                     uint8_t *out, int32_t *at)
{
    if (!tricks || !sizes || !out || !at || n < 0)
        return SJ_ERR_ARG;
    size_t off = 0;
    for (int t = 0; t < n; t++) {
        int m = sizes[t];
        int rc = (m < 2 || m > 64) ? SJ_ERR_ARG
                                   : sj_trick_winner(r, tricks + off, m * SJ_NK, m, NULL);
        if (rc < 0) {
            *at = t;
            return rc;
        }
        out[t] = (uint8_t)rc;
        off += (size_t)m * SJ_NK;
    }
    return SJ_OK;
}
