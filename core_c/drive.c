/* The play driver: the play phase of an engine Game whose seats choose their plays by
 * index (a random bot), resumable, one call per decision (shengji/engine/drive.py is
 * its Python face).
 *
 * Every decision is listed exactly as shengji.engine lists it (Game._play_picked and
 * Game._listed): leads by sj_lead_list's order; the follows of a single lead as the led
 * suit's kinds held (largest id first), else every kind held (ascending id); a hand
 * holding no more cards of the led suit than were led: the whole suit held, plus (when
 * short) every choice of the rest in FillerFollows' order (shengji/engine/legal.py);
 * else sj_legal_follows up to follow_limit, asked as Context.legal_follows asks it.
 * Throws are checked with sj_check_throw against the other seats and a failed one
 * handled as the built-in shengji_failed_throw hook does (one forced play; several:
 * the next seat chooses, which only Python can ask). Finding friends: a play holding a
 * card of a call still open (watch) is left to Python, which counts it and may change
 * the sides; every other play leaves the calls as they are. Trick winners come from
 * sj_winner_code, the engine's own call.
 *
 * The log records what was done, for Python to rebuild the engine's actions and
 * events in bulk, as 32-bit words:
 *   a single card  (trick << 11) | (seat << 7) | (card << 1) | lead   (< 2^31)
 *   other plays    LOG_PLAY | seat << 16 | lead << 15 | n, then the n card ids
 *                  (descending), a word each
 *   a failed throw LOG_THROW | seat << 16 | n, then the attempted ids; the forced play
 *                  follows as a play record (lead set)
 *   a trick's end  LOG_TRICK | (the winning play's index << 16) | points
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shengji_core.h"
#include "sj_internal.h"

enum { OPEN_LEAD = 1, OPEN_SINGLE, OPEN_WHOLE, OPEN_FILLER, OPEN_LISTED };

#define FILLER_R 64                /* fillers of more cards are left to Python */
#define FILLER_MAX (1ull << 56)    /* counts past this are left to Python (n << 4 fits) */
#define LOG_ROOM (2 * SJ_MAXCARDS + 8) /* words one decision may log, at most */
#define LOG_PLAY SJ_DRIVE_LOG_PLAY
#define LOG_THROW SJ_DRIVE_LOG_THROW
#define LOG_TRICK SJ_DRIVE_LOG_TRICK

/* the filler table: ways[i][j] = multisets of j cards from kinds[i..] (FillerFollows) */
typedef struct {
    int nk, r;
    uint8_t kinds[SJ_NK], caps[SJ_NK];
    uint64_t ways[SJ_NK + 1][FILLER_R + 1];
} filler_t;

/* 0, or 1 when a count does not fit (the caller leaves the decision to Python) */
static int filler_build(const uint8_t *pool, int r, filler_t *f)
{
    f->nk = 0;
    f->r = r;
    for (int k = 0; k < SJ_NK; k++)
        if (pool[k]) {
            f->kinds[f->nk] = (uint8_t)k;
            f->caps[f->nk++] = pool[k];
        }
    int n = f->nk;
    for (int j = 0; j <= r; j++)
        f->ways[n][j] = j == 0;
    for (int i = n - 1; i >= 0; i--) {
        const uint64_t *nxt = f->ways[i + 1];
        int cap = f->caps[i];
        uint64_t acc = 0; /* acc <= FILLER_MAX before each add: no overflow */
        for (int j = 0; j <= r; j++) {
            acc += nxt[j];
            if (j > cap)
                acc -= nxt[j - cap - 1];
            if (acc > FILLER_MAX)
                return 1;
            f->ways[i][j] = acc;
        }
    }
    return 0;
}

/* the idx-th filler (0 <= idx < ways[0][r]) added to out */
static void filler_at(const filler_t *f, uint64_t idx, uint8_t *out)
{
    int j = f->r;
    for (int i = 0; i < f->nk; i++) {
        const uint64_t *row = f->ways[i], *nxt = f->ways[i + 1];
        uint64_t with_k = row[j] - nxt[j]; /* plays holding this kind come first */
        if (idx >= with_k) {
            idx -= with_k;
            continue;
        }
        for (int m = f->caps[i] < j ? f->caps[i] : j; m > 0; m--) { /* more copies first */
            uint64_t w = nxt[j - m];
            if (idx < w) {
                out[f->kinds[i]] = (uint8_t)(out[f->kinds[i]] + m);
                j -= m;
                break;
            }
            idx -= w;
        }
        if (j == 0)
            break;
    }
}

