/* Playouts for search: the evaluation of candidate plays over sampled deals (the inner
 * loop of the Monte-Carlo bot, shengji/bots/mc.py) and the greedy playout policy.
 *
 * sj_playout_eval plays, for every world (a position: everyone's cards) and every
 * candidate play of the seat to act, n playouts that start with that play. Playout j of
 * world d uses the seed seed + d*n + j whatever the candidate, so candidates are compared
 * on the same random continuations (common random numbers).
 *
 * The greedy policy (SJ_POLICY_GREEDY) leads a random single structure (never a throw)
 * and follows with the best of a few legal follows by a one-trick rule of thumb: when
 * its side would be winning the trick, add points and spend little; otherwise keep
 * points back and play the cheapest cards.
 */
#include <string.h>

#include "shengji_core.h"
#include "sj_internal.h"

#define GREEDY_SAMPLES 4  /* follows drawn and judged when more than one card was led */
#define TRUMP_COST 32     /* a trump costs this much more than its strength */

static int cost_of(const sj_rules *r, const uint8_t *c)
{
    int cost = 0;
    for (int k = 0; k < SJ_NK; k++)
        if (c[k])
            cost += c[k] * ((r->strength[k] & 63) + (r->esuit[k] == SJ_TRUMP ? TRUMP_COST : 0));
    return cost;
}

/* T[0..cur] is the trick with the candidate at cur: its greedy score */
static int judge(const sj_rules *r, const sj_lead *F, const uint8_t (*T)[64], int cur,
                 const int32_t *teams, int leader, int m, int points_before, long *score)
{
    int w = sj__winner(r, F, T, cur + 1);
    if (w < 0)
        return w;
    int mine = teams[(leader + w) % m] == teams[(leader + cur) % m];
    int pts = points_before + sj__points(T[cur]);
    int cost = cost_of(r, T[cur]);
    *score = mine ? 10L * pts + 20 - cost : -10L * pts - cost;
    return SJ_OK;
}

int sj__greedy_follow(const sj_rules *r, const sj_lead *F, const uint8_t (*P)[64], int cur,
                      const int32_t *teams, int leader, int m, const uint8_t *H, int hn,
                      uint64_t *rng, uint8_t *out)
{
    uint8_t T[SJ_MAX_PLAYERS][64];
    memcpy(T, P, sizeof T[0] * (size_t)cur);
    int before = 0, rc;
    for (int j = 0; j < cur; j++)
        before += sj__points(P[j]);
    long best = 0, score;
    int found = 0;
    if (F->n == 1) {
        /* one card led: judge every kind the seat may play against the card winning so
         * far (sj__winner's rule for one card each, applied once per candidate) */
        int s = SU(F->esuit), any_in_suit = 0;
        int win = 0, top = -1, ruff = 0;
        for (int j = 0; j < cur; j++) {
            int k = 0;
            while (k < SJ_NK - 1 && !P[j][k])
                k++;
            int ks = r->esuit[k], st = r->strength[k];
            if (j == 0 || (ks == s && !ruff && st > top)) {
                win = j;
                top = st;
            } else if (s != SJ_TRUMP && ks == SJ_TRUMP && (!ruff || st > top)) {
                win = j;
                top = st;
                ruff = 1;
            }
        }
        int me = teams[(leader + cur) % m];
        int winning_mine = teams[(leader + win) % m] == me;
        for (int k = 0; k < SJ_NK; k++)
            if (H[k] && r->esuit[k] == s)
                any_in_suit = 1;
        int pick = -1;
        for (int k = 0; k < SJ_NK; k++) {
            if (!H[k] || (any_in_suit && r->esuit[k] != s))
                continue;
            int ks = r->esuit[k], st = r->strength[k];
            int beats = (ks == s && !ruff && st > top) ||
                        (s != SJ_TRUMP && ks == SJ_TRUMP && (!ruff || st > top));
            int mine = beats || winning_mine;
            int pts = before + 5 * (k < 52 && k % 13 == 3) +
                      10 * (k < 52 && (k % 13 == 8 || k % 13 == 11));
            int cost = (st & 63) + (ks == SJ_TRUMP ? TRUMP_COST : 0);
            score = mine ? 10L * pts + 20 - cost : -10L * pts - cost;
            if (pick < 0 || score > best) {
                best = score;
                pick = k;
            }
        }
        if (pick < 0)
            return SJ_ERR_SIZE;
        memset(out, 0, SJ_NK);
        out[pick] = 1;
        return SJ_OK;
    }
    for (int i = 0; i < GREEDY_SAMPLES; i++) {
        memset(T[cur], 0, 64);
        if ((rc = sj__follow_pick(r, F, H, hn, rng, T[cur])))
            return rc;
        if ((rc = judge(r, F, (const uint8_t (*)[64])T, cur, teams, leader, m, before,
                        &score)))
            return rc;
        if (!found || score > best) {
            best = score;
            found = 1;
            memcpy(out, T[cur], SJ_NK);
        }
    }
    return SJ_OK;
}

