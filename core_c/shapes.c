/* Structures (§3): which shapes exist, the highest structure a holding supplies, and
 * the decomposition of a play into components, the form every later rule reads.
 */
#include "shengji_core.h"
#include "sj_internal.h"

#include <stdlib.h>
#include <string.h>

static int tractor_width_ok(const sj_rules *r, int w)
{
    return r->tractors && w >= 2 && w >= r->tractor_min_width;
}

/* Does a structure of this shape exist under the rules (§3)? */
int sj__shape_exists(const sj_rules *r, int w, int len)
{
    if (w < 1 || w > r->max_tuple || len < 1)
        return 0;
    if (len == 1)
        return 1;
    return tractor_width_ok(r, w) && len >= r->tractor_min_length;
}

/* index of the first kind (from x0, largest id first) at strength t of suit s that can
 * give a w-wide tuple from c: count >= w, or exactly w when strict */
static int pick(const sj_rules *r, int s, int t, const uint8_t *c, int w, int strict, int x0)
{
    int n = r->lev_n[SU(s)][ST(t)] & 7;
    for (int x = x0; x < n && x < 4; x++) {
        int v = c[K(r->lev_kinds[SU(s)][ST(t)][x])];
        if (strict ? v == w : v >= w)
            return x;
    }
    return -1;
}

/* highest top strength of a (w, len) structure held in c (suit s), or -1 */
int sj__max_top(const sj_rules *r, int s, const uint8_t *c, int w, int len)
{
    int hi = r->str_hi[SU(s)] & 63, run = 0, best = -1;
    for (int t = 0; t < hi; t++) {
        run = pick(r, s, t, c, w, 0, 0) >= 0 ? run + 1 : 0;
        if (run >= len)
            best = t;
    }
    return best;
}

/* ---------------------------------------------------------------- decomposition §3 */

static int sio_decompose(const sj_rules *r, const uint8_t *cin, int n, sj_lead *out);

int sj__decompose_err(const sj_rules *r, const uint8_t *cin, int n, sj_lead *out, int which,
                      int index, sj_err *e)
{
    if (n == 0)
        return sj__fail(e, SJ_ERR_EMPTY, which, index, -1, 0, 0, 0);
    int s = -1;
    for (int k = 0; k < SJ_NK; k++) {
        if (!cin[k])
            continue;
        int ks = SU(r->esuit[k]);
        if (s < 0)
            s = ks;
        else if (ks != s) {
            /* several suits: a rainbow when the rules have them (rainbow.c) */
            if (sj__rainbow_decompose(r, cin, n, out) == SJ_OK)
                return SJ_OK;
            return sj__fail(e, SJ_ERR_MIXED, which, index, k, -1, s, ks);
        }
    }
    uint8_t c[64];
    memcpy(c, cin, 64);
    memcpy(out->counts, cin, SJ_NK);
    out->stamp = r->stamp;
    out->n = n;
    out->esuit = s;
    out->ncomp = 0;
    if (r->decomposition == SJ_DECOMP_SHENGJI_IO) {
        int rc = sio_decompose(r, cin, n, out);
        return rc ? sj__fail(e, rc, which, index, -1, -1, 0, 0) : SJ_OK;
    }
    int nk = 0, left = n, hi = r->str_hi[s] & 63;
    while (left > 0 && out->ncomp < SJ_MAXCARDS) {
        int bw = 0, bl = 0, btop = -1;
        for (int w = 1; w <= r->max_tuple; w++) {
            int run = 0, lmax = 0, tmax = -1, any = -1;
            for (int t = 0; t < hi; t++) {
                run = pick(r, s, t, c, w, 0, 0) >= 0 ? run + 1 : 0;
                if (run > 0)
                    any = t;
                if (run > 0 && run >= lmax) {
                    lmax = run;
                    tmax = t;
                }
            }
            if (any < 0)
                continue;
            int len = 1, top = any;
            if (lmax >= 2 && tractor_width_ok(r, w) && lmax >= r->tractor_min_length) {
                len = lmax;
                top = tmax;
            }
            /* key (cards, w, positions): across widths the card count then the width
             * decide; within one width the highest top (then largest kinds).
             * tractors_first: (cards, tractor or not, w, positions) */
            int tr = r->tractors_first && len > 1, btr = r->tractors_first && bl > 1;
            if (w * len > bw * bl || (w * len == bw * bl && (tr > btr || (tr == btr && w > bw)))) {
                bw = w;
                bl = len;
                btop = top;
            }
        }
        if (bw == 0 || nk + bl > SJ_MAXCARDS)
            break; /* cannot happen with validated counts */
        sj_comp *cp = &out->comps[out->ncomp++];
        cp->w = (uint8_t)bw;
        cp->len = (uint8_t)bl;
        cp->top = (uint8_t)btop;
        cp->first = (uint8_t)nk;
        for (int l = 0; l < bl; l++) {
            int t = btop - l;
            int x = pick(r, s, t, c, bw, 0, 0);
            int k = K(r->lev_kinds[s][ST(t)][x & 3]);
            out->kinds[nk++] = (uint8_t)k;
            c[k] = (uint8_t)(c[k] - bw);
            left -= bw;
        }
    }
    return SJ_OK;
}

