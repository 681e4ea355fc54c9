/* cffi declarations of shengji_core.h (the compiler checks them against the header:
 * out-of-line API mode). Array sizes are written out: SJ_NK 54, SJ_PAT_SHAPES 64,
 * SJ_LADDER_PATS 24, SJ_MAX_LADDERS 16, SJ_MAXCARDS 216, SJ_MAX_OPTIONS 32,
 * SJ_MAX_PLAYERS 12, SJ_MAX_CALLS 16. */

#define SJ_NK 54
#define SJ_TRUMP 4
#define SJ_RAINBOW 5
#define SJ_MAXCARDS 216
#define SJ_PAT_SHAPES 64
#define SJ_LADDER_PATS 24
#define SJ_MAX_LADDERS 16
#define SJ_MAX_OPTIONS 32

#define SJ_OK 0
#define SJ_ERR_LENGTH -1
#define SJ_ERR_COPIES -2
#define SJ_ERR_KIND -3
#define SJ_ERR_EMPTY -4
#define SJ_ERR_MIXED -5
#define SJ_ERR_SIZE -6
#define SJ_ERR_NOT_IN_HAND -7
#define SJ_ERR_RULES -8
#define SJ_ERR_LIMIT -9
#define SJ_ERR_CAPACITY -10
#define SJ_ERR_CONTEXT -11
#define SJ_ERR_ARG -12
#define SJ_ERR_MEMORY -13

#define SJ_FOLLOW_OK 0
#define SJ_NOT_IN_HAND 1
#define SJ_WRONG_COUNT 2
#define SJ_MUST_FOLLOW_SUIT 3
#define SJ_MUST_FOLLOW_SHAPE 4

#define SJ_HIGHER 1
#define SJ_LOWER 2
#define SJ_EQUAL 3
#define SJ_UNRELATED 4

#define SJ_RUFF_STRONGEST 0
#define SJ_RUFF_ALL_COMPONENTS 1
#define SJ_RUFF_HIGHEST_CARD 2
#define SJ_RUFF_UNIT_LENGTH 3
#define SJ_THROW_SMALLEST 0
#define SJ_THROW_NEXT_PLAYER_CHOOSES 1
#define SJ_THROW_FIRST_BLOCKER 2
#define SJ_PROTECT_NONE 0
#define SJ_PROTECT_LONGER_TUPLES 1
#define SJ_PROTECT_TRACTORS 2
#define SJ_PROTECT_BOTH 3
#define SJ_PROTECT_NO_SHAPE 4
#define SJ_BOMBS_NONE 0
#define SJ_BOMBS_ANY_SUIT 1
#define SJ_BOMBS_FOLLOW_SUIT 2
#define SJ_BOMBS_FOLLOW_SUIT_OR_TRUMP 3
#define SJ_KITTY_EXPONENTIAL 0
#define SJ_KITTY_POWER 1
#define SJ_KITTY_TABLE 2
#define SJ_KITTY_TWICE_SIZE 3

#define SJ_ARG_LEAD 0
#define SJ_ARG_HAND 1
#define SJ_ARG_PLAY 2
#define SJ_ARG_OTHERS 3
#define SJ_ARG_PLAYS 4
#define SJ_ARG_RULES 5
#define SJ_ARG_POSITION 6
#define SJ_POLICY_RANDOM 0
#define SJ_POLICY_GREEDY 1
#define SJ_MAX_PLAYERS 12
#define SJ_MAX_CALLS 16

typedef struct {
    int32_t code;
    int32_t which;
    int32_t index;
    int32_t card;
    int32_t count;
    int32_t a, b;
} sj_err;

typedef struct {
    uint8_t w, len;
} sj_shape;

typedef struct {
    uint8_t n_shapes;
    sj_shape shapes[64];
} sj_pattern;

typedef struct {
    sj_shape lead;
    uint8_t n_patterns;
    sj_pattern patterns[24];
} sj_ladder;

typedef struct {
    int32_t decks;
    int32_t level;
    int32_t trump;
    int32_t max_tuple;
    int32_t tractors;
    int32_t tractor_min_width;
    int32_t tractor_min_length;
    int32_t bridge;
    int32_t protection;
    uint32_t constant_mask;
    int32_t ruff_compare;
    int32_t failed_throw;
    int32_t kitty;
    int32_t kitty_cap;
    int32_t kitty_table[6];
    int32_t shorter_tractors;
    int32_t bombs;
    int32_t rainbow_min;
    uint8_t copies[54];
    int32_t n_ladders;
    sj_ladder ladders[16];
    uint32_t magic;
    uint64_t stamp;
    uint8_t esuit[64];
    uint8_t strength[64];
    uint8_t lev_n[5][64];
    uint8_t lev_kinds[5][64][4];
    uint8_t str_hi[5];
} sj_rules;

