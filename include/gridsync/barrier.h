/* gridsync/barrier.h - gs_sync: one episode of the barrier the state was made for.
 *
 * Usage, in any back end's kernel:
 *     gs_grid g = gs_grid_begin(state);
 *     for (...) { work(); if (gs_sync(&g)) return; }
 * gs_sync returns 0 when every group has arrived, and non-zero (the same on every
 * work-item of a group) when the group must leave the kernel: a wait timed out, or
 * another group gave up. The host call then reports GS_ERR_TIMEOUT. */
#ifndef GRIDSYNC_BARRIER_H
#define GRIDSYNC_BARRIER_H

#include "gridsync/barrier_central.h"
#include "gridsync/barrier_flip.h"
#include "gridsync/barrier_lockfree.h"
#include "gridsync/barrier_naive.h"
#include "gridsync/barrier_tree.h"

/* A back end with protocols of its own (CUDA: cg, cluster) defines
 * GS_BACKEND_SYNC(g, algo, why) to handle them and leave why untouched otherwise. */
#ifndef GS_BACKEND_SYNC
#define GS_BACKEND_SYNC(g, algo, why) ((void)0)
#endif

GS_DEVICE gs_u32 gs_sync(gs_grid *g)
{
    gs_u32 why = GS_ABORT_BAD_STATE;
    if (g->bad != GS_ABORT_NONE) {
        if (g->lid == 0u)
            gs_raise_abort(g, g->bad);
        return g->bad;
    }
    switch (g->algo) {
    case GS_ALGO_ID_CENTRAL: why = gs_central_sync(g); break;
    case GS_ALGO_ID_LOCKFREE: why = gs_lockfree_sync(g); break;
    case GS_ALGO_ID_NAIVE: why = gs_naive_sync(g); break;
    case GS_ALGO_ID_FLIP: why = gs_flip_sync(g); break;
    case GS_ALGO_ID_TREE: why = gs_tree_sync(g); break;
    default: GS_BACKEND_SYNC(g, g->algo, why); break;
    }
    if (why == GS_ABORT_BAD_STATE && g->lid == 0u)
        gs_raise_abort(g, why);
    ++g->episode;
    return why;
}

#endif
