/* gridsync/barrier_central.h - "central": the thesis's Centralized Barrier.
 *
 * One representative per group adds 1 to one counter, then every representative
 * polls the counter. The thesis resets the counter between episodes (a race: a fast
 * group can arrive at the next episode before the reset); here the counter only
 * grows, and episode e completes when it reaches (e+1)*groups. */
#ifndef GRIDSYNC_BARRIER_CENTRAL_H
#define GRIDSYNC_BARRIER_CENTRAL_H

#include "gridsync/grid.h"

GS_DEVICE gs_u32 gs_central_sync(gs_grid *g)
{
    GS_GLOBAL gs_word *counter = gs_word_at(g, GS_LINE_COUNTER, 0u);
    gs_u32 why = GS_ABORT_NONE;
    gs_group_barrier(); /* the group's writes happen before its arrival */
    if (g->lid == 0u) {
        gs_note_arrival(g);
        gs_fetch_add_release(counter, 1u);
        why = gs_wait(g, counter, (g->episode + 1u) * g->groups - GS_EARLY, GS_UNTIL_REACHED);
    }
    return gs_group_verdict(g, why);
}

#endif
