/* The WebAssembly face of the core (core_c/build_wasm.py links it with the same sources
 * as the cffi build; nothing here judges a play).
 *
 * JavaScript cannot see C structs, so these helpers allocate, fill and read them by
 * field id, each access bounds-checked: a wrong id or index returns SJ_ERR_ARG (or -1
 * for a read) instead of touching memory outside the struct. shengji/wasm/core.mjs is
 * the only caller; it owns every pointer returned here and frees it with sjw_free.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "shengji_core.h"

void *sjw_alloc(int32_t n) { return n > 0 ? calloc(1, (size_t)n) : NULL; }
void sjw_free(void *p) { free(p); }

/* sizes of the structs the JS side allocates */
int32_t sjw_sizeof(int32_t what)
{
    switch (what) {
    case 0: return (int32_t)sizeof(sj_rules);
    case 1: return (int32_t)sizeof(sj_lead);
    case 2: return (int32_t)sizeof(sj_follow_info);
    case 3: return (int32_t)sizeof(sj_throw_result);
    case 4: return (int32_t)sizeof(sj_err);
    default: return -1;
    }
}

/* offsets inside sj_lead, for reading a decomposition in one pass: 0 n, 1 esuit,
 * 2 ncomp (int32 each), 3 comps (4 bytes each: w, len, top, first), 4 kinds, 5 counts */
int32_t sjw_lead_offset(int32_t what)
{
    switch (what) {
    case 0: return (int32_t)offsetof(sj_lead, n);
    case 1: return (int32_t)offsetof(sj_lead, esuit);
    case 2: return (int32_t)offsetof(sj_lead, ncomp);
    case 3: return (int32_t)offsetof(sj_lead, comps);
    case 4: return (int32_t)offsetof(sj_lead, kinds);
    case 5: return (int32_t)offsetof(sj_lead, counts);
    case 6: return (int32_t)sizeof(sj_comp);
    default: return -1;
    }
}

/* rules fields by id (the ids of shengji/wasm/core.mjs RULE_FIELDS) */
int32_t sjw_rules_set(sj_rules *r, int32_t field, int32_t index, int32_t value)
{
    if (!r) return SJ_ERR_ARG;
    switch (field) {
    case 1: r->decks = value; return SJ_OK;
    case 2: r->level = value; return SJ_OK;
    case 3: r->trump = value; return SJ_OK;
    case 4: r->max_tuple = value; return SJ_OK;
    case 5: r->tractors = value; return SJ_OK;
    case 6: r->tractor_min_width = value; return SJ_OK;
    case 7: r->tractor_min_length = value; return SJ_OK;
    case 8: r->bridge = value; return SJ_OK;
    case 9: r->protection = value; return SJ_OK;
    case 10: r->constant_mask = (uint32_t)value; return SJ_OK;
    case 11: r->ruff_compare = value; return SJ_OK;
    case 12: r->failed_throw = value; return SJ_OK;
    case 13: r->kitty = value; return SJ_OK;
    case 14: r->kitty_cap = value; return SJ_OK;
    case 15:
        if (index < 0 || index >= 6) return SJ_ERR_ARG;
        r->kitty_table[index] = value;
        return SJ_OK;
    case 18: r->shorter_tractors = value; return SJ_OK;
    case 19: r->bombs = value; return SJ_OK;
    case 20: r->rainbow_min = value; return SJ_OK;
    case 21:
        if (index < 0 || index >= SJ_NK || value < 0 || value > 255) return SJ_ERR_ARG;
        r->copies[index] = (uint8_t)value;
        return SJ_OK;
    case 22: r->genuine_tuples = value; return SJ_OK;
    case 23: r->tractors_first = value; return SJ_OK;
    case 24: r->decomposition = value; return SJ_OK;
    case 25: r->follow_requirements = value; return SJ_OK;
    case 26: r->throw_following = value; return SJ_OK;
    case 27: r->kitty_throw = value; return SJ_OK;
    case 28: r->no_trump_throws = value; return SJ_OK;
    default: return SJ_ERR_ARG;
    }
}

static int shape_ok(int32_t w, int32_t len) { return w >= 0 && w <= 255 && len >= 0 && len <= 255; }

