/* gridsync/barrier_tree.h - "tree": a two-level counter barrier.
 *
 * Groups are dealt round-robin into `leaves` leaves (group g is in leaf g % leaves:
 * measured a little faster on an H200 than cutting the index range into blocks,
 * bench/micro/variants.cu). Each group arrives at its leaf's flip counter; the last
 * arriver of a leaf acquires its leaf (one fence, which also makes its add to the root
 * a release) and arrives at the root flip counter. So no counter sees more than
 * max(groups per leaf, leaves) atomics per episode. The release comes in one of two
 * forms (g->release, chosen by the host for the group count):
 *   GS_TREE_POLL_ROOT      every group polls the root counter's flip bit: no hop after
 *                          the root, but every group polls one line;
 *   GS_TREE_RELEASE_LINES  the root's last arriver, with one fence as acquire and
 *                          release, writes the episode into every leaf's generation
 *                          word, and each group polls its leaf's: one more hop, but a
 *                          line has only a leaf's groups polling it. */
#ifndef GRIDSYNC_BARRIER_TREE_H
#define GRIDSYNC_BARRIER_TREE_H

#include "gridsync/barrier_flip.h"

GS_DEVICE void gs_tree_arrive(gs_grid *g, gs_token *t)
{
    gs_group_barrier();
    t->target = g->episode + 1u;
    if (g->lid == 0u) {
        gs_u32 add;
        gs_u32 old = gs_flip_arrive(gs_word_at(g, GS_LINE_LEAF_COUNT(g->groups, g->leaf), 0u),
                                    g->members, g->group == g->leaf, &add);
        if (gs_flip_completed(old, add)) {
            gs_fence_acq_rel(); /* acquire the leaf; release it with the add below */
            add = gs_flip_share(g->leaves - GS_EARLY, g->leaf == 0u);
            old = gs_fetch_add_fenced(gs_word_at(g, GS_LINE_COUNTER, 0u), add);
            if (gs_flip_completed(old, add)) {
                if (g->release == GS_TREE_RELEASE_LINES) {
                    gs_fence_acq_rel(); /* acquire the root; release the generation words */
                    for (gs_u32 l = 0u; l < g->leaves; ++l)
                        gs_store_fenced(gs_word_at(g, GS_LINE_LEAF_GEN(g->groups, l), 0u),
                                        t->target);
                } else {
                    gs_fence_acquire(); /* the root's add released it for the pollers */
                }
                t->done = 1u;
            }
        }
        gs_note_arrival(g);
    }
}

GS_DEVICE gs_u32 gs_tree_wait(gs_grid *g, const gs_token *t)
{
    gs_u32 why = GS_ABORT_NONE;
    if (g->lid == 0u && !t->done) {
        if (g->release == GS_TREE_RELEASE_LINES)
            why = gs_wait(g, gs_word_at(g, GS_LINE_LEAF_GEN(g->groups, g->leaf), 0u),
                          t->target, GS_UNTIL_REACHED);
        else /* the root's flip bit after episode e is e's parity */
            why = gs_wait(g, gs_word_at(g, GS_LINE_COUNTER, 0u),
                          t->target << 31, GS_UNTIL_FLIP);
    }
    return gs_group_verdict(g, why);
}

#endif
