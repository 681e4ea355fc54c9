/* The deal's shuffle (shengji.engine.game): CPython's random.Random(seed) for a str seed
 * (pyrandom.h: MT19937, its seeding and draws) and our Fisher-Yates over its
 * getrandbits, the same permutation in C. */

#include "pyrandom.h"
#include "shengji_core.h"

int sj_shuffle(const uint8_t *key, int32_t key_bytes, uint8_t *cards, int32_t n) {
    if (!key || !cards || key_bytes < 4 || key_bytes % 4 || n < 0)
        return SJ_ERR_ARG;
    mt_state s;
    init_by_array(&s, key, key_bytes / 4);
    for (int32_t i = n - 1; i > 0; i--) {
        uint32_t j = (uint32_t)py_randbelow(&s, (uint64_t)i + 1);
        uint8_t t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
    return SJ_OK;
}
