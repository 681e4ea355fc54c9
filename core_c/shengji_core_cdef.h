/* cffi declarations of shengji_core.h (out-of-line API mode: the compiler checks them
 * against the header). Values are written once, in shengji_core.h: every constant here
 * is "#define SJ_X ..." and every array length "[...]", which cffi takes from the
 * compiler (tests/test_c_boundary.py holds lib.SJ_* to the header's #defines). */

#define SJ_NK ...
#define SJ_MAXSTR ...
#define SJ_TRUMP ...
#define SJ_RAINBOW ...
#define SJ_MAXCARDS ...
#define SJ_PAT_SHAPES ...
#define SJ_LADDER_PATS ...
#define SJ_MAX_LADDERS ...
#define SJ_MAX_OPTIONS ...
#define SJ_OK ...
#define SJ_ERR_LENGTH ...
#define SJ_ERR_COPIES ...
#define SJ_ERR_KIND ...
#define SJ_ERR_EMPTY ...
#define SJ_ERR_MIXED ...
#define SJ_ERR_SIZE ...
#define SJ_ERR_NOT_IN_HAND ...
#define SJ_ERR_RULES ...
#define SJ_ERR_LIMIT ...
#define SJ_ERR_CAPACITY ...
#define SJ_ERR_CONTEXT ...
#define SJ_ERR_ARG ...
#define SJ_ERR_MEMORY ...
#define SJ_FOLLOW_OK ...
#define SJ_NOT_IN_HAND ...
#define SJ_WRONG_COUNT ...
#define SJ_MUST_FOLLOW_SUIT ...
#define SJ_MUST_FOLLOW_SHAPE ...
#define SJ_HIGHER ...
#define SJ_LOWER ...
#define SJ_EQUAL ...
#define SJ_UNRELATED ...
#define SJ_RUFF_STRONGEST ...
#define SJ_RUFF_ALL_COMPONENTS ...
#define SJ_RUFF_HIGHEST_CARD ...
#define SJ_RUFF_UNIT_LENGTH ...
#define SJ_RUFF_ALL ...
#define SJ_THROW_SMALLEST ...
#define SJ_THROW_NEXT_PLAYER_CHOOSES ...
#define SJ_THROW_FIRST_BLOCKER ...
#define SJ_PROTECT_NONE ...
#define SJ_PROTECT_LONGER_TUPLES ...
#define SJ_PROTECT_TRACTORS ...
#define SJ_PROTECT_BOTH ...
#define SJ_PROTECT_NO_SHAPE ...
#define SJ_BOMBS_NONE ...
#define SJ_BOMBS_ANY_SUIT ...
#define SJ_BOMBS_FOLLOW_SUIT ...
#define SJ_BOMBS_FOLLOW_SUIT_OR_TRUMP ...
#define SJ_DECOMP_SEEDS ...
#define SJ_DECOMP_SHENGJI_IO ...
#define SJ_FOLLOWREQ_SEEDS ...
#define SJ_FOLLOWREQ_SHENGJI_IO ...
#define SJ_KITTY_EXPONENTIAL ...
#define SJ_KITTY_POWER ...
#define SJ_KITTY_TABLE ...
#define SJ_KITTY_TWICE_SIZE ...
#define SJ_ARG_LEAD ...
#define SJ_ARG_HAND ...
#define SJ_ARG_PLAY ...
#define SJ_ARG_OTHERS ...
#define SJ_ARG_PLAYS ...
#define SJ_ARG_RULES ...
#define SJ_ARG_POSITION ...
#define SJ_RF_DECKS ...
#define SJ_RF_LEVEL ...
#define SJ_RF_TRUMP ...
#define SJ_RF_MAX_TUPLE ...
#define SJ_RF_TRACTORS ...
#define SJ_RF_TRACTOR_MIN_WIDTH ...
#define SJ_RF_TRACTOR_MIN_LENGTH ...
#define SJ_RF_TRACTOR_BRIDGES_LEVEL_GAP ...
#define SJ_RF_FOLLOW_PROTECTION ...
#define SJ_RF_CONSTANT_RANKS ...
#define SJ_RF_RUFF_COMPARE ...
#define SJ_RF_FAILED_THROW ...
#define SJ_RF_KITTY ...
#define SJ_RF_KITTY_CAP ...
#define SJ_RF_KITTY_TABLE ...
#define SJ_RF_N_LADDERS ...
#define SJ_RF_LADDERS ...
#define SJ_RF_SHORTER_TRACTORS ...
#define SJ_RF_BOMBS ...
#define SJ_RF_RAINBOW_MIN ...
#define SJ_RF_COPIES ...
#define SJ_RF_GENUINE_TUPLES ...
#define SJ_RF_TRACTORS_FIRST ...
#define SJ_RF_DECOMPOSITION ...
#define SJ_RF_FOLLOW_REQUIREMENTS ...
#define SJ_POLICY_RANDOM ...
#define SJ_POLICY_GREEDY ...
#define SJ_MAX_PLAYERS ...
#define SJ_MAX_CALLS ...
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
    sj_shape shapes[...];
} sj_pattern;

