/* The deal's shuffle (shengji.engine.game): CPython's random.Random(seed) for a str seed
 * and our Fisher-Yates over its getrandbits, the same permutation in C. random.Random
 * seeds MT19937 by init_by_array from the 32-bit words (least significant first) of the
 * integer the seed string makes (its UTF-8 bytes then their SHA-512, big-endian): the
 * caller passes those words as little-endian bytes. getrandbits(k) for 0 < k <= 32 is
 * the top k bits of one 32-bit draw. tests/test_shuffle.py holds this to CPython. */

#include "shengji_core.h"

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    int index;
} mt_state;

static void init_genrand(mt_state *s, uint32_t seed) {
    s->mt[0] = seed;
    for (int i = 1; i < MT_N; i++)
        s->mt[i] = 1812433253U * (s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) + (uint32_t)i;
    s->index = MT_N;
}

static uint32_t key_word(const uint8_t *key, int32_t j) {
    const uint8_t *b = key + 4 * j;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void init_by_array(mt_state *s, const uint8_t *key, int32_t nwords) {
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

static uint32_t genrand(mt_state *s) {
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

int sj_shuffle(const uint8_t *key, int32_t key_bytes, uint8_t *cards, int32_t n) {
    if (!key || !cards || key_bytes < 4 || key_bytes % 4 || n < 0)
        return SJ_ERR_ARG;
    mt_state s;
    init_by_array(&s, key, key_bytes / 4);
    for (int32_t i = n - 1; i > 0; i--) {
        uint32_t m = (uint32_t)i + 1, k = 0, j;
        while (m >> k)
            k++;  /* m.bit_length() */
        do
            j = genrand(&s) >> (32 - k);  /* getrandbits(k) */
        while (j >= m);
        uint8_t t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
    return SJ_OK;
}
