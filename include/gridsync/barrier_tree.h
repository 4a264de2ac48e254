/* gridsync/barrier_tree.h - "tree": a two-level counter barrier.
 *
 * Groups are cut into leaves of `fanout` groups. Each group arrives at its leaf's flip
 * counter; the last arriver of a leaf arrives at the root flip counter; the last
 * arriver at the root releases every leaf by writing the episode into the leaf's
 * generation word. So no counter sees more than max(fanout, leaves) atomics per
 * episode, and the pollers spread over one line per leaf instead of one line. */
#ifndef GRIDSYNC_BARRIER_TREE_H
#define GRIDSYNC_BARRIER_TREE_H

#include "gridsync/barrier_flip.h"

GS_DEVICE gs_u32 gs_tree_sync(gs_grid *g)
{
    gs_u32 why = GS_ABORT_NONE;
    gs_group_barrier();
    if (g->lid == 0u) {
        gs_u32 leaf = g->group / g->fanout;
        gs_u32 first = leaf * g->fanout;
        gs_u32 members = g->groups - first < g->fanout ? g->groups - first : g->fanout;
        gs_u32 done = g->episode + 1u;
        gs_u32 add;
        gs_note_arrival(g);
        gs_u32 old = gs_flip_arrive(gs_word_at(g, GS_LINE_LEAF_COUNT(g->groups, leaf), 0u), members,
                                    g->group == first, &add);
        int released = 0;
        if (gs_flip_completed(old, add)) {
            old = gs_flip_arrive(gs_word_at(g, GS_LINE_COUNTER, 0u), g->leaves - GS_EARLY, leaf == 0u,
                                 &add);
            if (gs_flip_completed(old, add)) {
                for (gs_u32 l = 0u; l < g->leaves; ++l)
                    gs_store_release(gs_word_at(g, GS_LINE_LEAF_GEN(g->groups, l), 0u), done);
                released = 1;
            }
        }
        if (!released)
            why = gs_wait(g, gs_word_at(g, GS_LINE_LEAF_GEN(g->groups, leaf), 0u), done,
                          GS_UNTIL_REACHED);
    }
    return gs_group_verdict(g, why);
}

#endif
