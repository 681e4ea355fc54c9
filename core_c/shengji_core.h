/* shengji rules core: the play-phase semantics of docs/semantics.md §2-§9.
 *
 * Every variant choice arrives as plain data in sj_rules (filled by shengji/core/,
 * then checked and completed by sj_prepare). Card groups are 54 counts (uint8_t).
 * Every entry point takes explicit buffer lengths, validates counts, kind ids and
 * sizes, and returns SJ_OK / a reason code (>= 0) or an SJ_ERR_* code (< 0) with
 * details in sj_err. Recursion depth is bounded by the number of cards (<= 216) and
 * every search carries a node budget, so no input can blow the stack or run unbounded.
 *
 * Keep in sync with shengji_core_cdef.h (cffi checks the layout against this file).
 */
#ifndef SHENGJI_CORE_H
#define SHENGJI_CORE_H

#include <stdint.h>

#define SJ_NK 54             /* card kinds */
#define SJ_TRUMP 4           /* effective suit of every trump */
#define SJ_RAINBOW 5         /* sj_lead.esuit of a rainbow lead (several suits, rainbow.c) */
#define SJ_MAXSTR 64         /* strengths are 0..63 */
#define SJ_MAX_DECKS 10      /* copies of a card at most: one to ten packs */
#define SJ_MAXCARDS 216      /* 4 decks x 54; one suit of 10 decks (<= 10 x 18) fits */
#define SJ_PAT_SHAPES 90     /* shapes per pattern (a default ladder may list 90 pairs at 10 decks) */
#define SJ_LADDER_PATS 24    /* patterns per explicit ladder */
#define SJ_MAX_LADDERS 16    /* explicit ladders per rules */
#define SJ_MAX_OPTIONS 32    /* forced options of a failed throw */

/* error codes (< 0) */
#define SJ_OK 0
#define SJ_ERR_LENGTH -1     /* a counts buffer is not 54 long (or m*54) */
#define SJ_ERR_COPIES -2     /* more copies of a card than the decks hold */
#define SJ_ERR_KIND -3       /* kind id outside 0..53 */
#define SJ_ERR_EMPTY -4      /* empty lead */
#define SJ_ERR_MIXED -5      /* cards of several effective suits in one lead */
#define SJ_ERR_SIZE -6       /* plays of different sizes */
#define SJ_ERR_NOT_IN_HAND -7
#define SJ_ERR_RULES -8      /* a rules field is out of range */
#define SJ_ERR_LIMIT -9      /* search budget exhausted */
#define SJ_ERR_CAPACITY -10  /* output buffer too small */
#define SJ_ERR_CONTEXT -11   /* rules not prepared, or a lead prepared by other rules */
#define SJ_ERR_ARG -12       /* other bad argument (NULL, m < 2, ...) */
#define SJ_ERR_MEMORY -13

/* follow reasons (>= 0) */
#define SJ_FOLLOW_OK 0
#define SJ_NOT_IN_HAND 1
#define SJ_WRONG_COUNT 2
#define SJ_MUST_FOLLOW_SUIT 3
#define SJ_MUST_FOLLOW_SHAPE 4

/* compare results */
#define SJ_HIGHER 1
#define SJ_LOWER 2
#define SJ_EQUAL 3
#define SJ_UNRELATED 4

