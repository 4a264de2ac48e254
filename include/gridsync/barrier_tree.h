/* gridsync/barrier_tree.h - "tree": a two-level counter barrier.
 *
 * Groups are dealt round-robin into `leaves` leaves of about `fanout` groups (group g
 * is in leaf g % leaves: measured a little faster on an H200 than cutting the index
 * range into blocks, bench/micro/variants.cu). Each group arrives at its leaf's flip
 * counter; the last arriver of a leaf acquires its leaf (one fence) and arrives at the
 * root flip counter; the last arriver at the root acquires the root and, with that same
 * fence serving as the release, writes the episode into every leaf's generation word.
 * So no counter sees more than max(fanout, leaves) atomics per episode, and the
 * pollers spread over one line per leaf instead of one line for the whole grid. */
#ifndef GRIDSYNC_BARRIER_TREE_H
#define GRIDSYNC_BARRIER_TREE_H

#include "gridsync/barrier_flip.h"

GS_DEVICE void gs_tree_arrive(gs_grid *g, gs_token *t)
{
    gs_group_barrier();
    t->target = g->episode + 1u;
    if (g->lid == 0u) {
        gs_u32 leaf = g->group % g->leaves;
        gs_u32 members = g->groups / g->leaves + (leaf < g->groups % g->leaves ? 1u : 0u);
        gs_u32 add;
        gs_u32 old = gs_flip_arrive(gs_word_at(g, GS_LINE_LEAF_COUNT(g->groups, leaf), 0u), members,
                                    g->group == leaf, &add);
        if (gs_flip_completed(old, add)) {
            gs_fence_acq_rel(); /* the leaf's writes travel on with this group's */
            old = gs_flip_arrive(gs_word_at(g, GS_LINE_COUNTER, 0u), g->leaves - GS_EARLY,
                                 leaf == 0u, &add);
            if (gs_flip_completed(old, add)) {
                gs_fence_acq_rel(); /* acquire the root; release the generation words */
                for (gs_u32 l = 0u; l < g->leaves; ++l)
                    gs_store_fenced(gs_word_at(g, GS_LINE_LEAF_GEN(g->groups, l), 0u), t->target);
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
        why = gs_wait(g, gs_word_at(g, GS_LINE_LEAF_GEN(g->groups, g->group % g->leaves), 0u),
                      t->target, GS_UNTIL_REACHED);
    return gs_group_verdict(g, why);
}

#endif
