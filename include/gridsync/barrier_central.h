/* gridsync/barrier_central.h - "central": the thesis's Centralized Barrier.
 *
 * One representative per group adds 1 to one counter, then every representative
 * polls the counter. The thesis resets the counter between episodes (a race: a fast
 * group can arrive at the next episode before the reset); here the counter only
 * grows, and episode e completes when it reaches (e+1)*groups. The add needs no
 * result, so it is fire-and-forget (CUDA: red.release): the group's one fence per
 * episode is folded into it. */
#ifndef GRIDSYNC_BARRIER_CENTRAL_H
#define GRIDSYNC_BARRIER_CENTRAL_H

#include "gridsync/grid.h"

GS_DEVICE void gs_central_setup(gs_grid_fields *f) { (void)f; }

/* Only the representative touches the state: it tests the launch (grid.h). */
#define GS_REP_ONLY_central 1
GS_DEVICE void gs_central_arrive(gs_grid *g, gs_token *t)
{
    gs_group_barrier(); /* the group's writes happen before its arrival */
    if (gs_g_first(g) && gs_rep_launch_bad(t, g) == GS_ABORT_NONE) {
        t->target = (gs_f(g)->episode + 1u) * gs_g_groups(g) - GS_EARLY;
        gs_add_release(gs_word_at(g, GS_LINE_COUNTER, 0u), 1u);
        gs_note_arrival(g);
    }
}

GS_DEVICE gs_u32 gs_central_wait(gs_grid *g, const gs_token *t)
{
    gs_u32 why = GS_ABORT_NONE;
    if (gs_g_first(g))
        why = t->why != GS_ABORT_NONE
                  ? t->why
                  : gs_wait(g, gs_word_at(g, GS_LINE_COUNTER, 0u), t->target, GS_UNTIL_REACHED);
    return gs_group_verdict(g, why);
}

GS_EPISODE_FROM_HALVES(central)

#endif
