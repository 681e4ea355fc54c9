/* Following under play.follow_requirements: shengji_io (docs/semantics.md §4), as
 * shengji.io judges a follow (rbtying/shengji 71f8d43, mechanics/src):
 * TrickFormat::is_legal_play (trick.rs) once the count, hand and suit checks have passed
 * and the hand holds more of the led suit than was led. Its requirements are the lead's
 * units, then subsequent_decomposition_ordering of them (ordered_card.rs): every coarser
 * reading of each unit in full_decomposition_ordering's order, merged unit by unit. The
 * first requirement the PLAY can supply (no protection) makes it legal, unless shengji.io's
 * longer_tuple_bypasses_genuine guard refuses it; the first the HAND can supply under the
 * protection (format_match.rs, existence only) before that makes it illegal.
 *
 * The listing is written out as shengji.io computes it (partitions, set partitions of
 * their parts, permutations, first occurrences kept), per context and per unit size, so
 * nothing is shared between threads. It grows like the Bell numbers: a unit of more than
 * SIO_MAX_UNIT cards, or more than SIO_LIST_BUDGET readings generated, ends in
 * SJ_ERR_LIMIT, as does a match search past the context's node budget.
 */
#include "shengji_core.h"
#include "sj_internal.h"

#include <stdlib.h>
#include <string.h>

#define SIO_MAX_UNIT 20          /* cards of one lead unit whose coarser readings are listed */
#define SIO_MAX_PARTS (SIO_MAX_UNIT / 2) /* parts > 1 of a partition: set partitions listed */
#define SIO_REC 48               /* one reading: units high first, widths then a 0 each */
#define SIO_LIST_BUDGET 4000000L /* readings generated (before first-occurrence removal) */
#define SIO_MAX_ROWS 4000000L    /* requirement rows x units kept per context */
#define SIO_MAXW 24              /* tuples in one unit (a run's length) */

typedef struct {
    uint8_t len, w[SIO_MAXW]; /* widths from the lowest card up */
} sio_unit;

typedef struct {
    int count, cap;
    uint8_t *rec;  /* count x SIO_REC, zero padded */
    uint8_t *adj;  /* per reading: holds a unit of two tuples or more */
} sio_list;

struct sj_sio {
    const sj_rules *r;
    int s, n, protect, include_new;
    uint8_t H[64];     /* the hand's cards of the led suit */
    int k;             /* the lead's units, in from_cards' order */
    sio_unit *lead;
    int listed;        /* the subsequent listing is set up */
    sio_list lists[SIO_MAX_UNIT + 1];
    int *pos, *end, *cur, *h;
    uint8_t *can;
    int *rows;         /* requirements 1..: k entry indices each (-1: the unit itself) */
    long nrows, caprows;
    int exhausted;
    int8_t *hand_ok;   /* per requirement: -1 not yet asked */
    long caphok;
    long nodes, budget;
    sio_unit *mu;      /* the matcher's units (n at most) */
};

/* ---------------------------------------------------------------- the listing */

/* compare two units as Rust compares Vec<usize>: lexicographically, a prefix first */
static int unit_cmp(const sio_unit *a, const sio_unit *b)
{
    for (int i = 0; i < a->len && i < b->len; i++)
        if (a->w[i] != b->w[i])
            return a->w[i] < b->w[i] ? -1 : 1;
    return a->len < b->len ? -1 : a->len > b->len;
}

typedef struct {
    sj_sio *S;
    sio_list *L;
    uint8_t *keys; /* open addressing over SIO_REC records, empty = first byte 0 */
    long kcap;
    long work;
} lister;

