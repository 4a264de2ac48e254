/* gridsync/barrier_lockfree.h - "lockfree": Xiao & Feng's decentralized barrier (the
 * thesis's DCB, the blogs' globalSync3 / global_sync), without atomics read-modify-write.
 *
 * Each group writes the episode number into its own arrival flag; the master group
 * (group 0) polls every flag, then writes the episode number into every group's
 * release flag; each group polls its own release flag. Flags hold episode numbers
 * rather than 0/1, so they never need clearing and a fast group cannot be confused by
 * a flag of the previous episode. The seeds require more work-items per group than
 * groups; here each polling work-item of the master takes every spinners-th flag, so
 * any number of groups works with any group size. */
#ifndef GRIDSYNC_BARRIER_LOCKFREE_H
#define GRIDSYNC_BARRIER_LOCKFREE_H

#include "gridsync/grid.h"

GS_DEVICE gs_u32 gs_lockfree_sync(gs_grid *g)
{
    gs_u32 done = g->episode + 1u;
    gs_u32 why = GS_ABORT_NONE;
    gs_group_barrier();
    if (g->lid == 0u)
        gs_store_release(gs_word_at(g, GS_LINE_GROUP_A(g->group), GS_G_ARRIVED), done);
    if (g->group == 0u) {
        if (g->lid < g->spinners)
            for (gs_u32 j = 1u + g->lid; j < g->groups - GS_EARLY && why == GS_ABORT_NONE;
                 j += g->spinners)
                why = gs_wait(g, gs_word_at(g, GS_LINE_GROUP_A(j), GS_G_ARRIVED), done,
                              GS_UNTIL_REACHED);
        why = gs_group_verdict(g, why);
        if (why == GS_ABORT_NONE)
            for (gs_u32 j = 1u + g->lid; j < g->groups; j += g->lsize)
                gs_store_release(gs_word_at(g, GS_LINE_GROUP_B(j), GS_G_RELEASE), done);
    } else if (g->lid == 0u) {
        why = gs_wait(g, gs_word_at(g, GS_LINE_GROUP_B(g->group), GS_G_RELEASE), done,
                      GS_UNTIL_REACHED);
    }
    return gs_group_verdict(g, why);
}

#endif
