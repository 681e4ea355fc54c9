/* Following (§4) and legal follows (§5): the shape search both share, the check of one
 * follow, the enumeration of all legal follows and the playout's random pick among them.
 */
#include "shengji_core.h"
#include "sj_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FINALS 4096
/* enumeration nodes one sj_legal_follows call may spend (about 0.1 s): beyond it the
 * listing stops and the total is reported as a lower bound (docs/semantics.md §5) */
#define FOLLOW_BUDGET 2000000L
#define MEMO_CAP 8192u
#define PACK_BUDGET 1000000L /* nodes of one plain packing search (five packs and more) */
#define MEMO_AFTER 512 /* nodes before the memo is worth allocating */
#define KEYLEN 56

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
    uint8_t suit_left[64]; /* the hand's cards of the led suit, less those used so far */
    uint8_t play_left[64]; /* the play's cards, less those used so far (follow check) */
    uint8_t used[64];      /* cards used so far (collection of legal follows) */
    int usedn;
    long nodes, budget;
    long leaves;
    int oom;
    memo_t memo;
    /* first shape failure met, for the message */
    int have_fail, fail_comp;
    sj_pattern fail_pat;
    /* genuine_tuples (follow check): the hand's and the play's cards of the suit, and
     * the plain tuples of each width the components asked along the current path */
    uint8_t hand0[64], play0[64];
    int slots[SJ_MAX_DECKS + 1];
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

/* genuine_tuples (shengji.io PR #512, with LONGER_TUPLES protection): the plain w-tuples
 * the path asked that the play does not give as kinds it holds exactly w of must not be
 * suppliable, as kinds held exactly w times, by the hand's cards outside the play. */
static int genuine_ok(const search_t *fs)
{
    const sj_rules *r = fs->r;
    if (!r->genuine_tuples ||
        !(r->protection == SJ_PROTECT_LONGER_TUPLES || r->protection == SJ_PROTECT_BOTH))
        return 1;
    for (int w = 2; w <= SJ_MAX_DECKS; w++) {
        if (!fs->slots[w])
            continue;
        int covered = 0, spare = 0;
        for (int k = 0; k < SJ_NK; k++) {
            covered += fs->play0[k] == w;
            spare += fs->hand0[k] - fs->play0[k] == w;
        }
        if (fs->slots[w] > covered && spare >= fs->slots[w] - covered)
            return 0;
    }
    return 1;
}

static void count_slots(search_t *fs, const sj_pattern *p, int sign)
{
    for (int j = 0; j < p->n_shapes && j < SJ_PAT_SHAPES; j++)
        if (p->shapes[j].len == 1 && p->shapes[j].w >= 2 && p->shapes[j].w <= SJ_MAX_DECKS)
            fs->slots[p->shapes[j].w] += sign;
}

static void take(search_t *fs, const job_t *jb, int k, int w)
{
    switch (jb->mode) {
    case M_EXISTS:
        jb->c[k] = (uint8_t)(jb->c[k] - w);
        break;
    case M_FOLLOW:
        fs->play_left[k] = (uint8_t)(fs->play_left[k] - w);
        fs->suit_left[k] = (uint8_t)(fs->suit_left[k] - w);
        break;
    default:
        fs->suit_left[k] = (uint8_t)(fs->suit_left[k] - w);
        fs->used[k] = (uint8_t)(fs->used[k] + w);
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
        fs->play_left[k] = (uint8_t)(fs->play_left[k] + w);
        fs->suit_left[k] = (uint8_t)(fs->suit_left[k] + w);
        break;
    default:
        fs->suit_left[k] = (uint8_t)(fs->suit_left[k] + w);
        fs->used[k] = (uint8_t)(fs->used[k] - w);
        fs->usedn -= w;
    }
}