typedef struct {
    sj_shape lead;
    uint8_t n_patterns;
    sj_pattern patterns[...];
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
    int32_t kitty_table[...];
    int32_t shorter_tractors;
    int32_t bombs;
    int32_t rainbow_min;
    uint8_t copies[...];
    int32_t n_ladders;
    sj_ladder ladders[...];
    uint32_t magic;
    uint64_t stamp;
    uint8_t esuit[...];
    uint8_t strength[...];
    uint8_t lev_n[...][...];
    uint8_t lev_kinds[...][...][...];
    uint8_t str_hi[...];
    int32_t genuine_tuples;
    int32_t tractors_first;
    int32_t decomposition;
    int32_t follow_requirements;
} sj_rules;

typedef struct {
    uint8_t w, len, top, first;
} sj_comp;

typedef struct {
    uint64_t stamp;
    int32_t n;
    int32_t esuit;
    int32_t ncomp;
    sj_comp comps[...];
    uint8_t kinds[...];
    uint8_t counts[...];
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
    uint8_t options[...][...];
} sj_throw_result;

typedef struct {
    int32_t players;
    int32_t teams[...];
    int32_t dealer_team;
    int32_t leader;
    int32_t n_trick;
    uint8_t hands[...][...];
    uint8_t trick[...][...];
    int32_t trick_points;
    int32_t penalty;
    int32_t kitty_points;
    int32_t throws;
    int32_t throw_penalty;
    int32_t captured[...];
    int32_t penalties[...];
    int32_t friends;
    int32_t dealer;
    int32_t on_side[...];
    int32_t n_calls;
    int32_t call_ordinal[...];
    int32_t call_card[...];
    int32_t call_seen[...];
    int32_t call_done[...];
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
    uint8_t winners[...];
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
#define SJ_DRIVE_FOLLOWS ...  /* follows listed at most (the engine's FOLLOW_LIMIT) */
#define SJ_DRIVE_LOG ...  /* words */
#define SJ_DRIVE_LEADS ...  /* leads kept from a listing (more: listed again) */
#define SJ_DRIVE_STOP ...
#define SJ_DRIVE_END ...
#define SJ_DRIVE_PENDING ...
#define SJ_DRIVE_LOG_PLAY ...  /* log records (drive.c) */
#define SJ_DRIVE_LOG_THROW ...
#define SJ_DRIVE_LOG_TRICK ...
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
    int32_t captured[...];
    int32_t penalties[...];
    int32_t hand_len[...];
    uint8_t hands[...][...];
    uint8_t trick[...][...]; /* the current trick's plays, the lead first */
    uint8_t played[...];
    uint8_t watch[...];                   /* 1: a play of this card goes to Python (a
                                           * friend call still open) */
    /* the driver's own */
    int64_t n_open;                       /* options of the decision listed (0: none) */
    int32_t open_kind;
    int32_t log_len;
    uint8_t opts[...];                  /* a single lead's follows: kinds in order */
    sj_lead lead;                         /* the current trick's lead, decomposed */
    uint8_t follows[...];
    uint8_t leads[...];
    uint32_t log[...];
} sj_drive;

int64_t sj_drive_start(const sj_rules *r, sj_drive *d);
int64_t sj_drive_step(const sj_rules *r, sj_drive *d, int64_t pick);
int64_t sj_drive_play(const sj_rules *r, sj_drive *d, const uint8_t *P);

/* The deal's shuffle (shuffle.c): ``cards`` permuted in place as shengji.engine.game.shuffle
 * permutes them with random.Random(seed) for a str seed; ``key`` is the seed's
 * init_by_array key, 32-bit words as little-endian bytes (key_bytes: a multiple of 4). */
int sj_shuffle(const uint8_t *key, int32_t key_bytes, uint8_t *cards, int32_t n);
