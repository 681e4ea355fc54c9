/* Internal entry points of the rules core shared by its own translation units (the
 * playout, core_c/playout.c). Not part of the public API: no argument is validated
 * here; callers pass counts already checked against the rules and 64-entry arrays. */
#ifndef SJ_INTERNAL_H
#define SJ_INTERNAL_H

#include "shengji_core.h"

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

/* decompose 64-entry counts c (n cards) into out; SJ_OK or SJ_ERR_EMPTY / SJ_ERR_MIXED */
int sj__decompose(const sj_rules *r, const uint8_t *c, int n, sj_lead *out);
/* a uniformly drawn legal follow (one draw, canonical order) of hand H (hn cards) */
int sj__follow_pick(const sj_rules *r, const sj_lead *lead, const uint8_t *H, int hn,
                    uint64_t *rng, uint8_t *out);
/* index of the winning play among P[0..m-1] (64-entry counts); F = decomposition of P[0] */
int sj__winner(const sj_rules *r, const sj_lead *F, const uint8_t (*P)[64], int m);
/* kitty multiplier of a last trick led by F (§8, the lead's components) */
int sj__kitty(const sj_rules *r, const sj_lead *F);

#endif
