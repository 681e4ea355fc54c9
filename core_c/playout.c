/* Random-policy playouts of the play phase (the policy: shengji/playout.py), entirely in C.
 *
 * From a position (hands, the trick in progress, points so far) the deal is played to
 * its end: every lead is drawn uniformly from the lead actions the engine lists
 * (shengji.engine.legal.lead_structures) in a documented order, every follow uniformly
 * from the core's legal follows in canonical order, with one splitmix64 draw per
 * decision. Failed throws, penalties, points (5, 10, K) and the kitty bonus follow the
 * engine's built-in hooks, so the Python reference (shengji/playout.py) driving
 * shengji.engine reproduces every result exactly.
 */
#include <string.h>

#include "shengji_core.h"
#include "sj_internal.h"

#define LIMIT_POINTS 1000000 /* |points| bound of a position: no overflow in the sums */

/* an error in the position (sj_err.which = SJ_ARG_POSITION) */
static int perr(sj_err *e, int code, int index, int card, int count)
{
    return sj__fail(e, code, SJ_ARG_POSITION, index, card, count, 0, 0);
}

/* ---------------------------------------------------------------- lead actions
 * Order (the key the Python reference sorts by): effective suit 0..4; within it every
 * structure by (width, length, bottom strength, kinds from the bottom up by ascending
 * id); then the whole suit as a throw, when listed and not itself one structure. */

typedef struct {
    int nk[SJ_MAXSTR];           /* kinds at each strength holding >= w cards */
    uint8_t kinds[SJ_MAXSTR][4]; /* those kinds, ascending id */
    int run[SJ_MAXSTR + 1];      /* consecutive non-empty strengths from t upward */
} level_t;

static void levels(const sj_rules *r, int s, const uint8_t *H, int w, level_t *lv)
{
    int hi = r->str_hi[s] & 63;
    for (int t = 0; t < hi; t++) {
        lv->nk[t] = 0;
        int n = r->lev_n[s][t] & 7;
        for (int x = (n < 4 ? n : 4) - 1; x >= 0; x--) { /* lev_kinds: largest id first */
            int k = r->lev_kinds[s][t][x] & 63;
            if (H[k] >= w)
                lv->kinds[t][lv->nk[t]++] = (uint8_t)k;
        }
    }
    lv->run[hi] = 0;
    for (int t = hi - 1; t >= 0; t--)
        lv->run[t] = lv->nk[t] ? lv->run[t + 1] + 1 : 0;
}

/* Is the whole suit one structure the listing already holds (a tractor)? */
static int suit_is_tractor(const sj_rules *r, int s, const uint8_t *H)
{
    int w = 0, nkinds = 0, lo = SJ_MAXSTR, hi = -1;
    uint64_t seen = 0;
    for (int k = 0; k < SJ_NK; k++) {
        if (!H[k] || r->esuit[k] != s)
            continue;
        if (w && H[k] != w)
            return 0;
        w = H[k];
        int t = r->strength[k] & 63;
        if (seen >> t & 1)
            return 0; /* two kinds at one strength: not one structure */
        seen |= 1ull << t;
        nkinds++;
        lo = t < lo ? t : lo;
        hi = t > hi ? t : hi;
    }
    return nkinds >= 2 && hi - lo + 1 == nkinds && r->tractors && w >= r->tractor_min_width &&
           w <= r->max_tuple && nkinds >= r->tractor_min_length;
}

/* Walk the lead actions of hand H in order. With target < 0 count them; else write the
 * target-th into out. Returns the count (or the target's index). The counting pass
 * only looks at per-suit tallies; strength tables are built where a tractor or the
 * target may be. */
typedef struct {
    int n_suit[5], nkinds[5], widest[5];
    int atleast[5][SJ_MAX_DECKS + 1]; /* [suit][w]: kinds held >= w times */
} tally_t;

static void tally(const sj_rules *r, const uint8_t *H, tally_t *ty)
{
    memset(ty, 0, sizeof *ty);
    for (int k = 0; k < SJ_NK; k++) {
        int c = H[k];
        if (!c)
            continue;
        int s = SU(r->esuit[k]);
        ty->n_suit[s] += c;
        ty->nkinds[s]++;
        ty->widest[s] = c > ty->widest[s] ? c : ty->widest[s];
        for (int w = 1; w <= c && w <= SJ_MAX_DECKS; w++)
            ty->atleast[s][w]++;
    }
}