int sj__decompose(const sj_rules *r, const uint8_t *c, int n, sj_lead *out)
{
    return sj__decompose_err(r, c, n, out, SJ_ARG_LEAD, -1, NULL);
}

int sj_decompose(const sj_rules *r, const uint8_t *cards, int ncards, sj_lead *out, sj_err *e)
{
    if (!sj__rules_ok(r))
        return sj__fail(e, SJ_ERR_CONTEXT, SJ_ARG_RULES, -1, -1, -1, 0, 0);
    if (!out)
        return sj__fail(e, SJ_ERR_ARG, SJ_ARG_LEAD, -1, -1, -1, 0, 0);
    uint8_t c[64];
    int n, rc = sj__load(r, cards, ncards, c, &n, SJ_ARG_LEAD, -1, e);
    if (rc)
        return rc;
    memset(out, 0, sizeof *out);
    return sj__decompose_err(r, c, n, out, SJ_ARG_LEAD, -1, e);
}

int sj_is_tractor(const sj_rules *r, const uint8_t *cards, int ncards, sj_err *e)
{
    if (!sj__rules_ok(r))
        return sj__fail(e, SJ_ERR_CONTEXT, SJ_ARG_RULES, -1, -1, -1, 0, 0);
    uint8_t c[64];
    int n, rc = sj__load(r, cards, ncards, c, &n, SJ_ARG_LEAD, -1, e);
    if (rc)
        return rc;
    sj_lead l;
    rc = sj__decompose_err(r, c, n, &l, SJ_ARG_LEAD, -1, NULL);
    if (rc == SJ_ERR_EMPTY || rc == SJ_ERR_MIXED)
        return 0; /* not one structure, not an input error */
    if (rc)
        return sj__fail(e, rc, SJ_ARG_LEAD, -1, -1, -1, 0, 0);
    return l.ncomp == 1 && l.comps[0].len >= 2;
}

/* ------------------------------------------------------ decomposition: shengji_io §3 */
/* shengji.io's split (trick.rs find_plays_inner, TrickFormat::from_cards). find_plays
 * lists every split, lowest card first: at the lowest card held, the tractors starting
 * there (breadth first along the successors, one minimum count shared by every path, as
 * written there), then all its copies as one tuple unless every tractor uses up each of
 * its cards; a start that is the whole rest is the only one. A split is listed as its
 * rest's splits, start by start. from_cards keeps, of the splits whose largest unit is
 * largest by (size, tractor), the one listed last. Listing them all is exponential, so
 * the largest unit reachable from each rest is memoised (a rest is its counts: the start
 * is always its lowest card) and the last split reaching the maximum is found by taking,
 * at each step, the last start from which it is still reachable. */

#define SIO_MAXK 64   /* kinds of the lead */
#define SIO_SUCC 8    /* kinds one strength up */
#define SIO_NODES 255 /* breadth-first path ends per start (parent 0xff: none) */
#define SIO_STATES (1L << 18) /* memoised rests per call before SJ_ERR_LIMIT */

typedef struct {
    uint64_t w[4]; /* the counts, 4 bits per kind of the lead (ten packs: up to 10) */
} sio_key;