/* ladder i: the led shape and its pattern count (n_ladders grows to cover i) */
int32_t sjw_ladder(sj_rules *r, int32_t i, int32_t w, int32_t len, int32_t n_patterns)
{
    if (!r || i < 0 || i >= SJ_MAX_LADDERS || !shape_ok(w, len) || n_patterns < 0
        || n_patterns > SJ_LADDER_PATS)
        return SJ_ERR_ARG;
    r->ladders[i].lead.w = (uint8_t)w;
    r->ladders[i].lead.len = (uint8_t)len;
    r->ladders[i].n_patterns = (uint8_t)n_patterns;
    if (r->n_ladders < i + 1) r->n_ladders = i + 1;
    return SJ_OK;
}

/* shape j of pattern p of ladder i (the pattern's n_shapes grows to cover j); j = -1
 * declares an empty pattern (suit_only's "()") */
int32_t sjw_pattern_shape(sj_rules *r, int32_t i, int32_t p, int32_t j, int32_t w,
                          int32_t len)
{
    if (!r || i < 0 || i >= SJ_MAX_LADDERS || p < 0 || p >= SJ_LADDER_PATS || j < -1
        || j >= SJ_PAT_SHAPES || !shape_ok(w, len))
        return SJ_ERR_ARG;
    if (j < 0) return SJ_OK;
    sj_pattern *pat = &r->ladders[i].patterns[p];
    pat->shapes[j].w = (uint8_t)w;
    pat->shapes[j].len = (uint8_t)len;
    if (pat->n_shapes < j + 1) pat->n_shapes = (uint8_t)(j + 1);
    return SJ_OK;
}

/* per kind of prepared rules: 0 effective suit, 1 strength */
int32_t sjw_rules_get(const sj_rules *r, int32_t what, int32_t k)
{
    if (!r || k < 0 || k >= SJ_NK) return -1;
    if (what == 0) return r->esuit[k];
    if (what == 1) return r->strength[k];
    return -1;
}

/* a decomposed lead: 0 cards, 1 effective suit, 2 components, then of component i:
 * 3 width, 4 length, 5 top strength, 6 first index into kinds; 7 kinds[i], 8 counts[i] */
int32_t sjw_lead_get(const sj_lead *l, int32_t what, int32_t i)
{
    if (!l) return -1;
    switch (what) {
    case 0: return l->n;
    case 1: return l->esuit;
    case 2: return l->ncomp;
    case 3: case 4: case 5: case 6:
        if (i < 0 || i >= l->ncomp || i >= SJ_MAXCARDS) return -1;
        if (what == 3) return l->comps[i].w;
        if (what == 4) return l->comps[i].len;
        if (what == 5) return l->comps[i].top;
        return l->comps[i].first;
    case 7: return (i >= 0 && i < SJ_MAXCARDS) ? l->kinds[i] : -1;
    case 8: return (i >= 0 && i < SJ_NK) ? l->counts[i] : -1;
    default: return -1;
    }
}

/* a follow verdict: 0 reason, 1 component, 2 card, 3 count, 4 pattern shapes, then of
 * pattern shape i: 5 width, 6 length */
int32_t sjw_info_get(const sj_follow_info *f, int32_t what, int32_t i)
{
    if (!f) return -1;
    switch (what) {
    case 0: return f->reason;
    case 1: return f->comp;
    case 2: return f->card;
    case 3: return f->count;
    case 4: return f->pattern.n_shapes;
    case 5: case 6:
        if (i < 0 || i >= f->pattern.n_shapes || i >= SJ_PAT_SHAPES) return -1;
        return what == 5 ? f->pattern.shapes[i].w : f->pattern.shapes[i].len;
    default: return -1;
    }
}

/* a throw verdict: 0 valid, 1 blocker, 2 options; 3: the address of option i's 54 counts */
int32_t sjw_throw_get(const sj_throw_result *t, int32_t what, int32_t i)
{
    if (!t) return -1;
    switch (what) {
    case 0: return t->valid;
    case 1: return t->blocker;
    case 2: return t->n_options;
    case 3:
        if (i < 0 || i >= t->n_options || i >= SJ_MAX_OPTIONS) return -1;
        return (int32_t)(intptr_t)t->options[i];
    default: return -1;
    }
}