static uint64_t leads_walk(const sj_rules *r, const uint8_t *H, const tally_t *ty, int throws,
                           int64_t target, uint8_t *out)
{
    const int *n_suit = ty->n_suit, *nkinds = ty->nkinds, *widest = ty->widest;
    const int(*atleast)[SJ_MAX_DECKS + 1] = ty->atleast;
    uint64_t seen = 0;
    int max_w = r->max_tuple;
    int tractors = r->tractors && max_w >= r->tractor_min_width;
    level_t lv;
    for (int s = 0; s <= SJ_TRUMP; s++) {
        if (!n_suit[s])
            continue;
        int hi = r->str_hi[s] & 63;
        int top_w = max_w > 1 ? (widest[s] < max_w ? widest[s] : max_w) : 1;
        for (int w = 1; w <= top_w && w <= SJ_MAX_DECKS; w++) {
            /* singles and tuples: one per kind held >= w times */
            uint64_t c = (uint64_t)atleast[s][w];
            if (target >= 0 && (uint64_t)target < seen + c) {
                levels(r, s, H, w, &lv);
                int64_t idx = target - (int64_t)seen;
                for (int t = 0; t < hi; t++) {
                    if (idx < lv.nk[t]) {
                        memset(out, 0, SJ_NK);
                        out[lv.kinds[t][idx]] = (uint8_t)w;
                        return (uint64_t)target;
                    }
                    idx -= lv.nk[t];
                }
                return (uint64_t)target; /* not reached: the tally counted these kinds */
            }
            seen += c;
            if (!tractors || w < r->tractor_min_width || atleast[s][w] < r->tractor_min_length)
                continue;
            /* tractors: every run of >= min length, every choice of kinds */
            levels(r, s, H, w, &lv);
            int maxrun = 0;
            for (int t = 0; t < hi; t++)
                maxrun = lv.run[t] > maxrun ? lv.run[t] : maxrun;
            for (int L = r->tractor_min_length; L <= maxrun; L++)
                for (int b = 0; b + L <= hi; b++) {
                    if (lv.run[b] < L)
                        continue;
                    uint64_t block = 1; /* at most 4 kinds share a strength */
                    for (int l = 0; l < L; l++)
                        block *= (uint64_t)lv.nk[b + l];
                    if (target < 0 || (uint64_t)target >= seen + block) {
                        seen += block;
                        continue;
                    }
                    uint64_t idx = (uint64_t)target - seen;
                    memset(out, 0, SJ_NK);
                    for (int l = L - 1; l >= 0; l--) { /* the bottom digit is most significant */
                        uint64_t nk = (uint64_t)lv.nk[b + l];
                        out[lv.kinds[b + l][idx % nk]] = (uint8_t)w;
                        idx /= nk;
                    }
                    return (uint64_t)target;
                }
        }
        /* the whole suit, unless it is one tractor (all kinds held equally often) */
        if (throws && n_suit[s] > 1 && (nkinds[s] > 1 || n_suit[s] > max_w) &&
            !(s == SJ_TRUMP && r->no_trump_throws) &&
            !(n_suit[s] == nkinds[s] * widest[s] && suit_is_tractor(r, s, H))) {
            if (target >= 0 && (uint64_t)target == seen) {
                for (int k = 0; k < SJ_NK; k++)
                    out[k] = r->esuit[k] == s ? H[k] : 0;
                return seen;
            }
            seen++;
        }
    }
    return seen;
}

/* ---------------------------------------------------------------- one playout */

