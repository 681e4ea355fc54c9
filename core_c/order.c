/* Rules preparation (§2: effective suits, strengths, level lists) and the card-order
 * queries, plus the input checks every entry point uses: the one place raw counts and
 * leads are validated before the rest of the core trusts them. Section numbers refer
 * to docs/semantics.md, the core's contract.
 */
#include "shengji_core.h"
#include "sj_internal.h"

#include <string.h>

#define MAGIC 0x534a4331u

static uint64_t g_stamp = 0;

int sj__fail(sj_err *e, int code, int which, int index, int card, int count, int a, int b)
{
    if (e) {
        e->code = code;
        e->which = which;
        e->index = index;
        e->card = card;
        e->count = count;
        e->a = a;
        e->b = b;
    }
    return code;
}

int sj__rules_ok(const sj_rules *r)
{
    return r && r->magic == MAGIC && r->decks >= 1 && r->decks <= SJ_MAX_DECKS;
}

/* ---------------------------------------------------------------- preparation §2 */

static int check_shape_field(sj_shape sh)
{
    return sh.w >= 1 && sh.w <= SJ_MAX_DECKS && sh.len >= 1 && sh.len <= 24 && !(sh.w == 1 && sh.len != 1);
}

int sj_prepare(sj_rules *r, sj_err *e)
{
    if (!r)
        return sj__fail(e, SJ_ERR_ARG, SJ_ARG_RULES, -1, -1, -1, 0, 0);
    r->magic = 0;
#define FIELD(cond, id) \
    if (!(cond)) return sj__fail(e, SJ_ERR_RULES, SJ_ARG_RULES, -1, -1, -1, (id), 0)
    FIELD(r->decks >= 1 && r->decks <= SJ_MAX_DECKS, SJ_RF_DECKS);
    FIELD(r->level >= 0 && r->level <= 13, SJ_RF_LEVEL);  /* 13: the no-trump level, no level cards */
    FIELD(r->trump >= -1 && r->trump <= 3, SJ_RF_TRUMP);
    FIELD(r->max_tuple >= 1 && r->max_tuple <= r->decks, SJ_RF_MAX_TUPLE);
    FIELD(r->tractors == 0 || r->tractors == 1, SJ_RF_TRACTORS);
    FIELD(r->tractor_min_width >= 2 && r->tractor_min_width <= SJ_MAX_DECKS, SJ_RF_TRACTOR_MIN_WIDTH);
    FIELD(r->tractor_min_length >= 2 && r->tractor_min_length <= 24, SJ_RF_TRACTOR_MIN_LENGTH);
    FIELD(r->bridge == 0 || r->bridge == 1, SJ_RF_TRACTOR_BRIDGES_LEVEL_GAP);
    FIELD(r->protection >= SJ_PROTECT_NONE && r->protection <= SJ_PROTECT_NO_SHAPE, SJ_RF_FOLLOW_PROTECTION);
    FIELD(r->constant_mask < (1u << 13), SJ_RF_CONSTANT_RANKS);
    FIELD(r->ruff_compare >= 0 && r->ruff_compare <= SJ_RUFF_COVER_WINNER, SJ_RF_RUFF_COMPARE);
    FIELD(r->failed_throw >= 0 && r->failed_throw <= SJ_THROW_FEWEST_CARDS, SJ_RF_FAILED_THROW);
    FIELD(r->kitty >= 0 && r->kitty <= SJ_KITTY_TWICE_SIZE, SJ_RF_KITTY);
    FIELD(r->kitty_cap >= 1, SJ_RF_KITTY_CAP);
    for (int i = 0; i < 6; i++)
        FIELD(r->kitty_table[i] >= 1, SJ_RF_KITTY_TABLE);
    FIELD(r->n_ladders >= 0 && r->n_ladders <= SJ_MAX_LADDERS, SJ_RF_N_LADDERS);
    FIELD(r->shorter_tractors == 0 || r->shorter_tractors == 1, SJ_RF_SHORTER_TRACTORS);
    FIELD(r->genuine_tuples == 0 || r->genuine_tuples == 1, SJ_RF_GENUINE_TUPLES);
    FIELD(r->tractors_first == 0 || r->tractors_first == 1, SJ_RF_TRACTORS_FIRST);
    /* shengji.io takes every copy of a card as one tuple: tuples as wide as the packs */
    FIELD(r->decomposition == SJ_DECOMP_SEEDS ||
          (r->decomposition == SJ_DECOMP_SHENGJI_IO && r->max_tuple == r->decks), SJ_RF_DECOMPOSITION);
    FIELD(r->follow_requirements == SJ_FOLLOWREQ_SEEDS ||
          r->follow_requirements == SJ_FOLLOWREQ_SHENGJI_IO, SJ_RF_FOLLOW_REQUIREMENTS);
    FIELD(r->throw_following == SJ_THROWFOLLOW_AS_LED ||
          r->throw_following == SJ_THROWFOLLOW_TUPLES, SJ_RF_THROW_FOLLOWING);
    /* a whole throw has no table reading (the table names one structure's value) */
    FIELD(r->kitty_throw == SJ_KITTYTHROW_LARGEST ||
          (r->kitty_throw == SJ_KITTYTHROW_WHOLE && r->kitty != SJ_KITTY_TABLE), SJ_RF_KITTY_THROW);
    FIELD(r->no_trump_throws == 0 || r->no_trump_throws == 1, SJ_RF_TRUMP_THROWS);
    FIELD(r->bombs >= SJ_BOMBS_NONE && r->bombs <= SJ_BOMBS_FOLLOW_SUIT_OR_TRUMP, SJ_RF_BOMBS);
    FIELD(r->rainbow_min == 0 || (r->rainbow_min >= 4 && r->rainbow_min <= 16), SJ_RF_RAINBOW_MIN);
    for (int k = 0; k < SJ_NK; k++)
        FIELD(r->copies[k] <= r->decks, SJ_RF_COPIES);
    for (int i = 0; i < r->n_ladders; i++) {
        const sj_ladder *ld = &r->ladders[i];
        FIELD(check_shape_field(ld->lead), SJ_RF_LADDERS);
        FIELD(ld->n_patterns >= 1 && ld->n_patterns <= SJ_LADDER_PATS, SJ_RF_LADDERS);
        for (int p = 0; p < ld->n_patterns; p++) {
            const sj_pattern *pt = &ld->patterns[p];
            FIELD(pt->n_shapes <= SJ_PAT_SHAPES, SJ_RF_LADDERS);
            for (int j = 0; j < pt->n_shapes; j++)
                FIELD(check_shape_field(pt->shapes[j]), SJ_RF_LADDERS);
        }
    }
#undef FIELD

    memset(r->esuit, 0, sizeof r->esuit);
    memset(r->strength, 0, sizeof r->strength);
    memset(r->lev_n, 0, sizeof r->lev_n);
    memset(r->lev_kinds, 0, sizeof r->lev_kinds);
    memset(r->str_hi, 0, sizeof r->str_hi);

    /* the level rank is a trump rank even when also listed as constant */
    uint32_t constants = r->constant_mask & ~(1u << r->level);
    uint32_t skipped = constants | (1u << r->level);
    int next_trump = 0;
    /* plain ranks 2..A of each suit; a skipped rank between two plain ranks leaves a
     * gap unless the level gap is bridged (JJ99 at level 10) */
    for (int s = 0; s < 4; s++) {
        int es = (s == r->trump) ? SJ_TRUMP : s;
        int st = 0, started = 0, gap = 0;
        for (int rank = 0; rank < 13; rank++) {
            if ((skipped >> rank) & 1u) {
                gap = started;
                continue;
            }
            if (started)
                st += (gap && !r->bridge) ? 2 : 1;
            started = 1;
            gap = 0;
            r->esuit[s * 13 + rank] = (uint8_t)es;
            r->strength[s * 13 + rank] = (uint8_t)st;
        }
        if (s == r->trump && started)
            next_trump = st + 1;
    }
    /* constant ranks ascending, then the level rank: off-suit copies share one
     * strength, the trump-suit copy is one higher */
    for (int pass = 0; pass < 2; pass++) {
        for (int rank = 0; rank < 13; rank++) {
            int is_rank = pass == 0 ? (int)((constants >> rank) & 1u) : rank == r->level;
            if (!is_rank)
                continue;
            for (int s = 0; s < 4; s++) {
                int k = s * 13 + rank;
                r->esuit[k] = SJ_TRUMP;
                r->strength[k] = (uint8_t)(next_trump + (s == r->trump ? 1 : 0));
            }
            next_trump += r->trump >= 0 ? 2 : 1;
        }
    }
    r->esuit[52] = SJ_TRUMP;
    r->strength[52] = (uint8_t)next_trump;
    r->esuit[53] = SJ_TRUMP;
    r->strength[53] = (uint8_t)(next_trump + 1);

    /* level lists, largest kind id first (pos ties break by kind id) */
    for (int k = SJ_NK - 1; k >= 0; k--) {
        int s = r->esuit[k], t = r->strength[k];
        if (t >= SJ_MAXSTR || r->lev_n[s][t] >= 4)
            return sj__fail(e, SJ_ERR_RULES, SJ_ARG_RULES, -1, k, -1, 0, 0);
        r->lev_kinds[s][t][r->lev_n[s][t]++] = (uint8_t)k;
        if (t + 1 > r->str_hi[s])
            r->str_hi[s] = (uint8_t)(t + 1);
    }
    r->stamp = __atomic_add_fetch(&g_stamp, 1, __ATOMIC_RELAXED);
    r->magic = MAGIC;
    return SJ_OK;
}