/* Is play (54 counts) a legal first decision of the seat to act in position p? */
static int check_play(const sj_rules *r, const sj_position *p, const uint8_t *play, int k,
                      sj_err *e)
{
    int m = p->players, seat = (p->leader + p->n_trick) % m, n = 0;
    for (int c = 0; c < SJ_NK; c++) {
        if (play[c] > p->hands[seat][c])
            return sj__fail(e, SJ_ERR_NOT_IN_HAND, SJ_ARG_PLAY, k, c, play[c], 0, 0);
        n += play[c];
    }
    if (!n)
        return sj__fail(e, SJ_ERR_EMPTY, SJ_ARG_PLAY, k, -1, 0, 0, 0);
    sj_lead L;
    if (p->n_trick == 0) {
        int rc = sj_decompose(r, play, SJ_NK, &L, e);
        if (rc)
            return rc;
        if (L.ncomp > 1 && !p->throws)
            return sj__fail(e, SJ_ERR_ARG, SJ_ARG_PLAY, k, -1, n, 0, 0);
        return SJ_OK;
    }
    int rc = sj_decompose(r, p->trick[0], SJ_NK, &L, e);
    if (rc)
        return rc;
    sj_follow_info info;
    rc = sj_check_follow(r, &L, p->hands[seat], SJ_NK, play, SJ_NK, &info, e);
    if (rc < 0)
        return rc;
    if (rc != SJ_FOLLOW_OK)
        return sj__fail(e, SJ_ERR_ARG, SJ_ARG_PLAY, k, info.card, rc, 0, 0);
    return SJ_OK;
}

int sj_playout_eval(const sj_rules *r, const sj_position *worlds, int n_worlds,
                    const uint8_t *plays, int n_plays, int n, uint64_t seed, int policy,
                    int32_t *totals, uint32_t *sides, sj_err *e)
{
    if (!sj__prepared(r))
        return sj__fail(e, SJ_ERR_CONTEXT, SJ_ARG_POSITION, -1, -1, -1, 0, 0);
    if (!worlds || n_worlds < 1 || n_plays < 0 || (n_plays && !plays) || n < 0 ||
        (policy != SJ_POLICY_RANDOM && policy != SJ_POLICY_GREEDY) || (n && !totals))
        return sj__fail(e, SJ_ERR_ARG, SJ_ARG_POSITION, -1, -1, -1, 0, 0);
    int cols = n_plays ? n_plays : 1;
    for (int d = 0; d < n_worlds; d++) {
        int rc = sj__check_position(r, &worlds[d], e);
        if (rc) {
            if (e)
                e->index = d;
            return rc;
        }
        for (int k = 0; k < n_plays; k++)
            if ((rc = check_play(r, &worlds[d], plays + (size_t)k * SJ_NK, k, e)))
                return rc;
    }
    sj_playout_result res;
    for (int d = 0; d < n_worlds; d++)
        for (int k = 0; k < cols; k++) {
            const uint8_t *first = n_plays ? plays + (size_t)k * SJ_NK : NULL;
            size_t at = ((size_t)d * cols + k) * (size_t)n;
            for (int j = 0; j < n; j++) {
                uint64_t s = seed + (uint64_t)d * (uint64_t)n + (uint64_t)j;
                int rc = sj__playout(r, &worlds[d], s, first, policy, &res);
                if (rc)
                    return sj__fail(e, rc, SJ_ARG_POSITION, d, -1, -1, 0, 0);
                totals[at + j] = res.total;
                if (sides)
                    sides[at + j] = res.side;
            }
        }
    return SJ_OK;
}
