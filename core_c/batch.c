/* Entry points for the Python face (shengji/core/), where crossing into C costs about
 * 15 ns per argument: the hot calls with only the arguments that vary (54-count buffers,
 * no info or error struct: on a failure Python asks the full entry point again for
 * details), and batches that ask many questions about one position in one call. Each
 * is a loop over, or a call of, the public entry point it names, with its validation. */
#include <stddef.h>
#include <string.h>

#include "shengji_core.h"
#include "sj_internal.h"

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

/* ---------------------------------------------------------------- the engine's leads
 * sj_lead_list: the leads shengji.engine lists for a hand, in its order (the reference
 * is shengji/engine/legal.py lead_structures): for each effective suit 0..4, for each
 * kind held (largest id first) its single and its tuples up to max_tuple; then every
 * tractor, by width, then by run (consecutive strengths from the lowest), by start and
 * length within a run, and every choice of kinds where several share a strength (the
 * last strength varying fastest, kinds largest id first); then, with throws, the whole
 * suit unless it is a single or one of the structures already listed (or trumps, when
 * the rules refuse trump throws). */

typedef struct {
    uint8_t *out;
    int cap, n;
    int target; /* >= 0: write only the target-th lead, into out[0..53] */
} leads_t;

static void emit(leads_t *L, const uint8_t *c)
{
    if (L->target >= 0) {
        if (L->n == L->target)
            memcpy(L->out, c, SJ_NK);
    } else if (L->n < L->cap) {
        memcpy(L->out + (size_t)L->n * SJ_NK, c, SJ_NK);
    }
    L->n++;
}

/* tractors of width w in suit kinds ks[0..nk) (largest id first) */
static void tractors_of(const sj_rules *r, const uint8_t *H, const uint8_t *ks, int nk, int w,
                        leads_t *L)
{
    int nat[SJ_MAXSTR] = {0};
    uint8_t at[SJ_MAXSTR][SJ_NK];
    uint8_t lv[SJ_MAXSTR];
    int nlv = 0;
    for (int i = 0; i < nk; i++) {
        int k = ks[i];
        if (H[k] < w)
            continue;
        int t = r->strength[k] & 63;
        at[t][nat[t]++] = (uint8_t)k;
    }
    for (int t = 0; t < SJ_MAXSTR; t++)
        if (nat[t])
            lv[nlv++] = (uint8_t)t;
    int min_len = r->tractor_min_length;
    for (int i = 0; i < nlv;) {
        int j = i;
        while (j + 1 < nlv && lv[j + 1] == lv[j] + 1)
            j++;
        int len = j - i + 1;
        for (int a = 0; a < len; a++)
            for (int b = a + min_len; b <= len; b++) {
                /* every choice: an odometer over the levels lv[i+a .. i+b-1] */
                int digit[SJ_MAXSTR] = {0};
                for (;;) {
                    uint8_t c[SJ_NK] = {0};
                    for (int l = a; l < b; l++)
                        c[at[lv[i + l]][digit[l]]] = (uint8_t)w;
                    emit(L, c);
                    int l = b - 1;
                    while (l >= a && ++digit[l] == nat[lv[i + l]])
                        digit[l--] = 0;
                    if (l < a)
                        break;
                }
            }
        i = j + 1;
    }
}

static int lead_walk(const sj_rules *r, const uint8_t *hand, int throws, leads_t *Lp);

int sj_lead_list(const sj_rules *r, const uint8_t *hand, int throws, uint8_t *out, int cap)
{
    if (!sj__rules_ok(r))
        return SJ_ERR_CONTEXT;
    if (!hand || (cap > 0 && !out) || cap < 0)
        return SJ_ERR_ARG;
    leads_t L = {out, cap, 0, -1};
    return lead_walk(r, hand, throws, &L);
}

/* the target-th lead of sj_lead_list's listing into out (54 counts), for the play
 * driver (drive.c); returns the number of leads (out untouched when target >= it) */
int sj__lead_at(const sj_rules *r, const uint8_t *hand, int throws, int target, uint8_t *out)
{
    leads_t L = {out, 0, 0, target};
    return lead_walk(r, hand, throws, &L);
}

static int lead_walk(const sj_rules *r, const uint8_t *hand, int throws, leads_t *Lp)
{
    uint8_t H[SJ_NK];
    for (int k = 0; k < SJ_NK; k++) {
        if (hand[k] > r->decks)
            return SJ_ERR_COPIES;
        H[k] = hand[k];
    }
    leads_t L = *Lp;
    int max_w = r->max_tuple;
    int tractors = r->tractors && max_w >= r->tractor_min_width;
    for (int s = 0; s <= SJ_TRUMP; s++) {
        uint8_t ks[SJ_NK];
        int nk = 0, n_suit = 0, widest = 0;
        for (int k = SJ_NK - 1; k >= 0; k--)
            if (H[k] && r->esuit[k] == s)
                ks[nk++] = (uint8_t)k;
        if (!nk)
            continue;
        for (int i = 0; i < nk; i++) {
            int k = ks[i], n = H[k];
            n_suit += n;
            uint8_t c[SJ_NK] = {0};
            c[k] = 1;
            emit(&L, c);
            if (n > 1 && max_w > 1) {
                widest = n > widest ? n : widest;
                for (int w = 2; w <= n && w <= max_w; w++) {
                    c[k] = (uint8_t)w;
                    emit(&L, c);
                }
            }
        }
        if (tractors && widest >= r->tractor_min_width)
            for (int w = r->tractor_min_width; w <= widest && w <= max_w; w++)
                tractors_of(r, H, ks, nk, w, &L);
        if (throws && n_suit > 1 && (nk > 1 || n_suit > max_w) &&
            !(s == SJ_TRUMP && r->no_trump_throws)) {
            uint8_t whole[SJ_NK] = {0};
            for (int i = 0; i < nk; i++)
                whole[ks[i]] = H[ks[i]];
            /* the whole suit is listed already when it is one tractor: every kind held
             * equally often (a tuple width), one kind per strength, consecutive */
            int w = H[ks[0]], dup = tractors && nk >= r->tractor_min_length &&
                                    w >= r->tractor_min_width && w <= max_w;
            uint64_t seen = 0;
            int lo = 63, hi = 0;
            for (int i = 0; i < nk && dup; i++) {
                int t = r->strength[ks[i]] & 63;
                dup = H[ks[i]] == w && !(seen >> t & 1);
                seen |= 1ull << t;
                lo = t < lo ? t : lo;
                hi = t > hi ? t : hi;
            }
            dup = dup && hi - lo + 1 == nk;
            if (!dup)
                emit(&L, whole);
        }
    }
    return L.n;
}
