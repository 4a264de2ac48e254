/* gridsync/barrier_naive.h - "naive": the Chinese blog's globalSync1, the slow
 * baseline. Every work-item of every group adds 1 to one counter, so the counter
 * takes groups*work-items atomics per episode. Only work-item 0 polls: on PoCL the
 * work-items of a group run one after another between barriers, so a poll by any
 * other work-item would wait for a work-item that has not run yet. */
#ifndef GRIDSYNC_BARRIER_NAIVE_H
#define GRIDSYNC_BARRIER_NAIVE_H

#include "gridsync/grid.h"

GS_DEVICE void gs_naive_setup(gs_grid_fields *f) { (void)f; }

GS_DEVICE void gs_naive_arrive(gs_grid *g, gs_token *t)
{
    /* Each work-item releases its own writes: no group barrier before. */
    gs_add_release(gs_word_at(g, GS_LINE_COUNTER, 0u), 1u);
    /* Weakened, it releases a group's worth of adds early: one work-item's add early
     * cannot show where a group's work-items run in lockstep (PoCL's vectorized
     * work-item loops), since each one's data write precedes every add of the group. */
    if (gs_g_first(g)) { /* only it reads the episode: no group barrier orders it here */
        t->target =
            (gs_f(g)->episode + 1u) * gs_g_groups(g) * gs_g_lsize(g) - GS_EARLY * gs_g_lsize(g);
        gs_note_arrival(g);
    }
}

GS_DEVICE gs_u32 gs_naive_wait(gs_grid *g, const gs_token *t)
{
    gs_u32 why = GS_ABORT_NONE;
    gs_group_barrier(); /* every work-item of the group has added before the poll */
    if (gs_g_first(g))
        why = gs_wait(g, gs_word_at(g, GS_LINE_COUNTER, 0u), t->target, GS_UNTIL_REACHED);
    return gs_group_verdict(g, why);
}

#define GS_REP_ONLY_naive 0 /* other work-items touch the state */
GS_EPISODE_FROM_HALVES(naive)

#endif