static uint64_t rec_hash(const uint8_t *p)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < SIO_REC; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static int list_add(lister *ls, sio_unit *u, int nu)
{
    if (++ls->work > SIO_LIST_BUDGET)
        return SJ_ERR_LIMIT;
    for (int i = 1; i < nu; i++) /* units high first (Rust: sort_by b.cmp(a)) */
        for (int j = i; j > 0 && unit_cmp(&u[j], &u[j - 1]) > 0; j--) {
            sio_unit t = u[j];
            u[j] = u[j - 1];
            u[j - 1] = t;
        }
    uint8_t rec[SIO_REC];
    memset(rec, 0, sizeof rec);
    int p = 0, adj = 0;
    for (int i = 0; i < nu; i++) {
        if (p + u[i].len + 1 > SIO_REC)
            return SJ_ERR_LIMIT;
        for (int l = 0; l < u[i].len; l++)
            rec[p++] = u[i].w[l];
        rec[p++] = 0;
        adj |= u[i].len > 1;
    }
    sio_list *L = ls->L;
    if ((long)L->count * 2 >= ls->kcap) { /* grow the set */
        long cap = ls->kcap ? ls->kcap * 2 : 256;
        uint8_t *keys = calloc((size_t)cap, SIO_REC);
        if (!keys)
            return SJ_ERR_MEMORY;
        for (int e = 0; e < L->count; e++) {
            const uint8_t *q = L->rec + (size_t)e * SIO_REC;
            long at = (long)(rec_hash(q) & (uint64_t)(cap - 1));
            while (keys[(size_t)at * SIO_REC])
                at = (at + 1) & (cap - 1);
            memcpy(keys + (size_t)at * SIO_REC, q, SIO_REC);
        }
        free(ls->keys);
        ls->keys = keys;
        ls->kcap = cap;
    }
    long at = (long)(rec_hash(rec) & (uint64_t)(ls->kcap - 1));
    for (;;) {
        uint8_t *slot = ls->keys + (size_t)at * SIO_REC;
        if (!slot[0])
            break;
        if (!memcmp(slot, rec, SIO_REC))
            return SJ_OK; /* listed before: the first occurrence stands */
        at = (at + 1) & (ls->kcap - 1);
    }
    memcpy(ls->keys + (size_t)at * SIO_REC, rec, SIO_REC);
    if (L->count == L->cap) {
        int cap = L->cap ? L->cap * 2 : 64;
        uint8_t *rr = realloc(L->rec, (size_t)cap * SIO_REC);
        if (!rr)
            return SJ_ERR_MEMORY;
        L->rec = rr;
        uint8_t *aa = realloc(L->adj, (size_t)cap);
        if (!aa)
            return SJ_ERR_MEMORY;
        L->adj = aa;
        L->cap = cap;
    }
    memcpy(L->rec + (size_t)L->count * SIO_REC, rec, SIO_REC);
    L->adj[L->count++] = (uint8_t)adj;
    return SJ_OK;
}

/* compute_adjacent_assignments(m) for m = 1..mmax: the set partitions of m parts as
 * restricted growth strings (block of each part, blocks in order of creation), each
 * level made from the previous level's order and then stably sorted by (largest block
 * descending, fewer blocks first) */
typedef struct {
    long count[SIO_MAX_PARTS + 1];
    uint8_t *rgs[SIO_MAX_PARTS + 1]; /* count x m */
    uint8_t *nb[SIO_MAX_PARTS + 1];
} setparts;

static void setparts_free(setparts *sp)
{
    for (int m = 0; m <= SIO_MAX_PARTS; m++) {
        free(sp->rgs[m]);
        free(sp->nb[m]);
    }
}

