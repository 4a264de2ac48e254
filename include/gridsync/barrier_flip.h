/* gridsync/barrier_flip.h - "flip": a counter that is never reset; its top bit flips
 * once per episode, as in CUDA's cooperative groups.
 *
 * Group 0 adds FLIP_BIT - (groups-1), every other group adds 1: after all groups of
 * an episode the low bits are back where they started and the top bit has flipped,
 * exactly at the last arrival. The last arriver sees the flip in the value its own
 * atomic returns (acq_rel: it has acquired every earlier arrival) and does not poll. */
#ifndef GRIDSYNC_BARRIER_FLIP_H
#define GRIDSYNC_BARRIER_FLIP_H

#include "gridsync/grid.h"

/* Arrives at a flip counter shared by `members`; `first` is true for exactly one of
 * them. Returns the counter's value before the arrival. */
GS_DEVICE gs_u32 gs_flip_arrive(GS_GLOBAL gs_word *counter, gs_u32 members, int first,
                                gs_u32 *add)
{
    *add = first ? GS_FLIP_BIT - (members - 1u) : 1u;
    return gs_fetch_add_acq_rel(counter, *add);
}

GS_DEVICE int gs_flip_completed(gs_u32 old, gs_u32 add)
{
    return ((old ^ (old + add)) & GS_FLIP_BIT) != 0u;
}

GS_DEVICE gs_u32 gs_flip_sync(gs_grid *g)
{
    GS_GLOBAL gs_word *counter = gs_word_at(g, GS_LINE_COUNTER, 0u);
    gs_u32 why = GS_ABORT_NONE;
    gs_group_barrier();
    if (g->lid == 0u) {
        gs_u32 add;
        gs_note_arrival(g);
        gs_u32 old = gs_flip_arrive(counter, g->groups - GS_EARLY, g->group == 0u, &add);
        if (!gs_flip_completed(old, add))
            why = gs_wait(g, counter, (old & GS_FLIP_BIT) ^ GS_FLIP_BIT, GS_UNTIL_FLIP);
    }
    return gs_group_verdict(g, why);
}

#endif