static const uint8_t *source(search_t *fs, const job_t *jb)
{
    return jb->mode == M_EXISTS ? jb->c : jb->mode == M_FOLLOW ? fs->play_left : fs->suit_left;
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
            return genuine_ok(fs);
        if (fs->nodes < MEMO_AFTER || fs->r->genuine_tuples)
            return follow_from(fs, jb->comp + 1); /* genuine_tuples: paths differ in slots */
        if (memo_visit(&fs->memo, jb->comp + 1, fs->play_left, &oom))
            return 0; /* explored before and failed (success ends the search) */
        if (oom)
            return SJ_ERR_MEMORY;
        return follow_from(fs, jb->comp + 1);
    default:
        if (fs->nodes >= MEMO_AFTER && memo_visit(&fs->memo, jb->comp + 1, fs->used, &oom))
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
    if (++fs->nodes > fs->budget)
        return SJ_ERR_LIMIT;
    if (j >= jb->p->n_shapes || j >= SJ_PAT_SHAPES)
        return leaf(fs, jb);
    const sj_rules *r = fs->r;
    const sj_shape sh = jb->p->shapes[j];
    if (!sj__shape_exists(r, sh.w, sh.len))
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

/* plain tuples only (need[w] tuples of width w): a counting argument instead of search
 * while every width and count is at most 4; 1, 0 or SJ_ERR_LIMIT */
static int plain_feasible(const sj_rules *r, int s, const uint8_t *c, const int *need, int strict)
{
    int cnt[SJ_MAX_DECKS + 1] = {0};
    int hi = r->str_hi[SU(s)] & 63;
    for (int t = 0; t < hi; t++) {
        int n = r->lev_n[SU(s)][t] & 7;
        for (int x = 0; x < n && x < 4; x++) {
            int v = c[K(r->lev_kinds[SU(s)][t][x])];
            if (v >= 1 && v <= SJ_MAX_DECKS)
                cnt[v]++;
        }
    }
    if (strict) {
        for (int v = 2; v <= SJ_MAX_DECKS; v++)
            if (need[v] > cnt[v])
                return 0;
        return 1;
    }
    int wide = 0;
    for (int v = 5; v <= SJ_MAX_DECKS; v++)
        wide |= need[v] | cnt[v];
    if (wide) {
        int nd[SJ_MAX_DECKS + 1];
        long budget = PACK_BUDGET;
        for (int v = 0; v <= SJ_MAX_DECKS; v++)
            nd[v] = need[v];
        return sj__pack_tuples(cnt, nd, &budget);
    }
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
    int need[SJ_MAX_DECKS + 1] = {0}, plain = 1;
    for (int j = 0; j < p->n_shapes && j < SJ_PAT_SHAPES; j++) {
        const sj_shape sh = p->shapes[j];
        if (!sj__shape_exists(fs->r, sh.w, sh.len))
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

/* pattern = the tractors t[0..nt-1], then need[v] plain v-tuples (v = 4..2) */
static void grouped_pattern(const sj_shape *t, int nt, const int *need, sj_pattern *out)
{
    int n = 0;
    for (int i = 0; i < nt && n < SJ_PAT_SHAPES; i++)
        out->shapes[n++] = t[i];
    for (int v = SJ_MAX_DECKS; v >= 2; v--)
        for (int c = 0; c < need[v] && n < SJ_PAT_SHAPES; c++) {
            out->shapes[n].w = (uint8_t)v;
            out->shapes[n].len = 1;
            n++;
        }
    out->n_shapes = (uint8_t)n;
}

/* §4 default ladder, inside the group of the plain tuples `plain` (the first group suit_left
 * can supply): its groupings into tractors come before the plain pattern, ordered by
 * their list of tractors, largest (cards, width) first, lexicographically, a longer
 * list first. A list can be extended iff suit_left supplies it with the rest as plain tuples
 * (splitting tractors into tuples keeps a pattern suppliable), so the first grouping
 * suit_left supplies is found greedily. Returns 1 with *out filled, 0 (no tractor), < 0 error. */
static int group_tractors(search_t *fs, const sj_pattern *plain, int strict, sj_pattern *out)
{
    const sj_rules *r = fs->r;
    int need[SJ_MAX_DECKS + 1] = {0};
    for (int j = 0; j < plain->n_shapes && j < SJ_PAT_SHAPES; j++)
        if (plain->shapes[j].w >= 2 && plain->shapes[j].w <= SJ_MAX_DECKS)
            need[plain->shapes[j].w]++;
    const int vmax = r->max_tuple > 4 ? r->max_tuple : 4;
    sj_shape chosen[SJ_PAT_SHAPES];
    int nt = 0, prev_cards = INT_MAX, prev_w = INT_MAX;
    sj_pattern trial;
    for (;;) {
        int best_v = 0, best_k = 0, found = 0;
        /* candidates (v, k) by (cards, v) descending, not above the previous choice */
        for (int cards = vmax * SJ_PAT_SHAPES; cards >= 4 && !found; cards--) {
            for (int v = vmax; v >= 2 && !found; v--) {
                if (cards % v || cards / v < 2 || cards / v > need[v])
                    continue;
                int k = cards / v;
                if (cards > prev_cards || (cards == prev_cards && v > prev_w))
                    continue;
                if (!sj__shape_exists(r, v, k) || nt >= SJ_PAT_SHAPES)
                    continue;
                chosen[nt].w = (uint8_t)v;
                chosen[nt].len = (uint8_t)k;
                need[v] -= k;
                grouped_pattern(chosen, nt + 1, need, &trial);
                int rc = can_supply(fs, fs->suit_left, &trial, strict);
                need[v] += k;
                if (rc < 0)
                    return rc;
                if (rc) {
                    found = 1;
                    best_v = v;
                    best_k = k;
                }
            }
        }
        if (!found)
            break;
        need[best_v] -= best_k;
        nt++;
        prev_cards = best_v * best_k;
        prev_w = best_v;
    }
    if (nt == 0)
        return 0;
    grouped_pattern(chosen, nt, need, out);
    return 1;
}

/* does the pattern hold a tractor (a shape of length 2 or more)? */
static int has_tractor(const sj_pattern *p)
{
    for (int j = 0; j < p->n_shapes && j < SJ_PAT_SHAPES; j++)
        if (p->shapes[j].len >= 2)
            return 1;
    return 0;
}

/* The pattern component i asks of the follower, given what suit_left still holds (§4 step 3).
 * Returns 1 with *out filled, 0 when the component asks nothing, < 0 on error. */
static int required(search_t *fs, int w, int len, sj_pattern *out)
{
    const sj_rules *r = fs->r;
    if (r->protection == SJ_PROTECT_NO_SHAPE)
        return 0; /* only the suit is followed */
    int strict = r->protection == SJ_PROTECT_LONGER_TUPLES || r->protection == SJ_PROTECT_BOTH;
    /* throw_following tuples: no component of a throw asks for a tractor */
    int tuples_only = fs->lead->ncomp > 1 && r->throw_following == SJ_THROWFOLLOW_TUPLES;
    for (int i = 0; i < r->n_ladders && i < SJ_MAX_LADDERS; i++) {
        const sj_ladder *ld = &r->ladders[i];
        if (ld->lead.w != w || ld->lead.len != len)
            continue;
        for (int p = 0; p < ld->n_patterns && p < SJ_LADDER_PATS; p++) {
            const sj_pattern *pt = &ld->patterns[p];
            if (tuples_only && has_tractor(pt))
                continue;
            if (pt->n_shapes == 0)
                return 0;
            int rc = can_supply(fs, fs->suit_left, pt, strict);
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
    if (!(w == 1 && len == 1) && w <= r->max_tuple && !(tuples_only && len >= 2)) {
        out->n_shapes = 1;
        out->shapes[0].w = (uint8_t)w;
        out->shapes[0].len = (uint8_t)len;
        int rc = can_supply(fs, fs->suit_left, out, strict);
        if (rc)
            return rc;
        out->n_shapes = 0;
    }
    int top = w < r->max_tuple ? w : r->max_tuple;
    int budget = w * len, need[SJ_MAX_DECKS + 1] = {0};
    while (out->n_shapes < SJ_PAT_SHAPES) {
        int got = 0;
        for (int v = top < budget ? top : budget; v >= 2; v--) {
            need[v]++;
            int rc = plain_feasible(r, fs->s, fs->suit_left, need, strict);
            if (rc < 0)
                return rc;
            if (rc) {
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
    /* tractors inside that group: for a led tractor when shorter tractors are asked for,
     * for a led tuple unless only tractors draw tractors */
    int adjacency = len >= 2 ? r->shorter_tractors
                             : r->protection == SJ_PROTECT_NONE ||
                                   r->protection == SJ_PROTECT_LONGER_TUPLES;
    if (adjacency && !tuples_only && r->tractors && out->n_shapes >= r->tractor_min_length) {
        sj_pattern plain = *out;
        int rc = group_tractors(fs, &plain, strict, out);
        if (rc)
            return rc;
        *out = plain;
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
        return genuine_ok(fs);
    job_t jb = {M_FOLLOW, 0, i, &pat, NULL};
    long before = fs->leaves;
    count_slots(fs, &pat, 1);
    int rc = place(fs, &jb, 0, INT_MAX);
    count_slots(fs, &pat, -1);
    if (rc == 0 && fs->leaves == before && !fs->have_fail) {
        fs->have_fail = 1;
        fs->fail_comp = i;
        fs->fail_pat = pat;
    }
    return rc;
}

/* a requirement set (the cards a way of following uses) kept once: 0, or < 0 */
static int add_final(search_t *fs, const uint8_t *used)
{
    int oom = 0;
    if (fs->nfinals < 32) {
        for (int f = 0; f < fs->nfinals; f++)
            if (!memcmp(fs->finals[f], used, 64))
                return 0;
    } else if (memo_visit(&fs->fset, 0, used, &oom)) {
        return 0;
    }
    if (oom)
        return SJ_ERR_MEMORY;
    if (fs->nfinals == 31) { /* from now on the set is hashed: enter all so far */
        for (int f = 0; f < fs->nfinals; f++)
            memo_visit(&fs->fset, 0, fs->finals[f], &oom);
        memo_visit(&fs->fset, 0, used, &oom);
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
    memcpy(fs->finals[fs->nfinals++], used, 64);
    return 0;
}

static int collect_from(search_t *fs, int i)
{
    sj_pattern pat;
    i = next_asking(fs, i, &pat);
    if (i < 0)
        return i;
    if (i >= fs->lead->ncomp)
        return add_final(fs, fs->used);
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
    fs->budget = NODE_BUDGET;
}

static void search_free(search_t *fs)
{
    free(fs->memo.keys);
    free(fs->fset.keys);
    free(fs->finals);
}

/* ---------------------------------------------------------------- bombs §4, §7 */

static int follow_ok_normally(const sj_rules *r, const sj_lead *lead, const uint8_t *H,
                              int hn, const uint8_t *P);

int sj__bomb_kind(const sj_rules *r, const uint8_t *P, int n)
{
    if (r->bombs == SJ_BOMBS_NONE || n < 4)
        return -1;
    for (int k = 0; k < SJ_NK; k++)
        if (P[k])
            return P[k] == n ? k : -1;
    return -1;
}

/* may a bomb of kind k follow whatever the hand holds of the led suit esuit? */
static int bomb_suit_free(const sj_rules *r, int k, int esuit)
{
    return r->bombs == SJ_BOMBS_ANY_SUIT || r->esuit[k] == esuit ||
           (r->bombs == SJ_BOMBS_FOLLOW_SUIT_OR_TRUMP && r->esuit[k] == SJ_TRUMP);
}

int sj__bomb_exempt(const sj_rules *r, const sj_lead *lead, const uint8_t *P)
{
    if (lead->esuit == SJ_RAINBOW)
        return 0; /* a rainbow is followed by its own rule (shengji.io: before bombs) */
    int k = sj__bomb_kind(r, P, lead->n);
    if (k < 0)
        return 0;
    return bomb_suit_free(r, k, lead->esuit);
}

/* The bombs H holds that are legal follows only as bombs (§4 is not met by them), in
 * canonical order (lower kind first): their kinds into ks, the count returned. */
static int extra_bombs(const sj_rules *r, const sj_lead *lead, const uint8_t *H, int hn,
                       uint8_t *ks)
{
    int n = lead->n, nb = 0;
    if (r->bombs == SJ_BOMBS_NONE || n < 4 || lead->esuit == SJ_RAINBOW)
        return 0;
    for (int k = 0; k < SJ_NK; k++) {
        if (H[k] < n || !bomb_suit_free(r, k, lead->esuit))
            continue;
        uint8_t P[64];
        memset(P, 0, sizeof P);
        P[k] = (uint8_t)n;
        int rc = follow_ok_normally(r, lead, H, hn, P);
        if (rc < 0)
            return rc;
        if (rc == 0)
            ks[nb++] = (uint8_t)k;
    }
    return nb;
}

/* ---------------------------------------------------------------- following §4 */

/* §4 steps 2-3 for a play P of the lead's size taken from H (64-entry counts): a follow
 * reason (SJ_FOLLOW_OK, SJ_MUST_FOLLOW_SUIT, SJ_MUST_FOLLOW_SHAPE; info filled when not
 * NULL) or < 0 on error. Bombs are not looked at. */
static int follow_normally(const sj_rules *r, const sj_lead *lead, const uint8_t *H,
                           const uint8_t *P, sj_follow_info *info)
{
    if (lead->esuit == SJ_RAINBOW)
        return sj__rainbow_follow(lead, H, P);
    int n = lead->n, s = lead->esuit, h = 0, pe = 0;
    for (int k = 0; k < SJ_NK; k++)
        if (r->esuit[k] == s) {
            h += H[k];
            pe += P[k];
        }
    if (h >= n ? pe != n : pe != h) {
        if (info)
            info->count = h;
        return SJ_MUST_FOLLOW_SUIT;
    }
    if (h <= n)
        return SJ_FOLLOW_OK;
    if (r->follow_requirements == SJ_FOLLOWREQ_SHENGJI_IO) {
        if (r->protection == SJ_PROTECT_NO_SHAPE)
            return SJ_FOLLOW_OK; /* NoFormatBasedDraw: the suit only */
        int rc = sj__sio_follow(r, lead, H, P);
        return rc < 0 ? rc : rc ? SJ_FOLLOW_OK : SJ_MUST_FOLLOW_SHAPE;
    }
    search_t fs;
    search_init(&fs, r, lead);
    for (int k = 0; k < SJ_NK; k++)
        if (r->esuit[k] == s) {
            fs.suit_left[k] = H[k];
            fs.play_left[k] = P[k];
            fs.hand0[k] = H[k];
            fs.play0[k] = P[k];
        }
    int rc = follow_from(&fs, 0);
    search_free(&fs);
    if (rc < 0)
        return rc;
    if (rc)
        return SJ_FOLLOW_OK;
    if (info && fs.have_fail) {
        info->comp = fs.fail_comp;
        info->pattern = fs.fail_pat;
    }
    return SJ_MUST_FOLLOW_SHAPE;
}

static int follow_ok_normally(const sj_rules *r, const sj_lead *lead, const uint8_t *H,
                              int hn, const uint8_t *P)
{
    (void)hn;
    int rc = follow_normally(r, lead, H, P, NULL);
    return rc < 0 ? rc : rc == SJ_FOLLOW_OK;
}

int sj_check_follow(const sj_rules *r, const sj_lead *lead, const uint8_t *hand, int nhand,
                    const uint8_t *play, int nplay, sj_follow_info *info, sj_err *e)
{
    if (!sj__rules_ok(r))
        return sj__fail(e, SJ_ERR_CONTEXT, SJ_ARG_RULES, -1, -1, -1, 0, 0);
    int rc = sj__lead_ok(r, lead, e);
    if (rc)
        return rc;
    uint8_t H[64], P[64];
    int hn, pn;
    if ((rc = sj__load(r, hand, nhand, H, &hn, SJ_ARG_HAND, -1, e)) ||
        (rc = sj__load(r, play, nplay, P, &pn, SJ_ARG_PLAY, -1, e)))
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
    if (pn != lead->n) {
        info->count = pn;
        return info->reason = SJ_WRONG_COUNT;
    }
    if (sj__bomb_exempt(r, lead, P))
        return SJ_FOLLOW_OK; /* a bomb the rules let through whatever was led */
    rc = follow_normally(r, lead, H, P, info);
    if (rc < 0)
        return sj__fail(e, rc, SJ_ARG_PLAY, -1, -1, -1, 0, 0);
    return info->reason = rc;
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
    uint64_t *ok;            /* [nkl][SJ_MAX_DECKS + 1][words]: sets still met after taking v of kl[i] */
    uint64_t *zero;          /* [nkl+1][words]: sets needing nothing from kl[i..] */
    uint64_t *alive;         /* [nkl+1][words] */
    uint8_t cur[64];
    uint8_t *out;
    int cap, nout, stop_at_cap;
    uint64_t select;         /* with have_select: copy the follow of this index to out */
    int have_select;
    uint64_t total;
    long nodes, budget;
    const sj_lead *rainbow;  /* a rainbow lead the hand can follow: keep the follows that can */
    const sj_rules *genuine; /* genuine_tuples: each follow met is checked in full (§4) */
    const sj_lead *lead;
    const uint8_t *hand;
    int inexact;             /* the requirement sets are only a part of them (budget) */
    sj_sio *sio;             /* follow_requirements shengji_io: its judgement of this hand */
    int sio_check;           /* ... asked of each follow met (not closed under the sets) */
} enum_t;

/* the follows are filtered (requirement sets, or a rainbow) rather than any cards */
#define FILTERED(en) ((en)->nf || (en)->rainbow || (en)->sio_check)

/* Follows come out in one canonical order: kinds ascending, more copies first, i.e.
 * the 54-count vectors in descending lexicographic order (the playout policy relies
 * on it, see shengji/playout.py). */
static int enum_rec(enum_t *en, int i, int need)
{
    if (++en->nodes > en->budget)
        return SJ_ERR_LIMIT;
    uint64_t *alive = en->alive + (size_t)i * en->words;
    if (need == 0) {
        if (en->rainbow) {
            int ok = sj__rainbow_assignable(en->rainbow, en->cur);
            if (ok <= 0)
                return ok;
        }
        if (en->nf) {
            const uint64_t *z = en->zero + (size_t)i * en->words;
            int met = 0;
            for (int w = 0; w < en->words && !met; w++)
                met = (alive[w] & z[w]) != 0;
            if (!met)
                return 0;
        }
        if (en->genuine) { /* legality is no longer closed under adding cards */
            uint8_t P[64];
            memset(P, 0, sizeof P);
            for (int k = 0; k < SJ_NK; k++)
                P[k] = (uint8_t)(en->base[k] + en->cur[k]);
            int rc = follow_normally(en->genuine, en->lead, en->hand, P, NULL);
            if (rc < 0)
                return rc;
            if (rc != SJ_FOLLOW_OK)
                return 0;
        }
        if (en->sio_check) {
            uint8_t P[64];
            memset(P, 0, sizeof P);
            for (int k = 0; k < SJ_NK; k++)
                P[k] = (uint8_t)(en->base[k] + en->cur[k]);
            int rc = sj__sio_judge(en->sio, P);
            if (rc <= 0)
                return rc;
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
            const uint64_t *okv = en->ok + ((size_t)i * (SJ_MAX_DECKS + 1) + v) * en->words;
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
    sj__sio_close(en->sio);
    en->sio = NULL;
}

static int add_final_cb(void *fs, const uint8_t *used)
{
    return add_final((search_t *)fs, used);
}

/* follow_requirements shengji_io: the requirement sets are the ways of supplying the
 * requirements a legal follow may meet first (sj__sio_collect); with the protection a
 * play meeting one can still be refused (shengji.io's genuine-tuple guard, or an earlier
 * requirement), so each follow met is judged in full. When the sets are too many, or any
 * play of the suit may do, every play is judged. */
static int sio_prepare(const sj_rules *r, const sj_lead *lead, const uint8_t *H, enum_t *en,
                       search_t *fs)
{
    int rc = sj__sio_open(r, lead, H, en->budget, &en->sio);
    if (rc < 0)
        return rc;
    int all = 0;
    rc = sj__sio_collect(en->sio, add_final_cb, fs, &all);
    if (rc == SJ_ERR_LIMIT || all || (rc >= 0 && fs->nfinals == 0)) {
        fs->nfinals = 0;
        en->sio_check = 1;
        return 0;
    }
    if (rc < 0)
        return rc;
    en->nf = fs->nfinals;
    en->sio_check = r->protection == SJ_PROTECT_LONGER_TUPLES || r->protection == SJ_PROTECT_BOTH;
    return 0;
}

/* Everything the enumeration needs from (lead, hand H of hn cards): base, avail, need
 * and, when the shape asks something (§4 step 3), the requirement bitsets. */
static int follows_prepare(const sj_rules *r, const sj_lead *lead, const uint8_t *H, int hn,
                           enum_t *en, search_t *fs, int partial_ok)
{
    int n = lead->n, s = lead->esuit, h = 0, rc = 0;
    if (!en->budget)
        en->budget = NODE_BUDGET;
    for (int k = 0; k < SJ_NK; k++)
        if (r->esuit[k] == s)
            h += H[k];
    search_init(fs, r, lead);
    fs->budget = en->budget;
    if (s == SJ_RAINBOW) {
        /* no suit to follow: any n cards, those that give the units when the hand can */
        memcpy(en->avail, H, 64);
        en->need = hn < n ? -1 : n;
        rc = sj__rainbow_assignable(lead, H);
        if (rc < 0)
            return rc;
        if (rc)
            en->rainbow = lead;
        rc = 0;
    } else if (h <= n) {
        /* all the suit's cards, and anything else to make up the count */
        for (int k = 0; k < SJ_NK; k++) {
            if (r->esuit[k] == s)
                en->base[k] = H[k];
            else
                en->avail[k] = H[k];
        }
        en->need = hn < n ? -1 : n - h;
    } else if (r->follow_requirements == SJ_FOLLOWREQ_SHENGJI_IO &&
               r->protection != SJ_PROTECT_NO_SHAPE) {
        for (int k = 0; k < SJ_NK; k++)
            if (r->esuit[k] == s)
                en->avail[k] = H[k];
        en->need = n;
        rc = sio_prepare(r, lead, H, en, fs);
        if (rc < 0)
            return rc;
    } else {
        for (int k = 0; k < SJ_NK; k++)
            if (r->esuit[k] == s)
                en->avail[k] = H[k];
        en->need = n;
        memcpy(fs->suit_left, en->avail, 64);
        rc = collect_from(fs, 0);
        if (rc == SJ_ERR_LIMIT && partial_ok && fs->nfinals > 0)
            en->inexact = 1; /* too many ways to follow: the ones found so far */
        else if (rc < 0)
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
        if (en->nf && r->genuine_tuples &&
            (r->protection == SJ_PROTECT_LONGER_TUPLES || r->protection == SJ_PROTECT_BOTH)) {
            en->genuine = r;
            en->lead = lead;
            en->hand = H;
        }
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
        en->ok = calloc((size_t)en->nkl * (SJ_MAX_DECKS + 1) * words, sizeof(uint64_t));
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
                /* enum_rec takes v <= avail[k] of kind k: only those entries are read */
                for (int v = fs->finals[f][k]; v <= en->avail[k] && v <= SJ_MAX_DECKS; v++)
                    en->ok[((size_t)i * (SJ_MAX_DECKS + 1) + v) * words + w] |= bit;
            }
        }
    }
    return 0;
}

/* One legal follow built directly (when the budget ran out before the enumeration met
 * any): the cards of the first requirement set, or of the rainbow's units, then filler
 * from the kinds in ascending order. */
static void first_follow(const enum_t *en, const search_t *fs, const uint8_t *H, uint8_t *out)
{
    uint8_t take[64];
    memset(take, 0, sizeof take);
    int left = en->need;
    if (en->nf && fs->nfinals > 0) {
        for (int k = 0; k < SJ_NK; k++) {
            take[k] = fs->finals[0][k];
            left -= take[k];
        }
    } else if (en->rainbow) {
        /* units from the largest, each from the highest rank that still has enough */
        int t[13];
        for (int q = 0; q < 13; q++)
            t[q] = H[q] + H[13 + q] + H[26 + q] + H[39 + q];
        for (int i = 0; i < en->rainbow->ncomp && i < 13; i++) {
            int c = en->rainbow->comps[i].w, q = 12;
            while (q >= 0 && t[q] - (take[q] + take[13 + q] + take[26 + q] + take[39 + q]) < c)
                q--;
            for (int s = 0; s < 4 && q >= 0 && c > 0; s++) {
                int k = s * 13 + q, v = H[k] - take[k];
                v = v < c ? v : c;
                take[k] = (uint8_t)(take[k] + v);
                c -= v;
                left -= v;
            }
        }
    }
    for (int i = 0; i < en->nkl && left > 0; i++) {
        int k = en->kl[i], v = en->avail[k] - take[k];
        v = v < left ? v : left;
        take[k] = (uint8_t)(take[k] + v);
        left -= v;
    }
    for (int k = 0; k < SJ_NK; k++)
        out[k] = (uint8_t)(en->base[k] + take[k]);
}

int sj_legal_follows(const sj_rules *r, const sj_lead *lead, const uint8_t *hand, int nhand,
                     uint8_t *out, int out_len, int32_t *n_out, uint64_t *total, int32_t *exact,
                     sj_err *e)
{
    if (!sj__rules_ok(r))
        return sj__fail(e, SJ_ERR_CONTEXT, SJ_ARG_RULES, -1, -1, -1, 0, 0);
    int rc = sj__lead_ok(r, lead, e);
    if (rc)
        return rc;
    if (out_len < 0 || (out_len > 0 && !out) || out_len % SJ_NK)
        return sj__fail(e, SJ_ERR_ARG, SJ_ARG_HAND, -1, -1, out_len, 0, 0);
    uint8_t H[64];
    int hn;
    if ((rc = sj__load(r, hand, nhand, H, &hn, SJ_ARG_HAND, -1, e)))
        return rc;
    enum_t *en = calloc(1, sizeof *en);
    search_t *fs = calloc(1, sizeof *fs);
    if (!en || !fs) {
        free(en);
        free(fs);
        return sj__fail(e, SJ_ERR_MEMORY, SJ_ARG_HAND, -1, -1, -1, 0, 0);
    }
    en->out = out;
    en->cap = out_len / SJ_NK;
    en->budget = FOLLOW_BUDGET;
    rc = follows_prepare(r, lead, H, hn, en, fs, 1);
    if (rc < 0)
        goto done;
    if (en->need < 0) {
        /* the hand holds fewer cards than were led: nothing is legal */
        en->total = 0;
    } else if (!FILTERED(en)) {
        en->stop_at_cap = 1;
        if (en->cap > 0)
            rc = enum_rec(en, 0, en->need);
        if (rc == SJ_ERR_LIMIT) { /* a long listing cut short; the count is still exact */
            en->inexact = 1;
            rc = 0;
        }
        en->total = count_subsets(en, en->need);
    } else {
        rc = enum_rec(en, 0, en->need);
        if (rc == SJ_ERR_LIMIT && !(en->sio_check && en->total == 0)) {
            /* too many follows to count within the budget: what was met so far, a lower
             * bound of the total, and never an empty answer (a hand can always follow).
             * Under shengji_io's judgement (sio_check) no follow is sure before one is
             * judged: with none met, the budget error stands rather than a guess. */
            en->inexact = 1;
            rc = 0;
            if (en->total == 0) {
                if (en->cap > 0) {
                    first_follow(en, fs, H, en->out);
                    en->nout = 1;
                }
                en->total = 1;
            }
        }
    }
    if (rc >= 0 && en->need >= 0) {
        /* bombs the rules let through that §4 alone would not */
        uint8_t ks[SJ_NK];
        int nb = extra_bombs(r, lead, H, hn, ks);
        if (nb < 0)
            rc = nb;
        for (int b = 0; b < nb; b++) {
            if (en->nout < en->cap) {
                uint8_t *dst = en->out + (size_t)en->nout * SJ_NK;
                memset(dst, 0, SJ_NK);
                dst[ks[b]] = (uint8_t)lead->n;
                en->nout++;
            }
            en->total++;
        }
    }
done:
    if (rc >= 0) {
        if (n_out)
            *n_out = en->nout;
        if (total)
            *total = en->total;
        if (exact)
            *exact = !en->inexact;
        rc = SJ_OK;
    } else {
        sj__fail(e, rc, SJ_ARG_HAND, -1, -1, -1, 0, 0);
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

/* the idx-th (< total) follow §4 allows, in canonical order, into out (54 counts) */
static int nth_normal(enum_t *en, uint64_t total, uint64_t idx, uint8_t *out)
{
    if (idx >= total)
        return SJ_ERR_LIMIT;
    if (!FILTERED(en)) {
        unrank_subset(en, en->need, idx, out);
        return SJ_OK;
    }
    en->select = idx;
    en->have_select = 1;
    en->total = 0;
    en->nodes = 0;
    en->out = out;
    int rc = enum_rec(en, 0, en->need);
    return rc < 0 ? rc : SJ_OK;
}

/* how many of the `total` follows §4 allows come before the bomb of kind k (n cards) in
 * canonical order (54-count vectors, descending lexicographic): a binary search, the
 * sequence being strictly descending */
static int bomb_rank(enum_t *en, uint64_t total, int k, int n, uint64_t *g)
{
    uint64_t lo = 0, hi = total;
    uint8_t v[SJ_NK];
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        int rc = nth_normal(en, total, mid, v);
        if (rc < 0)
            return rc;
        int cmp = 0; /* v against the bomb: > 0 when v comes first */
        for (int j = 0; j < SJ_NK && !cmp; j++) {
            int bj = j == k ? n : 0;
            cmp = v[j] > bj ? 1 : v[j] < bj ? -1 : 0;
        }
        if (cmp > 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *g = lo;
    return SJ_OK;
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
    int rc = follows_prepare(r, lead, H, hn, &en, &fs, 0);
    if (rc >= 0 && en.need < 0)
        rc = SJ_ERR_SIZE;
    uint64_t total = 0;
    if (rc >= 0 && !FILTERED(&en)) {
        total = count_subsets(&en, en.need);
    } else if (rc >= 0) {
        rc = enum_rec(&en, 0, en.need); /* count */
        total = en.total;
    }
    uint8_t ks[SJ_NK];
    int nb = 0;
    if (rc >= 0 && (nb = extra_bombs(r, lead, H, hn, ks)) < 0)
        rc = nb;
    if (rc >= 0 && total + (uint64_t)nb == 0)
        rc = SJ_ERR_LIMIT; /* cannot happen: the hand itself supplies what is asked */
    if (rc >= 0) {
        uint64_t x = sj__below(rng, total + (uint64_t)nb), before = 0;
        int picked = -1;
        /* canonical order over all legal follows: each extra bomb sits after the normal
         * follows lexicographically greater than it (g of them) */
        for (int b = 0; b < nb && picked < 0 && rc >= 0; b++) {
            uint64_t g = 0;
            rc = bomb_rank(&en, total, ks[b], lead->n, &g);
            if (x == g + (uint64_t)b)
                picked = b;
            else if (g + (uint64_t)b < x)
                before++;
        }
        if (rc >= 0 && picked >= 0) {
            memset(out, 0, SJ_NK);
            out[ks[picked]] = (uint8_t)lead->n;
        } else if (rc >= 0) {
            rc = nth_normal(&en, total, x - before, out);
        }
    }
    search_free(&fs);
    enum_free(&en);
    return rc < 0 ? rc : SJ_OK;
}