static int setparts_build(setparts *sp, int mmax, long *work)
{
    memset(sp, 0, sizeof *sp);
    sp->count[1] = 1;
    sp->rgs[1] = calloc(1, 1);
    sp->nb[1] = malloc(1);
    if (!sp->rgs[1] || !sp->nb[1])
        return SJ_ERR_MEMORY;
    sp->nb[1][0] = 1;
    for (int m = 2; m <= mmax; m++) {
        long total = 0;
        for (long e = 0; e < sp->count[m - 1]; e++)
            total += sp->nb[m - 1][e] + 1;
        *work += total;
        if (*work > SIO_LIST_BUDGET)
            return SJ_ERR_LIMIT;
        uint8_t *raw = malloc((size_t)total * (size_t)m), *rawnb = malloc((size_t)total);
        uint8_t *out = malloc((size_t)total * (size_t)m), *outnb = malloc((size_t)total);
        long *key = malloc(sizeof(long) * (size_t)total);
        if (!raw || !rawnb || !out || !outnb || !key) {
            free(raw), free(rawnb), free(out), free(outnb), free(key);
            return SJ_ERR_MEMORY;
        }
        long c = 0;
        for (long e = 0; e < sp->count[m - 1]; e++) {
            const uint8_t *p = sp->rgs[m - 1] + (size_t)e * (size_t)(m - 1);
            int nb = sp->nb[m - 1][e];
            for (int b = 0; b <= nb; b++) { /* into block b; b == nb: a new block */
                uint8_t *q = raw + (size_t)c * (size_t)m;
                memcpy(q, p, (size_t)(m - 1));
                q[m - 1] = (uint8_t)b;
                rawnb[c] = (uint8_t)(b == nb ? nb + 1 : nb);
                int size[SIO_MAX_PARTS] = {0}, big = 0;
                for (int i = 0; i < m; i++)
                    if (++size[q[i]] > big)
                        big = size[q[i]];
                key[c] = (long)(m - big) * (m + 1) + rawnb[c]; /* ascending = wanted order */
                c++;
            }
        }
        /* stable counting sort by key */
        int nkeys = (m + 1) * (m + 1);
        long *start = calloc((size_t)nkeys + 1, sizeof(long));
        if (!start) {
            free(raw), free(rawnb), free(out), free(outnb), free(key);
            return SJ_ERR_MEMORY;
        }
        for (long e = 0; e < c; e++)
            start[key[e] + 1]++;
        for (int i = 0; i < nkeys; i++)
            start[i + 1] += start[i];
        for (long e = 0; e < c; e++) {
            long at = start[key[e]]++;
            memcpy(out + (size_t)at * (size_t)m, raw + (size_t)e * (size_t)m, (size_t)m);
            outnb[at] = rawnb[e];
        }
        free(start), free(raw), free(rawnb), free(key);
        sp->rgs[m] = out;
        sp->nb[m] = outnb;
        sp->count[m] = c;
    }
    return SJ_OK;
}

/* the next permutation in descending lexicographic order (itertools' permutations of a
 * descending list, repeats dropped, come out in that order); 0 when a was the last */
static int prev_perm(uint8_t *a, int n)
{
    int i = n - 1;
    while (i > 0 && a[i - 1] <= a[i])
        i--;
    if (i == 0)
        return 0;
    int j = n - 1;
    while (a[j] >= a[i - 1])
        j--;
    uint8_t t = a[i - 1];
    a[i - 1] = a[j];
    a[j] = t;
    for (int x = i, y = n - 1; x < y; x++, y--) {
        t = a[x];
        a[x] = a[y];
        a[y] = t;
    }
    return 1;
}

/* group_into_sequential_tuples(gt) with `ones` singles appended, for every set
 * partition of the parts gt[0..m-1] (descending) */
static int list_partition(lister *ls, const setparts *sp, const uint8_t *gt, int m, int ones)
{
    sio_unit u[SIO_MAX_UNIT];
    if (m == 0) {
        for (int i = 0; i < ones; i++) {
            u[i].len = 1;
            u[i].w[0] = 1;
        }
        return list_add(ls, u, ones);
    }
    for (long e = 0; e < sp->count[m]; e++) {
        const uint8_t *g = sp->rgs[m] + (size_t)e * (size_t)m;
        int nb = sp->nb[m][e], uniform = 1;
        uint8_t blk[SIO_MAX_PARTS][SIO_MAX_PARTS], bl[SIO_MAX_PARTS];
        memset(bl, 0, sizeof bl);
        for (int i = 0; i < m; i++)
            blk[g[i]][bl[g[i]]++] = gt[i];
        for (int b = 0; b < nb; b++)
            for (int i = 1; i < bl[b]; i++)
                uniform &= blk[b][i] == blk[b][0];
        for (;;) {
            int nu = 0;
            for (int b = 0; b < nb; b++) {
                u[nu].len = bl[b];
                memcpy(u[nu].w, blk[b], bl[b]);
                nu++;
            }
            for (int i = 0; i < ones; i++, nu++) {
                u[nu].len = 1;
                u[nu].w[0] = 1;
            }
            int rc = list_add(ls, u, nu);
            if (rc)
                return rc;
            if (uniform)
                break;
            /* multi_cartesian_product: the last block turns fastest */
            int b = nb - 1;
            while (b >= 0 && !prev_perm(blk[b], bl[b])) {
                /* back to its first (descending) order: prev_perm left it ascending */
                for (int x = 0, y = bl[b] - 1; x < y; x++, y--) {
                    uint8_t t = blk[b][x];
                    blk[b][x] = blk[b][y];
                    blk[b][y] = t;
                }
                b--;
            }
            if (b < 0)
                break;
        }
    }
    return SJ_OK;
}

