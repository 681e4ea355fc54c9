/* Resolving a trick: failed throws (§6), the trick winner (§7) and the kitty
 * multiplier of the last trick (§8).
 */
#include "shengji_core.h"
#include "sj_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- throws §6 */

/* shengji.io's order of cards of equal strength (its Card::as_char): the suits ♠ ♥ ♦ ♣
 * (our kind ids run ♠ ♥ ♣ ♦), then the rank */
static int sio_card_order(int k)
{
    static const int suit_pos[4] = {0, 1, 3, 2};
    return k >= 52 ? k : suit_pos[k / 13] * 13 + k % 13;
}

/* failed_throw: first_blocker (shengji.io): the first holding in play order that beats
 * any component decides; it forces, of the components it beats, the one of the fewest
 * cards, then the lowest bottom strength, then the narrower, then the bottom card first
 * in shengji.io's card order (sio_card_order: of C10 D10 at level 10, D10). */
static int first_blocker(const sj_rules *r, const sj_lead *lead, uint8_t (*H)[64], int m,
                         sj_throw_result *out)
{
    int s = lead->esuit;
    for (int j = 0; j < m; j++) {
        int best = -1;
        long best_key = 0;
        for (int i = 0; i < lead->ncomp && i < SJ_MAXCARDS; i++) {
            const sj_comp *ci = &lead->comps[i];
            if (sj__max_top(r, s, H[j], ci->w, ci->len) <= ci->top)
                continue;
            long key = (((long)ci->w * ci->len * 64 + (ci->top - ci->len + 1)) * 16 + ci->w) * 64 +
                       sio_card_order(K(lead->kinds[(ci->first + ci->len - 1) % SJ_MAXCARDS]));
            if (best < 0 || key < best_key) {
                best = i;
                best_key = key;
            }
        }
        if (best < 0)
            continue;
        const sj_comp *cp = &lead->comps[best];
        out->valid = 0;
        out->blocker = j;
        out->n_options = 1;
        for (int l = 0; l < cp->len; l++) {
            int k = K(lead->kinds[(cp->first + l) % SJ_MAXCARDS]);
            if (k < SJ_NK)
                out->options[0][k] = (uint8_t)(out->options[0][k] + cp->w);
        }
        return SJ_OK;
    }
    return SJ_OK;
}

/* the order in which beaten components are forced (smaller first, §6) */
static long beaten_order(const sj_rules *r, const sj_lead *lead, const sj_comp *c)
{
    long cards = (long)c->w * c->len, kind = K(lead->kinds[c->first % SJ_MAXCARDS]);
    if (r->failed_throw == SJ_THROW_FEWEST_CARDS)
        return ((cards * 64 + c->top) * 16 + c->w) * 64 + kind;
    return ((long)c->top * 4096 + cards * 16 + c->w) * 64 + kind;
}

