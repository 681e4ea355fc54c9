/* Playouts for search: the evaluation of candidate plays over sampled deals (the inner
 * loop of the Monte-Carlo bot, shengji/bots/mc.py), by the playouts of playout.c.
 *
 * sj_playout_eval plays, for every world (a position: everyone's cards) and every
 * candidate play of the seat to act, n playouts that start with that play. Playout j of
 * world d uses the seed seed + d*n + j whatever the candidate, so candidates are compared
 * on the same random continuations (common random numbers).
 */
#include <string.h>

#include "shengji_core.h"
#include "sj_internal.h"

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
