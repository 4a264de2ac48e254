/* gridsync/barrier_naive.h - "naive": the Chinese blog's globalSync1, the slow
 * baseline. Every work-item of every group adds 1 to one counter, so the counter
 * takes groups*work-items atomics per episode. Only work-item 0 polls: on PoCL the
 * work-items of a group run one after another between barriers, so a poll by any
 * other work-item would wait for a work-item that has not run yet. */
#ifndef GRIDSYNC_BARRIER_NAIVE_H
#define GRIDSYNC_BARRIER_NAIVE_H

#include "gridsync/grid.h"

GS_DEVICE gs_u32 gs_naive_sync(gs_grid *g)
{
    GS_GLOBAL gs_word *counter = gs_word_at(g, GS_LINE_COUNTER, 0u);
    gs_u32 why = GS_ABORT_NONE;
    gs_fetch_add_release(counter, 1u);
    gs_group_barrier();
    if (g->lid == 0u) {
        gs_note_arrival(g);
        why = gs_wait(g, counter, (g->episode + 1u) * g->groups * g->lsize - GS_EARLY,
                      GS_UNTIL_REACHED);
    }
    return gs_group_verdict(g, why);
}

#endif
