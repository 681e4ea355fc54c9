/* CPython's random.Random in C, as far as the core needs it (shuffle.c: the deal's
 * shuffle; moves.c: the samples of whole-move listings). random.Random(seed) for a str
 * seed runs MT19937's init_by_array over the 32-bit words (least significant first) of
 * the integer the seed string makes (its UTF-8 bytes then their SHA-512, big-endian):
 * the caller passes those words as little-endian bytes (shengji.core.positions.shuffled
 * and shengji.env.cmoves make them). getrandbits(k) is one 32-bit draw's top k bits for
 * k <= 32, else draws least significant word first; randbelow and sample are
 * Random._randbelow_with_getrandbits and Random.sample (CPython 3.11's Lib/random.py).
 * The tests hold them to CPython (tests/test_engine_fast_paths.py: the shuffle;
 * tests/test_env_moves_c.py: the samples). */
#ifndef SJ_PYRANDOM_H
#define SJ_PYRANDOM_H

#include <stdint.h>
#include <string.h>

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    int index;
} mt_state;

static inline void init_genrand(mt_state *s, uint32_t seed)
{
    s->mt[0] = seed;
    for (int i = 1; i < MT_N; i++)
        s->mt[i] = 1812433253U * (s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) + (uint32_t)i;
    s->index = MT_N;
}

static inline uint32_t key_word(const uint8_t *key, int32_t j)
{
    const uint8_t *b = key + 4 * j;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static inline void init_by_array(mt_state *s, const uint8_t *key, int32_t nwords)
{
    uint32_t *mt = s->mt;
    init_genrand(s, 19650218U);
    int32_t i = 1, j = 0;
    for (int32_t k = MT_N > nwords ? MT_N : nwords; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key_word(key, j)
                + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
        if (j >= nwords)
            j = 0;
    }
    for (int k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
    s->index = MT_N;
}

static inline uint32_t genrand(mt_state *s)
{
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t *mt = s->mt, y;
    if (s->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1U];
        }
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1U];
        s->index = 0;
    }
    y = mt[s->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

/* getrandbits(k), 0 < k <= 64 */
static inline uint64_t py_getrandbits(mt_state *s, int k)
{
    if (k <= 32)
        return genrand(s) >> (32 - k);
    uint64_t lo = genrand(s);
    return lo | (uint64_t)(genrand(s) >> (64 - k)) << 32;
}

/* randbelow(n), 0 < n < 2^63 */
static inline uint64_t py_randbelow(mt_state *s, uint64_t n)
{
    int k = 0;
    while (k < 64 && n >> k)
        k++; /* n.bit_length() */
    uint64_t r;
    do
        r = py_getrandbits(s, k);
    while (r >= n);
    return r;
}

/* sample(range(n), k) into out (k positions; 0 <= k <= n < 2^63): the pool of
 * positions when n is small against k (pool: n entries of room), else redraws of
 * positions already taken (looked up in out). 0, or -1 when the pool has no room */
static inline int py_sample(mt_state *s, uint64_t n, int k, int64_t *out, int64_t *pool,
                            int pool_room)
{
    uint64_t setsize = 21;
    if (k > 5) { /* + 4 ** ceil(log(3k, 4)): 3k is never a power of 4 */
        int e = 0;
        while ((uint64_t)1 << (2 * e) < (uint64_t)k * 3)
            e++;
        setsize += (uint64_t)1 << (2 * e);
    }
    if (n <= setsize) {
        if (n > (uint64_t)pool_room)
            return -1;
        for (uint64_t i = 0; i < n; i++)
            pool[i] = (int64_t)i;
        for (int i = 0; i < k; i++) {
            uint64_t j = py_randbelow(s, n - (uint64_t)i);
            out[i] = pool[j];
            pool[j] = pool[n - (uint64_t)i - 1];
        }
        return 0;
    }
    for (int i = 0; i < k; i++) {
        int64_t j;
        int seen;
        do {
            j = (int64_t)py_randbelow(s, n);
            seen = 0;
            for (int t = 0; t < i && !seen; t++)
                seen = out[t] == j;
        } while (seen);
        out[i] = j;
    }
    return 0;
}

#endif