static int count(const uint8_t *c)
{
    int n = 0;
    for (int k = 0; k < SJ_NK; k++)
        n += c[k];
    return n;
}

/* the lead's suit held by hand H, and the pool of other cards (Game._listed) */
static int held_of(const sj_rules *r, const sj_drive *d, const uint8_t *H, uint8_t *base,
                   uint8_t *pool)
{
    int suit = -1, held = 0;
    for (int k = SJ_NK - 1; k >= 0; k--) /* the lead's first card: its largest id */
        if (d->trick[0][k]) {
            suit = r->esuit[k];
            break;
        }
    for (int k = 0; k < SJ_NK; k++) {
        int in = r->esuit[k] == suit;
        base[k] = in ? H[k] : 0;
        pool[k] = in ? 0 : H[k];
        held += base[k];
    }
    return held;
}

/* the effective suits of the lead: several is a rainbow (Game._rainbow_led) */
static int rainbow_led(const sj_rules *r, const sj_drive *d)
{
    if (!r->rainbow_min)
        return 0;
    int suit = -1;
    for (int k = 0; k < SJ_NK; k++)
        if (d->trick[0][k]) {
            if (suit >= 0 && r->esuit[k] != suit)
                return 1;
            suit = r->esuit[k];
        }
    return 0;
}

/* list the decision of the seat to act: its option count (> 0), SJ_DRIVE_STOP when it
 * is not the driver's, or an error */
static int64_t list(const sj_rules *r, sj_drive *d)
{
    int seat = d->to_act;
    d->n_open = 0;
    if (!(d->pickers >> seat & 1) || SJ_DRIVE_LOG - d->log_len < LOG_ROOM)
        return SJ_DRIVE_STOP;
    const uint8_t *H = d->hands[seat];
    int64_t n;
    if (d->n_trick == 0) {
        n = sj_lead_list(r, H, d->throws, d->leads, SJ_DRIVE_LEADS);
        d->open_kind = OPEN_LEAD;
    } else if (d->lead.n == 1) {
        int s = d->lead.esuit;
        n = 0;
        for (int k = SJ_NK - 1; k >= 0; k--)
            if (H[k] && r->esuit[k] == s)
                d->opts[n++] = (uint8_t)k;
        if (!n)
            for (int k = 0; k < SJ_NK; k++)
                if (H[k])
                    d->opts[n++] = (uint8_t)k;
        d->open_kind = OPEN_SINGLE;
    } else {
        uint8_t base[SJ_NK], pool[SJ_NK];
        int nl = d->lead.n, held = held_of(r, d, H, base, pool), bomb = 0;
        if ((r->bombs == SJ_BOMBS_ANY_SUIT || r->bombs == SJ_BOMBS_FOLLOW_SUIT_OR_TRUMP) &&
            nl >= 4)
            for (int k = 0; k < SJ_NK; k++)
                bomb |= H[k] >= nl &&
                        (r->bombs == SJ_BOMBS_ANY_SUIT || r->esuit[k] == SJ_TRUMP);
        if (held <= nl && !bomb && !rainbow_led(r, d)) {
            if (held == nl) {
                n = 1;
                d->open_kind = OPEN_WHOLE;
            } else {
                if (nl - held > FILLER_R)
                    return SJ_DRIVE_STOP;
                filler_t f;
                if (filler_build(pool, nl - held, &f))
                    return SJ_DRIVE_STOP;
                n = (int64_t)f.ways[0][nl - held];
                d->open_kind = OPEN_FILLER;
            }
        } else {
            /* as Context.legal_follows asks: at most 64 first, then up to the limit */
            uint64_t total = 0;
            int32_t got = 0, exact = 0;
            int limit = d->follow_limit, cap = limit < 64 ? limit : 64;
            for (;;) {
                int rc = sj_legal_follows(r, &d->lead, H, SJ_NK, d->follows,
                                          (cap ? cap : 1) * SJ_NK, &got, &total, &exact, NULL);
                if (rc)
                    return rc;
                if ((uint64_t)got == (total < (uint64_t)limit ? total : (uint64_t)limit) ||
                    (!exact && got < cap))
                    break;
                uint64_t next = total > 2 * (uint64_t)cap ? total : 2 * (uint64_t)cap;
                cap = next < (uint64_t)limit ? (int)next : limit;
            }
            n = got;
            d->open_kind = OPEN_LISTED;
        }
    }
    if (n <= 0)
        return n < 0 ? n : SJ_DRIVE_STOP; /* nothing listed: the engine's own business */
    d->n_open = n;
    return n;
}