int sj__check_position(const sj_rules *r, const sj_position *p, sj_err *e)
{
    int m = p->players;
    if (m < 2 || m > SJ_MAX_PLAYERS)
        return perr(e, SJ_ERR_ARG, -1, -1, m);
    if (p->leader < 0 || p->leader >= m)
        return perr(e, SJ_ERR_ARG, -1, -1, p->leader);
    if (p->n_trick < 0 || p->n_trick >= m)
        return perr(e, SJ_ERR_ARG, -1, -1, p->n_trick);
    if (p->throws != 0 && p->throws != 1)
        return perr(e, SJ_ERR_ARG, -1, -1, p->throws);
    if (p->kitty_points < 0 || p->kitty_points > LIMIT_POINTS || p->throw_penalty < 0 ||
        p->throw_penalty > LIMIT_POINTS || p->throw_penalty_per_card < 0 ||
        p->throw_penalty_per_card > LIMIT_POINTS || p->trick_points < 0 ||
        p->trick_points > LIMIT_POINTS || p->penalty < -LIMIT_POINTS ||
        p->penalty > LIMIT_POINTS)
        return perr(e, SJ_ERR_ARG, -1, -1, -1);
    for (int j = 0; j < m; j++)
        if (p->captured[j] < 0 || p->captured[j] > LIMIT_POINTS || p->penalties[j] < 0 ||
            p->penalties[j] > LIMIT_POINTS)
            return perr(e, SJ_ERR_ARG, j, -1, -1);
    if (p->friends != 0 && p->friends != 1)
        return perr(e, SJ_ERR_ARG, -1, -1, p->friends);
    if (p->friends) {
        if (p->dealer < 0 || p->dealer >= m || p->n_calls < 0 || p->n_calls > SJ_MAX_CALLS ||
            (p->join_twice != 0 && p->join_twice != 1) ||
            (p->dealer_copies_count != 0 && p->dealer_copies_count != 1))
            return perr(e, SJ_ERR_ARG, -1, -1, -1);
        for (int j = 0; j < m; j++)
            if (p->on_side[j] != 0 && p->on_side[j] != 1)
                return perr(e, SJ_ERR_ARG, j, -1, p->on_side[j]);
        for (int i = 0; i < p->n_calls; i++)
            if (p->call_card[i] < 0 || p->call_card[i] >= SJ_NK || p->call_ordinal[i] < 1 ||
                p->call_ordinal[i] > 4 * 4 || p->call_seen[i] < 0 ||
                p->call_seen[i] > p->call_ordinal[i] ||
                (p->call_done[i] != 0 && p->call_done[i] != 1))
                return perr(e, SJ_ERR_ARG, i, p->call_card[i], p->call_ordinal[i]);
    }
    /* every copy of a card is in one place: the packs hold them all */
    int size[SJ_MAX_PLAYERS], play_n = -1;
    for (int k = 0; k < SJ_NK; k++) {
        int sum = 0;
        for (int j = 0; j < m; j++)
            sum += p->hands[j][k];
        for (int j = 0; j < p->n_trick; j++)
            sum += p->trick[j][k];
        if (sum > r->copies[k])
            return perr(e, SJ_ERR_COPIES, -1, k, sum);
    }
    for (int j = 0; j < m; j++) {
        size[j] = 0;
        for (int k = 0; k < SJ_NK; k++)
            size[j] += p->hands[j][k];
    }
    for (int j = 0; j < p->n_trick; j++) {
        int n = 0;
        for (int k = 0; k < SJ_NK; k++)
            n += p->trick[j][k];
        if (j == 0)
            play_n = n;
        else if (n != play_n)
            return perr(e, SJ_ERR_SIZE, j, -1, n);
    }
    if (play_n == 0)
        return perr(e, SJ_ERR_EMPTY, 0, -1, 0);
    /* seats that played in this trick hold one play fewer than the others; the seat
     * before the leader has not played (n_trick < players) */
    int ref = size[(p->leader + m - 1) % m];
    if (ref == 0 && p->n_trick == 0)
        return perr(e, SJ_ERR_EMPTY, -1, -1, 0); /* nothing left to play */
    for (int i = 0; i < m; i++) {
        int seat = (p->leader + i) % m;
        if (size[seat] != (i < p->n_trick ? ref - play_n : ref))
            return perr(e, SJ_ERR_SIZE, seat, -1, size[seat]);
    }
    return SJ_OK;
}

/* Finding friends: the calls as they stand, and who is on the dealer's side */
typedef struct {
    int n, seen[SJ_MAX_CALLS], done[SJ_MAX_CALLS];
} calls_t;

/* seat plays P (64-entry counts): count the called copies, by kind id from the highest,
 * as the engine does (shengji.friends.FriendTracker.play); who plays the ordinal-th copy
 * of a call joins the side (a seat already on it uses the call up, or with join_twice
 * false lets it pass to the next copy) */
static void count_friends(const sj_position *p, calls_t *cs, int32_t *side, int seat,
                          const uint8_t *P)
{
    int open = 0;
    for (int i = 0; i < cs->n; i++)
        open |= !cs->done[i];
    if (!open || (!p->dealer_copies_count && seat == p->dealer))
        return;
    for (int k = SJ_NK - 1; k >= 0; k--)
        for (int c = 0; c < P[k]; c++)
            for (int i = 0; i < cs->n; i++) {
                if (cs->done[i] || p->call_card[i] != k)
                    continue;
                if (++cs->seen[i] < p->call_ordinal[i])
                    continue;
                if (side[seat] && !p->join_twice) {
                    cs->seen[i]--; /* the call passes to the next copy played */
                    continue;
                }
                cs->done[i] = 1;
                side[seat] = 1;
            }
}

