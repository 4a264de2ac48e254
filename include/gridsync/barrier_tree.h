/* gridsync/barrier_tree.h - "tree": a two-level counter barrier.
 *
 * Groups are dealt round-robin into `leaves` leaves (group g is in leaf g % leaves:
 * measured a little faster on an H200 than cutting the index range into blocks,
 * bench/micro/variants.cu). Each group arrives at its leaf's flip counter; the last
 * arriver of a leaf acquires its leaf with one fence, which also makes the adds that
 * follow it releases. Then (g->release, chosen by the host for the group count):
 * - poll: it adds to the root flip counter, and every group polls the root's flip bit
 *   (every group polls one line);
 * - lines: no root; it adds its share into every leaf's release line, so that each line
 *   is a flip counter of the leaves and flips at the last leaf's add, and each group
 *   polls its leaf's line (a line has a leaf's groups polling it, and no hop is added:
 *   where the root's last arriver wrote the lines, a fence and a round trip more, the
 *   tree took 11-15% longer at 2112 and 4224 x 64 on an H200, docs/performance.md).
 * No counter sees more than max(groups per leaf, leaves) atomics per episode. */
#ifndef GRIDSYNC_BARRIER_TREE_H
#define GRIDSYNC_BARRIER_TREE_H

#include "gridsync/barrier_flip.h"

GS_DEVICE void gs_tree_arrive(gs_grid *g, gs_token *t)
{
    gs_group_barrier();
    t->target = gs_flip_bit_after(g); /* the root's (or lines') flip bit after it */
    if (g->lid == 0u) {
        gs_u32 add;
        gs_u32 old = gs_flip_arrive(gs_word_at(g, GS_LINE_LEAF_COUNT(g->groups, g->leaf), 0u),
                                    g->members - GS_EARLY, g->group == g->leaf, &add);
        if (gs_flip_completed(old, add)) {
            gs_fence_acq_rel(); /* acquire the leaf; release it with the add(s) below */
            add = gs_flip_share(g->leaves, g->leaf == 0u);
            if (g->release == GS_RELEASE_LINES) {
                /* every line counts the leaves: its last add ends the episode there */
                for (gs_u32 l = 0u; l < g->leaves; ++l)
                    gs_add_fenced(gs_release_line(g, l), add);
            } else {
                old = gs_fetch_add_fenced(gs_word_at(g, GS_LINE_COUNTER, 0u), add);
                if (gs_flip_completed(old, add)) {
                    gs_fence_acquire(); /* the other leaves; its own went with its add */
                    t->done = 1u;
                }
            }
        }
        gs_note_arrival(g);
    }
}

GS_DEVICE gs_u32 gs_tree_wait(gs_grid *g, const gs_token *t)
{
    gs_u32 why = GS_ABORT_NONE;
    if (g->lid == 0u && !t->done)
        why = gs_flip_await(g, gs_word_at(g, GS_LINE_COUNTER, 0u), t->target,
                            g->release == GS_RELEASE_LINES);
    return gs_group_verdict(g, why);
}

#endif