/* partitions of `left` into parts <= maxp, descending lexicographic order */
static int list_partitions(lister *ls, const setparts *sp, uint8_t *parts, int np, int left,
                           int maxp)
{
    if (left == 0) {
        int m = 0;
        while (m < np && parts[m] > 1)
            m++;
        return list_partition(ls, sp, parts, m, np - m);
    }
    for (int p = maxp < left ? maxp : left; p >= 1; p--) {
        parts[np] = (uint8_t)p;
        int rc = list_partitions(ls, sp, parts, np + 1, left - p, p);
        if (rc)
            return rc;
    }
    return SJ_OK;
}

/* full_decomposition_ordering(n) into S->lists[n] */
static int list_size(sj_sio *S, int n, const setparts *sp, long *work)
{
    lister ls = {S, &S->lists[n], NULL, 0, *work};
    uint8_t parts[SIO_MAX_UNIT];
    int rc = list_partitions(&ls, sp, parts, 0, n, n);
    *work = ls.work;
    free(ls.keys);
    return rc;
}

static void unit_of_rec(const uint8_t *rec, int idx, sio_unit *out)
{
    int p = 0;
    for (int i = 0; i < idx; i++) {
        while (rec[p])
            p++;
        p++;
    }
    out->len = 0;
    while (rec[p] && out->len < SIO_MAXW)
        out->w[out->len++] = rec[p++];
}

static int rec_units(const uint8_t *rec)
{
    int nu = 0;
    for (int p = 0; p < SIO_REC && rec[p]; p++) {
        while (p < SIO_REC && rec[p])
            p++;
        nu++;
    }
    return nu;
}

/* subsequent_decomposition_ordering's set-up: each unit's readings after itself */
static int sio_list_setup(sj_sio *S)
{
    int mmax = 1;
    for (int i = 0; i < S->k; i++) {
        int size = S->lead[i].len * S->lead[i].w[0];
        if (size > SIO_MAX_UNIT)
            return SJ_ERR_LIMIT;
        int m = size / 2 > mmax ? size / 2 : mmax;
        mmax = m;
    }
    setparts sp;
    long work = 0;
    int rc = setparts_build(&sp, mmax, &work);
    for (int i = 0; i < S->k && !rc; i++) {
        int size = S->lead[i].len * S->lead[i].w[0];
        if (!S->lists[size].count)
            rc = list_size(S, size, &sp, &work);
    }
    setparts_free(&sp);
    if (rc)
        return rc;
    for (int i = 0; i < S->k; i++) {
        const sio_unit *u = &S->lead[i];
        sio_list *L = &S->lists[u->len * u->w[0]];
        /* the reading that is this unit alone; an absent one leaves nothing to pop */
        uint8_t want[SIO_REC];
        memset(want, 0, sizeof want);
        memcpy(want, u->w, u->len);
        int at = L->count;
        for (int e = 0; e < L->count; e++)
            if (!memcmp(L->rec + (size_t)e * SIO_REC, want, SIO_REC)) {
                at = e;
                break;
            }
        S->pos[i] = at < L->count ? at + 1 : L->count;
        S->end[i] = L->count;
        S->cur[i] = -1;
        S->h[i] = i;
        S->can[i] = (uint8_t)(S->include_new || u->len > 1);
    }
    S->listed = 1;
    return SJ_OK;
}