typedef struct {
    int nk, wmin, lmin, tractors;
    uint8_t kind[SIO_MAXK]; /* the lead's kinds in shengji.io's order (OrderedCard) */
    uint8_t nsucc[SIO_MAXK], succ[SIO_MAXK][SIO_SUCC];
    sio_key *keys;          /* memo: open addressing, val -1 = empty */
    int16_t *vals;
    long cap, used;
} sio_t;

/* the starts at one rest: tractors (path ends, in the order pushed), then the tuple */
typedef struct {
    int low, nnode, ntr, rep;
    uint8_t at[SIO_NODES], parent[SIO_NODES], len[SIO_NODES], w[SIO_NODES];
    uint8_t tr[SIO_NODES];
} sio_starts;

/* types.rs: equal cards order by Card::as_char, spades < hearts < diamonds < clubs
 * (ours: S H C D) */
static int sio_suit(int k)
{
    static const int rank[4] = {0, 1, 3, 2};
    return k >= 52 ? 0 : rank[k / 13];
}

static sio_key sio_pack(const sio_t *S, const uint8_t *c)
{
    sio_key key = {{0, 0, 0, 0}};
    for (int i = 0; i < S->nk; i++)
        key.w[i / 16] |= (uint64_t)c[i] << (4 * (i % 16));
    return key;
}

static uint64_t sio_hash(sio_key k)
{
    uint64_t h = k.w[0] * 0x9E3779B97F4A7C15ull ^ k.w[1] * 0xC2B2AE3D27D4EB4Full ^
                 k.w[2] * 0x165667B19E3779F9ull ^ k.w[3];
    return h ^ (h >> 29);
}

static int16_t *sio_slot(sio_t *S, sio_key k, int *fresh)
{
    long m = S->cap - 1, i = (long)(sio_hash(k) & (uint64_t)m);
    while (S->vals[i] >= 0) {
        if (!memcmp(&S->keys[i], &k, sizeof k)) {
            *fresh = 0;
            return &S->vals[i];
        }
        i = (i + 1) & m;
    }
    S->keys[i] = k;
    *fresh = 1;
    return &S->vals[i];
}

static int sio_grow(sio_t *S)
{
    long cap = S->cap ? S->cap * 2 : 64; /* small first: it grows as a lead needs */
    sio_key *ok = S->keys;
    int16_t *ov = S->vals;
    long oc = S->cap;
    S->keys = malloc(sizeof *S->keys * (size_t)cap);
    S->vals = malloc(sizeof *S->vals * (size_t)cap);
    if (!S->keys || !S->vals) {
        free(S->keys);
        free(S->vals);
        S->keys = ok;
        S->vals = ov;
        return SJ_ERR_MEMORY;
    }
    S->cap = cap;
    for (long i = 0; i < cap; i++)
        S->vals[i] = -1;
    for (long i = 0; i < oc; i++)
        if (ov[i] >= 0) {
            int fresh;
            *sio_slot(S, ok[i], &fresh) = ov[i];
        }
    free(ok);
    free(ov);
    return SJ_OK;
}

/* find_tractors_from_start and the tuple: the starts at rest c (total > 0) */
static int sio_gen(const sio_t *S, const uint8_t *c, sio_starts *st)
{
    int low = 0;
    while (!c[low])
        low++;
    st->low = low;
    st->ntr = 0;
    st->nnode = 1;
    st->at[0] = (uint8_t)low;
    st->parent[0] = 0xff;
    st->len[0] = 1;
    int count = c[low];
    if (S->tractors && count >= S->wmin) {
        /* frontier: (kind, path end) pairs of one step */
        uint8_t fk[2][SIO_NODES], fp[2][SIO_NODES];
        int nf = 0, cur = 0, minc = count;
        for (int j = 0; j < S->nsucc[low]; j++) {
            fk[0][nf] = S->succ[low][j];
            fp[0][nf++] = 0;
        }
        while (nf > 0) {
            int nn = 0;
            for (int f = 0; f < nf; f++) {
                int k = fk[cur][f], v = c[k];
                if (v < 2)
                    continue;
                if (st->nnode >= SIO_NODES)
                    return SJ_ERR_LIMIT;
                minc = v < minc ? v : minc;
                int q = st->nnode++;
                st->at[q] = (uint8_t)k;
                st->parent[q] = fp[cur][f];
                st->len[q] = (uint8_t)(st->len[fp[cur][f]] + 1);
                if (minc >= S->wmin && st->len[q] >= S->lmin) {
                    st->w[q] = (uint8_t)minc;
                    st->tr[st->ntr++] = (uint8_t)q;
                }
                for (int j = 0; j < S->nsucc[k]; j++) {
                    if (nn >= SIO_NODES)
                        return SJ_ERR_LIMIT;
                    fk[!cur][nn] = S->succ[k][j];
                    fp[!cur][nn++] = (uint8_t)q;
                }
            }
            nf = nn;
            cur = !cur;
        }
    }
    int consumed = st->ntr > 0;
    for (int t = 0; t < st->ntr && consumed; t++)
        for (int q = st->tr[t]; q != 0xff; q = st->parent[q])
            if (c[st->at[q]] != st->w[st->tr[t]]) {
                consumed = 0;
                break;
            }
    st->rep = !consumed;
    return SJ_OK;
}

