/* A seat's observation vector, written in one call (observe.h). The pieces and their
 * order are shengji/env/observation.py's Layout, which documents them; that module's
 * Python encoder is the reference the differential tests compare this with. Seats are
 * relative to the observer: row i is seat (seat + i) % P. */
#include <string.h>

#include "observe.h"
#include "shengji_core.h"

#define NK 54
#define KINDS 7      /* decision kinds; index KINDS = not to act */
#define ORDINALS 4
#define LEVEL_CAP 13

int32_t sj_obs_size(int32_t p, int32_t n)
{
    if (p < 2 || p > SJ_OBS_SEATS || n < 0 || n > SJ_OBS_MOVES)
        return SJ_ERR_ARG;
    return (KINDS + 1) + NK + NK + p * NK + p * NK + NK + NK + (p + 1) + 6 + 13 + (p + 1) +
           (p + 1) + p + p + ORDINALS * NK + ORDINALS + p + 2 + 1 + 1 + 1 + p + 2 +
           n * (p + 1 + NK);
}

static inline int rel(int x, int seat, int p)
{
    return x < 0 ? p : ((x - seat) % p + p) % p;
}

static int seat_ok(int x, int p)
{
    return x >= -1 && x < p;
}

int sj_observe(const sj_obs *o, int32_t seat, float *out, int32_t out_len)
{
    if (!o || !out)
        return SJ_ERR_ARG;
    int p = o->players, n = o->history;
    int32_t size = sj_obs_size(p, n);
    if (size < 0 || out_len != size || seat < 0 || seat >= p)
        return SJ_ERR_ARG;
    if (o->decision < 0 || o->decision > KINDS || o->trump < 0 || o->trump > 4 ||
        o->level < 0 || o->level > 12 || !seat_ok(o->dealer, p) || !seat_ok(o->leader, p) ||
        !seat_ok(o->bid_seat, p) || !seat_ok(o->buried_by, p) || o->n_calls < 0 ||
        o->n_calls > 4 || o->call_pending < 0 || o->call_pending > ORDINALS ||
        o->n_moves < 0)
        return SJ_ERR_ARG;
    for (int i = 0; i < o->n_calls; i++)
        if (o->calls[2 * i] < 1 || o->calls[2 * i] > ORDINALS || o->calls[2 * i + 1] < 0 ||
            o->calls[2 * i + 1] >= NK)
            return SJ_ERR_ARG;
    memset(out, 0, sizeof(float) * (size_t)size);
    float *w = out;
    w[o->decision] = 1;
    w += KINDS + 1;
    for (int k = 0; k < NK; k++)
        w[k] = o->hand[k];
    w += NK;
    if (o->decision < KINDS)
        for (int k = 0; k < NK; k++)
            w[k] = o->building[k];
    w += NK;
    for (int i = 0; i < p; i++) {
        const uint8_t *row = o->played[(seat + i) % p];
        for (int k = 0; k < NK; k++)
            w[i * NK + k] = row[k];
    }
    w += p * NK;
    if (o->in_trick)
        for (int i = 0; i < p; i++) {
            const uint8_t *row = o->trick[(seat + i) % p];
            for (int k = 0; k < NK; k++)
                w[i * NK + k] = row[k];
        }
    w += p * NK;
    if (o->buried_by >= 0)
        for (int k = 0; k < NK; k++)
            w[k] = o->buried[seat][k];
    w += NK;
    if (o->bid_seat >= 0)
        for (int k = 0; k < NK; k++)
            w[k] = o->bid[k];
    w += NK;
    w[rel(o->bid_seat, seat, p)] = 1;
    w += p + 1;
    w[o->dealing ? 5 : o->trump] = 1;
    w += 6;
    w[o->level] = 1;
    w += 13;
    w[rel(o->dealer, seat, p)] = 1;
    w += p + 1;
    w[rel(o->dealing ? -1 : o->leader, seat, p)] = 1;
    w += p + 1;
    for (int i = 0; i < p; i++) /* partners */
        w[i] = o->teams[(seat + i) % p] == o->teams[seat];
    w += p;
    for (int i = 0; i < p; i++)
        w[i] = o->side >> ((seat + i) % p) & 1;
    w += p;
    for (int i = 0; i < o->n_calls; i++)
        w[(o->calls[2 * i] - 1) * NK + o->calls[2 * i + 1]] = 1;
    w += ORDINALS * NK;
    if (o->call_pending)
        w[o->call_pending - 1] = 1;
    w += ORDINALS;
    for (int i = 0; i < p; i++)
        w[i] = (float)o->hand_len[(seat + i) % p];
    w += p;
    int other = 0, found = 0;
    for (int s = 0; s < p; s++) /* the highest level of the other sides */
        if (o->teams[s] != o->teams[seat])
            if (!found++ || o->levels[s] > other)
                other = o->levels[s];
    w[0] = (float)(o->levels[seat] < LEVEL_CAP ? o->levels[seat] : LEVEL_CAP);
    w[1] = (float)(other < LEVEL_CAP ? other : LEVEL_CAP);
    w += 2;
    w[0] = (float)o->points;
    w[1] = o->dealing ? (float)o->to_deal : 0;
    w[2] = (float)o->trick_number;
    w += 3;
    int sides[2] = {0, 0};
    for (int i = 0; i < p; i++) {
        int s = (seat + i) % p;
        w[i] = (float)o->captured[s];
        sides[!(o->side >> s & 1)] += o->captured[s];
    }
    w += p;
    w[0] = (float)sides[0];
    w[1] = (float)sides[1];
    w += 2;
    /* the last n moves, the latest first */
    int have = o->n_moves < n ? o->n_moves : n;
    for (int j = 0; j < have; j++) {
        int at = (o->n_moves - 1 - j) % SJ_OBS_MOVES;
        float *row = w + j * (p + 1 + NK);
        row[rel(o->move_seat[at], seat, p) % p] = 1;
        row[p] = (float)(o->move_kind[at] != 0);
        for (int k = 0; k < NK; k++)
            row[p + 1 + k] = o->moves[at][k];
    }
    return SJ_OK;
}

