/* Rainbows (docs/semantics.md §3-§8, shengji.io CompoundFormats): a lead of cards of one
 * rank from all four effective suits, at least rainbow_min of them; several ranks so led
 * at once are a rainbow throw. Its components are the rank groups; following, throws and
 * the trick winner compare ranks (2 < 3 < ... < A), whatever the suits.
 *
 * A rainbow lead is an sj_lead with esuit SJ_RAINBOW and one component per rank group:
 * w = cards of that rank (up to 32 at eight packs), len = 1, top = the rank, first = the group's index.
 */
#include "shengji_core.h"
#include "sj_internal.h"

#include <string.h>

#define RANK(k) ((k) % 13)

/* cards of each rank in c (64-entry counts; jokers have no rank) */
static void rank_totals(const uint8_t *c, int *t)
{
    for (int q = 0; q < 13; q++)
        t[q] = 0;
    for (int k = 0; k < 52; k++)
        t[RANK(k)] += c[k];
}

int sj__rainbow_decompose(const sj_rules *r, const uint8_t *c, int n, sj_lead *out)
{
    if (r->rainbow_min <= 0 || c[52] || c[53])
        return SJ_ERR_MIXED;
    int t[13], suits[13];
    rank_totals(c, t);
    for (int q = 0; q < 13; q++) {
        suits[q] = 0;
        for (int s = 0; s < 4; s++)
            if (c[s * 13 + q])
                suits[q] |= 1 << SU(r->esuit[s * 13 + q]);
    }
    for (int q = 0; q < 13; q++) {
        if (!t[q])
            continue;
        int nsuits = 0;
        for (int e = 0; e < 5; e++)
            nsuits += (suits[q] >> e) & 1;
        if (t[q] < r->rainbow_min || nsuits < 4)
            return SJ_ERR_MIXED;
    }
    memset(out, 0, sizeof *out);
    memcpy(out->counts, c, SJ_NK);
    out->stamp = r->stamp;
    out->n = n;
    out->esuit = SJ_RAINBOW;
    /* components best first: more cards first, then the higher rank */
    for (int cards = 4 * SJ_MAX_DECKS; cards >= 1; cards--) /* four suits of every pack */
        for (int q = 12; q >= 0; q--)
            if (t[q] == cards) {
                sj_comp *cp = &out->comps[out->ncomp];
                cp->w = (uint8_t)cards;
                cp->len = 1;
                cp->top = (uint8_t)q;
                cp->first = (uint8_t)out->ncomp;
                out->kinds[out->ncomp] = (uint8_t)q; /* the rank (no single kind) */
                out->ncomp++;
            }
    return SJ_OK;
}

/* can the rank totals t give every unit of F (sizes w, one rank each, a rank may serve
 * several units)? units are in F's order (sizes non-increasing); equal sizes take ranks in
 * non-decreasing order so that permutations are not tried twice */
static int assign(const sj_lead *F, int i, int *t, int prev_rank, long *nodes)
{
    if (i >= F->ncomp)
        return 1;
    if (++*nodes > NODE_BUDGET)
        return SJ_ERR_LIMIT;
    int c = F->comps[i].w;
    int q0 = i > 0 && F->comps[i - 1].w == c ? prev_rank : 0;
    for (int q = q0; q < 13; q++) {
        if (t[q] < c)
            continue;
        t[q] -= c;
        int rc = assign(F, i + 1, t, q, nodes);
        t[q] += c;
        if (rc)
            return rc;
    }
    return 0;
}

int sj__rainbow_assignable(const sj_lead *F, const uint8_t *c)
{
    int t[13];
    long nodes = 0;
    rank_totals(c, t);
    return assign(F, 0, t, 0, &nodes);
}

int sj__rainbow_follow(const sj_lead *lead, const uint8_t *H, const uint8_t *P)
{
    int rc = sj__rainbow_assignable(lead, P);
    if (rc)
        return rc < 0 ? rc : SJ_FOLLOW_OK;
    rc = sj__rainbow_assignable(lead, H);
    if (rc < 0)
        return rc;
    return rc ? SJ_MUST_FOLLOW_SHAPE : SJ_FOLLOW_OK;
}

/* does a holding with rank totals t beat the unit (rank q, c cards)? a higher rank with as
 * many cards, any suits */
static int beats(const int *t, int q, int c)
{
    for (int p = q + 1; p < 13; p++)
        if (t[p] >= c)
            return 1;
    return 0;
}

static void put_unit(const sj_lead *lead, int i, uint8_t *dst)
{
    int q = lead->comps[i].top % 13;
    memset(dst, 0, SJ_NK);
    for (int s = 0; s < 4; s++)
        dst[s * 13 + q] = lead->counts[s * 13 + q];
}