/* the next requirement of the merge into S->rows; 0 when the listing is over */
static int sio_next_row(sj_sio *S)
{
    for (;;) {
        /* the unit with the most readings left (a stable sort, as Rust's sort_by) */
        for (int a = 1; a < S->k; a++)
            for (int b = a; b > 0; b--) {
                int x = S->h[b - 1], y = S->h[b];
                if (S->end[y] - S->pos[y] <= S->end[x] - S->pos[x])
                    break;
                S->h[b - 1] = y;
                S->h[b] = x;
            }
        int i = S->h[0];
        if (S->pos[i] >= S->end[i])
            return 0;
        S->cur[i] = S->pos[i]++;
        int include = 1;
        for (int j = 0; j < S->k && include; j++) {
            const sio_unit *u = &S->lead[j];
            int c = S->cur[j];
            if (c >= 0 && !S->can[j] && S->lists[u->len * u->w[0]].adj[c])
                include = 0;
        }
        if (!include)
            continue;
        if ((S->nrows + 1) * S->k > SIO_MAX_ROWS)
            return SJ_ERR_LIMIT;
        if (S->nrows == S->caprows) {
            long cap = S->caprows ? S->caprows * 2 : 16;
            int *p = realloc(S->rows, sizeof(int) * (size_t)cap * (size_t)S->k);
            if (!p)
                return SJ_ERR_MEMORY;
            S->rows = p;
            S->caprows = cap;
        }
        memcpy(S->rows + (size_t)S->nrows * (size_t)S->k, S->cur, sizeof(int) * (size_t)S->k);
        S->nrows++;
        return 1;
    }
}

/* the units of requirement j into S->mu: their number, 0 past the end, or < 0 */
static int sio_requirement(sj_sio *S, long j)
{
    int nu = 0;
    if (j == 0) {
        for (int i = 0; i < S->k; i++)
            S->mu[nu++] = S->lead[i];
        return nu;
    }
    if (!S->listed) {
        int rc = sio_list_setup(S);
        if (rc)
            return rc;
    }
    while (S->nrows < j && !S->exhausted) {
        int rc = sio_next_row(S);
        if (rc < 0)
            return rc;
        if (rc == 0)
            S->exhausted = 1;
    }
    if (j > S->nrows)
        return 0;
    const int *row = S->rows + (size_t)(j - 1) * (size_t)S->k;
    for (int i = 0; i < S->k; i++) {
        if (row[i] < 0) {
            S->mu[nu++] = S->lead[i];
            continue;
        }
        const sio_unit *u = &S->lead[i];
        const uint8_t *rec = S->lists[u->len * u->w[0]].rec + (size_t)row[i] * SIO_REC;
        int m = rec_units(rec);
        for (int x = 0; x < m && nu < S->n; x++)
            unit_of_rec(rec, x, &S->mu[nu++]);
    }
    return nu;
}

/* ---------------------------------------------------------------- the matcher */

typedef struct {
    sj_sio *S;
    const uint8_t *c0; /* the counts asked */
    uint8_t c[64];     /* what is left of them */
    int protect;       /* every tuple takes all of its card's copies in c0 */
    sio_unit *u;
    int nu, ntr;       /* units: runs first (ntr of them), then tuples widest first */
    int (*leaf)(void *, const uint8_t *);
    void *arg;
} match_t;

static int fits(const match_t *M, int k, int w)
{
    return M->protect ? M->c0[k] == w && M->c[k] == M->c0[k] : M->c[k] >= w;
}

/* the tuples left (units ntr..) can be placed: 1, 0 or < 0 (exists mode) */
static int tuples_fit(match_t *M)
{
    const sj_rules *r = M->S->r;
    int need[SJ_MAX_DECKS + 1] = {0}, have[SJ_MAX_DECKS + 1] = {0}, left = 0, s = SU(M->S->s), hi = r->str_hi[s] & 63;
    for (int i = M->ntr; i < M->nu; i++) {
        if (M->u[i].w[0] > SJ_MAX_DECKS)
            return 0; /* no card has more copies than the packs */
        need[M->u[i].w[0]]++;
    }
    for (int t = 0; t < hi; t++)
        for (int x = 0; x < (r->lev_n[s][t] & 7) && x < 4; x++) {
            int k = K(r->lev_kinds[s][t][x]);
            if (M->protect) {
                if (M->c[k] && M->c[k] == M->c0[k] && M->c[k] <= SJ_MAX_DECKS)
                    have[M->c[k]]++;
            } else {
                have[M->c[k] > SJ_MAX_DECKS ? SJ_MAX_DECKS : M->c[k]]++;
                left += M->c[k];
            }
        }
    if (M->protect) {
        for (int w = 1; w <= SJ_MAX_DECKS; w++)
            if (need[w] > have[w])
                return 0;
        return 1;
    }
    int tuple_cards = 0;
    for (int w = 2; w <= SJ_MAX_DECKS; w++)
        tuple_cards += need[w] * w;
    if (left < tuple_cards + need[1])
        return 0;
    long left_budget = M->S->budget - M->S->nodes, given = left_budget;
    int rc = sj__pack_tuples(have, need, &left_budget);
    M->S->nodes += given - left_budget;
    return rc;
}

