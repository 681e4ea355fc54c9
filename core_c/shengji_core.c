/* shengji rules core. The contract is docs/semantics.md; section numbers refer to it.
 *
 * Memory safety: inputs are copied into 64-entry local arrays after validation, and
 * every index read from a table is masked (K, SU, ST) so even a corrupted sj_rules
 * cannot make the core read or write outside its buffers.
 */
#include "shengji_core.h"
#include "sj_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC 0x534a4331u
#define NODE_BUDGET 20000000L
#define MAX_FINALS 4096
#define MEMO_CAP 8192u
#define MEMO_AFTER 512 /* nodes before the memo is worth allocating */
#define KEYLEN 56

#define K(x) ((x) & 63)                /* kind index into 64-entry arrays */
#define ST(x) ((x) & 63)               /* strength index */
#define SU(x) ((x) > 4 ? 4 : (x))      /* effective suit index */

static uint64_t g_stamp = 0;

static int fail(sj_err *e, int code, int which, int index, int card, int count, int a, int b)
{
    if (e) {
        e->code = code;
        e->which = which;
        e->index = index;
        e->card = card;
        e->count = count;
        e->a = a;
        e->b = b;
    }
    return code;
}

static int rules_ok(const sj_rules *r)
{
    return r && r->magic == MAGIC && r->decks >= 1 && r->decks <= 4;
}

static int tractor_width_ok(const sj_rules *r, int w)
{
    return r->tractors && w >= 2 && w >= r->tractor_min_width;
}

/* Does a structure of this shape exist under the rules (§3)? */
static int shape_exists(const sj_rules *r, int w, int len)
{
    if (w < 1 || w > r->max_tuple || len < 1)
        return 0;
    if (len == 1)
        return 1;
    return tractor_width_ok(r, w) && len >= r->tractor_min_length;
}

/* ---------------------------------------------------------------- preparation §2 */

static int check_shape_field(sj_shape sh)
{
    return sh.w >= 1 && sh.w <= 4 && sh.len >= 1 && sh.len <= 24 && !(sh.w == 1 && sh.len != 1);
}

int sj_prepare(sj_rules *r, sj_err *e)
{
    if (!r)
        return fail(e, SJ_ERR_ARG, SJ_ARG_RULES, -1, -1, -1, 0, 0);
    r->magic = 0;
#define FIELD(cond, id) \
    if (!(cond)) return fail(e, SJ_ERR_RULES, SJ_ARG_RULES, -1, -1, -1, (id), 0)
    FIELD(r->decks >= 1 && r->decks <= 4, 1);
    FIELD(r->level >= 0 && r->level <= 12, 2);
    FIELD(r->trump >= -1 && r->trump <= 3, 3);
    FIELD(r->max_tuple >= 1 && r->max_tuple <= r->decks, 4);
    FIELD(r->tractors == 0 || r->tractors == 1, 5);
    FIELD(r->tractor_min_width >= 2 && r->tractor_min_width <= 4, 6);
    FIELD(r->tractor_min_length >= 2 && r->tractor_min_length <= 24, 7);
    FIELD(r->bridge == 0 || r->bridge == 1, 8);
    FIELD(r->must_break == 0 || r->must_break == 1, 9);
    FIELD(r->constant_mask < (1u << 13), 10);
    FIELD(r->ruff_compare >= 0 && r->ruff_compare <= 2, 11);
    FIELD(r->failed_throw >= 0 && r->failed_throw <= 1, 12);
    FIELD(r->kitty >= 0 && r->kitty <= 3, 13);
    FIELD(r->kitty_cap >= 1, 14);
    for (int i = 0; i < 6; i++)
        FIELD(r->kitty_table[i] >= 1, 15);
    FIELD(r->n_ladders >= 0 && r->n_ladders <= SJ_MAX_LADDERS, 16);
    for (int i = 0; i < r->n_ladders; i++) {
        const sj_ladder *ld = &r->ladders[i];
        FIELD(check_shape_field(ld->lead), 17);
        FIELD(ld->n_patterns >= 1 && ld->n_patterns <= SJ_LADDER_PATS, 17);
        for (int p = 0; p < ld->n_patterns; p++) {
            const sj_pattern *pt = &ld->patterns[p];
            FIELD(pt->n_shapes <= SJ_PAT_SHAPES, 17);
            for (int j = 0; j < pt->n_shapes; j++)
                FIELD(check_shape_field(pt->shapes[j]), 17);
        }
    }
#undef FIELD

    memset(r->esuit, 0, sizeof r->esuit);
    memset(r->strength, 0, sizeof r->strength);
    memset(r->lev_n, 0, sizeof r->lev_n);
    memset(r->lev_kinds, 0, sizeof r->lev_kinds);
    memset(r->str_hi, 0, sizeof r->str_hi);

    /* the level rank is a trump rank even when also listed as constant */
    uint32_t constants = r->constant_mask & ~(1u << r->level);
    uint32_t skipped = constants | (1u << r->level);
    int next_trump = 0;
    /* plain ranks 2..A of each suit; a skipped rank between two plain ranks leaves a
     * gap unless the level gap is bridged (JJ99 at level 10) */
    for (int s = 0; s < 4; s++) {
        int es = (s == r->trump) ? SJ_TRUMP : s;
        int st = 0, started = 0, gap = 0;
        for (int rank = 0; rank < 13; rank++) {
            if ((skipped >> rank) & 1u) {
                gap = started;
                continue;
            }
            if (started)
                st += (gap && !r->bridge) ? 2 : 1;
            started = 1;
            gap = 0;
            r->esuit[s * 13 + rank] = (uint8_t)es;
            r->strength[s * 13 + rank] = (uint8_t)st;
        }
        if (s == r->trump && started)
            next_trump = st + 1;
    }
    /* constant ranks ascending, then the level rank: off-suit copies share one
     * strength, the trump-suit copy is one higher */
    for (int pass = 0; pass < 2; pass++) {
        for (int rank = 0; rank < 13; rank++) {
            int is_rank = pass == 0 ? (int)((constants >> rank) & 1u) : rank == r->level;
            if (!is_rank)
                continue;
            for (int s = 0; s < 4; s++) {
                int k = s * 13 + rank;
                r->esuit[k] = SJ_TRUMP;
                r->strength[k] = (uint8_t)(next_trump + (s == r->trump ? 1 : 0));
            }
            next_trump += r->trump >= 0 ? 2 : 1;
        }
    }
    r->esuit[52] = SJ_TRUMP;
    r->strength[52] = (uint8_t)next_trump;
    r->esuit[53] = SJ_TRUMP;
    r->strength[53] = (uint8_t)(next_trump + 1);

    /* level lists, largest kind id first (pos ties break by kind id) */
    for (int k = SJ_NK - 1; k >= 0; k--) {
        int s = r->esuit[k], t = r->strength[k];
        if (t >= SJ_MAXSTR || r->lev_n[s][t] >= 4)
            return fail(e, SJ_ERR_RULES, SJ_ARG_RULES, -1, k, -1, 0, 0);
        r->lev_kinds[s][t][r->lev_n[s][t]++] = (uint8_t)k;
        if (t + 1 > r->str_hi[s])
            r->str_hi[s] = (uint8_t)(t + 1);
    }
    r->stamp = __atomic_add_fetch(&g_stamp, 1, __ATOMIC_RELAXED);
    r->magic = MAGIC;
    return SJ_OK;
}

