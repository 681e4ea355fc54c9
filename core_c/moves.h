/* Whole moves for the reinforcement-learning environments (moves.c): a seat's legal
 * moves of the play phase listed as the engine lists them and each move's feature row
 * (shengji/env/moves.py is the Python reference and documents the features), the
 * dealer's burials as that module samples them, and the observation of whole-move mode
 * (shengji/env/cmoves.py drives them). */
#ifndef SJ_MOVES_H
#define SJ_MOVES_H

#include <stdint.h>

#include "observe.h"
#include "shengji_core.h"

#define SJ_MOVES_ROWS 256      /* moves listed at most (more: the decision is Python's) */
#define SJ_MOVE_FEATURES 70    /* a move's features: 7 kind, 54 cards, 9 numbers */
#define SJ_MOVES_SAMPLE 8      /* sj_moves_step's flag: more moves than max_moves, the
                                * listing waits for its sample (sj_moves_sample) */

typedef struct {
    /* set by the caller */
    int32_t max_moves;         /* 2..SJ_MOVES_ROWS: moves listed at most */
    int32_t sides_known;       /* 1: every seat's side is public (the partner feature) */
    /* kept by the calls */
    int32_t kind;              /* the decision's kind: 1 bury, 2 lead, 3 follow */
    int32_t n;                 /* moves listed (0: none yet, a sample is wanted) */
    int64_t total;             /* the decision's moves, listed or not */
    int32_t plays;             /* plays applied since the state was filled */
    int32_t chosen;            /* the move of the last step */
    int64_t index[256];        /* each listed move's place in the engine's listing */
    uint8_t rows[256][54];     /* each listed move's cards */
    float features[256][70];   /* each listed move's features */
} sj_moves;

/* list the decision the play driver has listed (d->n_open, sj_drive_start/step with
 * the seat a picker): 1 listed, SJ_MOVES_SAMPLE (more than max_moves: call
 * sj_moves_sample), 0 (only Python can list it), or an error */
int sj_moves_open(const sj_rules *r, const sj_drive *d, sj_moves *m);
/* list the moves sample(range(total), max_moves) picks, in the listing's order, with
 * random.Random seeded by key (key_bytes: sj_shuffle's seed key); 1, or an error */
int sj_moves_sample(const sj_rules *r, const sj_drive *d, sj_moves *m, const uint8_t *key,
                    int32_t key_bytes);
/* the seat to act takes listed move a: > 0 a play made (1, | 2 when it ended the trick,
 * | 4 when the next decision is Python's, | SJ_MOVES_SAMPLE when it waits for its
 * sample); SJ_DRIVE_END (the deal's last trick: Python scores it), SJ_DRIVE_PENDING
 * (only Python can apply it: nothing applied), SJ_BUILD_ILLEGAL, or an error */
int sj_moves_step(const sj_rules *r, sj_drive *d, sj_obs *o, sj_moves *m, int32_t a);
/* move a (none: a = -1), then every decision of one listed move, until a flag of stop */
int sj_moves_step_forced(const sj_rules *r, sj_drive *d, sj_obs *o, sj_moves *m, int32_t a,
                         int32_t stop);
/* seat's observation (out, sj_obs_size floats), mask (mask_len int8: ones for the moves
 * listed) and features (rows x SJ_MOVE_FEATURES floats: the listed moves', then zero
 * rows; rows up to zeroed already hold zeros); zero mask and features unless to act */
int sj_moves_observe(sj_obs *o, const sj_drive *d, const sj_moves *m, int32_t seat,
                     float *out, int32_t out_len, int8_t *mask, int32_t mask_len,
                     float *features, int32_t rows, int32_t zeroed);
/* The dealer's burials as shengji/env/moves.py lists them: first (54 counts: the
 * heuristic's burial), then distinct samples of count cards of hand (54 counts) drawn by
 * sample(hand's cards ascending, count) from random.Random seeded by key, until limit
 * burials or 20 x max_moves draws; their features under r. Returns how many, or an
 * error. */
int sj_moves_burials(const sj_rules *r, const uint8_t *hand, int32_t count,
                     const uint8_t *first, const uint8_t *key, int32_t key_bytes,
                     int32_t limit, sj_moves *m);
/* the feature rows (out: n x SJ_MOVE_FEATURES) of n moves (rows: 54 counts each; is_pass:
 * n flags or NULL) of a decision of kind 0..6, under r (NULL: trump not settled yet),
 * with the trick so far (m plays of 54 counts, the lead first: whether a follow would
 * be winning it), partner (1: this seat's side is winning it now) and its points; SJ_OK
 * or an error. Calls have no trick features (their counts are ordinals). */
int sj_move_features(const sj_rules *r, int32_t kind, const uint8_t *rows, int32_t n,
                     const uint8_t *is_pass, const uint8_t *trick, int32_t m,
                     int32_t partner, int32_t trick_pts, float *out);

/* random.Random(seed).sample(range(n), k) into out, seeded by key (k <= SJ_MOVES_ROWS):
 * CPython's draws (the environments check them against CPython before using them) */
int sj_py_sample(const uint8_t *key, int32_t key_bytes, int64_t n, int32_t k, int64_t *out);

#endif
