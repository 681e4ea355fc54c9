/* A C-only driver of the rules core for valgrind (core_c/check_memory.py valgrind):
 * no Python in the process, so memcheck's report (errors and leaks) is about the core
 * alone. Random deals under several rule sets go through every entry point, then whole
 * playouts; every output is read (printed as a checksum) so uninitialised results
 * would be reported too. Bad buffers and sizes are passed on purpose.
 *
 *   gcc -O1 -g -Icore_c core_c/valgrind_driver.c core_c/order.c core_c/shapes.c \
 *       core_c/follow.c core_c/trick.c core_c/playout.c core_c/search.c core_c/rainbow.c \
 *       core_c/batch.c core_c/drive.c
 */
#include <stdio.h>
#include <string.h>

#include "shengji_core.h"
#include "sj_internal.h"

static uint64_t rng = 12345;

static int below(int n)
{
    return (int)sj__below(&rng, (uint64_t)n);
}

static void setup(sj_rules *r, int decks, int level, int trump, int variant)
{
    memset(r, 0, sizeof *r);
    r->decks = decks;
    r->level = level;
    r->trump = trump;
    r->max_tuple = decks == 1 ? 1 : decks;
    r->tractors = decks < 4;
    r->tractor_min_width = 2;
    r->tractor_min_length = 2;
    r->bridge = variant != 1;
    r->protection = variant % 5;
    r->shorter_tractors = variant != 3;
    r->bombs = variant % 3;
    r->rainbow_min = variant % 2 ? 4 : 0;
    memset(r->copies, decks, sizeof r->copies);
    r->constant_mask = variant == 2 ? 1u : 0u;
    r->ruff_compare = variant % 3;
    r->failed_throw = variant % 3;
    r->kitty = variant % 4;
    r->kitty_cap = 64;
    for (int i = 0; i < 6; i++)
        r->kitty_table[i] = 2 + 2 * i;
    if (decks == 3) { /* seed 001's Titanic ladder */
        static const uint8_t pats[][3][2] = {{{3, 2}}, {{3, 1}, {3, 1}}, {{2, 2}},
                                             {{3, 1}, {2, 1}}, {{3, 1}}, {{2, 1}, {2, 1}},
                                             {{2, 1}}, {{0, 0}}};
        static const int lens[] = {1, 2, 1, 2, 1, 2, 1, 0};
        r->n_ladders = 1;
        r->ladders[0].lead.w = 3;
        r->ladders[0].lead.len = 2;
        r->ladders[0].n_patterns = 8;
        for (int p = 0; p < 8; p++) {
            r->ladders[0].patterns[p].n_shapes = (uint8_t)lens[p];
            for (int j = 0; j < lens[p]; j++) {
                r->ladders[0].patterns[p].shapes[j].w = pats[p][j][0];
                r->ladders[0].patterns[p].shapes[j].len = pats[p][j][1];
            }
        }
    }
}