static int place_units(match_t *M, int i, int prevkey);

/* the run of unit i from level l up (strength t + l), its start kind key fixed */
static int place_run(match_t *M, int i, int t, int l, int key)
{
    const sio_unit *u = &M->u[i];
    if (l == u->len)
        return place_units(M, i + 1, key);
    const sj_rules *r = M->S->r;
    int s = SU(M->S->s), st = t + l;
    if (st >= (r->str_hi[s] & 63))
        return 0;
    for (int x = 0; x < (r->lev_n[s][ST(st)] & 7) && x < 4; x++) {
        int k = K(r->lev_kinds[s][ST(st)][x]);
        if (!fits(M, k, u->w[l]))
            continue;
        M->c[k] = (uint8_t)(M->c[k] - u->w[l]);
        int rc = place_run(M, i, t, l + 1, key);
        M->c[k] = (uint8_t)(M->c[k] + u->w[l]);
        if (rc)
            return rc;
    }
    return 0;
}

/* units i.. placed, a unit equal to the one before starting at a key not above its */
static int place_units(match_t *M, int i, int prevkey)
{
    sj_sio *S = M->S;
    if (++S->nodes > S->budget)
        return SJ_ERR_LIMIT;
    if (i == M->nu) {
        if (!M->leaf)
            return 1;
        uint8_t used[64];
        memset(used, 0, sizeof used);
        for (int k = 0; k < SJ_NK; k++)
            used[k] = (uint8_t)(M->c0[k] - M->c[k]);
        return M->leaf(M->arg, used);
    }
    if (i == M->ntr && !M->leaf)
        return tuples_fit(M);
    const sj_rules *r = S->r;
    const sio_unit *u = &M->u[i];
    int same = i > 0 && !unit_cmp(&M->u[i - 1], u);
    int s = SU(S->s), hi = r->str_hi[s] & 63;
    for (int t = hi - u->len; t >= 0; t--)
        for (int x = 0; x < (r->lev_n[s][t] & 7) && x < 4; x++) {
            int key = t * 4 + x;
            if (same && key > prevkey)
                continue;
            int k = K(r->lev_kinds[s][t][x]);
            if (!fits(M, k, u->w[0]))
                continue;
            M->c[k] = (uint8_t)(M->c[k] - u->w[0]);
            int rc = u->len == 1 ? place_units(M, i + 1, key) : place_run(M, i, t, 1, key);
            M->c[k] = (uint8_t)(M->c[k] + u->w[0]);
            if (rc)
                return rc;
        }
    return 0;
}

/* can counts c0 supply requirement j (with or without protection)? 1, 0 or < 0; with a
 * leaf callback every placement is handed to it (as the cards it uses) instead */
static int sio_supplies(sj_sio *S, long j, const uint8_t *c0, int protect,
                        int (*leaf)(void *, const uint8_t *), void *arg)
{
    int nu = sio_requirement(S, j);
    if (nu <= 0)
        return nu < 0 ? nu : SJ_ERR_LIMIT; /* callers ask only for listed requirements */
    for (int i = 0; i < nu; i++)
        if (S->mu[i].len > SIO_MAXW)
            return SJ_ERR_LIMIT;
    /* runs first, longest first; then tuples, widest first */
    for (int a = 1; a < nu; a++)
        for (int b = a; b > 0; b--) {
            sio_unit *x = &S->mu[b - 1], *y = &S->mu[b];
            int kx = (x->len > 1) * 1000 + x->len * 8, ky = (y->len > 1) * 1000 + y->len * 8;
            int sx = 0, sy = 0;
            for (int l = 0; l < x->len; l++)
                sx += x->w[l];
            for (int l = 0; l < y->len; l++)
                sy += y->w[l];
            kx += sx, ky += sy;
            if (ky < kx || (ky == kx && unit_cmp(y, x) <= 0))
                break;
            sio_unit t = *x;
            *x = *y;
            *y = t;
        }
    match_t M;
    M.S = S;
    M.c0 = c0;
    memcpy(M.c, c0, 64);
    M.protect = protect;
    M.u = S->mu;
    M.nu = nu;
    M.ntr = 0;
    while (M.ntr < nu && S->mu[M.ntr].len > 1)
        M.ntr++;
    M.leaf = leaf;
    M.arg = arg;
    return place_units(&M, 0, 1 << 30);
}

