/* gridsync/barrier_tree.h - "tree": a two-level counter barrier.
 *
 * Groups are dealt round-robin into `leaves` leaves (group g is in leaf g % leaves:
 * measured a little faster on an H200 than cutting the index range into blocks,
 * bench/micro/variants.cu). Each group arrives at its leaf's flip counter; the last
 * arriver of a leaf acquires its leaf with one fence, which also makes the adds that
 * follow it releases. Then (GS_AUX_LINES, chosen by the host for the group count):
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

/* The leaves and the release form from the header; the group's add at its leaf (its
 * leaf's first group adds the flip share of the leaf's members). */
GS_DEVICE void gs_tree_setup(gs_grid_fields *f)
{
    gs_u32 leaves = gs_load_header(&f->state[GS_HDR_LEAVES]);
    f->aux = gs_aux_make(leaves, gs_load_header(&f->state[GS_HDR_RELEASE]) == GS_RELEASE_LINES);
    gs_u32 leaf = f->aux & GS_AUX_OWN_MASK;
    f->share = gs_flip_share(gs_leaf_members(gs_num_groups(), leaves, leaf) - GS_EARLY,
                             gs_group_id() == leaf);
}

/* The representative's halves (after the arrival's group barrier, before the verdict),
 * with the launch's test (GS_REP_ONLY_tree); auto calls them too. WANT_DONE (a
 * constant: gs_tree_last_first): with release lines the last leaf's add to line 0 reads
 * its result, so that t->done tells the group that completed the episode, as the root's
 * add does without lines (a barrier's arrival keeps the cheaper add: every group polls). */
GS_DEVICE void gs_tree_arrive_first_(gs_grid *g, gs_token *t, int want_done)
{
    if (gs_rep_launch_bad(t, g) != GS_ABORT_NONE)
        return;
    t->target = gs_flip_bit_after(g); /* the root's (or lines') flip bit after it */
    gs_u32 leaf = gs_aux_own(g), leaves = gs_aux_count(g);
    gs_u32 old = gs_fetch_add_release(gs_word_at(g, GS_LINE_LEAF_COUNT(gs_g_groups(g), leaf), 0u),
                                      gs_f(g)->share);
    if (gs_flip_completed(old, gs_f(g)->share)) {
        gs_fence_acq_rel(); /* acquire the leaf; release it with the add(s) below */
        gs_u32 add = gs_flip_share(leaves, leaf == 0u);
        if (gs_aux_lines(g)) {
            /* every line counts the leaves: its last add ends the episode there */
            for (gs_u32 l = want_done ? 1u : 0u; l < leaves; ++l)
                gs_add_fenced(gs_release_line(g, l), add);
            if (want_done &&
                gs_flip_completed(gs_fetch_add_fenced(gs_release_line(g, 0u), add), add)) {
                gs_fence_acquire(); /* the other leaves' */
                t->done = 1u;
            }
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
GS_DEVICE void gs_tree_arrive_first(gs_grid *g, gs_token *t) { gs_tree_arrive_first_(g, t, 0); }
/* The representative's part of gs_arrive_last_tree (gridsync/barrier.h). */
GS_DEVICE int gs_tree_last_first(gs_grid *g, gs_token *t)
{
    gs_tree_arrive_first_(g, t, 1);
    return t->why == GS_ABORT_NONE && t->done;
}
GS_DEVICE gs_u32 gs_tree_wait_first(gs_grid *g, const gs_token *t)
{
    if (t->why != GS_ABORT_NONE || t->done)
        return t->why;
    return gs_flip_await(g, gs_word_at(g, GS_LINE_COUNTER, 0u), t->target, gs_aux_lines(g));
}

#define GS_REP_ONLY_tree 1
GS_DEVICE void gs_tree_arrive(gs_grid *g, gs_token *t)
{
    gs_group_barrier();
    if (gs_g_first(g))
        gs_tree_arrive_first(g, t);
}

GS_DEVICE gs_u32 gs_tree_wait(gs_grid *g, const gs_token *t)
{
    return gs_group_verdict(g, gs_g_first(g) ? gs_tree_wait_first(g, t) : GS_ABORT_NONE);
}

GS_EPISODE_FROM_HALVES(tree)

#endif