/* log seat's play P (throw: the attempt of a failed throw) */
static void log_play(sj_drive *d, int seat, const uint8_t *P, int throw)
{
    uint32_t *L = d->log + d->log_len;
    int n = 0, last = 0, lead = d->n_trick == 0;
    for (int k = SJ_NK - 1; k >= 0; k--)
        for (int c = 0; c < P[k]; c++) {
            L[++n] = (uint32_t)k;
            last = k;
        }
    if (n == 1 && !throw) {
        L[0] = (uint32_t)d->trick_number << 11 | (uint32_t)seat << 7 | (uint32_t)last << 1 |
               (uint32_t)lead;
        d->log_len += 1;
        return;
    }
    L[0] = (throw ? LOG_THROW : LOG_PLAY | (uint32_t)lead << 15) | (uint32_t)seat << 16 |
           (uint32_t)n;
    d->log_len += 1 + n;
}

/* seat plays P (checked held): hands, the trick, and at its end the winner. A (NULL:
 * none) is P's decomposition when P leads and the caller has made it; k1 >= 0 says P is
 * that one card (the commonest play: no pass over the 54 kinds) */
static int64_t play(const sj_rules *r, sj_drive *d, int seat, const uint8_t *P,
                    const sj_lead *A, int k1)
{
    int m = d->players;
    uint8_t *H = d->hands[seat];
    if (k1 >= 0) {
        H[k1]--;
        d->played[k1]++;
        d->hand_len[seat]--;
        d->log[d->log_len++] = (uint32_t)d->trick_number << 11 | (uint32_t)seat << 7 |
                               (uint32_t)k1 << 1 | (uint32_t)(d->n_trick == 0);
    } else {
        int n = count(P);
        for (int k = 0; k < SJ_NK; k++) {
            H[k] = (uint8_t)(H[k] - P[k]);
            d->played[k] = (uint8_t)(d->played[k] + P[k]);
        }
        d->hand_len[seat] -= n;
        log_play(d, seat, P, 0);
    }
    memcpy(d->trick[d->n_trick], P, SJ_NK);
    if (d->n_trick == 0) {
        int rc = A ? (d->lead = *A, 0) : sj_decompose54(r, P, &d->lead);
        if (rc < 0)
            return rc;
    }
    if (++d->n_trick < m) {
        d->to_act = (seat + 1) % m;
        return 0;
    }
    /* the winner as sj_trick_winner (Context._winner_of) finds it, from the lead
     * decomposed as it decomposes it: sj__winner on 64-entry counts */
    uint8_t W[SJ_MAX_PLAYERS][64];
    memset(W, 0, sizeof W);
    for (int j = 0; j < m; j++)
        memcpy(W[j], d->trick[j], SJ_NK);
    int idx = sj__winner(r, &d->lead, (const uint8_t (*)[64])W, m);
    if (idx < 0 || idx >= m)
        return idx < 0 ? idx : SJ_ERR_ARG;
    int winner = (d->leader + idx) % m, points = 0;
    for (int j = 0; j < m; j++)
        points += sj__points(d->trick[j]);
    d->captured[winner] += points;
    if (!(d->side >> winner & 1))
        d->trick_points += points;
    d->log[d->log_len++] = LOG_TRICK | (uint32_t)idx << 16 | (uint32_t)(points & 0xffff);
    d->n_trick = 0;
    memset(d->trick, 0, sizeof d->trick);
    if (d->hand_len[winner] == 0)
        return SJ_DRIVE_END;
    d->trick_number++;
    d->leader = d->to_act = winner;
    return 0;
}

/* does P hold a watched card (finding friends: a call still open, which the engine
 * counts as it is played; FriendTracker.play changes nothing for other cards)? */
static int watched(const sj_drive *d, const uint8_t *P)
{
    for (int k = 0; k < SJ_NK; k++)
        if (P[k] && d->watch[k])
            return 1;
    return 0;
}

/* the cards of options idx[0..n-1] of the decision listed (or being applied), 54 counts
 * each into rows (the filler table built once for them all); SJ_OK or an error (an
 * index outside what is kept) */