int sj_check_throw(const sj_rules *r, const sj_lead *lead, const uint8_t *others, int nothers,
                   int m, sj_throw_result *out, sj_err *e)
{
    if (!sj__rules_ok(r))
        return sj__fail(e, SJ_ERR_CONTEXT, SJ_ARG_RULES, -1, -1, -1, 0, 0);
    int rc = sj__lead_ok(r, lead, e);
    if (rc)
        return rc;
    if (!out || m < 0 || m > 64 || (m > 0 && !others) || nothers != m * SJ_NK)
        return sj__fail(e, SJ_ERR_ARG, SJ_ARG_OTHERS, -1, -1, nothers, m, 0);
    memset(out, 0, sizeof *out);
    out->valid = 1;
    out->blocker = -1;
    int s = lead->esuit;
    uint8_t (*H)[64] = calloc((size_t)(m ? m : 1), 64);
    if (!H)
        return sj__fail(e, SJ_ERR_MEMORY, SJ_ARG_OTHERS, -1, -1, -1, 0, 0);
    for (int j = 0; j < m; j++) {
        int t;
        if ((rc = sj__load(r, others + (size_t)j * SJ_NK, SJ_NK, H[j], &t, SJ_ARG_OTHERS, j, e))) {
            free(H);
            return rc;
        }
        /* only the led suit can beat a throw: trumps never block one (a rainbow is
         * beaten by ranks, whatever the suits) */
        for (int k = 0; k < SJ_NK; k++)
            if (r->esuit[k] != s && s != SJ_RAINBOW)
                H[j][k] = 0;
    }
    if (lead->ncomp < 2) {
        free(H);
        return SJ_OK;
    }
    if (s == SJ_RAINBOW) {
        rc = sj__rainbow_throw(r, lead, others, m, out);
        free(H);
        return rc;
    }
    if (r->failed_throw == SJ_THROW_FIRST_BLOCKER) {
        rc = first_blocker(r, lead, H, m, out);
        free(H);
        return rc;
    }
    /* per beaten shape its lowest beaten component: the last of that shape (§6) */
    int cand[SJ_MAX_OPTIONS], nc = 0;
    for (int i = 0; i < lead->ncomp; i++) {
        const sj_comp *ci = &lead->comps[i];
        int beaten = 0;
        for (int j = 0; j < m && !beaten; j++)
            beaten = sj__max_top(r, s, H[j], ci->w, ci->len) > ci->top;
        if (!beaten)
            continue;
        int slot = -1;
        for (int x = 0; x < nc; x++) {
            const sj_comp *cx = &lead->comps[cand[x]];
            if (cx->w == ci->w && cx->len == ci->len)
                slot = x;
        }
        if (slot < 0) {
            if (nc >= SJ_MAX_OPTIONS)
                continue;
            slot = nc++;
            cand[slot] = i;
        } else if (ci->top <= lead->comps[cand[slot]].top) {
            cand[slot] = i;
        }
    }
    if (nc == 0) {
        free(H);
        return SJ_OK;
    }
    /* lowest top strength first; ties: smaller key (cards, w), then lower position;
     * fewest_cards: the fewest cards first, then the lowest top, the narrower, the
     * lower position */
    for (int a = 1; a < nc; a++)
        for (int b = a; b > 0; b--) {
            const sj_comp *x = &lead->comps[cand[b - 1]], *y = &lead->comps[cand[b]];
            long kx = beaten_order(r, lead, x), ky = beaten_order(r, lead, y);
            if (ky < kx) {
                int t = cand[b - 1];
                cand[b - 1] = cand[b];
                cand[b] = t;
            }
        }
    out->valid = 0;
    out->n_options = r->failed_throw == SJ_THROW_NEXT_PLAYER_CHOOSES ? nc : 1;
    for (int o = 0; o < out->n_options; o++) {
        const sj_comp *cp = &lead->comps[cand[o]];
        for (int l = 0; l < cp->len; l++) {
            int k = K(lead->kinds[(cp->first + l) % SJ_MAXCARDS]);
            if (k < SJ_NK)
                out->options[o][k] = (uint8_t)(out->options[o][k] + cp->w);
        }
    }
    const sj_comp *f = &lead->comps[cand[0]];
    for (int j = 0; j < m; j++)
        if (sj__max_top(r, s, H[j], f->w, f->len) > f->top) {
            out->blocker = j;
            break;
        }
    free(H);
    return SJ_OK;
}

/* ---------------------------------------------------------------- trick winner §7 */

typedef struct {
    const sj_rules *r;
    const sj_lead *F;
    int s;
    uint8_t c[64];
    int val[SJ_MAXCARDS];
    long nodes;
    /* ruff_compare all: every split is visited (split_done); pk holds each component's
     * kinds from its top, at comps[i].first + l */
    int all, found;
    const int *cur;                /* the winning split's values; NULL: a plain lead */
    uint8_t pk[SJ_MAXCARDS];
    int best[SJ_MAXCARDS], key[SJ_MAXCARDS], best_key[SJ_MAXCARDS];
} match_t;

static int match_comp(match_t *mt, int i, int prev_top);

/* a card's place in shengji.io's full card order (OrderedCard's Ord): strength, then
 * its card order among equal strengths */
static int sio_rank(const sj_rules *r, int k)
{
    return r->strength[K(k)] * 64 + sio_card_order(K(k));
}

