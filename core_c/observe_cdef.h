/* cffi's view of observe.h (build_core.py checks it against the real header) */
#define SJ_OBS_SEATS 12
#define SJ_OBS_MOVES 64
#define SJ_OBS_CALLS 12
typedef struct {
    int32_t players;
    int32_t history;
    uint8_t played[12][54];
    uint8_t trick[12][54];
    uint8_t buried[12][54];
    int32_t buried_by;
    int32_t n_moves;
    int32_t move_seat[64];
    int32_t move_kind[64];
    uint8_t moves[64][54];
    int32_t decision;
    int32_t dealing;
    int32_t trump;
    int32_t level;
    int32_t dealer;
    int32_t leader;
    int32_t in_trick;
    int32_t bid_seat;
    int32_t side;
    int32_t n_calls;
    int32_t call_pending;
    int32_t calls[24];
    int32_t teams[12];
    int32_t hand_len[12];
    int32_t levels[12];
    int32_t captured[12];
    int32_t points;
    int32_t to_deal;
    int32_t trick_number;
    uint8_t hand[54];
    uint8_t building[54];
    uint8_t bid[54];
} sj_obs;
int32_t sj_obs_size(int32_t players, int32_t history);
int sj_observe(const sj_obs *o, int32_t seat, float *out, int32_t out_len);
int sj_obs_move(sj_obs *o, int32_t seat, int32_t kind, const uint8_t *cards, int32_t n);
void sj_obs_trick_end(sj_obs *o);
int sj_obs_bury(sj_obs *o, int32_t seat, const uint8_t *cards, int32_t n);
void sj_obs_deal_start(sj_obs *o);
#define SJ_BUILD_ROWS ...
#define SJ_BUILD_ILLEGAL ...
typedef struct {
    int32_t kind;
    int32_t set;
    int32_t n;
    int32_t last;
    int32_t r;
    int32_t n_rows;
    uint8_t counts[54];
    uint8_t base[54];
    uint8_t pool[54];
    uint8_t mask[60];
    uint8_t rows[256][54];
} sj_build;
int sj_build_open(const sj_rules *r, const sj_drive *d, sj_build *b);
int sj_build_step(const sj_rules *r, sj_drive *d, sj_obs *o, sj_build *b, int32_t a);
int sj_build_step_forced(const sj_rules *r, sj_drive *d, sj_obs *o, sj_build *b, int32_t a,
                         int32_t stop);
int sj_build_observe(sj_obs *o, const sj_drive *d, const sj_build *b, int32_t seat,
                     float *out, int32_t out_len, int8_t *mask, int32_t mask_len);
