/* Internal entry points and helpers the rules core's translation units share (order.c,
 * shapes.c, follow.c, sio_follow.c, pack.c, trick.c, playout.c, drive.c). Not part of
 * the public API: unless a helper says it validates, callers pass counts already checked
 * against the rules and 64-entry arrays. */
#ifndef SJ_INTERNAL_H
#define SJ_INTERNAL_H

#include "shengji_core.h"

/* Memory safety: inputs are copied into 64-entry local arrays after validation, and
 * every index read from a table is masked (K, SU, ST) so even a corrupted sj_rules
 * cannot make the core read or write outside its buffers. */
#define K(x) ((x) & 63)                /* kind index into 64-entry arrays */
#define ST(x) ((x) & 63)               /* strength index */
#define SU(x) ((x) > 4 ? 4 : (x))      /* effective suit index */

#define NODE_BUDGET 20000000L /* search nodes per call before SJ_ERR_LIMIT */

/* splitmix64 (Steele, Lea, Flood 2014): the playout's documented PRNG */
static inline uint64_t sj__next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* one draw mapped onto 0..n-1 (n >= 1) by multiply-high: floor(x * n / 2^64) */
static inline uint64_t sj__below(uint64_t *state, uint64_t n)
{
    return (uint64_t)(((unsigned __int128)sj__next(state) * n) >> 64);
}

/* the card points of a play's counts: 5 for a 5, 10 for a 10 or a K (the playout and
 * the play driver score tricks with it, the greedy policy judges them) */
static inline int sj__points(const uint8_t *P)
{
    int p = 0;
    for (int s = 0; s < 4; s++)
        p += 5 * P[s * 13 + 3] + 10 * (P[s * 13 + 8] + P[s * 13 + 11]);
    return p;
}

/* ---- entry points the playout (playout.c) uses: shapes.c, follow.c, trick.c */

/* decompose 64-entry counts c (n cards) into out; SJ_OK or SJ_ERR_EMPTY / SJ_ERR_MIXED */
int sj__decompose(const sj_rules *r, const uint8_t *c, int n, sj_lead *out);
/* a uniformly drawn legal follow (one draw, canonical order) of hand H (hn cards) */
int sj__follow_pick(const sj_rules *r, const sj_lead *lead, const uint8_t *H, int hn,
                    uint64_t *rng, uint8_t *out);
/* index of the winning play among P[0..m-1] (64-entry counts); F = decomposition of P[0] */
int sj__winner(const sj_rules *r, const sj_lead *F, const uint8_t (*P)[64], int m);
/* a bomb (§7): the kind when P (n cards) is n >= 4 copies of one kind and the rules have
 * bombs, else -1 */
int sj__bomb_kind(const sj_rules *r, const uint8_t *P, int n);
/* P is a bomb the rules let follow this lead whatever §4 says (any_suit, or follow_suit
 * and of the led suit) */
int sj__bomb_exempt(const sj_rules *r, const sj_lead *lead, const uint8_t *P);
/* kitty multiplier of a last trick led by F (§8, the lead's components) */
int sj__kitty(const sj_rules *r, const sj_lead *F);

/* ---- playout.c (used by search.c and drive.c) */

/* one playout of a checked position; first (NULL: none) a checked first play */
int sj__playout(const sj_rules *r, const sj_position *p, uint64_t seed, const uint8_t *first,
                int policy, sj_playout_result *res);
/* check a position (every copy in one place, sizes that fit); SJ_OK or an error in e */
int sj__check_position(const sj_rules *r, const sj_position *p, sj_err *e);
/* r was prepared by sj_prepare */
int sj__prepared(const sj_rules *r);
/* ---- greedy.c (used by playout.c) */

/* the greedy policy's follow of the seat at trick position cur (P[0..cur-1] played) */
int sj__greedy_follow(const sj_rules *r, const sj_lead *F, const uint8_t (*P)[64], int cur,
                      const int32_t *teams, int leader, int m, const uint8_t *H, int hn,
                      uint64_t *rng, uint8_t *out);

/* ---- batch.c */

/* the target-th lead sj_lead_list lists for hand (54 counts) into out (54 counts; with
 * target < 0 nothing is written); returns how many leads there are, or an error */
