/* cffi's view of moves.h (build_core.py checks it against the real header) */
#define SJ_MOVES_ROWS ...
#define SJ_MOVE_FEATURES ...
#define SJ_MOVES_SAMPLE ...
typedef struct {
    int32_t max_moves;
    int32_t sides_known;
    int32_t kind;
    int32_t n;
    int64_t total;
    int32_t plays;
    int32_t chosen;
    int64_t index[...];
    uint8_t rows[...][54];
    float features[...][70];
    ...;
} sj_moves;
int sj_moves_open(const sj_rules *r, const sj_drive *d, sj_moves *m);
int sj_moves_sample(const sj_rules *r, const sj_drive *d, sj_moves *m, const uint8_t *key,
                    int32_t key_bytes);
int sj_moves_step(const sj_rules *r, sj_drive *d, sj_obs *o, sj_moves *m, int32_t a);
int sj_moves_step_forced(const sj_rules *r, sj_drive *d, sj_obs *o, sj_moves *m, int32_t a,
                         int32_t stop);
int sj_moves_observe(sj_obs *o, const sj_drive *d, const sj_moves *m, int32_t seat,
                     float *out, int32_t out_len, int8_t *mask, int32_t mask_len,
                     float *features, int32_t rows, int32_t dirty);
int sj_moves_burials(const sj_rules *r, const uint8_t *hand, int32_t count,
                     const uint8_t *first, const uint8_t *key, int32_t key_bytes,
                     int32_t limit, sj_moves *m);
int sj_move_features(const sj_rules *r, int32_t kind, const uint8_t *rows, int32_t n,
                     const uint8_t *is_pass, const uint8_t *trick, int32_t m,
                     int32_t partner, int32_t trick_pts, float *out);
int sj_py_sample(const uint8_t *key, int32_t key_bytes, int64_t n, int32_t k, int64_t *out);
