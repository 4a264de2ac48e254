/* gridsync/barrier_lockfree.h - "lockfree": Xiao & Feng's decentralized barrier (the
 * thesis's DCB, the blogs' globalSync3 / global_sync), without read-modify-writes.
 *
 * Each group writes the episode number into its own arrival flag; the master group
 * (group 0) polls every flag, then writes the episode number into every group's
 * release flag; each group polls its own release flag. Flags hold episode numbers
 * rather than 0/1, so they never need clearing and a fast group cannot be confused by
 * a flag of the previous episode. The seeds require more work-items per group than
 * groups; here each polling work-item of the master takes every spinners-th flag, so
 * any number of groups works with any group size. A master work-item releases its
 * flags with one fence and plain (relaxed) stores, not one release store (one fence)
 * per flag. The master's release happens in its wait, so in the split-phase form the
 * master's gs_wait_token should come early. */
#ifndef GRIDSYNC_BARRIER_LOCKFREE_H
#define GRIDSYNC_BARRIER_LOCKFREE_H

#include "gridsync/grid.h"

/* Group j's arrival flag (the seed's Arrayin[j]) and release flag (Arrayout[j]). */
GS_DEVICE GS_GLOBAL gs_word *gs_flag_in(const gs_grid *g, gs_u32 j)
{
    return gs_word_at(g, GS_LINE_FLAGS_IN(g->groups), j);
}
GS_DEVICE GS_GLOBAL gs_word *gs_flag_out(const gs_grid *g, gs_u32 j)
{
    return gs_word_at(g, GS_LINE_FLAGS_OUT(g->groups), j);
}

GS_DEVICE void gs_lockfree_arrive(gs_grid *g, gs_token *t)
{
    gs_group_barrier();
    t->target = g->episode + 1u;
    if (g->lid == 0u) {
        gs_store_release(gs_flag_in(g, g->group), t->target);
        gs_note_arrival(g);
    }
}

GS_DEVICE gs_u32 gs_lockfree_wait(gs_grid *g, const gs_token *t)
{
    gs_u32 why = GS_ABORT_NONE;
    if (g->group == 0u) {
        /* flags 1 + lid, 1 + lid + spinners, ...: a warp's loads cover 32 neighbouring
         * flags, and all of a work-item's are in flight at once (gs_wait_each) */
        gs_u32 first = 1u + g->lid, end = g->groups - GS_EARLY;
        if (g->lid < g->spinners && first < end)
            why = gs_wait_each(g, gs_flag_in(g, first), g->spinners,
                               (end - first + g->spinners - 1u) / g->spinners, t->target,
                               GS_UNTIL_REACHED);
    } else if (g->lid == 0u) {
        why = gs_wait(g, gs_flag_out(g, g->group), t->target, GS_UNTIL_REACHED);
    }
    /* One verdict for master and others alike: no barrier is reached on one side of a
     * branch only (PoCL 3.1 miscompiles that shape). */
    why = gs_group_verdict(g, why);
    if (g->group == 0u && why == GS_ABORT_NONE && 1u + g->lid < g->groups) {
        gs_fence_acq_rel(); /* acquire the flags read by any master work-item; release */
        for (gs_u32 j = 1u + g->lid; j < g->groups; j += g->lsize)
            gs_store_fenced(gs_flag_out(g, j), t->target);
    }
    return why;
}

#endif
