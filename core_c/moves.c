/* Whole moves (moves.h): the listing, features and observation of the environments'
 * actions="moves" in C. The listing is shengji/env/moves.py's, which documents it and
 * is the reference the tests hold this to: a play decision's moves are the play
 * driver's options in its order (drive.c lists them as the engine does), all of them
 * or, past max_moves, the options random.Random("moves:<game seed>:<stamp>:<seat>")'s
 * sample(range(total), max_moves) picks, in the listing's order; a burial's are the
 * heuristic's then samples of the hand. pyrandom.h draws as CPython does. */
#include <string.h>

#include "moves.h"
#include "pyrandom.h"
#include "sj_internal.h"

#define NK 54
#define NF SJ_MOVE_FEATURES
#define KIND_BURY 1
#define KIND_LEAD 2
#define KIND_FOLLOW 3
#define KIND_CALL 6
#define TAIL (7 + NK)  /* n_cards, points, is_pass, n_kinds */
#define BASE (TAIL + 4) /* trumps, top, wins, partner, trick_pts */
#define POOL 1088      /* sample's pool: 21 + 4 ** 5 positions for 256 moves */

static int card_points(int k)
{
    int rank = k % 13;
    return k >= 52 ? 0 : rank == 3 ? 5 : (rank == 8 || rank == 11) ? 10 : 0;
}

/* the features of one move that need no trick: kind, cards, n_cards, points, is_pass,
 * n_kinds, and under r (trump settled; not a call) trumps and top */
static void row_features(const sj_rules *r, int kind, const uint8_t *P, int pass, float *f)
{
    memset(f, 0, sizeof(float) * NF);
    f[kind] = 1;
    int n = 0, points = 0, kinds = 0, trumps = 0, top_s = -1;
    for (int k = 0; k < NK; k++) {
        int c = P[k];
        if (!c)
            continue;
        f[7 + k] = (float)c;
        n += c;
        points += c * card_points(k);
        kinds++;
        if (r) {
            trumps += r->esuit[k] == SJ_TRUMP ? c : 0;
            if (r->strength[k] > top_s)
                top_s = r->strength[k];
        }
    }
    f[TAIL] = (float)n;
    f[TAIL + 1] = (float)points;
    f[TAIL + 2] = (float)pass;
    f[TAIL + 3] = (float)kinds;
    if (r && n > 0 && kind != KIND_CALL) {
        int most = 1; /* the strongest there is (moves.py: at least 1) */
        for (int k = 0; k < NK; k++)
            if (r->strength[k] > most)
                most = r->strength[k];
        f[BASE] = (float)trumps;
        f[BASE + 1] = (float)top_s / (float)most;
    }
}

int sj_move_features(const sj_rules *r, int32_t kind, const uint8_t *rows, int32_t n,
                     const uint8_t *is_pass, const uint8_t *trick, int32_t m,
                     int32_t partner, int32_t trick_pts, float *out)
{
    if (!rows || !out || kind < 0 || kind > KIND_CALL || n < 0 || m < 0 ||
        m >= SJ_MAX_PLAYERS || (m && !trick) || (r && !sj__prepared(r)))
        return SJ_ERR_ARG;
    uint8_t plays[SJ_MAX_PLAYERS * NK];
    if (m)
        memcpy(plays, trick, (size_t)m * NK);
    for (int i = 0; i < n; i++) {
        const uint8_t *P = rows + (size_t)i * NK;
        float *f = out + (size_t)i * NF;
        row_features(r, kind, P, is_pass ? is_pass[i] != 0 : 0, f);
        if (!r || f[TAIL] == 0 || kind == KIND_CALL)
            continue;
        f[BASE + 3] = (float)(partner != 0);
        f[BASE + 4] = (float)trick_pts;
        if (kind == KIND_FOLLOW && m) {
            memcpy(plays + (size_t)m * NK, P, NK);
            int w = sj_winner_code(r, plays, m + 1);
            if (w < 0)
                return w;
            f[BASE + 2] = (float)(w == m);
        }
    }
    return SJ_OK;
}

/* ---------------------------------------------------------------- the play phase */

/* does this seat's side hold the trick now (view.same_side of its winner is True)? */
static int partner_winning(const sj_rules *r, const sj_drive *d, int sides_known)
{
    int m = d->players, seat = d->to_act, at = 0;
    if (!d->n_trick)
        return 0;
    if (d->n_trick > 1) {
        uint8_t W[SJ_MAX_PLAYERS][64];
        memset(W, 0, sizeof W);
        for (int j = 0; j < d->n_trick; j++)
            memcpy(W[j], d->trick[j], NK);
        at = sj__winner(r, &d->lead, (const uint8_t (*)[64])W, d->n_trick);
        if (at < 0)
            return at;
    }
    int w = (d->leader + at) % m, ws = d->side >> w & 1, ss = d->side >> seat & 1;
    if (w == seat)
        return 1;
    return sides_known ? ws == ss : ws && ss;
}