static int sio_nstarts(const sio_starts *st)
{
    return st->ntr + st->rep;
}

/* start i: its size, its key (size * 2 + tractor), and c with it taken out */
static int sio_take(const sio_starts *st, int i, const uint8_t *c, uint8_t *rest, int nk,
                    int *key)
{
    memcpy(rest, c, (size_t)nk);
    if (i == st->ntr) {
        rest[st->low] = 0;
        *key = c[st->low] * 2;
        return c[st->low];
    }
    int end = st->tr[i], w = st->w[end];
    for (int q = end; q != 0xff; q = st->parent[q])
        rest[st->at[q]] = (uint8_t)(rest[st->at[q]] - w);
    *key = w * st->len[end] * 2 + 1;
    return w * st->len[end];
}

/* the largest unit key of any split of rest c (total cards), or a negative error */
static int sio_best(sio_t *S, const uint8_t *c, int total)
{
    sio_key k = sio_pack(S, c);
    int fresh;
    if (S->used * 2 >= S->cap) {
        if (S->used >= SIO_STATES)
            return SJ_ERR_LIMIT;
        int rc = sio_grow(S);
        if (rc)
            return rc;
    }
    int16_t *slot = sio_slot(S, k, &fresh);
    if (!fresh)
        return *slot;
    S->used++;
    *slot = 0; /* not yet known; a rest never reaches itself (cards only go) */
    sio_starts st;
    int rc = sio_gen(S, c, &st), best = 0, key;
    if (rc)
        return rc;
    uint8_t rest[SIO_MAXK];
    int m = sio_nstarts(&st);
    for (int i = 0; i < m; i++)
        if (sio_take(&st, i, c, rest, S->nk, &key) == total) {
            best = key; /* the whole rest in one: the only start */
            goto done;
        }
    for (int i = 0; i < m; i++) {
        int size = sio_take(&st, i, c, rest, S->nk, &key);
        int sub = sio_best(S, rest, total - size);
        if (sub < 0)
            return sub;
        if (key > best)
            best = key;
        if (sub > best)
            best = sub;
    }
done:
    /* the table may have grown: look the slot up again */
    *sio_slot(S, k, &fresh) = (int16_t)best;
    return best;
}

typedef struct {
    uint8_t w, len, kinds[SIO_MAXK];
} sio_unit;

/* key order of §3 (cards, [tractor,] width, positions from the top): is a before b? */
static int sio_before(const sj_rules *r, const sio_unit *a, const sio_unit *b)
{
    int ca = a->w * a->len, cb = b->w * b->len;
    if (ca != cb)
        return ca > cb;
    if (r->tractors_first && (a->len > 1) != (b->len > 1))
        return a->len > 1;
    if (a->w != b->w)
        return a->w > b->w;
    for (int l = 0; l < a->len && l < b->len; l++) {
        int sa = r->strength[a->kinds[l]], sb = r->strength[b->kinds[l]];
        if (sa != sb)
            return sa > sb;
        if (a->kinds[l] != b->kinds[l])
            return a->kinds[l] > b->kinds[l];
    }
    return 0;
}

