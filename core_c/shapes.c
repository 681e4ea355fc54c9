/* Structures (§3): which shapes exist, the highest structure a holding supplies, and
 * the decomposition of a play into components, the form every later rule reads.
 */
#include "shengji_core.h"
#include "sj_internal.h"

#include <string.h>

static int tractor_width_ok(const sj_rules *r, int w)
{
    return r->tractors && w >= 2 && w >= r->tractor_min_width;
}

/* Does a structure of this shape exist under the rules (§3)? */
int sj__shape_exists(const sj_rules *r, int w, int len)
{
    if (w < 1 || w > r->max_tuple || len < 1)
        return 0;
    if (len == 1)
        return 1;
    return tractor_width_ok(r, w) && len >= r->tractor_min_length;
}

/* index of the first kind (from x0, largest id first) at strength t of suit s that can
 * give a w-wide tuple from c: count >= w, or exactly w when strict */
static int pick(const sj_rules *r, int s, int t, const uint8_t *c, int w, int strict, int x0)
{
    int n = r->lev_n[SU(s)][ST(t)] & 7;
    for (int x = x0; x < n && x < 4; x++) {
        int v = c[K(r->lev_kinds[SU(s)][ST(t)][x])];
        if (strict ? v == w : v >= w)
            return x;
    }
    return -1;
}

/* highest top strength of a (w, len) structure held in c (suit s), or -1 */
int sj__max_top(const sj_rules *r, int s, const uint8_t *c, int w, int len)
{
    int hi = r->str_hi[SU(s)] & 63, run = 0, best = -1;
    for (int t = 0; t < hi; t++) {
        run = pick(r, s, t, c, w, 0, 0) >= 0 ? run + 1 : 0;
        if (run >= len)
            best = t;
    }
    return best;
}

/* ---------------------------------------------------------------- decomposition §3 */

int sj__decompose_err(const sj_rules *r, const uint8_t *cin, int n, sj_lead *out, int which,
                      int index, sj_err *e)
{
    if (n == 0)
        return sj__fail(e, SJ_ERR_EMPTY, which, index, -1, 0, 0, 0);
    int s = -1;
    for (int k = 0; k < SJ_NK; k++) {
        if (!cin[k])
            continue;
        int ks = SU(r->esuit[k]);
        if (s < 0)
            s = ks;
        else if (ks != s) {
            /* several suits: a rainbow when the rules have them (rainbow.c) */
            if (sj__rainbow_decompose(r, cin, n, out) == SJ_OK)
                return SJ_OK;
            return sj__fail(e, SJ_ERR_MIXED, which, index, k, -1, s, ks);
        }
    }
    uint8_t c[64];
    memcpy(c, cin, 64);
    memcpy(out->counts, cin, SJ_NK);
    out->stamp = r->stamp;
    out->n = n;
    out->esuit = s;
    out->ncomp = 0;
    int nk = 0, left = n, hi = r->str_hi[s] & 63;
    while (left > 0 && out->ncomp < SJ_MAXCARDS) {
        int bw = 0, bl = 0, btop = -1;
        for (int w = 1; w <= r->max_tuple; w++) {
            int run = 0, lmax = 0, tmax = -1, any = -1;
            for (int t = 0; t < hi; t++) {
                run = pick(r, s, t, c, w, 0, 0) >= 0 ? run + 1 : 0;
                if (run > 0)
                    any = t;
                if (run > 0 && run >= lmax) {
                    lmax = run;
                    tmax = t;
                }
            }
            if (any < 0)
                continue;
            int len = 1, top = any;
            if (lmax >= 2 && tractor_width_ok(r, w) && lmax >= r->tractor_min_length) {
                len = lmax;
                top = tmax;
            }
            /* key (cards, w, positions): across widths the card count then the width
             * decide; within one width the highest top (then largest kinds).
             * tractors_first: (cards, tractor or not, w, positions) */
            int tr = r->tractors_first && len > 1, btr = r->tractors_first && bl > 1;
            if (w * len > bw * bl || (w * len == bw * bl && (tr > btr || (tr == btr && w > bw)))) {
                bw = w;
                bl = len;
                btop = top;
            }
        }
        if (bw == 0 || nk + bl > SJ_MAXCARDS)
            break; /* cannot happen with validated counts */
        sj_comp *cp = &out->comps[out->ncomp++];
        cp->w = (uint8_t)bw;
        cp->len = (uint8_t)bl;
        cp->top = (uint8_t)btop;
        cp->first = (uint8_t)nk;
        for (int l = 0; l < bl; l++) {
            int t = btop - l;
            int x = pick(r, s, t, c, bw, 0, 0);
            int k = K(r->lev_kinds[s][ST(t)][x & 3]);
            out->kinds[nk++] = (uint8_t)k;
            c[k] = (uint8_t)(c[k] - bw);
            left -= bw;
        }
    }
    return SJ_OK;
}

int sj__decompose(const sj_rules *r, const uint8_t *c, int n, sj_lead *out)
{
    return sj__decompose_err(r, c, n, out, SJ_ARG_LEAD, -1, NULL);
}

int sj_decompose(const sj_rules *r, const uint8_t *cards, int ncards, sj_lead *out, sj_err *e)
{
    if (!sj__rules_ok(r))
        return sj__fail(e, SJ_ERR_CONTEXT, SJ_ARG_RULES, -1, -1, -1, 0, 0);
    if (!out)
        return sj__fail(e, SJ_ERR_ARG, SJ_ARG_LEAD, -1, -1, -1, 0, 0);
    uint8_t c[64];
    int n, rc = sj__load(r, cards, ncards, c, &n, SJ_ARG_LEAD, -1, e);
    if (rc)
        return rc;
    memset(out, 0, sizeof *out);
    return sj__decompose_err(r, c, n, out, SJ_ARG_LEAD, -1, e);
}

int sj_is_tractor(const sj_rules *r, const uint8_t *cards, int ncards, sj_err *e)
{
    if (!sj__rules_ok(r))
        return sj__fail(e, SJ_ERR_CONTEXT, SJ_ARG_RULES, -1, -1, -1, 0, 0);
    uint8_t c[64];
    int n, rc = sj__load(r, cards, ncards, c, &n, SJ_ARG_LEAD, -1, e);
    if (rc)
        return rc;
    sj_lead l;
    rc = sj__decompose_err(r, c, n, &l, SJ_ARG_LEAD, -1, NULL);
    if (rc == SJ_ERR_EMPTY || rc == SJ_ERR_MIXED)
        return 0; /* not one structure, not an input error */
    if (rc)
        return sj__fail(e, rc, SJ_ARG_LEAD, -1, -1, -1, 0, 0);
    return l.ncomp == 1 && l.comps[0].len >= 2;
}