typedef struct {
    uint8_t w, len, top, first;
} sj_comp;

typedef struct {
    uint64_t stamp;
    int32_t n;
    int32_t esuit;
    int32_t ncomp;
    sj_comp comps[216];
    uint8_t kinds[216];
    uint8_t counts[54];
} sj_lead;

typedef struct {
    int32_t reason;
    int32_t comp;
    int32_t card;
    int32_t count;
    sj_pattern pattern;
} sj_follow_info;

typedef struct {
    int32_t valid;
    int32_t blocker;
    int32_t n_options;
    uint8_t options[32][54];
} sj_throw_result;

typedef struct {
    int32_t players;
    int32_t teams[12];
    int32_t dealer_team;
    int32_t leader;
    int32_t n_trick;
    uint8_t hands[12][54];
    uint8_t trick[12][54];
    int32_t trick_points;
    int32_t penalty;
    int32_t kitty_points;
    int32_t throws;
    int32_t throw_penalty;
    int32_t captured[12];
    int32_t penalties[12];
    int32_t friends;
    int32_t dealer;
    int32_t on_side[12];
    int32_t n_calls;
    int32_t call_ordinal[16];
    int32_t call_card[16];
    int32_t call_seen[16];
    int32_t call_done[16];
    int32_t join_twice;
    int32_t dealer_copies_count;
} sj_position;

typedef struct {
    int32_t trick_points;
    int32_t multiplier;
    int32_t kitty_bonus;
    int32_t penalty;
    int32_t total;
    int32_t last_winner;
    int32_t tricks;
    int32_t failed_throws;
    uint32_t side;
    uint8_t winners[216];
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
#define SJ_DRIVE_LOG_PLAY 0x81000000  /* log records (drive.c) */
#define SJ_DRIVE_LOG_THROW 0x82000000
#define SJ_DRIVE_LOG_TRICK 0x83000000

typedef struct {
    /* the state (filled by the caller, kept up to date by the driver) */
    int32_t players;                      /* 2..12 */
    int32_t pickers;                      /* bit s: seat s chooses its plays by index */
    int32_t side;                         /* bit s: seat s is on the dealer's side */
    int32_t throws;                       /* 0/1: whole-suit throws are listed */
    int32_t throw_penalty;                /* the built-in failed-throw penalty */
    int32_t follow_limit;                 /* 1..SJ_DRIVE_FOLLOWS */
    int32_t to_act;
    int32_t leader;
    int32_t n_trick;                      /* plays made in the current trick */
    int32_t trick_number;
    int32_t trick_points;                 /* the attackers' trick points */
    int32_t penalty;
    int32_t captured[12];
    int32_t penalties[12];
    int32_t hand_len[12];
    uint8_t hands[12][54];
    uint8_t trick[12][54]; /* the current trick's plays, the lead first */
    uint8_t played[54];
    uint8_t watch[54];                   /* 1: a play of this card goes to Python (a
                                           * friend call still open) */
    /* the driver's own */
    int64_t n_open;                       /* options of the decision listed (0: none) */
    int32_t open_kind;
    int32_t log_len;
    uint8_t opts[54];                  /* a single lead's follows: kinds in order */
    sj_lead lead;                         /* the current trick's lead, decomposed */
    uint8_t follows[6480];
    uint8_t leads[6912];
    uint32_t log[4096];
} sj_drive;

int64_t sj_drive_start(const sj_rules *r, sj_drive *d);
int64_t sj_drive_step(const sj_rules *r, sj_drive *d, int64_t pick);

/* The deal's shuffle (shuffle.c): ``cards`` permuted in place as shengji.engine.game.shuffle
 * permutes them with random.Random(seed) for a str seed; ``key`` is the seed's
 * init_by_array key, 32-bit words as little-endian bytes (key_bytes: a multiple of 4). */
int sj_shuffle(const uint8_t *key, int32_t key_bytes, uint8_t *cards, int32_t n);
