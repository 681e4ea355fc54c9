/* A seat's observation vector, written in one call (observe.h). The pieces and their
 * order are shengji/env/observation.py's Layout, which documents them; that module's
 * Python encoder is the reference the differential tests compare this with. Seats are
 * relative to the observer: row i is seat (seat + i) % P. */
#include <string.h>

#include "observe.h"
#include "shengji_core.h"
#include "sj_internal.h"

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

/* w[k] = row[k] for the NK kinds, into a zeroed w: the rows are mostly zero (a move's
 * few cards, the cards played so far), so eight kinds at a time are skipped when all
 * zero; about five times faster than converting every byte */
static void put_row(float *w, const uint8_t *row)
{
    int k = 0;
    for (; k + 8 <= NK; k += 8) {
        uint64_t x;
        memcpy(&x, row + k, 8);
        if (x)
            for (int j = k; j < k + 8; j++)
                w[j] = row[j];
    }
    for (; k < NK; k++)
        if (row[k])
            w[k] = row[k];
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
        o->n_calls > SJ_OBS_CALLS || o->call_pending < 0 || o->call_pending > ORDINALS ||
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
    put_row(w, o->hand);
    w += NK;
    if (o->decision < KINDS)
        put_row(w, o->building);
    w += NK;
    for (int i = 0; i < p; i++)
        put_row(w + i * NK, o->played[(seat + i) % p]);
    w += p * NK;
    if (o->in_trick)
        for (int i = 0; i < p; i++)
            put_row(w + i * NK, o->trick[(seat + i) % p]);
    w += p * NK;
    if (o->buried_by >= 0)
        put_row(w, o->buried[seat]);
    w += NK;
    if (o->bid_seat >= 0)
        put_row(w, o->bid);
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
        put_row(row + p + 1, o->moves[at]);
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

/* ---------------------------------------------------------------- the play phase in C
 * The sets and masks are building.py's (OneSuit, Listed, Filler), which documents them;
 * the tests hold the two equal step by step. */
#define DONE NK
#define SET_ONE_SUIT 1
#define SET_ROWS 2
#define SET_FILLER 3

/* the mask of the cards built so far (building.py's mask of each set) */
static void build_mask(const sj_rules *r, const uint8_t *H, sj_build *b)
{
    uint8_t *m = b->mask;
    memset(m, 0, sizeof b->mask);
    int top = b->last < 0 ? NK - 1 : b->last;
    if (b->set == SET_ONE_SUIT) {
        if (b->last < 0) {
            for (int k = 0; k < NK; k++)
                m[k] = H[k] != 0;
            return;
        }
        int suit = r->esuit[b->last];
        for (int k = 0; k <= b->last; k++)
            m[k] = r->esuit[k] == suit && H[k] > b->counts[k];
        m[DONE] = 1;
    } else if (b->set == SET_ROWS) {
        /* a row is alive when it holds the cards built and nothing more above the last;
         * its next card is the last again while it holds more of it, else the next
         * kind below that it holds; none left: DONE */
        for (int i = 0; i < b->n_rows; i++) {
            const uint8_t *R = b->rows[i];
            int alive = 1;
            for (int k = NK - 1; k > top && alive; k--)
                alive = R[k] == b->counts[k];
            if (!alive || R[top] < b->counts[top])
                continue;
            int next = -1;
            if (b->last >= 0 && R[top] > b->counts[top])
                next = top;
            else
                for (int k = b->last < 0 ? top : top - 1; k >= 0; k--)
                    if (R[k]) {
                        next = k;
                        break;
                    }
            m[next < 0 ? DONE : next] = 1;
        }
    } else { /* filler: all of base plus r cards of pool */
        int used = 0, high_base = -1, fill_below = 0;
        for (int k = 0; k < NK; k++)
            if (b->pool[k])
                used += b->counts[k];
        int need = b->r - used;
        for (int k = top; k >= 0; k--)
            if (b->base[k] > b->counts[k]) {
                high_base = k;
                break;
            }
        for (int k = 0; k <= top; k++) {
            int fr = b->pool[k] ? b->pool[k] - b->counts[k] : 0;
            fill_below += fr;
            if (k < high_base)
                continue;
            if (b->base[k] > b->counts[k]) {
                if (fill_below >= need)
                    m[k] = 1;
            } else if (fr > 0 && need > 0 && fill_below >= need)
                m[k] = 1;
        }
        if (high_base < 0 && need == 0)
            m[DONE] = 1;
    }
}

int sj_build_open(const sj_rules *r, const sj_drive *d, sj_build *b)
{
    if (!sj__prepared(r) || !d || !b || d->to_act < 0 || d->to_act >= d->players ||
        d->players > SJ_MAX_PLAYERS)
        return SJ_ERR_ARG;
    const uint8_t *H = d->hands[d->to_act];
    memset(b->counts, 0, NK);
    b->n = 0;
    b->last = -1;
    b->n_rows = 0;
    if (d->n_trick == 0) {
        b->kind = 2;
        if (d->throws)
            b->set = SET_ONE_SUIT;
        else {
            int n = sj_lead_list(r, H, 0, &b->rows[0][0], SJ_BUILD_ROWS);
            if (n < 0)
                return n;
            if (n == 0 || n > SJ_BUILD_ROWS)
                return 0;
            b->set = SET_ROWS;
            b->n_rows = n;
        }
        build_mask(r, H, b);
        return 1;
    }
    b->kind = 3;
    const sj_lead *L = &d->lead;
    int suit = -1, held = 0, nl = L->n;
    for (int k = NK - 1; k >= 0; k--) /* the lead's first card: its largest id */
        if (d->trick[0][k]) {
            suit = r->esuit[k];
            break;
        }
    if (nl == 1) { /* a single: the led suit's kinds held, else any kind held */
        b->set = SET_ROWS;
        int n = 0;
        for (int pass = 0; pass < 2 && !n; pass++)
            for (int k = 0; k < NK; k++)
                if (H[k] && (pass || r->esuit[k] == suit)) {
                    memset(b->rows[n], 0, NK);
                    b->rows[n++][k] = 1;
                }
        b->n_rows = n;
        build_mask(r, H, b);
        return n > 0;
    }
    for (int k = 0; k < NK; k++) {
        int in = r->esuit[k] == suit;
        b->base[k] = in ? H[k] : 0;
        b->pool[k] = in ? 0 : H[k];
        held += b->base[k];
    }
    int bomb = 0, rainbow = 0;
    if ((r->bombs == SJ_BOMBS_ANY_SUIT || r->bombs == SJ_BOMBS_FOLLOW_SUIT_OR_TRUMP) &&
        nl >= 4)
        for (int k = 0; k < NK; k++)
            bomb |= H[k] >= nl && (r->bombs == SJ_BOMBS_ANY_SUIT || r->esuit[k] == SJ_TRUMP);
    if (r->rainbow_min)
        for (int k = 0; k < NK; k++)
            rainbow |= d->trick[0][k] && r->esuit[k] != suit;
    if (held <= nl && !bomb && !rainbow) { /* the whole suit held, and fillers */
        b->set = SET_FILLER;
        b->r = nl - held;
        build_mask(r, H, b);
        return 1;
    }
    uint64_t total = 0;
    int32_t got = 0, exact = 0;
    int rc = sj_legal_follows(r, L, H, NK, &b->rows[0][0], SJ_BUILD_ROWS * NK, &got, &total,
                              &exact, NULL);
    if (rc)
        return rc;
    if (!exact || (uint64_t)got != total || got <= 0)
        return 0; /* more than kept: Python lists them */
    b->set = SET_ROWS;
    b->n_rows = got;
    build_mask(r, H, b);
    return 1;
}

int sj_obs_played(sj_obs *o, int32_t seat, const uint8_t *before, const uint8_t *after,
                  int ended)
{
    uint8_t played[SJ_MAXCARDS];
    int n = 0;
    for (int k = NK - 1; k >= 0; k--)
        for (int c = after[k]; c < before[k]; c++)
            played[n++] = (uint8_t)k;
    int rc = sj_obs_move(o, seat, 0, played, n);
    if (rc)
        return rc;
    if (ended)
        sj_obs_trick_end(o);
    return 0;
}

int sj_build_step(const sj_rules *r, sj_drive *d, sj_obs *o, sj_build *b, int32_t a)
{
    if (!d || !o || !b || d->to_act < 0 || d->to_act >= d->players)
        return SJ_ERR_ARG;
    if (a < 0 || a > DONE || !b->mask[a])
        return SJ_BUILD_ILLEGAL;
    int seat = d->to_act;
    if (a < NK) {
        b->counts[a]++;
        b->n++;
        b->last = a;
        build_mask(r, d->hands[seat], b);
        return 0;
    }
    uint8_t before[NK];
    memcpy(before, d->hands[seat], NK);
    int ended = d->n_trick == d->players - 1;
    int64_t rc = sj_drive_play(r, d, b->counts);
    if (rc != 0 && rc != SJ_DRIVE_END)
        return (int)rc; /* pending (nothing applied) or an error */
    int orc = sj_obs_played(o, seat, before, d->hands[seat], ended);
    if (orc)
        return orc;
    if (rc == SJ_DRIVE_END)
        return SJ_DRIVE_END;
    int open = sj_build_open(r, d, b);
    if (open < 0)
        return open;
    return 1 | (ended ? 2 : 0) | (open ? 0 : 4);
}

/* the one action allowed now, or -1 when there are more (or none) */
static int build_only(const sj_build *b)
{
    int only = -1;
    for (int a = 0; a < (int)sizeof b->mask; a++) {
        if (!b->mask[a])
            continue;
        if (only >= 0)
            return -1;
        only = a;
    }
    return only;
}

int sj_build_step_forced(const sj_rules *r, sj_drive *d, sj_obs *o, sj_build *b, int32_t a,
                         int32_t stop)
{
    int flags = 0;
    int rc = a >= 0 ? sj_build_step(r, d, o, b, a) : 0;
    while (rc >= 0 && !(rc & stop)) {
        flags |= rc;
        int only = build_only(b);
        if (only < 0)
            return flags;
        rc = sj_build_step(r, d, o, b, only);
    }
    return rc < 0 ? rc : flags | rc;
}

int sj_obs_drive(sj_obs *o, const sj_drive *d, int32_t seat, int32_t kind,
                 const uint8_t *building, float *out, int32_t out_len)
{
    if (!o || !d || seat < 0 || seat >= d->players || d->players != o->players)
        return SJ_ERR_ARG;
    int p = d->players, acting = seat == d->to_act;
    o->decision = acting ? kind : KINDS;
    if (acting) {
        if (building)
            memcpy(o->building, building, NK);
        else
            memset(o->building, 0, NK);
    }
    memcpy(o->hand, d->hands[seat], NK);
    o->leader = d->leader;
    o->in_trick = d->n_trick;
    o->points = d->trick_points;
    o->trick_number = d->trick_number;
    for (int s = 0; s < p; s++) {
        o->hand_len[s] = d->hand_len[s];
        o->captured[s] = d->captured[s];
    }
    return sj_observe(o, seat, out, out_len);
}

int sj_build_observe(sj_obs *o, const sj_drive *d, const sj_build *b, int32_t seat,
                     float *out, int32_t out_len, int8_t *mask, int32_t mask_len)
{
    if (!b || !mask || mask_len != 60)
        return SJ_ERR_ARG;
    int rc = sj_obs_drive(o, d, seat, b->kind, b->counts, out, out_len);
    if (rc)
        return rc;
    if (seat == d->to_act)
        memcpy(mask, b->mask, 60);
    else
        memset(mask, 0, 60);
    return SJ_OK;
}