int sj__drive_options(const sj_rules *r, const sj_drive *d, const int64_t *idx, int n,
                      uint8_t *rows)
{
    const uint8_t *H = d->hands[d->to_act];
    uint8_t base[SJ_NK], pool[SJ_NK], *leads = NULL;
    filler_t f;
    if (d->open_kind == OPEN_WHOLE || d->open_kind == OPEN_FILLER) {
        int held = held_of(r, d, H, base, pool);
        if (d->open_kind == OPEN_FILLER && filler_build(pool, d->lead.n - held, &f))
            return SJ_ERR_ARG; /* listed before: cannot happen */
    }
    if (d->open_kind == OPEN_LEAD && n > 1) {
        /* leads past those kept: the listing walked once for them all, not once each */
        int64_t top = -1;
        for (int j = 0; j < n; j++)
            top = idx[j] > top ? idx[j] : top;
        if (top >= SJ_DRIVE_LEADS && top < INT32_MAX / SJ_NK) {
            leads = malloc((size_t)(top + 1) * SJ_NK);
            if (!leads)
                return SJ_ERR_MEMORY;
            int got = sj_lead_list(r, H, d->throws, leads, (int)top + 1);
            if (got <= top) {
                free(leads);
                return got < 0 ? got : SJ_ERR_ARG;
            }
        }
    }
    int rc = SJ_OK;
    for (int j = 0; j < n && rc == SJ_OK; j++) {
        int64_t i = idx[j];
        uint8_t *P = rows + (size_t)j * SJ_NK;
        if (i < 0) {
            rc = SJ_ERR_ARG;
            break;
        }
        memset(P, 0, SJ_NK);
        switch (d->open_kind) {
        case OPEN_LEAD:
            if (i < SJ_DRIVE_LEADS)
                memcpy(P, d->leads + (size_t)i * SJ_NK, SJ_NK);
            else if (leads)
                memcpy(P, leads + (size_t)i * SJ_NK, SJ_NK);
            else if ((rc = sj__lead_at(r, H, d->throws, (int)i, P)) > 0)
                rc = SJ_OK;
            break;
        case OPEN_SINGLE:
            if (i >= SJ_NK)
                rc = SJ_ERR_ARG;
            else
                P[K(d->opts[i])] = 1;
            break;
        case OPEN_WHOLE:
        case OPEN_FILLER:
            memcpy(P, base, SJ_NK);
            if (d->open_kind == OPEN_FILLER) {
                if ((uint64_t)i >= f.ways[0][f.r])
                    rc = SJ_ERR_ARG;
                else
                    filler_at(&f, (uint64_t)i, P);
            }
            break;
        case OPEN_LISTED:
            if (i >= SJ_DRIVE_FOLLOWS)
                rc = SJ_ERR_ARG;
            else
                memcpy(P, d->follows + (size_t)i * SJ_NK, SJ_NK);
            break;
        default:
            rc = SJ_ERR_ARG;
        }
    }
    free(leads);
    return rc;
}

/* apply option i of the open decision */
static int64_t apply(const sj_rules *r, sj_drive *d, int64_t i)
{
    int seat = d->to_act, m = d->players;
    const uint8_t *H = d->hands[seat];
    uint8_t P[SJ_NK];
    sj_lead A;
    const sj_lead *F = NULL;
    int rc = sj__drive_options(r, d, &i, 1, P);
    if (rc < 0)
        return rc;
    if (d->open_kind == OPEN_SINGLE) {
        int k = K(d->opts[i]);
        if (!H[k])
            return SJ_ERR_NOT_IN_HAND;
        if (d->watch[k])
            return SJ_DRIVE_PENDING; /* a called card: the engine counts it */
        return play(r, d, seat, P, NULL, k);
    }
    if (d->open_kind == OPEN_LEAD) {
        if (watched(d, P))
            return SJ_DRIVE_PENDING;
        int n = 0, kinds = 0;
        for (int k = 0; k < SJ_NK; k++) {
            n += P[k];
            kinds += P[k] != 0;
        }
        if (kinds > 1 || n > r->max_tuple) { /* one card or one tuple: no throw
                                              * (Game._play_plan) */
            if ((rc = sj_decompose54(r, P, &A)) < 0)
                return rc;
            F = &A;
            if (rc > 1) {
                uint8_t others[(SJ_MAX_PLAYERS - 1) * SJ_NK];
                for (int j = 1; j < m; j++)
                    memcpy(others + (size_t)(j - 1) * SJ_NK, d->hands[(seat + j) % m],
                           SJ_NK);
                sj_throw_result tr;
                if ((rc = sj_check_throw(r, &A, others, (m - 1) * SJ_NK, m - 1, &tr, NULL)))
                    return rc;
                if (!tr.valid) {
                    if (tr.n_options != 1) /* the next seat chooses: Python asks it */
                        return SJ_DRIVE_PENDING;
                    log_play(d, seat, P, 1);
                    F = NULL; /* the forced play leads */
                    int back = 0; /* cards the forced play takes back */
                    for (int k = 0; k < SJ_NK; k++)
                        back += P[k] - tr.options[0][k];
                    int pen = d->throw_penalty + d->throw_penalty_per_card * back;
                    d->penalties[seat] += pen;
                    d->penalty += (d->side >> seat & 1) ? pen : -pen;
                    memcpy(P, tr.options[0], SJ_NK);
                }
            }
        }
    }
    if (watched(d, P))
        return SJ_DRIVE_PENDING;
    for (int k = 0; k < SJ_NK; k++)
        if (P[k] > H[k])
            return SJ_ERR_NOT_IN_HAND;
    return play(r, d, seat, P, F, -1);
}

