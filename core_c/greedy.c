/* The greedy playout policy (SJ_POLICY_GREEDY), used by the playouts (playout.c) that
 * the search (search.c) runs.
 *
 * It leads a random single structure (never a throw) and follows with the best of a few
 * legal follows by a one-trick rule of thumb: when its side would be winning the trick,
 * add points and spend little; otherwise keep points back and play the cheapest cards.
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