int sj_card(const sj_rules *r, int card, int32_t *esuit, int32_t *strength)
{
    if (!sj__rules_ok(r))
        return SJ_ERR_CONTEXT;
    if (card < 0 || card >= SJ_NK)
        return SJ_ERR_KIND;
    if (esuit)
        *esuit = SU(r->esuit[card]);
    if (strength)
        *strength = ST(r->strength[card]);
    return SJ_OK;
}

int sj_compare(const sj_rules *r, int a, int b)
{
    if (!sj__rules_ok(r))
        return SJ_ERR_CONTEXT;
    if (a < 0 || a >= SJ_NK || b < 0 || b >= SJ_NK)
        return SJ_ERR_KIND;
    int sa = r->esuit[a], sb = r->esuit[b];
    if (sa == sb) {
        int ta = r->strength[a], tb = r->strength[b];
        return ta > tb ? SJ_HIGHER : ta < tb ? SJ_LOWER : SJ_EQUAL;
    }
    if (sa == SJ_TRUMP)
        return SJ_HIGHER;
    if (sb == SJ_TRUMP)
        return SJ_LOWER;
    return SJ_UNRELATED;
}

/* ---------------------------------------------------------------- input helpers */

/* Validate a 54-count buffer and copy it into a 64-entry array. */
int sj__load(const sj_rules *r, const uint8_t *src, int len, uint8_t *dst, int *total,
             int which, int index, sj_err *e)
{
    if (!src || len != SJ_NK)
        return sj__fail(e, SJ_ERR_LENGTH, which, index, -1, len, 0, 0);
    memset(dst, 0, 64);
    int t = 0;
    for (int k = 0; k < SJ_NK; k++) {
        if (src[k] > r->copies[k])
            return sj__fail(e, SJ_ERR_COPIES, which, index, k, src[k], r->copies[k], 0);
        dst[k] = src[k];
        t += src[k];
    }
    if (total)
        *total = t;
    return SJ_OK;
}