/* policies */
#define SJ_RUFF_STRONGEST 0
#define SJ_RUFF_ALL_COMPONENTS 1
#define SJ_RUFF_HIGHEST_CARD 2
#define SJ_RUFF_UNIT_LENGTH 3
#define SJ_RUFF_ALL 4           /* shengji.io All: any split beating the winner's, unit by unit */
#define SJ_RUFF_COVER_WINNER 5  /* a later ruff must hold the winner's own shapes, then the
                                 * larger, then higher, largest component wins (Ran's table) */
#define SJ_THROW_SMALLEST 0
#define SJ_THROW_NEXT_PLAYER_CHOOSES 1
#define SJ_THROW_FIRST_BLOCKER 2
#define SJ_THROW_FEWEST_CARDS 3      /* the beaten part of the fewest cards, then the lowest */
/* following protections (shengji.io TrickDrawPolicy) */
#define SJ_PROTECT_NONE 0            /* held longer tuples are broken; tuples draw tractors */
#define SJ_PROTECT_LONGER_TUPLES 1   /* a held longer tuple need not be broken */
#define SJ_PROTECT_TRACTORS 2        /* only a led tractor asks for tractors */
#define SJ_PROTECT_BOTH 3            /* LONGER_TUPLES and TRACTORS */
#define SJ_PROTECT_NO_SHAPE 4        /* only the suit is followed, never the shape */
#define SJ_BOMBS_NONE 0
#define SJ_BOMBS_ANY_SUIT 1          /* a bomb may be played whatever was led */
#define SJ_BOMBS_FOLLOW_SUIT 2       /* a bomb of the led suit is exempt from the shape */
#define SJ_BOMBS_FOLLOW_SUIT_OR_TRUMP 3  /* FOLLOW_SUIT, and a trump bomb while holding the led suit */

/* sj_rules.decomposition: which split of a lead (§3) */
#define SJ_DECOMP_SEEDS 0             /* more cards, then wider, taken greedily */
#define SJ_DECOMP_SHENGJI_IO 1        /* shengji.io from_cards over find_plays */

/* sj_rules.follow_requirements: what a follow of a non-rainbow lead must meet (§4) */
#define SJ_FOLLOWREQ_SEEDS 0          /* the ladders of §4 */
#define SJ_FOLLOWREQ_SHENGJI_IO 1     /* shengji.io is_legal_play: its requirement listing */
#define SJ_KITTY_EXPONENTIAL 0
#define SJ_KITTY_POWER 1
#define SJ_KITTY_TABLE 2
#define SJ_KITTY_TWICE_SIZE 3

/* sj_rules.throw_following: what a throw's components ask of a follower (§4) */
#define SJ_THROWFOLLOW_AS_LED 0       /* each as if it were led alone */
#define SJ_THROWFOLLOW_TUPLES 1       /* no component asks for a tractor: tuples only */

/* sj_rules.kitty_throw: which components of the last lead the multiplier reads (§8) */
#define SJ_KITTYTHROW_LARGEST 0       /* the largest value of one component */
#define SJ_KITTYTHROW_WHOLE 1         /* the policy's formula over the whole lead */

/* sj_err.which: the argument at fault */
#define SJ_ARG_LEAD 0
#define SJ_ARG_HAND 1
#define SJ_ARG_PLAY 2
#define SJ_ARG_OTHERS 3
#define SJ_ARG_PLAYS 4
#define SJ_ARG_RULES 5
#define SJ_ARG_POSITION 6

/* sj_err.a of an SJ_ERR_RULES error from sj_prepare: the sj_rules field rejected, named
 * as PlayRules names it (the ladders' count and their contents: both "following") */
#define SJ_RF_DECKS 1
#define SJ_RF_LEVEL 2
#define SJ_RF_TRUMP 3
#define SJ_RF_MAX_TUPLE 4
#define SJ_RF_TRACTORS 5
#define SJ_RF_TRACTOR_MIN_WIDTH 6
#define SJ_RF_TRACTOR_MIN_LENGTH 7
#define SJ_RF_TRACTOR_BRIDGES_LEVEL_GAP 8
#define SJ_RF_FOLLOW_PROTECTION 9
#define SJ_RF_CONSTANT_RANKS 10
#define SJ_RF_RUFF_COMPARE 11
#define SJ_RF_FAILED_THROW 12
#define SJ_RF_KITTY 13
#define SJ_RF_KITTY_CAP 14
#define SJ_RF_KITTY_TABLE 15
#define SJ_RF_N_LADDERS 16
#define SJ_RF_LADDERS 17
#define SJ_RF_SHORTER_TRACTORS 18
#define SJ_RF_BOMBS 19
#define SJ_RF_RAINBOW_MIN 20
#define SJ_RF_COPIES 21
#define SJ_RF_GENUINE_TUPLES 22
#define SJ_RF_TRACTORS_FIRST 23
#define SJ_RF_DECOMPOSITION 24
#define SJ_RF_FOLLOW_REQUIREMENTS 25
#define SJ_RF_THROW_FOLLOWING 26
#define SJ_RF_KITTY_THROW 27
#define SJ_RF_TRUMP_THROWS 28

typedef struct {
    int32_t code;   /* SJ_ERR_* */
    int32_t which;  /* SJ_ARG_* */
    int32_t index;  /* index of the group within a list (plays, others), else -1 */
    int32_t card;   /* offending kind id, else -1 */
    int32_t count;  /* offending count / size, else -1 */
    int32_t a, b;   /* two effective suits (mixed lead), two sizes, or a rules field id */
} sj_err;

typedef struct {
    uint8_t w, len;
} sj_shape;

typedef struct {
    uint8_t n_shapes;
    sj_shape shapes[SJ_PAT_SHAPES];
} sj_pattern;

typedef struct {
    sj_shape lead;
    uint8_t n_patterns;
    sj_pattern patterns[SJ_LADDER_PATS];
} sj_ladder;

typedef struct {
    /* settings, filled by the caller */
    int32_t decks;            /* 1..SJ_MAX_DECKS: the most copies of any kind */
    int32_t level;            /* level rank 0..12; 13 = no level rank (NT above A) */
    int32_t trump;            /* trump suit 0..3, -1 = no trump */
    int32_t max_tuple;        /* 1..decks */
    int32_t tractors;         /* 0/1 */
    int32_t tractor_min_width;
    int32_t tractor_min_length;
    int32_t bridge;           /* tractor_bridges_level_gap */
    int32_t protection;       /* SJ_PROTECT_*: following protections */
    uint32_t constant_mask;   /* bit r: rank r is a constant trump */
    int32_t ruff_compare;
    int32_t failed_throw;
    int32_t kitty;
    int32_t kitty_cap;
    int32_t kitty_table[6];   /* single, pair, triple, quad, tractor, titanic */
    int32_t shorter_tractors; /* a led tractor asks for shorter tractors before tuples */
    int32_t bombs;            /* SJ_BOMBS_* */
    int32_t rainbow_min;      /* 0: no rainbows; else the fewest cards of one rank */
    uint8_t copies[SJ_NK];    /* copies of each kind the packs hold (0..decks) */
    int32_t n_ladders;
    sj_ladder ladders[SJ_MAX_LADDERS];
    /* derived by sj_prepare */
    uint32_t magic;
    uint64_t stamp;                /* unique per sj_prepare call: ties leads to rules */
    uint8_t esuit[64];             /* per kind: 0..3, 4 = trump */
    uint8_t strength[64];          /* per kind */
    uint8_t lev_n[5][64];          /* per effective suit and strength: kinds there */
    uint8_t lev_kinds[5][64][4];   /* those kinds, largest id first */
    uint8_t str_hi[5];             /* highest strength + 1 of each effective suit */
    /* settings added later (filled by the caller, checked by sj_prepare) */
    int32_t genuine_tuples;        /* 0/1: with LONGER_TUPLES protection, a tuple cut from a
                                    * longer one in the play does not count while the hand
                                    * keeps a genuine one back (shengji.io PR #512) */
    int32_t tractors_first;        /* 0/1: of components of as many cards, a tractor before a
                                    * wider tuple (shengji.io TrickFormat::from_cards) */
    int32_t decomposition;         /* SJ_DECOMP_*: the seeds' split or shengji.io's */
    int32_t follow_requirements;   /* SJ_FOLLOWREQ_*: the seeds' ladders or shengji.io's */
    int32_t throw_following;       /* SJ_THROWFOLLOW_*: what a throw's components ask */
    int32_t kitty_throw;           /* SJ_KITTYTHROW_*: the kitty multiplier of a throw */
    int32_t no_trump_throws;       /* 0/1: a lead of several trump components is refused
                                    * (0, the zeroed struct's value, keeps them) */
} sj_rules;

typedef struct {
    uint8_t w, len, top, first;    /* shape, top strength, offset into sj_lead.kinds */
} sj_comp;

/* A decomposed lead (sj_decompose): components best first (§3). */
typedef struct {
    uint64_t stamp;                /* identifies the rules that made it */
    int32_t n;                     /* cards */
    int32_t esuit;
    int32_t ncomp;
    sj_comp comps[SJ_MAXCARDS];
    uint8_t kinds[SJ_MAXCARDS];    /* each component's kinds from the top strength down */
    uint8_t counts[SJ_NK];
} sj_lead;

typedef struct {
    int32_t reason;                /* SJ_FOLLOW_OK .. SJ_MUST_FOLLOW_SHAPE */
    int32_t comp;                  /* shape failure: component index */
    int32_t card;                  /* not in hand: the card */
    int32_t count;                 /* wrong count: play size; must follow suit: suit cards held */
    sj_pattern pattern;            /* shape failure: pattern required */
} sj_follow_info;

typedef struct {
    int32_t valid;
    int32_t blocker;               /* -1 when valid */
    int32_t n_options;             /* forced options, smallest first; option 0 is forced */
    uint8_t options[SJ_MAX_OPTIONS][SJ_NK];
} sj_throw_result;

/* ---------------------------------------------------------------- playouts
 * A play-phase position and a random-policy playout to the end of the deal
 * (shengji/playout.py documents the policy and is its Python face). */
#define SJ_MAX_PLAYERS 12
#define SJ_MAX_CALLS 16    /* finding friends: calls of the dealer */
#define SJ_POLICY_RANDOM 0 /* the documented random policy (shengji/playout.py) */
#define SJ_POLICY_GREEDY 1 /* search.c: structures only, greedy follows */

typedef struct {
    int32_t players;                    /* 2..SJ_MAX_PLAYERS, seats in play order */
    int32_t teams[SJ_MAX_PLAYERS];      /* team id of each seat */
    int32_t dealer_team;
    int32_t leader;                     /* seat that leads (or led) the current trick */
    int32_t n_trick;                    /* plays already made in the current trick */
    uint8_t hands[SJ_MAX_PLAYERS][SJ_NK];  /* each seat's cards now */
    uint8_t trick[SJ_MAX_PLAYERS][SJ_NK];  /* the current trick's plays, leader first */
    int32_t trick_points;               /* attackers' points so far */
    int32_t penalty;                    /* failed-throw penalties so far (to the attackers) */
    int32_t kitty_points;               /* points buried in the kitty */
    int32_t throws;                     /* 0/1: whole-suit throws are lead actions */
    int32_t throw_penalty;              /* points a failed throw costs its side */
    int32_t throw_penalty_per_card;     /* and per card of the attempt it takes back */
    /* Points by seat, counted for a side at the end (a friend's earlier tricks count for
     * the dealer's side): trick_points and penalty above are added as they are. */
    int32_t captured[SJ_MAX_PLAYERS];   /* trick points each seat has won so far */
    int32_t penalties[SJ_MAX_PLAYERS];  /* failed-throw penalties each seat incurred */
    /* Finding friends (找朋友), when friends = 1: the dealer's side is the dealer, the seats
     * on_side and whoever plays a called copy (teams and dealer_team are not read). A
     * call is the ordinal-th copy of card played; seen copies counted so far, done when
     * fulfilled. join_twice: a seat already on the side uses a call up (else the call
     * passes to the next copy); dealer_copies_count: the dealer's copies count. */
    int32_t friends;
    int32_t dealer;
    int32_t on_side[SJ_MAX_PLAYERS];
    int32_t n_calls;
    int32_t call_ordinal[SJ_MAX_CALLS];
    int32_t call_card[SJ_MAX_CALLS];
    int32_t call_seen[SJ_MAX_CALLS];
    int32_t call_done[SJ_MAX_CALLS];
    int32_t join_twice;
    int32_t dealer_copies_count;
} sj_position;

typedef struct {
    int32_t trick_points;   /* attackers' trick points at the end of the deal */
    int32_t multiplier;     /* kitty multiplier; 0 when the dealer side took the last trick */
    int32_t kitty_bonus;    /* kitty_points * multiplier */
    int32_t penalty;        /* failed-throw penalties (to the attackers; may be < 0) */
    int32_t total;          /* max(0, trick_points + kitty_bonus + penalty) */
    int32_t last_winner;    /* seat that took the last trick */
    int32_t tricks;         /* tricks finished by the playout (the current one included) */
    int32_t failed_throws;
    uint32_t side;          /* bit s: seat s is on the dealer's side at the end */
    uint8_t winners[SJ_MAXCARDS];  /* winning seat of each of those tricks */
} sj_playout_result;

int sj_prepare(sj_rules *r, sj_err *err);
int sj_card(const sj_rules *r, int card, int32_t *esuit, int32_t *strength);
int sj_compare(const sj_rules *r, int a, int b);
int sj_decompose(const sj_rules *r, const uint8_t *cards, int ncards, sj_lead *out, sj_err *err);
int sj_is_tractor(const sj_rules *r, const uint8_t *cards, int ncards, sj_err *err);
int sj_check_follow(const sj_rules *r, const sj_lead *lead, const uint8_t *hand, int nhand,
                    const uint8_t *play, int nplay, sj_follow_info *info, sj_err *err);
int sj_legal_follows(const sj_rules *r, const sj_lead *lead, const uint8_t *hand, int nhand,
                     uint8_t *out, int out_len, int32_t *n_out, uint64_t *total, int32_t *exact,
                     sj_err *err);
int sj_check_throw(const sj_rules *r, const sj_lead *lead, const uint8_t *others, int nothers,
                   int m, sj_throw_result *out, sj_err *err);
int sj_trick_winner(const sj_rules *r, const uint8_t *plays, int nplays, int m, sj_err *err);
int sj_kitty_multiplier(const sj_rules *r, const uint8_t *play, int nplay, const sj_lead *lead,
                        sj_err *err);
int sj_playout(const sj_rules *r, const sj_position *pos, uint64_t seed, sj_playout_result *out,
               sj_err *err);
int sj_playout_batch(const sj_rules *r, const sj_position *pos, uint64_t seed, int n,
                     int32_t *totals, int32_t *trick_points, int32_t *multipliers, sj_err *err);
/* For search (search.c): n playouts per world and candidate play, each starting with
 * that play by the seat to act (checked: held and legal there; n_plays 0 = no forced
 * play), the rest by policy; totals[(d * max(n_plays, 1) + k) * n + j]. Playout j of
 * world d uses seed + d*n + j for every candidate. */
int sj_playout_eval(const sj_rules *r, const sj_position *worlds, int n_worlds,
                    const uint8_t *plays, int n_plays, int n, uint64_t seed, int policy,
                    int32_t *totals, uint32_t *sides, sj_err *err);

/* ---------------------------------------------------------------- Python face
 * (batch.c) The hot calls of shengji/core/ with only the arguments that vary
 * (54-count buffers, no info or error: ask the full entry point for details;
 * sj_decompose54 and sj_ncomp return the number of components on success; sj_comp_ids
 * names each component of a lead: (w - 1) * 54 + kind for a tuple, 255 else), and
 * batches: out[i] = the reason code of plays[i] (m plays of 54 counts) / the winner of
 * trick t (sizes[t] plays of 54 counts each, tricks packed one after another). A batch
 * returns SJ_OK, or the first error (< 0) with *at the index of the play/trick at fault. */
int sj_follow_code(const sj_rules *r, const sj_lead *lead, const uint8_t *hand,
                   const uint8_t *play);
int sj_decompose54(const sj_rules *r, const uint8_t *cards, sj_lead *out);
int sj_ncomp(const sj_rules *r, const uint8_t *cards);
int sj_winner_code(const sj_rules *r, const uint8_t *plays, int m);
int sj_comp_ids(const sj_lead *lead, uint8_t *out, int cap);
int sj_decompose_ids(const sj_rules *r, const uint8_t *cards, uint8_t *out, int cap);
int sj_check_follows(const sj_rules *r, const sj_lead *lead, const uint8_t *hand,
                     const uint8_t *plays, int m, uint8_t *out, int32_t *at);
int sj_trick_winners(const sj_rules *r, const uint8_t *tricks, const int32_t *sizes, int n,
                     uint8_t *out, int32_t *at);
/* The leads shengji.engine lists for a hand, in its order (batch.c), as 54 counts each:
 * at most cap written; returns how many there are (or an error code). */
int sj_lead_list(const sj_rules *r, const uint8_t *hand, int throws, uint8_t *out, int cap);

/* ---------------------------------------------------------------- the play driver
 * (drive.c) The play phase of an engine Game whose seats choose their plays by index
 * (shengji/engine/drive.py is its Python face and documents the protocol). The caller
 * fills the state; sj_drive_start checks it and lists the first decision;
 * sj_drive_step(r, d, i) applies the i-th option listed and lists the next one. A return
 * > 0 is (n << 4) | seat: seat chooses among n options, listed exactly as the engine
 * lists them. SJ_DRIVE_STOP: the next decision is not the driver's (stopped before it);
 * SJ_DRIVE_END: the deal's last trick is done; SJ_DRIVE_PENDING: the pick stands for
 * the listed decision (or is no option, or plays a watched card) but only Python can
 * apply it (nothing of it applied); else an SJ_ERR_* code.
 * Every play applied is recorded in log, 32-bit words described in drive.c. */
#define SJ_DRIVE_FOLLOWS 120  /* follows listed at most (the engine's FOLLOW_LIMIT) */
#define SJ_DRIVE_LOG 4096       /* words */
#define SJ_DRIVE_LEADS 128    /* leads kept from a listing (more: listed again) */
#define SJ_DRIVE_STOP 0
#define SJ_DRIVE_END -100
#define SJ_DRIVE_PENDING -101
#define SJ_DRIVE_LOG_PLAY 0x81000000u  /* log records (drive.c) */
#define SJ_DRIVE_LOG_THROW 0x82000000u
#define SJ_DRIVE_LOG_TRICK 0x83000000u

typedef struct {
    /* the state (filled by the caller, kept up to date by the driver) */
    int32_t players;                      /* 2..SJ_MAX_PLAYERS */
    int32_t pickers;                      /* bit s: seat s chooses its plays by index */
    int32_t side;                         /* bit s: seat s is on the dealer's side */
    int32_t throws;                       /* 0/1: whole-suit throws are listed */
    int32_t throw_penalty;                /* the built-in failed-throw penalty */
    int32_t throw_penalty_per_card;       /* ... and per card taken back */
    int32_t follow_limit;                 /* 1..SJ_DRIVE_FOLLOWS */
    int32_t to_act;
    int32_t leader;
    int32_t n_trick;                      /* plays made in the current trick */
    int32_t trick_number;
    int32_t trick_points;                 /* the attackers' trick points */
    int32_t penalty;
    int32_t captured[SJ_MAX_PLAYERS];
    int32_t penalties[SJ_MAX_PLAYERS];
    int32_t hand_len[SJ_MAX_PLAYERS];
    uint8_t hands[SJ_MAX_PLAYERS][SJ_NK];
    uint8_t trick[SJ_MAX_PLAYERS][SJ_NK]; /* the current trick's plays, the lead first */
    uint8_t played[SJ_NK];
    uint8_t watch[SJ_NK];                   /* 1: a play of this card goes to Python (a
                                           * friend call still open) */
    /* the driver's own */
    int64_t n_open;                       /* options of the decision listed (0: none) */
    int32_t open_kind;
    int32_t log_len;
    uint8_t opts[SJ_NK];                  /* a single lead's follows: kinds in order */
    sj_lead lead;                         /* the current trick's lead, decomposed */
    uint8_t follows[SJ_DRIVE_FOLLOWS * SJ_NK];
    uint8_t leads[SJ_DRIVE_LEADS * SJ_NK];
    uint32_t log[SJ_DRIVE_LOG];
} sj_drive;

int64_t sj_drive_start(const sj_rules *r, sj_drive *d);
int64_t sj_drive_step(const sj_rules *r, sj_drive *d, int64_t pick);
/* the environments': the seat to act plays the given cards (drive.c) */
int64_t sj_drive_play(const sj_rules *r, sj_drive *d, const uint8_t *P);

/* The deal's shuffle (shuffle.c): ``cards`` permuted in place as shengji.engine.game.shuffle
 * permutes them with random.Random(seed) for a str seed; ``key`` is the seed's
 * init_by_array key, 32-bit words as little-endian bytes (key_bytes: a multiple of 4). */
int sj_shuffle(const uint8_t *key, int32_t key_bytes, uint8_t *cards, int32_t n);

#endif