int sj__rainbow_throw(const sj_rules *r, const sj_lead *lead, const uint8_t *others, int m,
                      sj_throw_result *out)
{
    int ncomp = lead->ncomp < 13 ? lead->ncomp : 13;
    int beaten_by[13]; /* first holding that beats unit i, or -1 */
    int first_any = -1;
    for (int i = 0; i < ncomp; i++)
        beaten_by[i] = -1;
    for (int j = 0; j < m; j++) {
        int t[13];
        rank_totals(others + (size_t)j * SJ_NK, t);
        for (int i = 0; i < ncomp; i++)
            if (beaten_by[i] < 0 && beats(t, lead->comps[i].top, lead->comps[i].w)) {
                beaten_by[i] = j;
                if (first_any < 0)
                    first_any = j;
            }
    }
    if (first_any < 0)
        return SJ_OK;
    int cand[13], nc = 0;
    if (r->failed_throw == SJ_THROW_FIRST_BLOCKER) {
        /* the first holding to beat anything: its beaten unit of the lowest rank, whatever
         * its size (shengji.io lists a rainbow's units by rank, trick.rs
         * try_rainbow_format, and forces the first beaten; one unit per rank) */
        int t[13], best = -1;
        rank_totals(others + (size_t)first_any * SJ_NK, t);
        for (int i = 0; i < ncomp; i++) {
            const sj_comp *ci = &lead->comps[i];
            if (!beats(t, ci->top, ci->w))
                continue;
            if (best < 0 || ci->top < lead->comps[best].top)
                best = i;
        }
        cand[nc++] = best;
    } else {
        /* beaten units by rank, lowest first (ties: fewer cards); fewest_cards: by cards,
         * then rank; next_player_chooses keeps the lowest of each size */
        int fewest = r->failed_throw == SJ_THROW_FEWEST_CARDS;
        for (int i = 0; i < ncomp; i++)
            if (beaten_by[i] >= 0)
                cand[nc++] = i;
        for (int a = 1; a < nc; a++)
            for (int b = a; b > 0; b--) {
                const sj_comp *x = &lead->comps[cand[b - 1]], *y = &lead->comps[cand[b]];
                int kx = fewest ? x->w * 16 + x->top : x->top * 64 + x->w;
                int ky = fewest ? y->w * 16 + y->top : y->top * 64 + y->w;
                if (ky < kx) {
                    int tmp = cand[b - 1];
                    cand[b - 1] = cand[b];
                    cand[b] = tmp;
                }
            }
        if (r->failed_throw == SJ_THROW_NEXT_PLAYER_CHOOSES) {
            int kept = 0;
            for (int a = 0; a < nc; a++) {
                int dup = 0;
                for (int b = 0; b < kept; b++)
                    dup |= lead->comps[cand[b]].w == lead->comps[cand[a]].w;
                if (!dup)
                    cand[kept++] = cand[a];
            }
            nc = kept;
        } else {
            nc = 1;
        }
    }
    out->valid = 0;
    out->n_options = nc;
    for (int o = 0; o < nc; o++)
        put_unit(lead, cand[o], out->options[o]);
    out->blocker = r->failed_throw == SJ_THROW_FIRST_BLOCKER ? first_any : beaten_by[cand[0]];
    return SJ_OK;
}

/* value of a play against the units of F: for the sizes from the largest, the highest
 * rank with that many cards left (greedy, as shengji.io); the ranks sorted high to low.
 * 0 when some unit gets no rank (the play never wins), else 1 with v filled. */
static int value(const sj_lead *F, const uint8_t *c, int *v)
{
    int t[13], n = F->ncomp < 13 ? F->ncomp : 13;
    rank_totals(c, t);
    for (int i = 0; i < n; i++) { /* F's units are already by size, largest first */
        int q = 12;
        while (q >= 0 && t[q] < F->comps[i].w)
            q--;
        if (q < 0)
            return 0;
        t[q] -= F->comps[i].w;
        v[i] = q;
    }
    for (int a = 1; a < n; a++) /* ranks high to low */
        for (int b = a; b > 0 && v[b] > v[b - 1]; b--) {
            int tmp = v[b];
            v[b] = v[b - 1];
            v[b - 1] = tmp;
        }
    return 1;
}

int sj__rainbow_winner(const sj_lead *F, const uint8_t (*P)[64], int m)
{
    int cur[13], v[13], win = 0, n = F->ncomp < 13 ? F->ncomp : 13;
    if (!value(F, P[0], cur))
        return SJ_ERR_ARG;
    for (int j = 1; j < m; j++) {
        if (!value(F, P[j], v))
            continue;
        int cmp = 0;
        for (int i = 0; i < n && !cmp; i++)
            cmp = v[i] > cur[i] ? 1 : v[i] < cur[i] ? -1 : 0;
        if (cmp > 0) {
            win = j;
            memcpy(cur, v, sizeof cur);
        }
    }
    return win;
}
