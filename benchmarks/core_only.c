/* The C-only column of the core benchmark (benchmarks/core_only.py builds and runs it):
 * times the rules core's entry points with no Python in the process, on the very calls
 * the Python benchmark makes (bench_core.py writes them to a file), so that the Python
 * layer's cost is the difference of two columns measured in one run.
 *
 *   core_only JOBFILE   ->  one line per job: "name n_calls median_ns min_ns checksum"
 *
 * Job file (native byte order, written by core_only.py):
 *   "SJB1", u32 sizeof(sj_rules), u32 n_rules, n_rules raw sj_rules (settings; the
 *   driver re-runs sj_prepare), u32 n_jobs, then per job: u32 op, u32 repeat, u32 arg,
 *   u32 name length, the name, u32 n_calls, and per call u32 rules index, u32 m, m x 54
 *   counts. Ops and their groups: 1 decompose (cards), 2 check_follow (lead, hand,
 *   play; the lead decomposed beforehand, as a prepared lead Hand is), 3 legal_follows
 *   (lead, hand; arg = most follows written), 4 trick_winner (plays), 5 check_throw
 *   (lead, others...), 6 is_tractor (cards).
 *
 * Each repeat runs every call of the job `inner` times (calibrated so a repeat takes
 * about 20 ms of CPU) and is timed with CLOCK_PROCESS_CPUTIME_ID, the clock Python's
 * time.process_time reads; the median and the best repeat are reported per call.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shengji_core.h"

enum { OP_DECOMPOSE = 1, OP_FOLLOW, OP_LEGAL, OP_WINNER, OP_THROW, OP_TRACTOR };

typedef struct {
    uint32_t rules, m;
    const uint8_t *groups; /* m x SJ_NK */
    sj_lead *lead;         /* decomposed groups[0] (ops 2, 3, 5) */
} call_t;

static FILE *in;

static void die(const char *what)
{
    fprintf(stderr, "core_only: %s\n", what);
    exit(2);
}

static uint32_t u32(void)
{
    uint32_t v;
    if (fread(&v, sizeof v, 1, in) != 1)
        die("job file truncated");
    return v;
}

static void *alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory");
    return p;
}

/* n bytes of the job file, in a new buffer */
static void *take(size_t n)
{
    void *p = alloc(n);
    if (n && fread(p, 1, n, in) != n)
        die("job file truncated");
    return p;
}

static double cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static sj_rules *rules;
static uint8_t *out_buf;
static sj_throw_result throw_res;

/* one pass over the calls; returns a checksum so no call can be optimised away */
static long pass(int op, uint32_t arg, const call_t *calls, uint32_t n)
{
    long sum = 0;
    sj_lead scratch;
    for (uint32_t i = 0; i < n; i++) {
        const call_t *c = &calls[i];
        const sj_rules *r = &rules[c->rules];
        const uint8_t *g = c->groups;
        switch (op) {
        case OP_DECOMPOSE:
            sum += sj_decompose(r, g, SJ_NK, &scratch, NULL) + scratch.ncomp;
            break;
        case OP_FOLLOW:
            sum += sj_check_follow(r, c->lead, g + SJ_NK, SJ_NK, g + 2 * SJ_NK, SJ_NK, NULL,
                                   NULL);
            break;
        case OP_LEGAL: {
            int32_t n_out = 0;
            uint64_t total = 0;
            sum += sj_legal_follows(r, c->lead, g + SJ_NK, SJ_NK, out_buf, (int)arg * SJ_NK,
                                    &n_out, &total, NULL);
            sum += n_out + (long)total;
            break;
        }
        case OP_WINNER:
            sum += sj_trick_winner(r, g, (int)c->m * SJ_NK, (int)c->m, NULL);
            break;
        case OP_THROW:
            sum += sj_check_throw(r, c->lead, g + SJ_NK, (int)(c->m - 1) * SJ_NK,
                                  (int)c->m - 1, &throw_res, NULL);
            sum += throw_res.valid + throw_res.n_options;
            break;
        case OP_TRACTOR:
            sum += sj_is_tractor(r, g, SJ_NK, NULL);
            break;
        default:
            die("unknown op");
        }
    }
    return sum;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc != 2)
        die("usage: core_only JOBFILE");
    in = fopen(argv[1], "rb");
    if (!in)
        die("cannot open the job file");
    char magic[4];
    if (fread(magic, 1, 4, in) != 4 || memcmp(magic, "SJB1", 4))
        die("not a job file");
    if (u32() != sizeof(sj_rules))
        die("sj_rules differs from the Python build's (rebuild both from one core_c/)");
    uint32_t n_rules = u32();
    rules = take((size_t)n_rules * sizeof(sj_rules));
    for (uint32_t i = 0; i < n_rules; i++)
        if (sj_prepare(&rules[i], NULL))
            die("rules rejected by sj_prepare");
    uint32_t n_jobs = u32();
    for (uint32_t j = 0; j < n_jobs; j++) {
        int op = (int)u32();
        uint32_t repeat = u32(), arg = u32(), name_len = u32();
        char *name = alloc(name_len + 1);
        if (fread(name, 1, name_len, in) != name_len)
            die("job file truncated");
        name[name_len] = 0;
        uint32_t n = u32();
        call_t *calls = alloc((size_t)n * sizeof *calls);
        for (uint32_t i = 0; i < n; i++) {
            calls[i].rules = u32();
            calls[i].m = u32();
            if (calls[i].rules >= n_rules || calls[i].m < 1 || calls[i].m > 64)
                die("bad call");
            calls[i].groups = take((size_t)calls[i].m * SJ_NK);
            calls[i].lead = NULL;
            if (op == OP_FOLLOW || op == OP_LEGAL || op == OP_THROW) {
                calls[i].lead = alloc(sizeof(sj_lead));
                if (sj_decompose(&rules[calls[i].rules], calls[i].groups, SJ_NK,
                                 calls[i].lead, NULL))
                    die("a lead does not decompose");
            }
        }
        if (op == OP_LEGAL) {
            free(out_buf);
            out_buf = alloc((size_t)(arg ? arg : 1) * SJ_NK);
        }
        /* calibrate: one pass, then enough passes per repeat for ~20 ms */
        double t0 = cpu_ns();
        long sum = pass(op, arg, calls, n);
        double once = cpu_ns() - t0;
        long inner = once > 0 ? (long)(20e6 / once) : 1000;
        if (inner < 1)
            inner = 1;
        if (repeat < 1)
            repeat = 1;
        double *per = alloc(repeat * sizeof *per);
        for (uint32_t rep = 0; rep < repeat; rep++) {
            t0 = cpu_ns();
            for (long k = 0; k < inner; k++)
                sum += pass(op, arg, calls, n);
            per[rep] = (cpu_ns() - t0) / ((double)inner * (n ? n : 1));
        }
        qsort(per, repeat, sizeof *per, cmp_double);
        printf("%s %u %.1f %.1f %ld\n", name, n, per[repeat / 2], per[0], sum);
        fflush(stdout);
        free(per);
        for (uint32_t i = 0; i < n; i++) {
            free((void *)calls[i].groups);
            free(calls[i].lead);
        }
        free(calls);
        free(name);
    }
    return 0;
}