/* ruff_compare all: a full split of the play (values in mt->val, kinds in mt->pk, the
 * singles what is left in mt->c). It counts when it beats the winning split unit by unit
 * (equal shapes highest against highest, as both are listed); of those, the one
 * shengji.io's format matcher (format_match.rs) yields first is kept: shapes by (width,
 * length) ascending; a shape of tuples takes the combination whose cards, listed from
 * the lowest, are lexicographically highest (its k-combinations, highest cards first);
 * a tractor shape, its tractors from the highest list of members (lowest member first). */
static void split_done(match_t *mt)
{
    const sj_lead *F = mt->F;
    const sj_rules *r = mt->r;
    int nc = F->ncomp;
    if (mt->cur)
        for (int i = 0; i < nc; i++)
            if (mt->val[i] <= mt->cur[i])
                return;
    int n = 0, wmax = 1; /* widths F does not have add nothing: not walked */
    for (int i = 0; i < nc; i++)
        wmax = F->comps[i].w > wmax ? F->comps[i].w : wmax;
    for (int w = 1; w <= wmax && w <= SJ_MAX_DECKS; w++)
        for (int len = 1; len <= SJ_MAXCARDS; len++) {
            int first = n, any = 0;
            if (w == 1 && len == 1) {
                /* the singles: what the other shapes left; ascending */
                int has = 0;
                for (int i = 0; i < nc; i++)
                    has |= F->comps[i].w == 1 && F->comps[i].len == 1;
                if (!has)
                    continue;
                for (int k = 0; k < SJ_NK; k++)
                    for (int v = mt->c[k]; v > 0 && n < SJ_MAXCARDS; v--)
                        mt->key[n++] = sio_rank(r, k);
                for (int a = first + 1; a < n; a++)
                    for (int b = a; b > first && mt->key[b - 1] > mt->key[b]; b--) {
                        int t = mt->key[b];
                        mt->key[b] = mt->key[b - 1];
                        mt->key[b - 1] = t;
                    }
                continue;
            }
            for (int i = 0; i < nc; i++) {
                const sj_comp *cp = &F->comps[i];
                if (cp->w != w || cp->len != len)
                    continue;
                any = 1;
                /* members from the lowest; a tuple's one card */
                for (int l = len - 1; l >= 0 && n < SJ_MAXCARDS; l--)
                    mt->key[n++] = sio_rank(r, mt->pk[(cp->first + l) % SJ_MAXCARDS]);
            }
            if (!any)
                continue;
            int units = (n - first) / len;
            if (len == 1) { /* tuples: ascending */
                for (int a = first + 1; a < n; a++)
                    for (int b = a; b > first && mt->key[b - 1] > mt->key[b]; b--) {
                        int t = mt->key[b];
                        mt->key[b] = mt->key[b - 1];
                        mt->key[b - 1] = t;
                    }
            } else { /* tractors: highest member list first */
                for (int a = 1; a < units; a++)
                    for (int b = a; b > 0; b--) {
                        int *x = mt->key + first + (b - 1) * len, *y = x + len, d = 0;
                        for (int l = 0; l < len && !d; l++)
                            d = y[l] - x[l];
                        if (d <= 0)
                            break;
                        for (int l = 0; l < len; l++) {
                            int t = x[l];
                            x[l] = y[l];
                            y[l] = t;
                        }
                    }
            }
        }
    int better = !mt->found;
    for (int i = 0; i < n && !better; i++) {
        if (mt->key[i] != mt->best_key[i]) {
            better = mt->key[i] > mt->best_key[i];
            break;
        }
    }
    if (!better)
        return;
    mt->found = 1;
    memcpy(mt->best_key, mt->key, sizeof(int) * (size_t)n);
    memcpy(mt->best, mt->val, sizeof(int) * (size_t)nc);
}

