/* A seat's observation vector for the reinforcement-learning environments (observe.c;
 * shengji/env/observation.py documents every piece and is its Python reference). */
#ifndef SJ_OBSERVE_H
#define SJ_OBSERVE_H

#include <stdint.h>

#define SJ_OBS_SEATS 12
#define SJ_OBS_MOVES 64 /* moves of the history kept at most */
#define SJ_OBS_CALLS 12 /* friend calls kept at most (12 seats call at most 5) */

/* The state an observation is built from. The tracker keeps the first part from the
 * events (sj_obs_move, sj_obs_trick_end, sj_obs_bury, sj_obs_deal_start); the caller
 * sets the second from the game before each call of sj_observe. */
typedef struct {
    int32_t players;                    /* P: 2..12 */
    int32_t history;                    /* N: moves in the observation, 0..SJ_OBS_MOVES */
    /* kept from the events */
    uint8_t played[12][54];             /* face-up plays this deal, by seat */
    uint8_t trick[12][54];              /* the current trick, by seat */
    uint8_t buried[12][54];             /* burials this deal, by seat */
    int32_t buried_by;                  /* the seat whose burial is the kitty, -1 none */
    int32_t n_moves;                    /* moves recorded this deal */
    int32_t move_seat[64];              /* a ring of the last moves: seat, */
    int32_t move_kind[64];              /* 0 a play, 1 a declaration, */
    uint8_t moves[64][54];              /* and cards */
    /* set from the game */
    int32_t decision;                   /* 0..6 the decision's kind, 7 not to act */
    int32_t dealing;                    /* 1 while cards are dealt */
    int32_t trump;                      /* 0..3, 4 no trump */
    int32_t level;                      /* 0..12 */
    int32_t dealer;                     /* -1: not known yet */
    int32_t leader;
    int32_t in_trick;                   /* plays made in the current trick */
    int32_t bid_seat;                   /* -1: no declaration */
    int32_t side;                       /* bit s: seat s known on the dealer's side */
    int32_t n_calls;                    /* friend calls (or chosen so far) */
    int32_t call_pending;               /* the ordinal waiting for its card, 0 none */
    int32_t calls[24];                  /* (ordinal, card) pairs */
    int32_t teams[12];
    int32_t hand_len[12];
    int32_t levels[12];
    int32_t captured[12];               /* card points taken by each seat this deal */
    int32_t points;                     /* the attackers' trick points */
    int32_t to_deal;
    int32_t trick_number;
    uint8_t hand[54];
    uint8_t building[54];
    uint8_t bid[54];
} sj_obs;

/* the observation's length for P seats and N moves */
int32_t sj_obs_size(int32_t players, int32_t history);
/* write seat's observation (out: sj_obs_size floats, out_len checked); SJ_OK or an error */
int sj_observe(const sj_obs *o, int32_t seat, float *out, int32_t out_len);
/* the tracker's events: a move (kind 0 a face-up play, 1 a declaration; n card ids) */
int sj_obs_move(sj_obs *o, int32_t seat, int32_t kind, const uint8_t *cards, int32_t n);
void sj_obs_trick_end(sj_obs *o);
int sj_obs_bury(sj_obs *o, int32_t seat, const uint8_t *cards, int32_t n);
void sj_obs_deal_start(sj_obs *o);


/* ---------------------------------------------------------------- the play phase in C
 * The environments' card-by-card decisions of the play phase, built against the play
 * driver's state (sj_drive, drive.c) instead of the Python engine: sj_build_open lists
 * the decision of the seat to act (as shengji/env/building.py's Decision lists it: the
 * same prefix-closed mask), sj_build_step applies one action (a card, or DONE: the play
 * through sj_drive_play, the tracker updated as its events would), sj_build_observe
 * writes a seat's observation and mask from that state (shengji/env/cplay.py). */
#include "shengji_core.h"

#define SJ_BUILD_ROWS 256 /* listed plays kept at most (more: the decision is Python's) */
#define SJ_BUILD_ILLEGAL -102 /* the action is not allowed now */

typedef struct {
    int32_t kind;        /* the observation's decision kind: 2 lead, 3 follow */
    int32_t set;         /* how the legal plays are held: 1 one suit, 2 rows, 3 filler */
    int32_t n;           /* cards built */
    int32_t last;        /* the last card built, -1 none */
    int32_t r;           /* filler: cards of the pool to add */
    int32_t n_rows;
    uint8_t counts[54];  /* the cards built */
    uint8_t base[54];    /* filler: the led suit's cards held (all played) */
    uint8_t pool[54];    /* filler: the other cards */
    uint8_t mask[60];    /* the actions allowed now */
    uint8_t rows[256][54]; /* rows: the legal plays */
} sj_build;

/* 1: the decision of d->to_act is listed in b; 0: it is Python's; < 0 an error */
int sj_build_open(const sj_rules *r, const sj_drive *d, sj_build *b);
/* apply action a of the seat to act: 0 a card added; > 0 a play made (1, | 2 when it
 * ended the trick, | 4 when the next decision is Python's); SJ_DRIVE_END (the deal's
 * last trick is done), SJ_DRIVE_PENDING (only Python can apply the play: nothing
 * applied), SJ_BUILD_ILLEGAL, or an error */
int sj_build_step(const sj_rules *r, sj_drive *d, sj_obs *o, sj_build *b, int32_t a);
/* the environments' skip_forced: sj_build_step(a) (a < 0: none), then every action that
 * is the only one allowed, until a decision has a choice or a step's answer has a flag
 * of stop (or is negative: returned as it is); the answers' flags or-ed (PLAYED if any
 * play was made; 0 when nothing was forced) */
int sj_build_step_forced(const sj_rules *r, sj_drive *d, sj_obs *o, sj_build *b, int32_t a,
                         int32_t stop);
/* seat's observation (out, sj_obs_size floats) from the driver's state and the tracker:
 * kind is the decision's (for the seat to act) and building its cards so far (NULL:
 * none); shared by sj_build_observe and moves.c's sj_moves_observe */
int sj_obs_drive(sj_obs *o, const sj_drive *d, int32_t seat, int32_t kind,
                 const uint8_t *building, float *out, int32_t out_len);
/* a play the driver applied, told to the tracker: the cards seat's hand lost since
 * before (a failed throw's forced part, not what was chosen), then the trick's end when
 * ended; shared by sj_build_step and moves.c's sj_moves_step */
int sj_obs_played(sj_obs *o, int32_t seat, const uint8_t *before, const uint8_t *after,
                  int ended);
/* seat's observation (out, sj_obs_size floats) and mask (60 int8, zero unless to act) */
int sj_build_observe(sj_obs *o, const sj_drive *d, const sj_build *b, int32_t seat,
                     float *out, int32_t out_len, int8_t *mask, int32_t mask_len);

#endif