int sj_card(const sj_rules *r, int card, int32_t *esuit, int32_t *strength)
{
    if (!rules_ok(r))
        return SJ_ERR_CONTEXT;
    if (card < 0 || card >= SJ_NK)
        return SJ_ERR_KIND;
    if (esuit)
        *esuit = SU(r->esuit[card]);
    if (strength)
        *strength = ST(r->strength[card]);
    return SJ_OK;
}

int sj_compare(const sj_rules *r, int a, int b)
{
    if (!rules_ok(r))
        return SJ_ERR_CONTEXT;
    if (a < 0 || a >= SJ_NK || b < 0 || b >= SJ_NK)
        return SJ_ERR_KIND;
    int sa = r->esuit[a], sb = r->esuit[b];
    if (sa == sb) {
        int ta = r->strength[a], tb = r->strength[b];
        return ta > tb ? SJ_HIGHER : ta < tb ? SJ_LOWER : SJ_EQUAL;
    }
    if (sa == SJ_TRUMP)
        return SJ_HIGHER;
    if (sb == SJ_TRUMP)
        return SJ_LOWER;
    return SJ_UNRELATED;
}

/* ---------------------------------------------------------------- input helpers */

/* Validate a 54-count buffer and copy it into a 64-entry array. */
static int load(const sj_rules *r, const uint8_t *src, int len, uint8_t *dst, int *total,
                int which, int index, sj_err *e)
{
    if (!src || len != SJ_NK)
        return fail(e, SJ_ERR_LENGTH, which, index, -1, len, 0, 0);
    memset(dst, 0, 64);
    int t = 0;
    for (int k = 0; k < SJ_NK; k++) {
        if (src[k] > r->decks)
            return fail(e, SJ_ERR_COPIES, which, index, k, src[k], r->decks, 0);
        dst[k] = src[k];
        t += src[k];
    }
    if (total)
        *total = t;
    return SJ_OK;
}