/* The playout itself. ``first`` (NULL: none) is the first decision's play, already
 * checked by the caller (search.c): held by the seat to act and legal there. ``policy``
 * SJ_POLICY_RANDOM is the documented random policy; SJ_POLICY_GREEDY draws leads among
 * single structures only and picks follows by sj__greedy_follow (greedy.c). */
int sj__playout(const sj_rules *r, const sj_position *p, uint64_t seed, const uint8_t *first,
                int policy, sj_playout_result *res)
{
    int m = p->players, leader = p->leader, cur = p->n_trick, rc;
    uint8_t H[SJ_MAX_PLAYERS][64], P[SJ_MAX_PLAYERS][64];
    int hn[SJ_MAX_PLAYERS];
    uint64_t rng = seed;
    sj_lead F;
    memset(H, 0, sizeof H);
    memset(P, 0, sizeof P);
    for (int j = 0; j < m; j++) {
        memcpy(H[j], p->hands[j], SJ_NK);
        hn[j] = 0;
        for (int k = 0; k < SJ_NK; k++)
            hn[j] += H[j][k];
    }
    for (int j = 0; j < cur; j++)
        memcpy(P[j], p->trick[j], SJ_NK);
    /* points by seat, counted for the sides as they stand at the end */
    int32_t side[SJ_MAX_PLAYERS], cap[SJ_MAX_PLAYERS], pen[SJ_MAX_PLAYERS];
    calls_t cs;
    cs.n = p->friends ? p->n_calls : 0;
    for (int i = 0; i < cs.n && i < SJ_MAX_CALLS; i++) {
        cs.seen[i] = p->call_seen[i];
        cs.done[i] = p->call_done[i];
    }
    for (int j = 0; j < SJ_MAX_PLAYERS; j++) {
        int in = j < m;
        side[j] = !in ? 0
                  : p->friends ? j == p->dealer || p->on_side[j]
                               : p->teams[j] == p->dealer_team;
        cap[j] = in ? p->captured[j] : 0;
        pen[j] = in ? p->penalties[j] : 0;
    }
    res->multiplier = res->kitty_bonus = 0;
    res->tricks = res->failed_throws = 0;
    res->last_winner = -1;
    if (cur) {
        int n = 0;
        for (int k = 0; k < SJ_NK; k++)
            n += P[0][k];
        if ((rc = sj__decompose(r, P[0], n, &F)))
            return rc;
    }
    for (;;) {
        if (cur == 0 && first) {
            memcpy(P[0], first, SJ_NK);
            first = NULL;
        } else if (cur == 0) {
            tally_t ty;
            tally(r, H[leader], &ty);
            /* the greedy policy never throws: a random throw mostly fails */
            int throws = policy == SJ_POLICY_GREEDY ? 0 : p->throws;
            uint64_t nleads = leads_walk(r, H[leader], &ty, throws, -1, NULL);
            if (nleads == 0)
                return SJ_ERR_EMPTY;
            leads_walk(r, H[leader], &ty, throws, (int64_t)sj__below(&rng, nleads), P[0]);
        }
        if (cur == 0) {
            int n = 0;
            for (int k = 0; k < SJ_NK; k++)
                n += P[0][k];
            if ((rc = sj__decompose(r, P[0], n, &F)))
                return rc;
            if (F.ncomp > 1) { /* a throw: is every part unbeatable? (§6) */
                uint8_t others[SJ_MAX_PLAYERS * SJ_NK];
                sj_throw_result tr;
                for (int i = 1; i < m; i++)
                    memcpy(others + (size_t)(i - 1) * SJ_NK, H[(leader + i) % m], SJ_NK);
                if ((rc = sj_check_throw(r, &F, others, (m - 1) * SJ_NK, m - 1, &tr, NULL)))
                    return rc;
                if (!tr.valid) {
                    int o = tr.n_options > 1 ? (int)sj__below(&rng, (uint64_t)tr.n_options) : 0;
                    res->failed_throws++;
                    memcpy(P[0], tr.options[o & (SJ_MAX_OPTIONS - 1)], SJ_NK);
                    int attempted = n;
                    n = 0;
                    for (int k = 0; k < SJ_NK; k++)
                        n += P[0][k];
                    /* to the side that did not throw: per attempt, per card taken back */
                    pen[leader] += p->throw_penalty + p->throw_penalty_per_card * (attempted - n);
                    if ((rc = sj__decompose(r, P[0], n, &F)))
                        return rc;
                }
            }
            for (int k = 0; k < SJ_NK; k++)
                H[leader][k] = (uint8_t)(H[leader][k] - P[0][k]);
            hn[leader] -= F.n;
            if (cs.n)
                count_friends(p, &cs, side, leader, P[0]);
            cur = 1;
        }
        for (; cur < m; cur++) {
            int seat = (leader + cur) % m;
            if (first) {
                memcpy(P[cur], first, SJ_NK);
                first = NULL;
            } else if (policy == SJ_POLICY_GREEDY) {
                /* the sides as they stand (greedy judges whose side wins the trick) */
                rc = sj__greedy_follow(r, &F, (const uint8_t (*)[64])P, cur, side, leader, m,
                                       H[seat], hn[seat], &rng, P[cur]);
            } else {
                rc = sj__follow_pick(r, &F, H[seat], hn[seat], &rng, P[cur]);
            }
            if (rc)
                return rc;
            for (int k = 0; k < SJ_NK; k++)
                H[seat][k] = (uint8_t)(H[seat][k] - P[cur][k]);
            hn[seat] -= F.n;
            if (cs.n)
                count_friends(p, &cs, side, seat, P[cur]);
        }
        int win = sj__winner(r, &F, (const uint8_t (*)[64])P, m);
        if (win < 0)
            return win;
        int wseat = (leader + win) % m, points = 0;
        for (int j = 0; j < m; j++)
            points += sj__points(P[j]);
        cap[wseat] += points;
        if (res->tricks < SJ_MAXCARDS)
            res->winners[res->tricks] = (uint8_t)wseat;
        res->tricks++;
        res->last_winner = wseat;
        if (hn[wseat] <= 0) {
            long long tp = p->trick_points, pn = p->penalty;
            res->side = 0;
            for (int j = 0; j < m; j++) {
                tp += side[j] ? 0 : cap[j];
                pn += side[j] ? pen[j] : -pen[j];
                res->side |= (uint32_t)side[j] << j;
            }
            res->trick_points = (int)tp;
            res->penalty = (int)pn;
            if (!side[wseat]) { /* 抠底: the attackers took the kitty */
                res->multiplier = sj__kitty(r, &F);
                long long bonus = (long long)p->kitty_points * res->multiplier;
                res->kitty_bonus = bonus > LIMIT_POINTS * 1000LL ? LIMIT_POINTS * 1000 : (int)bonus;
            }
            long long total = (long long)res->trick_points + res->kitty_bonus + res->penalty;
            res->total = total < 0 ? 0 : (int)total;
            return SJ_OK;
        }
        leader = wseat;
        cur = 0;
        memset(P, 0, sizeof P[0] * (size_t)m);
    }
}