/* ---------------------------------------------------------------- the walk */

/* the hand supplies requirement j under the protection (cached) */
static int hand_supplies(sj_sio *S, long j)
{
    if (j >= S->caphok) {
        long cap = S->caphok ? S->caphok * 2 : 16;
        while (cap <= j)
            cap *= 2;
        int8_t *p = realloc(S->hand_ok, (size_t)cap);
        if (!p)
            return SJ_ERR_MEMORY;
        memset(p + S->caphok, -1, (size_t)(cap - S->caphok));
        S->hand_ok = p;
        S->caphok = cap;
    }
    if (S->hand_ok[j] < 0) {
        int rc = sio_supplies(S, j, S->H, S->protect, NULL, NULL);
        if (rc < 0)
            return rc;
        S->hand_ok[j] = (int8_t)rc;
    }
    return S->hand_ok[j];
}

/* is requirement j listed? 1/0/< 0 */
static int listed(sj_sio *S, long j)
{
    int nu = sio_requirement(S, j);
    return nu < 0 ? nu : nu > 0;
}

/* shengji.io's longer_tuple_bypasses_genuine (requirement j, met by the play P): a
 * plain N-tuple slot not covered by a kind the play holds exactly N of, which the hand's
 * other cards could fill with a kind held exactly N times */
static int guard(sj_sio *S, long j, const uint8_t *P)
{
    if (!S->protect)
        return 0;
    int nu = sio_requirement(S, j);
    if (nu < 0)
        return nu;
    int slots[SJ_MAX_DECKS + 1] = {0};
    for (int i = 0; i < nu; i++)
        if (S->mu[i].len == 1 && S->mu[i].w[0] >= 2 && S->mu[i].w[0] <= SJ_MAX_DECKS)
            slots[S->mu[i].w[0]]++;
    for (int w = 2; w <= SJ_MAX_DECKS; w++) {
        if (!slots[w])
            continue;
        int covered = 0, spare = 0;
        for (int k = 0; k < SJ_NK; k++) {
            covered += P[k] == w;
            spare += S->H[k] - P[k] == w;
        }
        if (slots[w] > covered && spare >= slots[w] - covered)
            return 1;
    }
    return 0;
}

int sj__sio_judge(sj_sio *S, const uint8_t *Pin)
{
    uint8_t P[64];
    memset(P, 0, sizeof P);
    for (int k = 0; k < SJ_NK; k++)
        if (S->r->esuit[k] == S->s)
            P[k] = Pin[k];
    for (long j = 0;; j++) {
        int rc = listed(S, j);
        if (rc <= 0)
            return rc < 0 ? rc : 1; /* nothing decided: legal */
        rc = sio_supplies(S, j, P, 0, NULL, NULL);
        if (rc < 0)
            return rc;
        if (rc) {
            rc = guard(S, j, P);
            return rc < 0 ? rc : !rc;
        }
        rc = hand_supplies(S, j);
        if (rc)
            return rc < 0 ? rc : 0;
    }
}

/* the requirements a legal follow is drawn from, their placements handed to add: those
 * of the first requirement the hand supplies under the protection, and (protected: a
 * play may meet an earlier one by breaking a longer tuple) of every one before it.
 * *all = 1 when one of them is all singles (any play of the suit meets it) */
int sj__sio_collect(sj_sio *S, int (*add)(void *, const uint8_t *), void *arg, int *all)
{
    *all = 0;
    for (long j = 0;; j++) {
        int rc = listed(S, j);
        if (rc <= 0) {
            /* the hand meets none of them: only the last (all singles) is left */
            if (rc == 0)
                *all = 1;
            return rc;
        }
        int hand = hand_supplies(S, j);
        if (hand < 0)
            return hand;
        if (!S->protect && !hand)
            continue; /* what the hand cannot supply, no play of it can */
        int nu = sio_requirement(S, j), singles = 1;
        if (nu < 0)
            return nu;
        for (int i = 0; i < nu; i++)
            singles &= S->mu[i].len == 1 && S->mu[i].w[0] == 1;
        if (singles) {
            *all = 1;
            return SJ_OK;
        }
        rc = sio_supplies(S, j, S->H, 0, add, arg);
        if (rc < 0)
            return rc;
        if (hand)
            return SJ_OK;
    }
}