int sj__lead_at(const sj_rules *r, const uint8_t *hand, int throws, int target, uint8_t *out);

/* ---- drive.c (used by moves.c) */

/* the cards of options idx[0..n-1] of the play driver's listed decision, 54 counts each
 * into rows; SJ_OK or an error */
int sj__drive_options(const sj_rules *r, const sj_drive *d, const int64_t *idx, int n,
                      uint8_t *rows);

/* ---- rainbow.c (leads with esuit SJ_RAINBOW) */

/* the rainbow decomposition of c (n cards, several suits), or SJ_ERR_MIXED if it is none */
int sj__rainbow_decompose(const sj_rules *r, const uint8_t *c, int n, sj_lead *out);
/* can the ranks of c give every unit of the rainbow F? 1/0, < 0 on error */
int sj__rainbow_assignable(const sj_lead *F, const uint8_t *c);
/* follow reason of play P from hand H on a rainbow lead (or < 0) */
int sj__rainbow_follow(const sj_lead *lead, const uint8_t *H, const uint8_t *P);
/* throw check of a rainbow throw against m holdings (54 counts each) */
int sj__rainbow_throw(const sj_rules *r, const sj_lead *lead, const uint8_t *others, int m,
                      sj_throw_result *out);
/* winner of a rainbow trick */
int sj__rainbow_winner(const sj_lead *F, const uint8_t (*P)[64], int m);

/* ---- helpers shared between the core's files: order.c */

/* fill e (when not NULL) with an error's details; returns code */
int sj__fail(sj_err *e, int code, int which, int index, int card, int count, int a, int b);
/* r was prepared by sj_prepare (magic set) and its deck count is sane */
int sj__rules_ok(const sj_rules *r);
/* validate a 54-count buffer src (len entries) and copy it into dst[64]; cards in *total */
int sj__load(const sj_rules *r, const uint8_t *src, int len, uint8_t *dst, int *total,
             int which, int index, sj_err *e);
/* lead is a decomposition made under r (same stamp) with components inside its arrays */
int sj__lead_ok(const sj_rules *r, const sj_lead *l, sj_err *e);

/* ---- shapes.c */

/* does a structure of shape (w, len) exist under the rules (§3)? */
int sj__shape_exists(const sj_rules *r, int w, int len);
/* highest top strength of a (w, len) structure held in c (suit s), or -1 */
int sj__max_top(const sj_rules *r, int s, const uint8_t *c, int w, int len);
/* sj__decompose reporting failures in e against argument which (element index) */
int sj__decompose_err(const sj_rules *r, const uint8_t *cin, int n, sj_lead *out, int which,
                      int index, sj_err *e);

/* ---- sio_follow.c (play.follow_requirements: shengji_io, §4) */

/* shengji.io's judgement of follows of one lead from one hand (its requirement listing
 * and the hand's answers kept between plays) */
typedef struct sj_sio sj_sio;
/* can need[w] plain tuples of widths 2..8 be packed into kinds grouped by the copies
 * they hold (cap[v] kinds with v copies)? 1, 0, or SJ_ERR_LIMIT once *budget runs out
 * (pack.c; cap and need are restored) */
int sj__pack_tuples(int *cap, int *need, long *budget);
/* H: the hand's 64-entry counts; budget: match nodes for the context's lifetime */
int sj__sio_open(const sj_rules *r, const sj_lead *lead, const uint8_t *H, long budget,
                 sj_sio **out);
void sj__sio_close(sj_sio *S);
/* a play P (the lead's size, all of the led suit, from H) is legal: 1, 0, or < 0 */
int sj__sio_judge(sj_sio *S, const uint8_t *P);
/* every play that can be legal, as the card sets handed to add (0: go on, < 0: stop);
 * *all = 1 when any play of the suit can be */
int sj__sio_collect(sj_sio *S, int (*add)(void *, const uint8_t *), void *arg, int *all);
/* one play judged (open, judge, close) */
int sj__sio_follow(const sj_rules *r, const sj_lead *lead, const uint8_t *H, const uint8_t *P);

#endif