/* sj_prepare's magic, without exposing it: a prepared struct answers sj_card */
int sj__prepared(const sj_rules *r)
{
    int32_t es;
    return r && sj_card(r, 0, &es, NULL) == SJ_OK;
}

int sj_playout(const sj_rules *r, const sj_position *pos, uint64_t seed, sj_playout_result *out,
               sj_err *e)
{
    if (!sj__prepared(r))
        return perr(e, SJ_ERR_CONTEXT, -1, -1, -1);
    if (!pos || !out)
        return perr(e, SJ_ERR_ARG, -1, -1, -1);
    int rc = sj__check_position(r, pos, e);
    if (rc)
        return rc;
    memset(out, 0, sizeof *out);
    rc = sj__playout(r, pos, seed, NULL, SJ_POLICY_RANDOM, out);
    return rc ? perr(e, rc, -1, -1, -1) : SJ_OK;
}

int sj_playout_batch(const sj_rules *r, const sj_position *pos, uint64_t seed, int n,
                     int32_t *totals, int32_t *trick_points, int32_t *multipliers, sj_err *e)
{
    if (!sj__prepared(r))
        return perr(e, SJ_ERR_CONTEXT, -1, -1, -1);
    if (!pos || n < 0)
        return perr(e, SJ_ERR_ARG, -1, -1, n);
    int rc = sj__check_position(r, pos, e);
    if (rc)
        return rc;
    sj_playout_result res;
    for (int i = 0; i < n; i++) {
        /* playout i uses seed + i: the batch is the same as n single playouts */
        if ((rc = sj__playout(r, pos, seed + (uint64_t)i, NULL, SJ_POLICY_RANDOM, &res)))
            return perr(e, rc, i, -1, -1);
        if (totals)
            totals[i] = res.total;
        if (trick_points)
            trick_points[i] = res.trick_points;
        if (multipliers)
            multipliers[i] = res.multiplier;
    }
    return SJ_OK;
}