/* the cards of `decks` packs shuffled into `players` hands of `size` (the rest unused) */
static void deal(int decks, int players, int size, uint8_t (*hands)[SJ_NK])
{
    int deck[SJ_MAXCARDS], n = 0;
    for (int k = 0; k < SJ_NK; k++)
        for (int d = 0; d < decks; d++)
            deck[n++] = k;
    for (int i = n - 1; i > 0; i--) {
        int j = below(i + 1), t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    memset(hands, 0, (size_t)players * SJ_NK);
    for (int p = 0; p < players; p++)
        for (int i = 0; i < size; i++)
            hands[p][deck[p * size + i]]++;
}

/* the play driver (drive.c) from a deal: random picks (and some that are no option)
 * until it stops, then states it must refuse */
static long drive_deal(const sj_rules *r, int players, int size, int decks, int trial)
{
    static sj_drive d;
    long sum = 0;
    memset(&d, 0, sizeof d);
    d.players = players;
    d.pickers = (1 << players) - 1 - (trial % 3 == 0 ? 1 << (players - 1) : 0);
    d.side = 5;
    d.throws = decks < 4;
    d.throw_penalty = 10;
    d.follow_limit = 1 + trial % SJ_DRIVE_FOLLOWS;
    d.to_act = d.leader = below(players);
    d.watch[below(SJ_NK)] = trial % 2; /* a friend call's card: a pick of it goes back */
    deal(decks, players, size, d.hands);
    for (int j = 0; j < players; j++)
        for (int k = 0; k < SJ_NK; k++)
            d.hand_len[j] += d.hands[j][k];
    int64_t rc = sj_drive_start(r, &d);
    while (rc > 0) {
        int64_t n = rc >> 4;
        rc = sj_drive_step(r, &d, below(50) ? (int64_t)below((int)(n < 1000000 ? n : 1000000))
                                           : n);
    }
    sum += rc + d.log_len + d.trick_points + d.penalty + d.trick_number;
    for (int i = 0; i < d.log_len; i++)
        sum += d.log[i] & 0xff;
    sum += sj_drive_step(r, &d, 0);  /* no decision open */
    sum += sj_drive_start(r, NULL);
    d.players = SJ_MAX_PLAYERS + 1;  /* out of range: refused */
    sum += sj_drive_start(r, &d);
    d.players = players;
    d.n_trick = players;
    sum += sj_drive_start(r, &d);
    d.n_trick = 0;
    d.hands[0][0] = 9;  /* more copies than the decks hold */
    sum += sj_drive_start(r, &d);
    return sum;
}

int main(void)
{
    static const int sizes[5] = {0, 12, 25, 39, 52};
    long checksum = 0;
    sj_rules r;
    sj_err err;
    sj_lead lead;
    sj_follow_info info;
    static sj_throw_result thr;
    static uint8_t out[64 * SJ_NK];
    static sj_position pos;
    sj_playout_result res;
    for (int round = 0; round < 48; round++) {
        int decks = 1 + round % 4, variant = round % 5;
        setup(&r, decks, below(13), below(5) - 1, variant);
        if (sj_prepare(&r, &err)) {
            printf("prepare failed: field %d\n", err.a);
            return 1;
        }
        uint8_t hands[4][SJ_NK];
        for (int trial = 0; trial < 20; trial++) {
            deal(decks, 4, sizes[decks], hands);
            /* a lead: one suit of seat 0's hand, sometimes cut down */
            uint8_t l[SJ_NK] = {0};
            int32_t es;
            int first = -1;
            for (int k = 0; k < SJ_NK && first < 0; k++)
                if (hands[0][k])
                    first = k;
            sj_card(&r, first, &es, NULL);
            for (int k = 0; k < SJ_NK; k++) {
                int32_t ks;
                sj_card(&r, k, &ks, NULL);
                if (ks == es && below(3))
                    l[k] = hands[0][k];
            }
            l[first] = hands[0][first];
            if (sj_decompose(&r, l, SJ_NK, &lead, &err))
                continue;
            checksum += lead.ncomp + sj_is_tractor(&r, l, SJ_NK, &err);
            uint8_t play[SJ_NK] = {0};
            for (int k = 0, need = lead.n; k < SJ_NK && need; k++)
                for (int c = 0; c < hands[1][k] && need; c++, need--)
                    play[k]++;
            checksum += sj_check_follow(&r, &lead, hands[1], SJ_NK, play, SJ_NK, &info, &err);
            int32_t n_out = 0;
            uint64_t total = 0;
            int32_t exact = 0;
            if (!sj_legal_follows(&r, &lead, hands[1], SJ_NK, out, 64 * SJ_NK, &n_out, &total,
                                  &exact, &err))
                checksum += n_out + (long)(total & 0xffff) + out[below(SJ_NK)] + exact;
            if (!sj_check_throw(&r, &lead, hands[1], 3 * SJ_NK, 3, &thr, &err))
                checksum += thr.valid + thr.blocker + thr.n_options;
            uint8_t plays[4 * SJ_NK];
            memcpy(plays, l, SJ_NK);
            for (int p = 1; p < 4; p++) {
                memset(plays + p * SJ_NK, 0, SJ_NK);
                for (int k = 0, need = lead.n; k < SJ_NK && need; k++)
                    for (int c = 0; c < hands[p][k] && need; c++, need--)
                        plays[p * SJ_NK + k]++;
            }
            checksum += sj_trick_winner(&r, plays, 4 * SJ_NK, 4, &err);
            checksum += sj_kitty_multiplier(&r, l, SJ_NK, &lead, &err);
            checksum += sj_kitty_multiplier(&r, l, SJ_NK, NULL, &err);
            /* refused inputs: wrong lengths, bad counts, NULLs */
            checksum += sj_decompose(&r, l, SJ_NK - 1, &lead, &err);
            checksum += sj_trick_winner(&r, plays, 4 * SJ_NK, 1, &err);
            checksum += sj_check_throw(&r, &lead, hands[1], 2 * SJ_NK, 3, &thr, &err);
            checksum += sj_legal_follows(&r, &lead, hands[1], SJ_NK, NULL, SJ_NK, NULL, NULL,
                                         NULL, &err);
            checksum += sj_playout(&r, NULL, 0, &res, &err);
            if (r.rainbow_min) {
                /* a rainbow (throw): one or two ranks from all four suits */
                uint8_t rb[SJ_NK] = {0};
                for (int g = 0; g < 1 + below(2); g++) {
                    int q = below(13);
                    for (int s = 0; s < 4; s++)
                        rb[s * 13 + q] = (uint8_t)(1 + below(decks));
                }
                sj_lead rl;
                if (!sj_decompose(&r, rb, SJ_NK, &rl, &err)) {
                    checksum += rl.ncomp + rl.esuit;
                    checksum += sj_check_follow(&r, &rl, hands[1], SJ_NK, play, SJ_NK, &info,
                                                &err);
                    if (!sj_legal_follows(&r, &rl, hands[2], SJ_NK, out, 64 * SJ_NK, &n_out,
                                          &total, &exact, &err))
                        checksum += n_out + (long)(total & 0xff) + exact;
                    if (!sj_check_throw(&r, &rl, hands[1], 3 * SJ_NK, 3, &thr, &err))
                        checksum += thr.valid + thr.blocker + thr.n_options;
                    checksum += sj_kitty_multiplier(&r, rb, SJ_NK, &rl, &err);
                }
            }
            /* a whole playout from the deal (the kitty is left out) */
            memset(&pos, 0, sizeof pos);
            pos.players = 4;
            for (int p = 0; p < 4; p++)
                pos.teams[p] = p % 2;
            pos.leader = below(4);
            memcpy(pos.hands, hands, sizeof hands);
            pos.throws = decks < 4;
            pos.kitty_points = 25;
            pos.throw_penalty = 10 * (variant == 1);
            if (!sj_playout(&r, &pos, (uint64_t)trial, &res, &err))
                checksum += res.total + res.multiplier + res.tricks + res.winners[0];
            else
                printf("playout refused: %d\n", err.code);
            int32_t totals[3], points[3], mults[3];
            if (!sj_playout_batch(&r, &pos, 7, 3, totals, points, mults, &err))
                checksum += totals[2] + points[1] + mults[0];
            /* finding friends at twelve seats: calls open, the side growing in play */
            if (decks == 4 && trial % 4 == 0) {
                sj_position fp;
                memset(&fp, 0, sizeof fp);
                fp.players = 12;
                deal(4, 12, 17, fp.hands);
                fp.leader = fp.dealer = below(12);
                fp.friends = 1;
                fp.n_calls = 5;
                for (int i = 0; i < fp.n_calls; i++) {
                    fp.call_ordinal[i] = 1 + below(2);
                    fp.call_card[i] = below(SJ_NK);
                }
                fp.join_twice = trial % 8 == 0;
                fp.dealer_copies_count = below(2);
                fp.throws = 1;
                fp.kitty_points = 20;
                fp.throw_penalty = 10;
                if (!sj_playout(&r, &fp, (uint64_t)trial, &res, &err))
                    checksum += res.total + (long)res.side + res.tricks;
                else
                    printf("friends playout refused: %d\n", err.code);
            }
            /* search: two candidate leads of the leader, both policies */
            uint8_t cand[2 * SJ_NK] = {0};
            int32_t evals[2 * 2];
            for (int k = 0, c = 0; k < SJ_NK && c < 2; k++)
                if (pos.hands[pos.leader][k])
                    cand[c++ * SJ_NK + k] = 1;
            for (int policy = 0; policy < 2; policy++)
                if (!sj_playout_eval(&r, &pos, 1, cand, 2, 2, 5, policy, evals, NULL, &err))
                    checksum += evals[0] + evals[3];
            checksum += sj_playout_eval(&r, &pos, 1, cand, 2, 2, 5, 7, evals, NULL, &err);
            checksum += drive_deal(&r, 4, sizes[decks], decks, trial);
            if (decks >= 3 && trial % 4 == 1)
                checksum += drive_deal(&r, 12, 4 * sizes[decks] / 12, decks, trial);
            pos.hands[2][0] = 9; /* more copies than the decks hold: refused */
            checksum += sj_playout(&r, &pos, 1, &res, &err);
        }
    }
    printf("checksum %ld\n", checksum);
    return 0;
}