static int add_cards(uint8_t *row, const uint8_t *cards, int32_t n)
{
    if (n < 0 || (n > 0 && !cards))
        return SJ_ERR_ARG;
    for (int i = 0; i < n; i++)
        if (cards[i] >= NK)
            return SJ_ERR_KIND;
    for (int i = 0; i < n; i++)
        row[cards[i]]++;
    return SJ_OK;
}

int sj_obs_move(sj_obs *o, int32_t seat, int32_t kind, const uint8_t *cards, int32_t n)
{
    if (!o || seat < 0 || seat >= o->players || o->players > SJ_OBS_SEATS || o->n_moves < 0)
        return SJ_ERR_ARG;
    int at = o->n_moves % SJ_OBS_MOVES;
    memset(o->moves[at], 0, NK);
    int rc = add_cards(o->moves[at], cards, n);
    if (rc)
        return rc;
    o->move_seat[at] = seat;
    o->move_kind[at] = kind != 0;
    o->n_moves++;
    if (kind == 0) {
        add_cards(o->played[seat], cards, n);
        add_cards(o->trick[seat], cards, n);
    }
    return SJ_OK;
}

void sj_obs_trick_end(sj_obs *o)
{
    if (o)
        memset(o->trick, 0, sizeof o->trick);
}

int sj_obs_bury(sj_obs *o, int32_t seat, const uint8_t *cards, int32_t n)
{
    if (!o || seat < 0 || seat >= o->players || o->players > SJ_OBS_SEATS)
        return SJ_ERR_ARG;
    o->buried_by = seat;
    return add_cards(o->buried[seat], cards, n);
}

void sj_obs_deal_start(sj_obs *o)
{
    if (!o)
        return;
    memset(o->played, 0, sizeof o->played);
    memset(o->trick, 0, sizeof o->trick);
    memset(o->buried, 0, sizeof o->buried);
    o->buried_by = -1;
    o->n_moves = 0;
}