static int lead_ok(const sj_rules *r, const sj_lead *l, sj_err *e)
{
    if (!l || l->stamp != r->stamp || l->n < 1 || l->n > SJ_MAXCARDS || l->esuit < 0 ||
        l->esuit > 4 || l->ncomp < 1 || l->ncomp > SJ_MAXCARDS)
        return fail(e, SJ_ERR_CONTEXT, SJ_ARG_LEAD, -1, -1, -1, 0, 0);
    for (int i = 0; i < l->ncomp; i++) {
        const sj_comp *c = &l->comps[i];
        if (c->w < 1 || c->w > 4 || c->len < 1 || c->len >= SJ_MAXSTR ||
            c->first + c->len > SJ_MAXCARDS)
            return fail(e, SJ_ERR_CONTEXT, SJ_ARG_LEAD, -1, -1, -1, 0, 0);
    }
    return SJ_OK;
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
static int max_top(const sj_rules *r, int s, const uint8_t *c, int w, int len)
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

static int decompose(const sj_rules *r, const uint8_t *cin, int n, sj_lead *out, int which,
                     int index, sj_err *e)
{
    if (n == 0)
        return fail(e, SJ_ERR_EMPTY, which, index, -1, 0, 0, 0);
    int s = -1;
    for (int k = 0; k < SJ_NK; k++) {
        if (!cin[k])
            continue;
        int ks = SU(r->esuit[k]);
        if (s < 0)
            s = ks;
        else if (ks != s)
            return fail(e, SJ_ERR_MIXED, which, index, k, -1, s, ks);
    }
    uint8_t c[64];
    memcpy(c, cin, 64);
    memcpy(out->counts, cin, SJ_NK);
    out->stamp = r->stamp;
    out->n = n;
    out->esuit = s;
    out->ncomp = 0;
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
             * decide; within one width the highest top (then largest kinds) */
            if (w * len > bw * bl || (w * len == bw * bl && w > bw)) {
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
    return decompose(r, c, n, out, SJ_ARG_LEAD, -1, NULL);
}

int sj_decompose(const sj_rules *r, const uint8_t *cards, int ncards, sj_lead *out, sj_err *e)
{
    if (!rules_ok(r))
        return fail(e, SJ_ERR_CONTEXT, SJ_ARG_RULES, -1, -1, -1, 0, 0);
    if (!out)
        return fail(e, SJ_ERR_ARG, SJ_ARG_LEAD, -1, -1, -1, 0, 0);
    uint8_t c[64];
    int n, rc = load(r, cards, ncards, c, &n, SJ_ARG_LEAD, -1, e);
    if (rc)
        return rc;
    memset(out, 0, sizeof *out);
    return decompose(r, c, n, out, SJ_ARG_LEAD, -1, e);
}

int sj_is_tractor(const sj_rules *r, const uint8_t *cards, int ncards, sj_err *e)
{
    if (!rules_ok(r))
        return fail(e, SJ_ERR_CONTEXT, SJ_ARG_RULES, -1, -1, -1, 0, 0);
    uint8_t c[64];
    int n, rc = load(r, cards, ncards, c, &n, SJ_ARG_LEAD, -1, e);
    if (rc)
        return rc;
    sj_lead l;
    rc = decompose(r, c, n, &l, SJ_ARG_LEAD, -1, NULL);
    if (rc == SJ_ERR_EMPTY || rc == SJ_ERR_MIXED)
        return 0; /* not one structure, not an input error */
    if (rc)
        return fail(e, rc, SJ_ARG_LEAD, -1, -1, -1, 0, 0);
    return l.ncomp == 1 && l.comps[0].len >= 2;
}

/* ---------------------------------------------------------------- search state §4/§5 */

typedef struct {
    uint32_t used;
    uint8_t *keys; /* MEMO_CAP * KEYLEN, a zero key byte 55 marks an empty slot */
} memo_t;

/* returns 1 when (comp, counts) is already present; inserts it otherwise (if room) */
static int memo_visit(memo_t *m, int comp, const uint8_t *counts, int *oom)
{
    uint8_t key[KEYLEN];
    memcpy(key, counts, SJ_NK);
    key[54] = (uint8_t)comp;
    key[55] = 1;
    if (!m->keys) {
        m->keys = calloc(MEMO_CAP, KEYLEN);
        if (!m->keys) {
            *oom = 1;
            return 0;
        }
    }
    uint32_t h = 2166136261u;
    for (int i = 0; i < KEYLEN; i++)
        h = (h ^ key[i]) * 16777619u;
    for (uint32_t probe = 0; probe < MEMO_CAP; probe++) {
        uint8_t *slot = m->keys + (size_t)((h + probe) & (MEMO_CAP - 1)) * KEYLEN;
        if (!slot[55]) {
            if (m->used < MEMO_CAP - MEMO_CAP / 4) { /* keep probes short; forget beyond */
                memcpy(slot, key, KEYLEN);
                m->used++;
            }
            return 0;
        }
        if (!memcmp(slot, key, KEYLEN))
            return 1;
    }
    return 0;
}

enum { M_EXISTS, M_FOLLOW, M_COLLECT };

typedef struct {
    const sj_rules *r;
    const sj_lead *lead;
    int s;        /* led effective suit */
    int n;        /* lead size */
    uint8_t R[64]; /* hand's cards of the suit, minus cards used so far */
    uint8_t Q[64]; /* play's cards, minus cards used so far (follow check) */
    uint8_t U[64]; /* cards used so far (collection of legal follows) */
    int usedn;
    long nodes;
    long leaves;
    int oom;
    memo_t memo;
    /* first shape failure met, for the message */
    int have_fail, fail_comp;
    sj_pattern fail_pat;
    /* collected requirement sets (legal follows) */
    uint8_t (*finals)[64];
    int nfinals, capfinals;
    memo_t fset;
} search_t;

typedef struct {
    int mode, strict, comp;
    const sj_pattern *p;
    uint8_t *c; /* counts placements draw from (M_EXISTS) */
} job_t;

static int follow_from(search_t *fs, int i);
static int collect_from(search_t *fs, int i);

static void take(search_t *fs, const job_t *jb, int k, int w)
{
    switch (jb->mode) {
    case M_EXISTS:
        jb->c[k] = (uint8_t)(jb->c[k] - w);
        break;
    case M_FOLLOW:
        fs->Q[k] = (uint8_t)(fs->Q[k] - w);
        fs->R[k] = (uint8_t)(fs->R[k] - w);
        break;
    default:
        fs->R[k] = (uint8_t)(fs->R[k] - w);
        fs->U[k] = (uint8_t)(fs->U[k] + w);
        fs->usedn += w;
    }
}

static void give(search_t *fs, const job_t *jb, int k, int w)
{
    switch (jb->mode) {
    case M_EXISTS:
        jb->c[k] = (uint8_t)(jb->c[k] + w);
        break;
    case M_FOLLOW:
        fs->Q[k] = (uint8_t)(fs->Q[k] + w);
        fs->R[k] = (uint8_t)(fs->R[k] + w);
        break;
    default:
        fs->R[k] = (uint8_t)(fs->R[k] + w);
        fs->U[k] = (uint8_t)(fs->U[k] - w);
        fs->usedn -= w;
    }
}

static const uint8_t *source(search_t *fs, const job_t *jb)
{
    return jb->mode == M_EXISTS ? jb->c : jb->mode == M_FOLLOW ? fs->Q : fs->R;
}

static int leaf(search_t *fs, const job_t *jb)
{
    int oom = 0, rc;
    fs->leaves++;
    switch (jb->mode) {
    case M_EXISTS:
        return 1;
    case M_FOLLOW:
        if (jb->comp + 1 >= fs->lead->ncomp)
            return 1;
        if (fs->nodes < MEMO_AFTER)
            return follow_from(fs, jb->comp + 1);
        if (memo_visit(&fs->memo, jb->comp + 1, fs->Q, &oom))
            return 0; /* explored before and failed (success ends the search) */
        if (oom)
            return SJ_ERR_MEMORY;
        return follow_from(fs, jb->comp + 1);
    default:
        if (fs->nodes >= MEMO_AFTER && memo_visit(&fs->memo, jb->comp + 1, fs->U, &oom))
            return 0; /* collection from this state already done */
        if (oom)
            return SJ_ERR_MEMORY;
        rc = collect_from(fs, jb->comp + 1);
        return rc < 0 ? rc : 0; /* collection is exhaustive */
    }
}

static int place(search_t *fs, const job_t *jb, int j, int prev_key);

/* the lower levels l..len-1 of a structure whose top level is already taken */
static int place_run(search_t *fs, const job_t *jb, int j, int top, int l, int key)
{
    const sj_shape sh = jb->p->shapes[j];
    if (l == sh.len)
        return place(fs, jb, j + 1, key);
    const sj_rules *r = fs->r;
    int t = top - l, n = r->lev_n[SU(fs->s)][ST(t)] & 7;
    for (int x = 0; x < n && x < 4; x++) {
        int k = K(r->lev_kinds[SU(fs->s)][ST(t)][x]);
        int v = source(fs, jb)[k];
        if (jb->strict ? v != sh.w : v < sh.w)
            continue;
        take(fs, jb, k, sh.w);
        int rc = place_run(fs, jb, j, top, l + 1, key);
        give(fs, jb, k, sh.w);
        if (rc)
            return rc;
    }
    return 0;
}

/* Place the pattern's shapes j.. as disjoint structures of suit s. Identical
 * consecutive shapes are placed in non-increasing (top, kind) order: the pattern is
 * a multiset, so other orders only repeat work. */
static int place(search_t *fs, const job_t *jb, int j, int prev_key)
{
    if (++fs->nodes > NODE_BUDGET)
        return SJ_ERR_LIMIT;
    if (j >= jb->p->n_shapes || j >= SJ_PAT_SHAPES)
        return leaf(fs, jb);
    const sj_rules *r = fs->r;
    const sj_shape sh = jb->p->shapes[j];
    if (!shape_exists(r, sh.w, sh.len))
        return 0;
    if (jb->mode == M_COLLECT && fs->usedn + sh.w * sh.len > fs->n)
        return 0;
    int same = j > 0 && jb->p->shapes[j - 1].w == sh.w && jb->p->shapes[j - 1].len == sh.len;
    int s = SU(fs->s), hi = r->str_hi[s] & 63;
    for (int top = hi - 1; top >= sh.len - 1; top--) {
        int n = r->lev_n[s][top] & 7;
        for (int x = 0; x < n && x < 4; x++) {
            int key = top * 4 + x;
            if (same && key > prev_key)
                continue;
            int k = K(r->lev_kinds[s][top][x]);
            int v = source(fs, jb)[k];
            if (jb->strict ? v != sh.w : v < sh.w)
                continue;
            take(fs, jb, k, sh.w);
            int rc = sh.len == 1 ? place(fs, jb, j + 1, key) : place_run(fs, jb, j, top, 1, key);
            give(fs, jb, k, sh.w);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* plain tuples only (need[w] tuples of width w): a counting argument instead of search */
static int plain_feasible(const sj_rules *r, int s, const uint8_t *c, const int *need, int strict)
{
    int cnt[5] = {0, 0, 0, 0, 0};
    int hi = r->str_hi[SU(s)] & 63;
    for (int t = 0; t < hi; t++) {
        int n = r->lev_n[SU(s)][t] & 7;
        for (int x = 0; x < n && x < 4; x++) {
            int v = c[K(r->lev_kinds[SU(s)][t][x])];
            if (v >= 1 && v <= 4)
                cnt[v]++;
        }
    }
    if (strict)
        return need[2] <= cnt[2] && need[3] <= cnt[3] && need[4] <= cnt[4];
    if (need[4] > cnt[4])
        return 0;
    int free4 = cnt[4] - need[4];
    /* triples from exact triples first: a quad broken for a triple wastes a pair */
    int t3 = need[3] < cnt[3] ? need[3] : cnt[3];
    int extra = need[3] - t3;
    if (extra > free4)
        return 0;
    free4 -= extra;
    return need[2] <= 2 * free4 + (cnt[3] - t3) + cnt[2];
}

/* can c (suit s) supply every structure of the pattern at once? */
static int can_supply(search_t *fs, uint8_t *c, const sj_pattern *p, int strict)
{
    int need[5] = {0, 0, 0, 0, 0}, plain = 1;
    for (int j = 0; j < p->n_shapes && j < SJ_PAT_SHAPES; j++) {
        const sj_shape sh = p->shapes[j];
        if (!shape_exists(fs->r, sh.w, sh.len))
            return 0;
        if (sh.len != 1 || sh.w < 2)
            plain = 0;
        else
            need[sh.w]++;
    }
    if (plain)
        return plain_feasible(fs->r, fs->s, c, need, strict);
    job_t jb = {M_EXISTS, strict, -1, p, c};
    return place(fs, &jb, 0, INT_MAX);
}

/* The pattern component i asks of the follower, given what R still holds (§4 step 3).
 * Returns 1 with *out filled, 0 when the component asks nothing, < 0 on error. */
static int required(search_t *fs, int w, int len, sj_pattern *out)
{
    const sj_rules *r = fs->r;
    int strict = !r->must_break;
    for (int i = 0; i < r->n_ladders && i < SJ_MAX_LADDERS; i++) {
        const sj_ladder *ld = &r->ladders[i];
        if (ld->lead.w != w || ld->lead.len != len)
            continue;
        for (int p = 0; p < ld->n_patterns && p < SJ_LADDER_PATS; p++) {
            const sj_pattern *pt = &ld->patterns[p];
            if (pt->n_shapes == 0)
                return 0;
            int rc = can_supply(fs, fs->R, pt, strict);
            if (rc < 0)
                return rc;
            if (rc) {
                *out = *pt;
                return 1;
            }
        }
        return 0;
    }
    /* default ladder: the led shape, then plain tuples, lexicographically largest first.
     * Feasible tuple multisets are closed under removal, so the first feasible pattern
     * of that order is found greedily, widest tuple first. */
    out->n_shapes = 0;
    if (!(w == 1 && len == 1) && w <= r->max_tuple) {
        out->n_shapes = 1;
        out->shapes[0].w = (uint8_t)w;
        out->shapes[0].len = (uint8_t)len;
        int rc = can_supply(fs, fs->R, out, strict);
        if (rc)
            return rc;
        out->n_shapes = 0;
    }
    int top = w < r->max_tuple ? w : r->max_tuple;
    int budget = w * len, need[5] = {0, 0, 0, 0, 0};
    while (out->n_shapes < SJ_PAT_SHAPES) {
        int got = 0;
        for (int v = top < budget ? top : budget; v >= 2; v--) {
            need[v]++;
            if (plain_feasible(r, fs->s, fs->R, need, strict)) {
                got = v;
                break;
            }
            need[v]--;
        }
        if (!got)
            break;
        out->shapes[out->n_shapes].w = (uint8_t)got;
        out->shapes[out->n_shapes].len = 1;
        out->n_shapes++;
        budget -= got;
        top = got;
    }
    return out->n_shapes > 0;
}

/* next component that asks something, with its pattern; ncomp when none is left */
static int next_asking(search_t *fs, int i, sj_pattern *pat)
{
    for (; i < fs->lead->ncomp; i++) {
        const sj_comp *cp = &fs->lead->comps[i];
        int rc = required(fs, cp->w, cp->len, pat);
        if (rc < 0)
            return rc;
        if (rc)
            return i;
    }
    return fs->lead->ncomp;
}

static int follow_from(search_t *fs, int i)
{
    sj_pattern pat;
    i = next_asking(fs, i, &pat);
    if (i < 0)
        return i;
    if (i >= fs->lead->ncomp)
        return 1;
    job_t jb = {M_FOLLOW, 0, i, &pat, NULL};
    long before = fs->leaves;
    int rc = place(fs, &jb, 0, INT_MAX);
    if (rc == 0 && fs->leaves == before && !fs->have_fail) {
        fs->have_fail = 1;
        fs->fail_comp = i;
        fs->fail_pat = pat;
    }
    return rc;
}

static int collect_from(search_t *fs, int i)
{
    sj_pattern pat;
    i = next_asking(fs, i, &pat);
    if (i < 0)
        return i;
    if (i >= fs->lead->ncomp) {
        int oom = 0;
        if (fs->nfinals < 32) {
            for (int f = 0; f < fs->nfinals; f++)
                if (!memcmp(fs->finals[f], fs->U, 64))
                    return 0;
        } else if (memo_visit(&fs->fset, 0, fs->U, &oom)) {
            return 0;
        }
        if (oom)
            return SJ_ERR_MEMORY;
        if (fs->nfinals == 31) { /* from now on the set is hashed: enter all so far */
            for (int f = 0; f < fs->nfinals; f++)
                memo_visit(&fs->fset, 0, fs->finals[f], &oom);
            memo_visit(&fs->fset, 0, fs->U, &oom);
            if (oom)
                return SJ_ERR_MEMORY;
        }
        if (fs->nfinals >= MAX_FINALS)
            return SJ_ERR_LIMIT;
        if (fs->nfinals == fs->capfinals) {
            int cap = fs->capfinals ? fs->capfinals * 2 : 16;
            void *p = realloc(fs->finals, sizeof(*fs->finals) * (size_t)cap);
            if (!p)
                return SJ_ERR_MEMORY;
            fs->finals = p;
            fs->capfinals = cap;
        }
        memcpy(fs->finals[fs->nfinals++], fs->U, 64);
        return 0;
    }
    job_t jb = {M_COLLECT, 0, i, &pat, NULL};
    return place(fs, &jb, 0, INT_MAX);
}

static void search_init(search_t *fs, const sj_rules *r, const sj_lead *lead)
{
    memset(fs, 0, sizeof *fs);
    fs->r = r;
    fs->lead = lead;
    fs->s = SU(lead->esuit);
    fs->n = lead->n;
}

static void search_free(search_t *fs)
{
    free(fs->memo.keys);
    free(fs->fset.keys);
    free(fs->finals);
}

/* ---------------------------------------------------------------- following §4 */

int sj_check_follow(const sj_rules *r, const sj_lead *lead, const uint8_t *hand, int nhand,
                    const uint8_t *play, int nplay, sj_follow_info *info, sj_err *e)
{
    if (!rules_ok(r))
        return fail(e, SJ_ERR_CONTEXT, SJ_ARG_RULES, -1, -1, -1, 0, 0);
    int rc = lead_ok(r, lead, e);
    if (rc)
        return rc;
    uint8_t H[64], P[64];
    int hn, pn;
    if ((rc = load(r, hand, nhand, H, &hn, SJ_ARG_HAND, -1, e)) ||
        (rc = load(r, play, nplay, P, &pn, SJ_ARG_PLAY, -1, e)))
        return rc;
    sj_follow_info local;
    if (!info)
        info = &local;
    info->reason = SJ_FOLLOW_OK;
    info->comp = info->card = info->count = -1;
    info->pattern.n_shapes = 0;
    for (int k = 0; k < SJ_NK; k++)
        if (P[k] > H[k]) {
            info->card = k;
            return info->reason = SJ_NOT_IN_HAND;
        }
    int n = lead->n, s = lead->esuit;
    if (pn != n) {
        info->count = pn;
        return info->reason = SJ_WRONG_COUNT;
    }
    int h = 0, pe = 0;
    for (int k = 0; k < SJ_NK; k++)
        if (r->esuit[k] == s) {
            h += H[k];
            pe += P[k];
        }
    if (h >= n ? pe != n : pe != h) {
        info->count = h;
        return info->reason = SJ_MUST_FOLLOW_SUIT;
    }
    if (h <= n)
        return SJ_FOLLOW_OK;

    search_t fs;
    search_init(&fs, r, lead);
    for (int k = 0; k < SJ_NK; k++)
        if (r->esuit[k] == s) {
            fs.R[k] = H[k];
            fs.Q[k] = P[k];
        }
    rc = follow_from(&fs, 0);
    search_free(&fs);
    if (rc < 0)
        return fail(e, rc, SJ_ARG_PLAY, -1, -1, -1, 0, 0);
    if (rc)
        return SJ_FOLLOW_OK;
    if (fs.have_fail) {
        info->comp = fs.fail_comp;
        info->pattern = fs.fail_pat;
    }
    return info->reason = SJ_MUST_FOLLOW_SHAPE;
}

/* ---------------------------------------------------------------- legal follows §5 */

typedef struct {
    int nkl;
    uint8_t kl[SJ_NK];       /* kinds to choose from, ascending id */
    uint8_t avail[64];
    uint8_t base[64];        /* cards every follow contains */
    int suffix[SJ_NK + 1];   /* cards available from kl[i..] */
    int need;                /* cards to choose from avail; -1: nothing is legal */
    int nf, words;           /* requirement sets (0: none) */
    uint64_t *ok;            /* [nkl][5][words]: sets still met after taking v of kl[i] */
    uint64_t *zero;          /* [nkl+1][words]: sets needing nothing from kl[i..] */
    uint64_t *alive;         /* [nkl+1][words] */
    uint8_t cur[64];
    uint8_t *out;
    int cap, nout, stop_at_cap;
    uint64_t select;         /* with have_select: copy the follow of this index to out */
    int have_select;
    uint64_t total;
    long nodes;
} enum_t;

/* Follows come out in one canonical order: kinds ascending, more copies first, i.e.
 * the 54-count vectors in descending lexicographic order (the playout policy relies
 * on it, see shengji/playout.py). */
static int enum_rec(enum_t *en, int i, int need)
{
    if (++en->nodes > NODE_BUDGET)
        return SJ_ERR_LIMIT;
    uint64_t *alive = en->alive + (size_t)i * en->words;
    if (need == 0) {
        if (en->nf) {
            const uint64_t *z = en->zero + (size_t)i * en->words;
            int met = 0;
            for (int w = 0; w < en->words && !met; w++)
                met = (alive[w] & z[w]) != 0;
            if (!met)
                return 0;
        }
        if (en->have_select) {
            if (en->total++ != en->select)
                return 0;
            for (int k = 0; k < SJ_NK; k++)
                en->out[k] = (uint8_t)(en->base[k] + en->cur[k]);
            return 1;
        }
        if (en->nout < en->cap) {
            uint8_t *dst = en->out + (size_t)en->nout * SJ_NK;
            for (int k = 0; k < SJ_NK; k++)
                dst[k] = (uint8_t)(en->base[k] + en->cur[k]);
            en->nout++;
        }
        en->total++;
        return en->stop_at_cap && en->nout >= en->cap ? 1 : 0;
    }
    if (i >= en->nkl || en->suffix[i] < need)
        return 0;
    int k = en->kl[i];
    int top = en->avail[k] < need ? en->avail[k] : need;
    for (int v = top; v >= 0; v--) {
        if (en->nf) {
            const uint64_t *okv = en->ok + ((size_t)i * 5 + v) * en->words;
            uint64_t *nxt = alive + en->words;
            uint64_t any = 0;
            for (int w = 0; w < en->words; w++)
                any |= (nxt[w] = alive[w] & okv[w]);
            if (!any)
                continue;
        }
        en->cur[k] = (uint8_t)v;
        int rc = enum_rec(en, i + 1, need - v);
        en->cur[k] = 0;
        if (rc)
            return rc;
    }
    return 0;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

/* ways[i][t]: sub-multisets of size t of avail over kl[i..] (saturating) */
static void subset_table(const enum_t *en, int need, uint64_t (*ways)[SJ_MAXCARDS + 1])
{
    for (int t = 0; t <= need; t++)
        ways[en->nkl][t] = t == 0;
    for (int i = en->nkl - 1; i >= 0; i--) {
        int a = en->avail[en->kl[i]];
        for (int t = 0; t <= need; t++) {
            uint64_t sum = 0;
            for (int v = 0; v <= a && v <= t; v++)
                sum = sat_add(sum, ways[i + 1][t - v]);
            ways[i][t] = sum;
        }
    }
}

/* number of sub-multisets of size need (saturating) */
static uint64_t count_subsets(const enum_t *en, int need)
{
    uint64_t dp[SJ_MAXCARDS + 1];
    memset(dp, 0, sizeof dp);
    dp[0] = 1;
    for (int i = 0; i < en->nkl; i++) {
        int a = en->avail[en->kl[i]];
        for (int t = need; t >= 1; t--) {
            uint64_t sum = dp[t];
            for (int v = 1; v <= a && v <= t; v++)
                sum = sat_add(sum, dp[t - v]);
            dp[t] = sum;
        }
    }
    return dp[need];
}

static void enum_free(enum_t *en)
{
    free(en->ok);
    free(en->zero);
    free(en->alive);
    en->ok = en->zero = en->alive = NULL;
}

/* Everything the enumeration needs from (lead, hand H of hn cards): base, avail, need
 * and, when the shape asks something (§4 step 3), the requirement bitsets. */
static int follows_prepare(const sj_rules *r, const sj_lead *lead, const uint8_t *H, int hn,
                           enum_t *en, search_t *fs)
{
    int n = lead->n, s = lead->esuit, h = 0, rc = 0;
    for (int k = 0; k < SJ_NK; k++)
        if (r->esuit[k] == s)
            h += H[k];
    search_init(fs, r, lead);
    if (h <= n) {
        /* all the suit's cards, and anything else to make up the count */
        for (int k = 0; k < SJ_NK; k++) {
            if (r->esuit[k] == s)
                en->base[k] = H[k];
            else
                en->avail[k] = H[k];
        }
        en->need = hn < n ? -1 : n - h;
    } else {
        for (int k = 0; k < SJ_NK; k++)
            if (r->esuit[k] == s)
                en->avail[k] = H[k];
        en->need = n;
        memcpy(fs->R, en->avail, 64);
        rc = collect_from(fs, 0);
        if (rc < 0)
            return rc;
        rc = 0;
        int unconstrained = 0;
        for (int f = 0; f < fs->nfinals && !unconstrained; f++) {
            int sum = 0;
            for (int k = 0; k < SJ_NK; k++)
                sum += fs->finals[f][k];
            unconstrained = sum == 0;
        }
        if (!unconstrained)
            en->nf = fs->nfinals;
    }
    for (int k = 0; k < SJ_NK; k++)
        if (en->avail[k])
            en->kl[en->nkl++] = (uint8_t)k;
    en->suffix[en->nkl] = 0;
    for (int i = en->nkl - 1; i >= 0; i--)
        en->suffix[i] = en->suffix[i + 1] + en->avail[en->kl[i]];
    if (en->nf && en->need >= 0) {
        int words = (en->nf + 63) / 64;
        en->words = words;
        en->ok = calloc((size_t)en->nkl * 5 * words, sizeof(uint64_t));
        en->zero = calloc((size_t)(en->nkl + 1) * words, sizeof(uint64_t));
        en->alive = calloc((size_t)(en->nkl + 1) * words, sizeof(uint64_t));
        if (!en->ok || !en->zero || !en->alive)
            return SJ_ERR_MEMORY;
        for (int f = 0; f < en->nf; f++) {
            uint64_t bit = 1ull << (f & 63);
            int w = f >> 6;
            en->alive[w] |= bit;
            en->zero[(size_t)en->nkl * words + w] |= bit;
            for (int i = en->nkl - 1; i >= 0; i--) {
                int k = en->kl[i];
                if (fs->finals[f][k] == 0 && (en->zero[(size_t)(i + 1) * words + w] & bit))
                    en->zero[(size_t)i * words + w] |= bit;
                for (int v = 0; v < 5; v++)
                    if (fs->finals[f][k] <= v)
                        en->ok[((size_t)i * 5 + v) * words + w] |= bit;
            }
        }
    }
    return 0;
}

int sj_legal_follows(const sj_rules *r, const sj_lead *lead, const uint8_t *hand, int nhand,
                     uint8_t *out, int out_len, int32_t *n_out, uint64_t *total, sj_err *e)
{
    if (!rules_ok(r))
        return fail(e, SJ_ERR_CONTEXT, SJ_ARG_RULES, -1, -1, -1, 0, 0);
    int rc = lead_ok(r, lead, e);
    if (rc)
        return rc;
    if (out_len < 0 || (out_len > 0 && !out) || out_len % SJ_NK)
        return fail(e, SJ_ERR_ARG, SJ_ARG_HAND, -1, -1, out_len, 0, 0);
    uint8_t H[64];
    int hn;
    if ((rc = load(r, hand, nhand, H, &hn, SJ_ARG_HAND, -1, e)))
        return rc;
    enum_t *en = calloc(1, sizeof *en);
    search_t *fs = calloc(1, sizeof *fs);
    if (!en || !fs) {
        free(en);
        free(fs);
        return fail(e, SJ_ERR_MEMORY, SJ_ARG_HAND, -1, -1, -1, 0, 0);
    }
    en->out = out;
    en->cap = out_len / SJ_NK;
    rc = follows_prepare(r, lead, H, hn, en, fs);
    if (rc < 0)
        goto done;
    if (en->need < 0) {
        /* the hand holds fewer cards than were led: nothing is legal */
        en->total = 0;
    } else if (!en->nf) {
        en->stop_at_cap = 1;
        if (en->cap > 0)
            rc = enum_rec(en, 0, en->need);
        en->total = count_subsets(en, en->need);
    } else {
        rc = enum_rec(en, 0, en->need);
    }
done:
    if (rc >= 0) {
        if (n_out)
            *n_out = en->nout;
        if (total)
            *total = en->total;
        rc = SJ_OK;
    } else {
        fail(e, rc, SJ_ARG_HAND, -1, -1, -1, 0, 0);
    }
    search_free(fs);
    free(fs);
    enum_free(en);
    free(en);
    return rc;
}

/* The idx-th (idx < total) sub-multiset of size need in canonical order, by unranking
 * with the subset table (no enumeration). */
static void unrank_subset(const enum_t *en, int need, uint64_t idx, uint8_t *out)
{
    uint64_t ways[SJ_NK + 1][SJ_MAXCARDS + 1];
    subset_table(en, need, ways);
    for (int k = 0; k < SJ_NK; k++)
        out[k] = en->base[k];
    for (int i = 0; i < en->nkl && need > 0; i++) {
        int k = en->kl[i], a = en->avail[k];
        for (int v = a < need ? a : need; v >= 0; v--) {
            uint64_t w = ways[i + 1][need - v];
            if (idx < w) {
                out[k] = (uint8_t)(out[k] + v);
                need -= v;
                break;
            }
            idx -= w;
        }
    }
}

int sj__follow_pick(const sj_rules *r, const sj_lead *lead, const uint8_t *H, int hn,
                    uint64_t *rng, uint8_t *out)
{
    int n = lead->n, s = SU(lead->esuit);
    if (n == 1) {
        /* one card: any held card of the suit, else any held card (ascending id) */
        uint8_t in_suit[SJ_NK], any[SJ_NK];
        int ns = 0, na = 0;
        for (int k = 0; k < SJ_NK; k++)
            if (H[k]) {
                any[na++] = (uint8_t)k;
                if (r->esuit[k] == s)
                    in_suit[ns++] = (uint8_t)k;
            }
        if (!na)
            return SJ_ERR_SIZE;
        memset(out, 0, SJ_NK);
        if (ns)
            out[in_suit[sj__below(rng, (uint64_t)ns)]] = 1;
        else
            out[any[sj__below(rng, (uint64_t)na)]] = 1;
        return SJ_OK;
    }
    enum_t en;
    search_t fs;
    memset(&en, 0, sizeof en);
    int rc = follows_prepare(r, lead, H, hn, &en, &fs);
    if (rc >= 0 && en.need < 0)
        rc = SJ_ERR_SIZE;
    if (rc >= 0 && !en.nf) {
        uint64_t total = count_subsets(&en, en.need);
        unrank_subset(&en, en.need, sj__below(rng, total), out);
    } else if (rc >= 0) {
        rc = enum_rec(&en, 0, en.need); /* count */
        if (rc >= 0 && en.total == 0)
            rc = SJ_ERR_LIMIT; /* cannot happen: the hand itself supplies what is asked */
        if (rc >= 0) {
            en.select = sj__below(rng, en.total);
            en.have_select = 1;
            en.total = 0;
            en.nodes = 0;
            en.out = out;
            rc = enum_rec(&en, 0, en.need);
            rc = rc < 0 ? rc : SJ_OK;
        }
    }
    search_free(&fs);
    enum_free(&en);
    return rc < 0 ? rc : SJ_OK;
}

/* ---------------------------------------------------------------- throws §6 */

int sj_check_throw(const sj_rules *r, const sj_lead *lead, const uint8_t *others, int nothers,
                   int m, sj_throw_result *out, sj_err *e)
{
    if (!rules_ok(r))
        return fail(e, SJ_ERR_CONTEXT, SJ_ARG_RULES, -1, -1, -1, 0, 0);
    int rc = lead_ok(r, lead, e);
    if (rc)
        return rc;
    if (!out || m < 0 || m > 64 || (m > 0 && !others) || nothers != m * SJ_NK)
        return fail(e, SJ_ERR_ARG, SJ_ARG_OTHERS, -1, -1, nothers, m, 0);
    memset(out, 0, sizeof *out);
    out->valid = 1;
    out->blocker = -1;
    int s = lead->esuit;
    uint8_t (*H)[64] = calloc((size_t)(m ? m : 1), 64);
    if (!H)
        return fail(e, SJ_ERR_MEMORY, SJ_ARG_OTHERS, -1, -1, -1, 0, 0);
    for (int j = 0; j < m; j++) {
        int t;
        if ((rc = load(r, others + (size_t)j * SJ_NK, SJ_NK, H[j], &t, SJ_ARG_OTHERS, j, e))) {
            free(H);
            return rc;
        }
        /* only the led suit can beat a throw: trumps never block one */
        for (int k = 0; k < SJ_NK; k++)
            if (r->esuit[k] != s)
                H[j][k] = 0;
    }
    if (lead->ncomp < 2) {
        free(H);
        return SJ_OK;
    }
    /* per beaten shape its lowest beaten component: the last of that shape (§6) */
    int cand[SJ_MAX_OPTIONS], nc = 0;
    for (int i = 0; i < lead->ncomp; i++) {
        const sj_comp *ci = &lead->comps[i];
        int beaten = 0;
        for (int j = 0; j < m && !beaten; j++)
            beaten = max_top(r, s, H[j], ci->w, ci->len) > ci->top;
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
    /* lowest top strength first; ties: smaller key (cards, w), then lower position */
    for (int a = 1; a < nc; a++)
        for (int b = a; b > 0; b--) {
            const sj_comp *x = &lead->comps[cand[b - 1]], *y = &lead->comps[cand[b]];
            long kx = ((long)x->top * 256 + x->w * x->len * 8 + x->w) * 64 +
                      K(lead->kinds[x->first % SJ_MAXCARDS]);
            long ky = ((long)y->top * 256 + y->w * y->len * 8 + y->w) * 64 +
                      K(lead->kinds[y->first % SJ_MAXCARDS]);
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
        if (max_top(r, s, H[j], f->w, f->len) > f->top) {
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
} match_t;

static int match_comp(match_t *mt, int i, int prev_top);

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

static int highest_strength(const sj_rules *r, const uint8_t *p)
{
    int best = -1;
    for (int k = 0; k < SJ_NK; k++)
        if (p[k] && r->strength[k] > best)
            best = r->strength[k];
    return best;
}

static int ruff_beats(const sj_rules *r, int ncomp, const int *v, const int *cur,
                      const uint8_t *p, const uint8_t *pcur)
{
    switch (r->ruff_compare) {
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

/* The winner among m plays (64-entry counts, sizes already equal), F = P[0]'s
 * decomposition: an index, or < 0 on error. */
int sj__winner(const sj_rules *r, const sj_lead *F, const uint8_t (*P)[64], int m)
{
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
    for (int j = 1; j < m; j++) {
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
        rc = match(r, F, SJ_TRUMP, P[j], v);
        if (rc < 0)
            return rc;
        if (rc == 1 && (!win_ruff || ruff_beats(r, F->ncomp, v, cur, P[j], P[win]))) {
            win = j;
            win_ruff = 1;
            memcpy(cur, v, sizeof(int) * (size_t)F->ncomp);
        }
    }
    return win;
}

int sj_trick_winner(const sj_rules *r, const uint8_t *plays, int nplays, int m, sj_err *e)
{
    if (!rules_ok(r))
        return fail(e, SJ_ERR_CONTEXT, SJ_ARG_RULES, -1, -1, -1, 0, 0);
    if (m < 2 || m > 64 || !plays || nplays != m * SJ_NK)
        return fail(e, SJ_ERR_ARG, SJ_ARG_PLAYS, -1, -1, nplays, m, 0);
    uint8_t (*P)[64] = malloc(sizeof(*P) * (size_t)m);
    sj_lead *F = malloc(sizeof *F);
    int rc = SJ_OK, n0 = 0;
    if (!P || !F) {
        rc = fail(e, SJ_ERR_MEMORY, SJ_ARG_PLAYS, -1, -1, -1, 0, 0);
        goto out;
    }
    for (int j = 0; j < m; j++) {
        int n;
        if ((rc = load(r, plays + (size_t)j * SJ_NK, SJ_NK, P[j], &n, SJ_ARG_PLAYS, j, e)))
            goto out;
        if (j == 0)
            n0 = n;
        else if (n != n0) {
            rc = fail(e, SJ_ERR_SIZE, SJ_ARG_PLAYS, j, -1, n, n0, 0);
            goto out;
        }
    }
    if ((rc = decompose(r, P[0], n0, F, SJ_ARG_PLAYS, 0, e)))
        goto out;
    rc = sj__winner(r, F, (const uint8_t (*)[64])P, m);
    if (rc < 0)
        rc = fail(e, rc, SJ_ARG_PLAYS, rc == SJ_ERR_ARG ? 0 : -1, -1, -1, 0, 0);
out:
    free(P);
    free(F);
    return rc;
}

/* ---------------------------------------------------------------- kitty §8 */

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
        if (len == 1)
            return r->kitty_table[(w - 1) & 3];
        return r->kitty_table[w == 2 ? 4 : 5];
    case SJ_KITTY_TWICE_SIZE:
        return 2LL * cards;
    default:
        return cards >= 31 ? r->kitty_cap
                           : ((1LL << cards) < r->kitty_cap ? (1LL << cards) : r->kitty_cap);
    }
}

int sj_kitty_multiplier(const sj_rules *r, const uint8_t *play, int nplay, const sj_lead *lead,
                        sj_err *e)
{
    if (!rules_ok(r))
        return fail(e, SJ_ERR_CONTEXT, SJ_ARG_RULES, -1, -1, -1, 0, 0);
    uint8_t P[64];
    int n, rc;
    if ((rc = load(r, play, nplay, P, &n, SJ_ARG_PLAY, -1, e)))
        return rc;
    sj_lead own;
    if (lead) {
        if ((rc = lead_ok(r, lead, e)))
            return rc;
        if (n != lead->n)
            return fail(e, SJ_ERR_SIZE, SJ_ARG_PLAY, -1, -1, n, lead->n, 0);
    } else {
        if ((rc = decompose(r, P, n, &own, SJ_ARG_PLAY, -1, e)))
            return rc;
        lead = &own;
    }
    return sj__kitty(r, lead);
}

int sj__kitty(const sj_rules *r, const sj_lead *lead)
{
    long long best = 1;
    for (int i = 0; i < lead->ncomp && i < SJ_MAXCARDS; i++) {
        long long v = kitty_value(r, lead->comps[i].w, lead->comps[i].len);
        if (v > best)
            best = v;
    }
    return best > INT_MAX ? INT_MAX : (int)best;
}