/* OrderedCard's order (types.rs): strength, then spades < hearts < diamonds < clubs */
static int card_key(const sj_rules *r, int k)
{
    static const int suit[4] = {0, 1, 3, 2}; /* ours: S H C D */
    return r->strength[K(k)] * 4 + (k >= 52 ? 0 : suit[k / 13]);
}

int sj__sio_open(const sj_rules *r, const sj_lead *lead, const uint8_t *H, long budget,
                 sj_sio **out)
{
    *out = NULL;
    sj_sio *S = calloc(1, sizeof *S);
    if (!S)
        return SJ_ERR_MEMORY;
    S->r = r;
    S->s = lead->esuit;
    S->n = lead->n;
    S->protect = r->protection == SJ_PROTECT_LONGER_TUPLES || r->protection == SJ_PROTECT_BOTH;
    S->include_new = r->protection != SJ_PROTECT_TRACTORS && r->protection != SJ_PROTECT_BOTH;
    S->budget = budget;
    for (int k = 0; k < SJ_NK; k++)
        if (r->esuit[k] == lead->esuit)
            S->H[k] = H[k];
    S->k = lead->ncomp;
    S->lead = calloc((size_t)(S->k ? S->k : 1), sizeof *S->lead);
    S->mu = calloc((size_t)(S->n > 0 ? S->n : 1), sizeof *S->mu);
    S->pos = calloc((size_t)(S->k ? S->k : 1), sizeof(int));
    S->end = calloc((size_t)(S->k ? S->k : 1), sizeof(int));
    S->cur = calloc((size_t)(S->k ? S->k : 1), sizeof(int));
    S->h = calloc((size_t)(S->k ? S->k : 1), sizeof(int));
    S->can = calloc((size_t)(S->k ? S->k : 1), 1);
    int lowkey[SJ_MAXCARDS];
    if (!S->lead || !S->mu || !S->pos || !S->end || !S->cur || !S->h || !S->can) {
        sj__sio_close(S);
        return SJ_ERR_MEMORY;
    }
    /* from_cards' order: by size, then by the lowest card (a stable sort) */
    for (int i = 0; i < S->k; i++) {
        const sj_comp *cp = &lead->comps[i];
        if (cp->len > SIO_MAXW || cp->w < 1) {
            sj__sio_close(S);
            return SJ_ERR_LIMIT;
        }
        sio_unit u;
        u.len = cp->len;
        for (int l = 0; l < cp->len; l++)
            u.w[l] = cp->w;
        int low = lead->kinds[(cp->first + cp->len - 1) % SJ_MAXCARDS];
        int key = card_key(r, low), size = cp->w * cp->len, at = i;
        while (at > 0) {
            const sio_unit *p = &S->lead[at - 1];
            int psize = p->len * p->w[0];
            if (psize < size || (psize == size && lowkey[at - 1] <= key))
                break;
            S->lead[at] = S->lead[at - 1];
            lowkey[at] = lowkey[at - 1];
            at--;
        }
        S->lead[at] = u;
        lowkey[at] = key;
    }
    *out = S;
    return SJ_OK;
}

void sj__sio_close(sj_sio *S)
{
    if (!S)
        return;
    for (int n = 0; n <= SIO_MAX_UNIT; n++) {
        free(S->lists[n].rec);
        free(S->lists[n].adj);
    }
    free(S->lead);
    free(S->mu);
    free(S->pos);
    free(S->end);
    free(S->cur);
    free(S->h);
    free(S->can);
    free(S->rows);
    free(S->hand_ok);
    free(S);
}

int sj__sio_follow(const sj_rules *r, const sj_lead *lead, const uint8_t *H, const uint8_t *P)
{
    sj_sio *S;
    int rc = sj__sio_open(r, lead, H, NODE_BUDGET, &S);
    if (rc)
        return rc;
    rc = sj__sio_judge(S, P);
    sj__sio_close(S);
    return rc;
}
