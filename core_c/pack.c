/* Packing plain tuples into the copies a suit holds: the exact search both follow checks
 * use when widths or counts reach 5..10 (follow.c, the seeds' check; sio_follow.c, the
 * shengji.io walk). A leaf: it calls no other file of the core. */
#include "shengji_core.h"
#include "sj_internal.h"

/* Widths or counts of 5..SJ_MAX_DECKS (five packs and more): a small bin packing (eight
 * copies give 4+4, 5+3, 6+2 or 2+2+2+2), searched exactly. Tuples are placed widest first; kinds
 * are grouped by the copies they still have (cap[c]); tuples of one width take groups
 * in non-increasing order, which loses no packing (sort any packing's placements of
 * that width by the room left at the time) and tries each multiset once. Returns 1, 0,
 * or SJ_ERR_LIMIT when the node budget runs out (never a guess). */
static int pack_dfs(int *cap, int *need, int w, int cmax, long *budget)
{
    if (need[w] == 0) {
        do
            w--;
        while (w >= 2 && need[w] == 0);
        cmax = SJ_MAX_DECKS;
    }
    if (w < 2)
        return 1;
    if (--*budget < 0)
        return SJ_ERR_LIMIT;
    int fit = 0, room = 0, want = 0;
    for (int c = w; c <= SJ_MAX_DECKS; c++)
        fit += cap[c] * (c / w);
    for (int c = 2; c <= SJ_MAX_DECKS; c++)
        room += cap[c] * c, want += need[c] * c;
    if (fit < need[w] || room < want)
        return 0;
    need[w]--;
    int rc = 0;
    for (int c = cmax; c >= w && !rc; c--) {
        if (!cap[c])
            continue;
        cap[c]--, cap[c - w]++;
        rc = pack_dfs(cap, need, w, c, budget);
        cap[c]++, cap[c - w]--;
    }
    need[w]++;
    return rc;
}

int sj__pack_tuples(int *cap, int *need, long *budget)
{
    return pack_dfs(cap, need, SJ_MAX_DECKS, SJ_MAX_DECKS, budget);
}
