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
 * to handle them, leaving t.why / why untouched for any other algo, and may define
 *   GS_BACKEND_SYNC(g, algo)        1 after a whole episode of such a protocol, else 0
 * where one call is cheaper than the two halves (cg: grid.sync()). */
#ifndef GS_BACKEND_ARRIVE
#define GS_BACKEND_ARRIVE(g, algo, t) ((void)0)
#endif
#ifndef GS_BACKEND_WAIT
#define GS_BACKEND_WAIT(g, algo, t, why) ((void)0)
#endif
#ifndef GS_BACKEND_SYNC /* a whole episode in one call, where the back end has one: 1 if done */
#define GS_BACKEND_SYNC(g, algo) 0
#endif
/* What a back end's compiler needs at the end of gs_arrive (OpenCL: a group barrier). */
#ifndef GS_ARRIVE_END
#define GS_ARRIVE_END() ((void)0)
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

/* Every shared protocol once: its id, arrival and wait. A protocol left out by
 * GS_ONLY_ALGO leaves no code (and no barrier) in any dispatch below. */
#if GS_WITH(GS_ALGO_ID_CENTRAL)
#define GS_P_CENTRAL(X) X(GS_ALGO_ID_CENTRAL, gs_central_arrive, gs_central_wait)
#else
#define GS_P_CENTRAL(X)
#endif
#if GS_WITH(GS_ALGO_ID_LOCKFREE)
#define GS_P_LOCKFREE(X) X(GS_ALGO_ID_LOCKFREE, gs_lockfree_arrive, gs_lockfree_wait)
#else
#define GS_P_LOCKFREE(X)
#endif
#if GS_WITH(GS_ALGO_ID_NAIVE)
#define GS_P_NAIVE(X) X(GS_ALGO_ID_NAIVE, gs_naive_arrive, gs_naive_wait)
#else
#define GS_P_NAIVE(X)
#endif
#if GS_WITH(GS_ALGO_ID_FLIP)
#define GS_P_FLIP(X) X(GS_ALGO_ID_FLIP, gs_flip_arrive_episode, gs_flip_wait)
#else
#define GS_P_FLIP(X)
#endif
#if GS_WITH(GS_ALGO_ID_TREE)
#define GS_P_TREE(X) X(GS_ALGO_ID_TREE, gs_tree_arrive, gs_tree_wait)
#else
#define GS_P_TREE(X)
#endif
#if GS_WITH(GS_ALGO_ID_SHARDED)
#define GS_P_SHARDED(X) X(GS_ALGO_ID_SHARDED, gs_sharded_arrive, gs_sharded_wait)
#else
#define GS_P_SHARDED(X)
#endif
#define GS_PROTOCOLS(X)                                                                       \
    GS_P_CENTRAL(X) GS_P_LOCKFREE(X) GS_P_NAIVE(X) GS_P_FLIP(X) GS_P_TREE(X) GS_P_SHARDED(X)

#define GS_ARRIVE_CASE(id, arrive, wait)                                                      \
    case id: arrive(g, &t); break;
#define GS_WAIT_CASE(id, arrive, wait)                                                        \
    case id: why = wait(g, &t); break;
/* gs_sync keeps each protocol's arrival and wait together in one case: PoCL 3.1
 * miscompiles the composed form (two switches with a protocol's barriers on either side
 * of its work-item-0 block), running the representative's arrival on every work-item. */
#define GS_SYNC_CASE(id, arrive, wait)                                                        \
    case id: arrive(g, &t); why = wait(g, &t); break;

/* What every dispatch starts from: the token of an arrival that has not happened. */
GS_DEVICE gs_token gs_token_initial(const gs_grid *g)
{
    gs_token t;
    t.target = 0u;
    t.done = 0u;
    t.before = 0u;
    t.why = gs_launch_bad(g); /* the same on every work-item: no verdict needed */
    return t;
}

/* After a dispatch: a state this kernel cannot use is reported to the host. */
GS_DEVICE gs_u32 gs_episode_end(gs_grid *g, gs_u32 arrival_why, gs_u32 why)
{
    if (arrival_why != GS_ABORT_NONE && g->lid == 0u)
        gs_raise_abort(g, arrival_why);
    ++g->episode;
    return why;
}

/* Split phase. */
GS_DEVICE gs_token gs_arrive(gs_grid *g)
{
    gs_token t = gs_token_initial(g);
    if (t.why != GS_ABORT_NONE)
        return t;
    switch (g->algo) {
    GS_PROTOCOLS(GS_ARRIVE_CASE)
    default:
        t.why = GS_ABORT_BAD_STATE;
        GS_BACKEND_ARRIVE(g, g->algo, t);
        break;
    }
    GS_ARRIVE_END();
    return t;
}

GS_DEVICE gs_u32 gs_wait_token(gs_grid *g, gs_token t)
{
    gs_u32 why = t.why;
    if (why == GS_ABORT_NONE) {
        switch (g->algo) {
        GS_PROTOCOLS(GS_WAIT_CASE)
        default:
            why = GS_ABORT_BAD_STATE;
            GS_BACKEND_WAIT(g, g->algo, t, why);
            break;
        }
    }
    return gs_episode_end(g, t.why, why);
}

GS_DEVICE gs_u32 gs_sync(gs_grid *g)
{
    gs_token t = gs_token_initial(g);
    gs_u32 why = t.why;
    if (why == GS_ABORT_NONE) {
        switch (g->algo) {
        GS_PROTOCOLS(GS_SYNC_CASE)
        default:
            if (GS_BACKEND_SYNC(g, g->algo)) {
                t.why = why = GS_ABORT_NONE;
                break;
            }
            t.why = GS_ABORT_BAD_STATE;
            GS_BACKEND_ARRIVE(g, g->algo, t);
            why = t.why;
            if (why == GS_ABORT_NONE) {
                why = GS_ABORT_BAD_STATE;
                GS_BACKEND_WAIT(g, g->algo, t, why);
            }
            break;
        }
    }
    return gs_episode_end(g, t.why, why);
}

#undef GS_ARRIVE_CASE
#undef GS_WAIT_CASE
#undef GS_SYNC_CASE

#endif