/* the rows and features of the moves m->index[0..n-1] */
static int fill(const sj_rules *r, const sj_drive *d, sj_moves *m, int n)
{
    int rc = sj__drive_options(r, d, m->index, n, &m->rows[0][0]);
    if (rc < 0)
        return rc;
    int partner = partner_winning(r, d, m->sides_known), points = 0, t = d->n_trick;
    if (partner < 0)
        return partner;
    for (int j = 0; j < t; j++)
        points += sj__points(d->trick[j]);
    uint8_t W[SJ_MAX_PLAYERS][64];
    memset(W, 0, sizeof W);
    for (int j = 0; j < t; j++)
        memcpy(W[j], d->trick[j], NK);
    for (int i = 0; i < n; i++) {
        float *f = m->features[i];
        row_features(r, m->kind, m->rows[i], 0, f);
        f[BASE + 3] = (float)partner;
        f[BASE + 4] = (float)points;
        if (t) { /* a follow: would it be winning the trick? */
            memcpy(W[t], m->rows[i], NK);
            int w = sj__winner(r, &d->lead, (const uint8_t (*)[64])W, t + 1);
            if (w < 0)
                return w;
            f[BASE + 2] = (float)(w == t);
        }
    }
    m->n = n;
    return 1;
}

int sj_moves_open(const sj_rules *r, const sj_drive *d, sj_moves *m)
{
    if (!sj__prepared(r) || !d || !m || m->max_moves < 2 || m->max_moves > SJ_MOVES_ROWS ||
        d->players < 2 || d->players > SJ_MAX_PLAYERS || d->to_act < 0 ||
        d->to_act >= d->players || d->n_trick < 0 || d->n_trick >= d->players)
        return SJ_ERR_ARG;
    m->n = 0;
    m->total = d->n_open;
    if (d->n_open <= 0)
        return 0; /* the driver did not list it: Python's */
    m->kind = d->n_trick ? KIND_FOLLOW : KIND_LEAD;
    if (m->total > m->max_moves)
        return SJ_MOVES_SAMPLE;
    for (int i = 0; i < m->total; i++)
        m->index[i] = i;
    return fill(r, d, m, (int)m->total);
}

int sj_moves_sample(const sj_rules *r, const sj_drive *d, sj_moves *m, const uint8_t *key,
                    int32_t key_bytes)
{
    if (!sj__prepared(r) || !d || !m || !key || key_bytes < 4 || key_bytes % 4 ||
        m->max_moves < 2 || m->max_moves > SJ_MOVES_ROWS || m->total != d->n_open ||
        m->total <= m->max_moves)
        return SJ_ERR_ARG;
    mt_state s;
    int64_t pool[POOL];
    init_by_array(&s, key, key_bytes / 4);
    int k = m->max_moves;
    if (py_sample(&s, (uint64_t)m->total, k, m->index, pool, POOL))
        return SJ_ERR_ARG;
    for (int i = 1; i < k; i++) /* sorted: the listing's order */
        for (int j = i; j > 0 && m->index[j - 1] > m->index[j]; j--) {
            int64_t x = m->index[j];
            m->index[j] = m->index[j - 1];
            m->index[j - 1] = x;
        }
    return fill(r, d, m, k);
}

int sj_moves_step(const sj_rules *r, sj_drive *d, sj_obs *o, sj_moves *m, int32_t a)
{
    if (!d || !o || !m || d->to_act < 0 || d->to_act >= d->players ||
        d->players > SJ_MAX_PLAYERS)
        return SJ_ERR_ARG;
    if (a < 0 || a >= m->n)
        return SJ_BUILD_ILLEGAL;
    m->chosen = a;
    int seat = d->to_act, ended = d->n_trick == d->players - 1;
    uint8_t before[NK];
    memcpy(before, d->hands[seat], NK);
    int64_t rc = sj_drive_step(r, d, m->index[a]);
    if (rc == SJ_DRIVE_PENDING || (rc < 0 && rc != SJ_DRIVE_END))
        return (int)rc; /* nothing applied (pending), or an error */
    int orc = sj_obs_played(o, seat, before, d->hands[seat], ended);
    if (orc)
        return orc;
    m->plays++;
    m->n = 0;
    if (rc == SJ_DRIVE_END)
        return SJ_DRIVE_END;
    int flags = 1 | (ended ? 2 : 0);
    if (rc == SJ_DRIVE_STOP)
        return flags | 4;
    int open = sj_moves_open(r, d, m);
    if (open < 0)
        return open;
    return flags | (open == 0 ? 4 : open == SJ_MOVES_SAMPLE ? SJ_MOVES_SAMPLE : 0);
}

