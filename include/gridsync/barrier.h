/* gridsync/barrier.h - gs_sync: one episode of the barrier the state was made for, and
 * its split-phase form gs_arrive / gs_wait_token.
 *
 * Usage, in any back end's kernel:
 *     gs_grid g = gs_grid_begin(state);
 *     for (...) { work(); if (gs_sync(&g)) return; }
 * gs_sync returns 0 when every group has arrived, and non-zero (the same on every
 * work-item of a group) when the group must leave the kernel: a wait timed out, or
 * another group gave up. The host call then reports GS_ERR_TIMEOUT.
 *
 * Split phase (hides the barrier's latency behind independent work):
 *     gs_token t = gs_arrive(&g);   // my writes so far will be seen by every group ...
 *     independent_work();           // ... that has returned from its gs_wait_token
 *     if (gs_wait_token(&g, t)) return;
 * Between the two, a group must not write data another group reads after its own wait,
 * nor read data another group writes before its arrive. Every work-item calls both, in
 * pairs, with no gs_sync or gs_arrive in between.
 *
 * Every protocol is written once as an arrival and a wait (barrier_*.h); gs_sync is the
 * two back to back. A protocol's wait returns the same value on every work-item. */
#ifndef GRIDSYNC_BARRIER_H
#define GRIDSYNC_BARRIER_H

#include "gridsync/barrier_central.h"
#include "gridsync/barrier_flip.h"
#include "gridsync/barrier_lockfree.h"
#include "gridsync/barrier_naive.h"
#include "gridsync/barrier_sharded.h"
#include "gridsync/barrier_tree.h"

/* A back end with protocols of its own (CUDA: cg, cluster) defines
 *   GS_BACKEND_ARRIVE(g, algo, t)   (t: a gs_token lvalue) and
 *   GS_BACKEND_WAIT(g, algo, t, why)
 * to handle them, leaving t.why / why untouched for any other algo. */
#ifndef GS_BACKEND_ARRIVE
#define GS_BACKEND_ARRIVE(g, algo, t) ((void)0)
#endif
#ifndef GS_BACKEND_WAIT
#define GS_BACKEND_WAIT(g, algo, t, why) ((void)0)
#endif

/* A kernel compiled with GS_ONLY_ALGO=GS_ALGO_ID_x contains that protocol alone (any
 * other id in the state ends the launch with GS_ABORT_BAD_STATE): no run-time switch
 * in the hot loop, the registers of one protocol, and no barriers inside a switch,
 * which PoCL 3.1 compiles wrongly when several protocols share one kernel. */
#ifdef GS_ONLY_ALGO
#define GS_WITH(id) (GS_ONLY_ALGO == (id))
#else
#define GS_WITH(id) 1
#endif

GS_DEVICE gs_token gs_arrive(gs_grid *g)
{
    gs_token t;
    t.target = 0u;
    t.done = 0u;
    t.why = g->bad; /* the same on every work-item: no verdict needed */
    if (t.why != GS_ABORT_NONE)
        return t;
    switch (g->algo) {
#if GS_WITH(GS_ALGO_ID_CENTRAL)
    case GS_ALGO_ID_CENTRAL: gs_central_arrive(g, &t); break;
#endif
#if GS_WITH(GS_ALGO_ID_LOCKFREE)
    case GS_ALGO_ID_LOCKFREE: gs_lockfree_arrive(g, &t); break;
#endif
#if GS_WITH(GS_ALGO_ID_NAIVE)
    case GS_ALGO_ID_NAIVE: gs_naive_arrive(g, &t); break;
#endif
#if GS_WITH(GS_ALGO_ID_FLIP)
    case GS_ALGO_ID_FLIP: gs_flip_arrive_episode(g, &t); break;
#endif
#if GS_WITH(GS_ALGO_ID_TREE)
    case GS_ALGO_ID_TREE: gs_tree_arrive(g, &t); break;
#endif
#if GS_WITH(GS_ALGO_ID_SHARDED)
    case GS_ALGO_ID_SHARDED: gs_sharded_arrive(g, &t); break;
#endif
    default:
        t.why = GS_ABORT_BAD_STATE;
        GS_BACKEND_ARRIVE(g, g->algo, t);
        break;
    }
    return t;
}

GS_DEVICE gs_u32 gs_wait_token(gs_grid *g, gs_token t)
{
    gs_u32 why = t.why;
    if (why == GS_ABORT_NONE) {
        switch (g->algo) {
#if GS_WITH(GS_ALGO_ID_CENTRAL)
        case GS_ALGO_ID_CENTRAL: why = gs_central_wait(g, &t); break;
#endif
#if GS_WITH(GS_ALGO_ID_LOCKFREE)
        case GS_ALGO_ID_LOCKFREE: why = gs_lockfree_wait(g, &t); break;
#endif
#if GS_WITH(GS_ALGO_ID_NAIVE)
        case GS_ALGO_ID_NAIVE: why = gs_naive_wait(g, &t); break;
#endif
#if GS_WITH(GS_ALGO_ID_FLIP)
        case GS_ALGO_ID_FLIP: why = gs_flip_wait(g, &t); break;
#endif
#if GS_WITH(GS_ALGO_ID_TREE)
        case GS_ALGO_ID_TREE: why = gs_tree_wait(g, &t); break;
#endif
#if GS_WITH(GS_ALGO_ID_SHARDED)
        case GS_ALGO_ID_SHARDED: why = gs_sharded_wait(g, &t); break;
#endif
        default:
            why = GS_ABORT_BAD_STATE;
            GS_BACKEND_WAIT(g, g->algo, t, why);
            break;
        }
    } else if (g->lid == 0u) {
        gs_raise_abort(g, why); /* a state this kernel cannot use: the host says which */
    }
    ++g->episode;
    return why;
}

GS_DEVICE gs_u32 gs_sync(gs_grid *g)
{
    return gs_wait_token(g, gs_arrive(g));
}

#endif