static int sio_walk(const sj_rules *r, sio_t *S, const uint8_t *cin, int n, sj_lead *out)
{
    uint8_t c[SIO_MAXK], rest[SIO_MAXK];
    for (int i = 0; i < S->nk; i++)
        c[i] = cin[S->kind[i]];
    int M = sio_best(S, c, n);
    if (M < 0)
        return M;
    static const sio_unit none = {0, 0, {0}};
    sio_unit *u = malloc(sizeof *u * (size_t)n);
    if (!u)
        return SJ_ERR_MEMORY;
    int nu = 0, P = 0, total = n, rc = SJ_OK;
    while (total > 0) {
        sio_starts st;
        if ((rc = sio_gen(S, c, &st)))
            break;
        int m = sio_nstarts(&st), pick = -1, key;
        for (int i = 0; i < m && pick < 0; i++)
            if (sio_take(&st, i, c, rest, S->nk, &key) == total)
                pick = i;
        for (int i = m - 1; i >= 0 && pick < 0; i--) {
            int size = sio_take(&st, i, c, rest, S->nk, &key);
            int sub = sio_best(S, rest, total - size);
            if (sub < 0) {
                rc = sub;
                break;
            }
            if ((key > P ? key : P) == M || sub == M)
                pick = i;
        }
        if (rc)
            break;
        if (pick < 0) { /* cannot happen: M is reached below this rest */
            rc = SJ_ERR_LIMIT;
            break;
        }
        int size = sio_take(&st, pick, c, rest, S->nk, &key);
        sio_unit *x = &u[nu++];
        *x = none;
        if (pick == st.ntr) {
            x->w = (uint8_t)c[st.low];
            x->len = 1;
            x->kinds[0] = S->kind[st.low];
        } else {
            int end = st.tr[pick], l = 0;
            x->w = st.w[end];
            x->len = st.len[end];
            for (int q = end; q != 0xff; q = st.parent[q]) /* from the top down */
                x->kinds[l++] = S->kind[st.at[q]];
        }
        P = key > P ? key : P;
        memcpy(c, rest, (size_t)S->nk);
        total -= size;
    }
    if (!rc) {
        for (int i = 1; i < nu; i++) /* insertion sort, best first */
            for (int j = i; j > 0 && sio_before(r, &u[j], &u[j - 1]); j--) {
                sio_unit t = u[j];
                u[j] = u[j - 1];
                u[j - 1] = t;
            }
        int nk = 0;
        for (int i = 0; i < nu; i++) {
            sj_comp *cp = &out->comps[out->ncomp++];
            cp->w = u[i].w;
            cp->len = u[i].len;
            cp->top = r->strength[u[i].kinds[0]];
            cp->first = (uint8_t)nk;
            for (int l = 0; l < u[i].len; l++)
                out->kinds[nk++] = u[i].kinds[l];
        }
    }
    free(u);
    return rc;
}

static int sio_decompose(const sj_rules *r, const uint8_t *cin, int n, sj_lead *out)
{
    sio_t S;
    memset(&S, 0, sizeof S);
    S.tractors = r->tractors;
    S.wmin = r->tractor_min_width;
    S.lmin = r->tractor_min_length;
    for (int k = 0; k < SJ_NK; k++) {
        if (!cin[k])
            continue;
        int i = S.nk++; /* insertion by (strength, shengji.io's suit order) */
        while (i > 0 && (r->strength[S.kind[i - 1]] > r->strength[k] ||
                         (r->strength[S.kind[i - 1]] == r->strength[k] &&
                          sio_suit(S.kind[i - 1]) > sio_suit(k)))) {
            S.kind[i] = S.kind[i - 1];
            i--;
        }
        S.kind[i] = (uint8_t)k;
    }
    for (int i = 0; i < S.nk; i++) /* Trump::successor: one strength up, in order */
        for (int j = i + 1; j < S.nk; j++)
            if (r->strength[S.kind[j]] == r->strength[S.kind[i]] + 1 && S.nsucc[i] < SIO_SUCC)
                S.succ[i][S.nsucc[i]++] = (uint8_t)j;
    int rc = sio_walk(r, &S, cin, n, out);
    free(S.keys);
    free(S.vals);
    return rc;
}
