/* gridsync/barrier_tree.h - "tree": a two-level counter barrier.
 *
 * Groups are dealt round-robin into `leaves` leaves (group g is in leaf g % leaves:
 * measured a little faster on an H200 than cutting the index range into blocks,
 * bench/micro/variants.cu). Each group arrives at its leaf's flip counter; the last
 * arriver of a leaf acquires its leaf (one fence, which also makes its add to the root
 * a release) and arrives at the root flip counter. So no counter sees more than
 * max(groups per leaf, leaves) atomics per episode. The root releases as flip does
 * (g->release, chosen by the host for the group count): every group polls the root's
 * flip bit (no hop after the root, but every group polls one line), or the root's last
 * arriver writes one release line per leaf and each group polls its leaf's (one more
 * hop, but a line has only a leaf's groups polling it). */
#ifndef GRIDSYNC_BARRIER_TREE_H
#define GRIDSYNC_BARRIER_TREE_H

#include "gridsync/barrier_flip.h"

GS_DEVICE void gs_tree_arrive(gs_grid *g, gs_token *t)
{
    gs_group_barrier();
    t->target = (g->episode + 1u) << 31; /* the root's flip bit after this episode */
    if (g->lid == 0u) {
        gs_u32 add;
        gs_u32 old = gs_flip_arrive(gs_word_at(g, GS_LINE_LEAF_COUNT(g->groups, g->leaf), 0u),
                                    g->members - GS_EARLY, g->group == g->leaf, &add);
        if (gs_flip_completed(old, add)) {
            gs_fence_acq_rel(); /* acquire the leaf; release it with the add below */
            add = gs_flip_share(g->leaves, g->leaf == 0u);
            old = gs_fetch_add_fenced(gs_word_at(g, GS_LINE_COUNTER, 0u), add);
            if (gs_flip_completed(old, add)) {
                gs_flip_release(g, t->target, g->release == GS_RELEASE_LINES);
                t->done = 1u;
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
