/* gridsync/barrier_sharded.h - "sharded": the central barrier with its counter cut into
 * K counters on K lines (so K L2 slices on a GPU).
 *
 * Group g adds 1 (a fire-and-forget release add) to counter g mod K; the waiters poll
 * all K counters, work-item k of a group polling counter k, so one warp-wide load
 * instruction polls them all. Same-address atomics serialize at the L2 slice that owns
 * the line (on an H200, 132 adds to one word take several hundred ns); here each counter
 * sees groups/K of them. Every counter only grows, so nothing is reset, and each
 * counter's adds form a release sequence that the acquire polls of that counter read:
 * a waiter that has seen every counter complete has synchronized with every arrival.
 * With fewer polling work-items than counters (PoCL: only work-item 0 may spin), each
 * takes every spinners-th counter. (Weakened, GS_WEAKEN_COUNT, the counter of the
 * last group ends one add short.) */
#ifndef GRIDSYNC_BARRIER_SHARDED_H
#define GRIDSYNC_BARRIER_SHARDED_H

#include "gridsync/grid.h"

/* Counter k's line: the counters use the lines the tree uses for its leaves
 * (their count K in gs_f(g)->aux). */
GS_DEVICE GS_GLOBAL gs_word *gs_shard(const gs_grid *g, gs_u32 k)
{
    return gs_word_at(g, GS_LINE_LEAF_COUNT(gs_g_groups(g), k), 0u);
}

/* The counters and this group's, and the polling work-items (in share). */
GS_DEVICE void gs_sharded_setup(gs_grid_fields *f)
{
    f->aux = gs_aux_make(gs_load_header(&f->state[GS_HDR_LEAVES]), 0);
    f->share = gs_spinners(f->state);
}

GS_DEVICE void gs_sharded_arrive(gs_grid *g, gs_token *t)
{
    gs_group_barrier(); /* the group's writes happen before its arrival */
    t->target = gs_f(g)->episode + 1u;
    if (gs_g_first_fresh(g)) {
        gs_add_release(gs_shard(g, gs_aux_own(g)), 1u);
        gs_note_arrival(g);
    }
}

GS_DEVICE gs_u32 gs_sharded_wait(gs_grid *g, const gs_token *t)
{
    gs_u32 why = GS_ABORT_NONE;
    gs_u32 k = gs_g_lid(g);
    if (k < gs_f(g)->share && k < gs_aux_count(g)) {
        /* counter k has groups / count groups, one more for the first groups % count */
        gs_u32 count = gs_aux_count(g), groups = gs_g_groups(g);
        gs_u32 each = groups / count, more = groups - each * count;
        for (; k < count && why == GS_ABORT_NONE; k += gs_f(g)->share)
            why = gs_wait(g, gs_shard(g, k),
                          t->target * (each + (k < more ? 1u : 0u)) -
                              (GS_EARLY && k == (groups - 1u) % count ? 1u : 0u),
                          GS_UNTIL_REACHED);
    }
    return gs_group_verdict(g, why);
}

#define GS_REP_ONLY_sharded 0 /* other work-items touch the state */
GS_EPISODE_FROM_HALVES(sharded)

#endif