int sj__lead_ok(const sj_rules *r, const sj_lead *l, sj_err *e)
{
    if (!l || l->stamp != r->stamp || l->n < 1 || l->n > SJ_MAXCARDS || l->esuit < 0 ||
        l->esuit > SJ_RAINBOW || l->ncomp < 1 || l->ncomp > SJ_MAXCARDS)
        return sj__fail(e, SJ_ERR_CONTEXT, SJ_ARG_LEAD, -1, -1, -1, 0, 0);
    int rainbow = l->esuit == SJ_RAINBOW;
    if (rainbow && (r->rainbow_min <= 0 || l->ncomp > 13))
        return sj__fail(e, SJ_ERR_CONTEXT, SJ_ARG_LEAD, -1, -1, -1, 0, 0);
    for (int i = 0; i < l->ncomp; i++) {
        const sj_comp *c = &l->comps[i];
        if (c->w < 1 || c->w > (rainbow ? 4 * SJ_MAX_DECKS : SJ_MAX_DECKS) || c->len < 1 || c->len >= SJ_MAXSTR ||
            (rainbow && (c->len != 1 || c->top > 12)) || c->first + c->len > SJ_MAXCARDS)
            return sj__fail(e, SJ_ERR_CONTEXT, SJ_ARG_LEAD, -1, -1, -1, 0, 0);
    }
    return SJ_OK;
}