int sj_moves_step_forced(const sj_rules *r, sj_drive *d, sj_obs *o, sj_moves *m, int32_t a,
                         int32_t stop)
{
    int flags = 0;
    int rc = a >= 0 ? sj_moves_step(r, d, o, m, a) : 0;
    while (rc >= 0 && !(rc & stop)) {
        flags |= rc;
        if (m->n != 1)
            return flags;
        rc = sj_moves_step(r, d, o, m, 0);
    }
    return rc < 0 ? rc : flags | rc;
}

int sj_moves_observe(sj_obs *o, const sj_drive *d, const sj_moves *m, int32_t seat,
                     float *out, int32_t out_len, int8_t *mask, int32_t mask_len,
                     float *features, int32_t rows, int32_t dirty)
{
    if (!m || !mask || !features || mask_len < 0 || rows < 0 || dirty < 0 || dirty > rows ||
        m->n < 0 || m->n > SJ_MOVES_ROWS)
        return SJ_ERR_ARG;
    int rc = sj_obs_drive(o, d, seat, m->kind, NULL, out, out_len);
    if (rc)
        return rc;
    int n = seat == d->to_act ? m->n : 0;
    if (n > rows || n > mask_len)
        return SJ_ERR_ARG;
    memset(mask, 0, (size_t)mask_len);
    memset(mask, 1, (size_t)n);
    memcpy(features, m->features, sizeof(float) * NF * (size_t)n);
    if (dirty > n)
        memset(features + (size_t)n * NF, 0, sizeof(float) * NF * (size_t)(dirty - n));
    return SJ_OK;
}

int sj_py_sample(const uint8_t *key, int32_t key_bytes, int64_t n, int32_t k, int64_t *out)
{
    mt_state s;
    int64_t pool[POOL];
    if (!key || !out || key_bytes < 4 || key_bytes % 4 || n < 0 || k < 0 || k > n ||
        k > SJ_MOVES_ROWS)
        return SJ_ERR_ARG;
    init_by_array(&s, key, key_bytes / 4);
    return py_sample(&s, (uint64_t)n, k, out, pool, POOL) ? SJ_ERR_ARG : SJ_OK;
}

/* ---------------------------------------------------------------- burials */

static uint64_t row_hash(const uint8_t *P)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (int k = 0; k < NK; k++)
        h = (h ^ P[k]) * 1099511628211ull;
    return h;
}

int sj_moves_burials(const sj_rules *r, const uint8_t *hand, int32_t count,
                     const uint8_t *first, const uint8_t *key, int32_t key_bytes,
                     int32_t limit, sj_moves *m)
{
    if (!sj__prepared(r) || !hand || !first || !key || !m || key_bytes < 4 ||
        key_bytes % 4 || m->max_moves < 2 || m->max_moves > SJ_MOVES_ROWS || limit < 1 ||
        limit > m->max_moves)
        return SJ_ERR_ARG;
    uint8_t cards[SJ_MAXCARDS];
    int hn = 0, fn = 0;
    for (int k = 0; k < NK; k++) {
        fn += first[k];
        if (hand[k] > r->copies[k] || first[k] > hand[k] || hn + hand[k] > SJ_MAXCARDS)
            return SJ_ERR_ARG;
        for (int c = 0; c < hand[k]; c++)
            cards[hn++] = (uint8_t)k;
    }
    if (count < 1 || count > hn || fn != count)
        return SJ_ERR_ARG;
    mt_state s;
    init_by_array(&s, key, key_bytes / 4);
    uint64_t hashes[SJ_MOVES_ROWS];
    int64_t pos[SJ_MAXCARDS], pool[POOL];
    memcpy(m->rows[0], first, NK);
    hashes[0] = row_hash(first);
    int n = 1;
    for (int tries = 0; n < limit && tries < 20 * m->max_moves; tries++) {
        if (py_sample(&s, (uint64_t)hn, count, pos, pool, POOL))
            return SJ_ERR_ARG;
        uint8_t *P = m->rows[n];
        memset(P, 0, NK);
        for (int i = 0; i < count; i++)
            P[cards[pos[i]]]++;
        uint64_t h = row_hash(P);
        int seen = 0;
        for (int j = 0; j < n && !seen; j++)
            seen = hashes[j] == h && !memcmp(m->rows[j], P, NK);
        if (!seen)
            hashes[n++] = h;
    }
    m->kind = KIND_BURY;
    m->total = m->n = n;
    for (int i = 0; i < n; i++) {
        m->index[i] = i;
        row_features(r, KIND_BURY, m->rows[i], 0, m->features[i]);
    }
    return n;
}