/* the caller's state is one the driver can run: seats, sizes and counts in range */
static int check(const sj_rules *r, const sj_drive *d)
{
    int m = d->players;
    if (m < 2 || m > SJ_MAX_PLAYERS || d->to_act < 0 || d->to_act >= m || d->leader < 0 ||
        d->leader >= m || d->n_trick < 0 || d->n_trick >= m || d->follow_limit < 1 ||
        d->follow_limit > SJ_DRIVE_FOLLOWS || (d->throws != 0 && d->throws != 1) ||
        d->throw_penalty < 0 || d->throw_penalty > 1000000 ||
        d->throw_penalty_per_card < 0 || d->throw_penalty_per_card > 1000000 ||
        d->log_len < 0 || d->log_len > SJ_DRIVE_LOG || d->trick_number < 0 ||
        d->trick_number > SJ_MAXCARDS || (d->to_act - d->leader - d->n_trick) % m != 0)
        return SJ_ERR_ARG;
    for (int j = 0; j < m; j++) {
        int n = count(d->hands[j]);
        if (n != d->hand_len[j] || n > SJ_MAXCARDS)
            return SJ_ERR_SIZE;
        for (int k = 0; k < SJ_NK; k++)
            if (d->hands[j][k] > r->copies[k] || d->trick[j][k] > r->copies[k])
                return SJ_ERR_COPIES;
    }
    return SJ_OK;
}

static int64_t listed(const sj_rules *r, sj_drive *d)
{
    int64_t rc = list(r, d);
    return rc > 0 ? (rc << 4) | d->to_act : rc;
}

int64_t sj_drive_start(const sj_rules *r, sj_drive *d)
{
    if (!sj__prepared(r))
        return SJ_ERR_CONTEXT;
    if (!d)
        return SJ_ERR_ARG;
    d->log_len = 0;
    d->n_open = 0;
    int64_t rc = check(r, d);
    if (rc)
        return rc;
    if (d->n_trick && (rc = sj_decompose54(r, d->trick[0], &d->lead)) < 0)
        return rc;
    return listed(r, d);
}

int64_t sj_drive_step(const sj_rules *r, sj_drive *d, int64_t pick)
{
    if (!sj__prepared(r))
        return SJ_ERR_CONTEXT;
    if (!d || d->n_open <= 0 || d->log_len < 0 || d->log_len > SJ_DRIVE_LOG - LOG_ROOM)
        return SJ_ERR_ARG; /* no decision open */
    int64_t n = d->n_open;
    d->n_open = 0;
    if (pick < 0 || pick >= n)
        return SJ_DRIVE_PENDING; /* not an option: Python answers as the engine does */
    int64_t rc = apply(r, d, pick);
    return rc ? rc : listed(r, d);
}

/* The environments' entry (shengji/env/cplay.py): the seat to act plays P (54 counts),
 * chosen by the caller rather than listed, and applied as a listed pick of the same
 * cards would be (a lead's throw check and failed-throw outcome, the trick's end).
 * Nothing is listed after it. 0, SJ_DRIVE_END, SJ_DRIVE_PENDING (only Python can apply
 * it: nothing applied) or an SJ_ERR_* code. */
int64_t sj_drive_play(const sj_rules *r, sj_drive *d, const uint8_t *P)
{
    if (!sj__prepared(r))
        return SJ_ERR_CONTEXT;
    if (!d || !P || d->log_len < 0 || d->log_len > SJ_DRIVE_LOG - LOG_ROOM ||
        d->to_act < 0 || d->to_act >= d->players || d->n_trick < 0 ||
        d->n_trick >= d->players)
        return SJ_ERR_ARG;
    /* the play as the one option listed: row 0 of the leads or of the follows */
    if (d->n_trick == 0) {
        memcpy(d->leads, P, SJ_NK);
        d->open_kind = OPEN_LEAD;
    } else {
        memcpy(d->follows, P, SJ_NK);
        d->open_kind = OPEN_LISTED;
    }
    d->n_open = 0;
    return apply(r, d, 0);
}