static int match_run(match_t *mt, int i, int top, int l)
{
    const sj_comp *cp = &mt->F->comps[i];
    if (l == cp->len) {
        mt->val[i] = top;
        return match_comp(mt, i + 1, top);
    }
    const sj_rules *r = mt->r;
    int t = top - l, n = r->lev_n[SU(mt->s)][ST(t)] & 7;
    for (int x = 0; x < n && x < 4; x++) {
        int k = K(r->lev_kinds[SU(mt->s)][ST(t)][x]);
        if (mt->c[k] < cp->w)
            continue;
        mt->c[k] = (uint8_t)(mt->c[k] - cp->w);
        mt->pk[(cp->first + l) % SJ_MAXCARDS] = (uint8_t)k;
        int rc = match_run(mt, i, top, l + 1);
        mt->c[k] = (uint8_t)(mt->c[k] + cp->w);
        if (rc)
            return rc;
    }
    return 0;
}

/* Partition the play into F's shapes, trying tops from the highest: the first full
 * partition found has the lexicographically largest values (§7). */
static int match_comp(match_t *mt, int i, int prev_top)
{
    if (++mt->nodes > NODE_BUDGET)
        return SJ_ERR_LIMIT;
    const sj_rules *r = mt->r;
    int s = SU(mt->s);
    if (i >= mt->F->ncomp || (mt->F->comps[i].w == 1 && mt->F->comps[i].len == 1)) {
        /* singles take whatever is left, strongest first */
        int x = i;
        for (int t = (r->str_hi[s] & 63) - 1; t >= 0; t--)
            for (int y = 0; y < (r->lev_n[s][t] & 7) && y < 4; y++)
                for (int v = mt->c[K(r->lev_kinds[s][t][y])]; v > 0 && x < SJ_MAXCARDS; v--)
                    mt->val[x++] = t;
        if (mt->all && x == mt->F->ncomp) {
            split_done(mt);
            return 0; /* go on: every split is visited */
        }
        return x == mt->F->ncomp;
    }
    const sj_comp *cp = &mt->F->comps[i];
    int same = i > 0 && mt->F->comps[i - 1].w == cp->w && mt->F->comps[i - 1].len == cp->len;
    for (int top = (r->str_hi[s] & 63) - 1; top >= cp->len - 1; top--) {
        if (same && top > prev_top)
            continue;
        int n = r->lev_n[s][top] & 7;
        for (int x = 0; x < n && x < 4; x++) {
            int k = K(r->lev_kinds[s][top][x]);
            if (mt->c[k] < cp->w)
                continue;
            mt->c[k] = (uint8_t)(mt->c[k] - cp->w);
            mt->pk[cp->first % SJ_MAXCARDS] = (uint8_t)k;
            int rc = match_run(mt, i, top, 1);
            mt->c[k] = (uint8_t)(mt->c[k] + cp->w);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* Does play p match F in suit s? 1 with values in val, 0 no, < 0 error. */
static int match(const sj_rules *r, const sj_lead *F, int s, const uint8_t *p, int *val)
{
    match_t mt;
    mt.r = r;
    mt.F = F;
    mt.s = s;
    mt.nodes = 0;
    mt.all = 0;
    for (int k = 0; k < 64; k++) {
        if (p[k] && (k >= SJ_NK || r->esuit[k] != s))
            return 0;
        mt.c[k] = p[k];
    }
    int rc = match_comp(&mt, 0, INT_MAX);
    if (rc == 1)
        memcpy(val, mt.val, sizeof(int) * (size_t)F->ncomp);
    return rc;
}

/* ruff_compare all: the split of ruff p (all trumps) that shengji.io keeps when it beats
 * cur (NULL: the plain lead, beaten by any split): 1 with its values in val, 0 none. */
static int match_all(const sj_rules *r, const sj_lead *F, const uint8_t *p, const int *cur,
                     int *val)
{
    match_t *mt = malloc(sizeof *mt);
    if (!mt)
        return SJ_ERR_MEMORY;
    mt->r = r;
    mt->F = F;
    mt->s = SJ_TRUMP;
    mt->nodes = 0;
    mt->all = 1;
    mt->found = 0;
    mt->cur = cur;
    memset(mt->pk, 0, sizeof mt->pk);
    for (int k = 0; k < 64; k++) {
        if (p[k] && (k >= SJ_NK || r->esuit[k] != SJ_TRUMP)) {
            free(mt);
            return 0;
        }
        mt->c[k] = p[k];
    }
    int rc = match_comp(mt, 0, INT_MAX);
    if (rc >= 0) {
        rc = mt->found;
        if (rc)
            memcpy(val, mt->best, sizeof(int) * (size_t)F->ncomp);
    }
    free(mt);
    return rc;
}

static int highest_strength(const sj_rules *r, const uint8_t *p)
{
    int best = -1;
    for (int k = 0; k < SJ_NK; k++)
        if (p[k] && r->strength[k] > best)
            best = r->strength[k];
    return best;
}

static int ruff_beats(const sj_rules *r, const sj_lead *F, const int *v, const int *cur,
                      const uint8_t *p, const uint8_t *pcur)
{
    int ncomp = F->ncomp;
    switch (r->ruff_compare) {
    case SJ_RUFF_UNIT_LENGTH: {
        /* shengji.io TrickUnitLength: components largest first, the first unequal one
         * decides (a tie falls through); a throw with a multi-card component ignores its
         * singles */
        int skip_singles = ncomp > 1 && F->comps[0].w * F->comps[0].len > 1;
        for (int i = 0; i < ncomp; i++) {
            if (skip_singles && F->comps[i].w * F->comps[i].len == 1)
                continue;
            if (v[i] != cur[i])
                return v[i] > cur[i];
        }
        return 0;
    }
    case SJ_RUFF_ALL_COMPONENTS:
        for (int i = 0; i < ncomp; i++)
            if (v[i] <= cur[i])
                return 0;
        return 1;
    case SJ_RUFF_HIGHEST_CARD:
        return highest_strength(r, p) > highest_strength(r, pcur);
    default:
        return v[0] > cur[0];
    }
}

/* ruff_compare cover_winner (Ran's table, its game code's winningPlayerId): a play's
 * rank is its own decomposition's largest component, by cards, then by top strength */
static long own_rank(const sj_lead *own)
{
    long best = -1;
    for (int i = 0; i < own->ncomp && i < SJ_MAXCARDS; i++) {
        long key = (long)own->comps[i].w * own->comps[i].len * 64 + own->comps[i].top;
        best = key > best ? key : best;
    }
    return best;
}

/* Does the ruff p (n cards, all trumps) beat the winning ruff w? It must hold the
 * winner's own shapes (p split into w's components, §7's match) and rank higher. 1, 0, or
 * < 0 on error. */
static int covers_winner(const sj_rules *r, const uint8_t *p, const uint8_t *w, int n)
{
    sj_lead *L = malloc(2 * sizeof *L);
    int val[SJ_MAXCARDS];
    if (!L)
        return SJ_ERR_MEMORY;
    int rc = sj__decompose(r, w, n, &L[0]);
    if (rc >= 0)
        rc = sj__decompose(r, p, n, &L[1]);
    if (rc >= 0)
        rc = match(r, &L[0], SJ_TRUMP, p, val);
    if (rc == 1)
        rc = own_rank(&L[1]) > own_rank(&L[0]);
    free(L);
    return rc < 0 ? rc : rc == 1;
}

/* bomb of kind a played after the winning bomb of kind b: a trump bomb beats a plain one,
 * else the higher rank wins, whatever the plain suits (§7; shengji.io's comment "equal
 * size: higher rank wins"): plain suits rank their cards alike */
static int bomb_beats(const sj_rules *r, int a, int b)
{
    int sa = r->esuit[K(a)], sb = r->esuit[K(b)];
    if (sa != sb && (sa == SJ_TRUMP || sb == SJ_TRUMP))
        return sa == SJ_TRUMP;
    return r->strength[K(a)] > r->strength[K(b)];
}

/* The winner among m plays (64-entry counts, sizes already equal), F = P[0]'s
 * decomposition: an index, or < 0 on error. */
int sj__winner(const sj_rules *r, const sj_lead *F, const uint8_t (*P)[64], int m)
{
    if (F->esuit == SJ_RAINBOW)
        return sj__rainbow_winner(F, P, m);
    int val[2 * SJ_MAXCARDS];
    int *cur = val, *v = val + SJ_MAXCARDS;
    int E = SU(F->esuit), win = 0, win_ruff = 0, rc;
    if (F->n == 1 && F->ncomp == 1) {
        /* one card each (most tricks of a playout): every ruff policy compares the
         * single card's strength */
        int best = -1;
        for (int j = 0; j < m; j++) {
            int k = 0;
            while (k < SJ_NK - 1 && !P[j][k])
                k++;
            int ks = r->esuit[k], st = r->strength[k];
            if (j == 0 || (ks == E && !win_ruff && st > best)) {
                win = j;
                best = st;
            } else if (E != SJ_TRUMP && ks == SJ_TRUMP && (!win_ruff || st > best)) {
                win = j;
                win_ruff = 1;
                best = st;
            }
        }
        return win;
    }
    if ((rc = match(r, F, E, P[0], cur)) != 1)
        return rc < 0 ? rc : SJ_ERR_ARG;
    int win_bomb = sj__bomb_kind(r, P[0], F->n);
    for (int j = 1; j < m; j++) {
        int bomb = sj__bomb_kind(r, P[j], F->n);
        if (bomb >= 0) { /* a bomb beats every other play; bombs compare among themselves */
            if (win_bomb < 0 || bomb_beats(r, bomb, win_bomb)) {
                win = j;
                win_bomb = bomb;
            }
            continue;
        }
        if (win_bomb >= 0)
            continue;
        rc = match(r, F, E, P[j], v);
        if (rc < 0)
            return rc;
        if (rc == 1) {
            /* a follow-match: wins a one-component trick if higher and not ruffed */
            if (F->ncomp == 1 && !win_ruff && v[0] > cur[0]) {
                win = j;
                memcpy(cur, v, sizeof(int) * (size_t)F->ncomp);
            }
            continue;
        }
        if (E == SJ_TRUMP)
            continue;
        if (r->ruff_compare == SJ_RUFF_ALL) {
            rc = match_all(r, F, P[j], win_ruff ? cur : NULL, v);
            if (rc < 0)
                return rc;
            if (rc == 1) {
                win = j;
                win_ruff = 1;
                memcpy(cur, v, sizeof(int) * (size_t)F->ncomp);
            }
            continue;
        }
        rc = match(r, F, SJ_TRUMP, P[j], v);
        if (rc < 0)
            return rc;
        if (rc == 1 && win_ruff && r->ruff_compare == SJ_RUFF_COVER_WINNER) {
            if ((rc = covers_winner(r, P[j], P[win], F->n)) < 0)
                return rc;
            if (rc == 1) {
                win = j;
                memcpy(cur, v, sizeof(int) * (size_t)F->ncomp);
            }
            continue;
        }
        if (rc == 1 && (!win_ruff || ruff_beats(r, F, v, cur, P[j], P[win]))) {
            win = j;
            win_ruff = 1;
            memcpy(cur, v, sizeof(int) * (size_t)F->ncomp);
        }
    }
    return win;
}

int sj_trick_winner(const sj_rules *r, const uint8_t *plays, int nplays, int m, sj_err *e)
{
    if (!sj__rules_ok(r))
        return sj__fail(e, SJ_ERR_CONTEXT, SJ_ARG_RULES, -1, -1, -1, 0, 0);
    if (m < 2 || m > 64 || !plays || nplays != m * SJ_NK)
        return sj__fail(e, SJ_ERR_ARG, SJ_ARG_PLAYS, -1, -1, nplays, m, 0);
    uint8_t (*P)[64] = malloc(sizeof(*P) * (size_t)m);
    sj_lead *F = malloc(sizeof *F);
    int rc = SJ_OK, n0 = 0;
    if (!P || !F) {
        rc = sj__fail(e, SJ_ERR_MEMORY, SJ_ARG_PLAYS, -1, -1, -1, 0, 0);
        goto out;
    }
    for (int j = 0; j < m; j++) {
        int n;
        if ((rc = sj__load(r, plays + (size_t)j * SJ_NK, SJ_NK, P[j], &n, SJ_ARG_PLAYS, j, e)))
            goto out;
        if (j == 0)
            n0 = n;
        else if (n != n0) {
            rc = sj__fail(e, SJ_ERR_SIZE, SJ_ARG_PLAYS, j, -1, n, n0, 0);
            goto out;
        }
    }
    if ((rc = sj__decompose_err(r, P[0], n0, F, SJ_ARG_PLAYS, 0, e)))
        goto out;
    rc = sj__winner(r, F, (const uint8_t (*)[64])P, m);
    if (rc < 0)
        rc = sj__fail(e, rc, SJ_ARG_PLAYS, rc == SJ_ERR_ARG ? 0 : -1, -1, -1, 0, 0);
out:
    free(P);
    free(F);
    return rc;
}

/* ---------------------------------------------------------------- kitty §8 */

/* exponential: 2^cards, at most kitty_cap */
static long long exp_capped(const sj_rules *r, long long cards)
{
    return cards >= 31 ? r->kitty_cap
                       : ((1LL << cards) < r->kitty_cap ? (1LL << cards) : r->kitty_cap);
}

static long long kitty_value(const sj_rules *r, int w, int len)
{
    int cards = w * len;
    switch (r->kitty) {
    case SJ_KITTY_POWER: {
        long long v = 2;
        for (int i = 0; i < len && v < INT_MAX; i++)
            v *= w;
        return v;
    }
    case SJ_KITTY_TABLE:
        if (len == 1) /* a rainbow unit of more than four cards counts as a quad */
            return r->kitty_table[w >= 4 ? 3 : (w - 1) & 3];
        return r->kitty_table[w == 2 ? 4 : 5];
    case SJ_KITTY_TWICE_SIZE:
        return 2LL * cards;
    default:
        return exp_capped(r, cards);
    }
}

int sj_kitty_multiplier(const sj_rules *r, const uint8_t *play, int nplay, const sj_lead *lead,
                        sj_err *e)
{
    if (!sj__rules_ok(r))
        return sj__fail(e, SJ_ERR_CONTEXT, SJ_ARG_RULES, -1, -1, -1, 0, 0);
    uint8_t P[64];
    int n, rc;
    if ((rc = sj__load(r, play, nplay, P, &n, SJ_ARG_PLAY, -1, e)))
        return rc;
    sj_lead own;
    if (lead) {
        if ((rc = sj__lead_ok(r, lead, e)))
            return rc;
        if (n != lead->n)
            return sj__fail(e, SJ_ERR_SIZE, SJ_ARG_PLAY, -1, -1, n, lead->n, 0);
    } else {
        if ((rc = sj__decompose_err(r, P, n, &own, SJ_ARG_PLAY, -1, e)))
            return rc;
        lead = &own;
    }
    return sj__kitty(r, lead);
}

/* kitty_throw whole: the policy's formula over every component of the lead at once:
 * 2^(cards) (at most kitty_cap), 2 x the product of w^len, 2 x the cards */
static long long kitty_whole(const sj_rules *r, const sj_lead *lead)
{
    long long cards = 0, v = 2;
    for (int i = 0; i < lead->ncomp && i < SJ_MAXCARDS; i++) {
        const sj_comp *c = &lead->comps[i];
        cards += (long long)c->w * c->len;
        for (int l = 0; l < c->len && v < INT_MAX; l++)
            v *= c->w;
    }
    switch (r->kitty) {
    case SJ_KITTY_POWER:
        return v;
    case SJ_KITTY_TWICE_SIZE:
        return 2 * cards;
    default: /* exponential (table is refused with kitty_throw whole by sj_prepare) */
        return exp_capped(r, cards);
    }
}

int sj__kitty(const sj_rules *r, const sj_lead *lead)
{
    if (r->kitty_throw == SJ_KITTYTHROW_WHOLE) {
        long long v = kitty_whole(r, lead);
        return v > INT_MAX ? INT_MAX : (int)v;
    }
    long long best = 1;
    for (int i = 0; i < lead->ncomp && i < SJ_MAXCARDS; i++) {
        long long v = kitty_value(r, lead->comps[i].w, lead->comps[i].len);
        if (v > best)
            best = v;
    }
    return best > INT_MAX ? INT_MAX : (int)best;
}
