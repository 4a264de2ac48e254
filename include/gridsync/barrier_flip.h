/* gridsync/barrier_flip.h - "flip": a counter that is never reset; its top bit flips
 * once per episode, as in CUDA's cooperative groups.
 *
 * Group 0 adds FLIP_BIT - (groups-1), every other group adds 1: after all groups of
 * an episode the low bits are back where they started and the top bit has flipped,
 * exactly at the last arrival. The adds are release RMWs, so every one of them is in
 * the release sequence that the pollers' acquire (gs_wait) reads from. The last arriver
 * sees the flip in the value its own add returns and does not poll; an acquire fence
 * makes it see the others' writes. (An acq_rel add would do the same for everyone and
 * costs 558 ns against 321 ns for a release add on an H200: only the last arriver needs
 * the acquire, and a fence costs it 136 ns.) */
#ifndef GRIDSYNC_BARRIER_FLIP_H
#define GRIDSYNC_BARRIER_FLIP_H

#include "gridsync/grid.h"

/* What one of the `members` of a flip counter adds; `first` is true for exactly one. */
GS_DEVICE gs_u32 gs_flip_share(gs_u32 members, int first)
{
    return first ? GS_FLIP_BIT - (members - 1u) : 1u;
}

/* Arrives at a flip counter with a release add. Returns the counter's value before. */
GS_DEVICE gs_u32 gs_flip_arrive(GS_GLOBAL gs_word *counter, gs_u32 members, int first,
                                gs_u32 *add)
{
    *add = gs_flip_share(members, first);
    return gs_fetch_add_release(counter, *add);
}

GS_DEVICE int gs_flip_completed(gs_u32 old, gs_u32 add)
{
    return ((old ^ (old + add)) & GS_FLIP_BIT) != 0u;
}

GS_DEVICE void gs_flip_arrive_episode(gs_grid *g, gs_token *t)
{
    gs_group_barrier();
    if (g->lid == 0u) {
        gs_u32 add;
        gs_u32 old = gs_flip_arrive(gs_word_at(g, GS_LINE_COUNTER, 0u), g->groups - GS_EARLY,
                                    g->group == 0u, &add);
        t->done = gs_flip_completed(old, add) ? 1u : 0u;
        t->target = (old & GS_FLIP_BIT) ^ GS_FLIP_BIT;
        gs_note_arrival(g);
    }
}

GS_DEVICE gs_u32 gs_flip_wait(gs_grid *g, const gs_token *t)
{
    gs_u32 why = GS_ABORT_NONE;
    if (g->lid == 0u) {
        if (t->done)
            gs_fence_acquire(); /* the earlier arrivals' writes; its own went with its add */
        else
            why = gs_wait(g, gs_word_at(g, GS_LINE_COUNTER, 0u), t->target, GS_UNTIL_FLIP);
    }
    return gs_group_verdict(g, why);
}

#endif
