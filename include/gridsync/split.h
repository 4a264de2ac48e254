/* gridsync/split.h - the split-phase barrier: arrive now, wait later.
 *
 *     gs_token t = gs_arrive(&g);   // my writes so far will be seen by every group ...
 *     independent_work();           // ... that has returned from its gs_wait_token
 *     if (gs_wait_token(&g, t)) return;
 *
 * gs_arrive publishes the caller's arrival at the current episode and never waits
 * for other groups; gs_wait_token completes the episode: it returns 0 once every group
 * has arrived (then every write made before any group's gs_arrive is visible), and
 * non-zero, the same on every work-item of the group, when the group must leave (as
 * gs_sync). The time between the two hides the barrier's latency.
 *
 * Rules: every work-item of every group calls both, in pairs, never gs_sync or another
 * gs_arrive in between; work between them must not write data that another group
 * reads after its own wait, nor read data another group writes before its arrive.
 *
 * Written once against the shim primitives, for every back end and every protocol
 * that keeps state in the barrier words:
 *   flip      arrive = group barrier + the representative's acq_rel add (the last
 *             arriver learns from the returned value that the episode is complete);
 *             wait = poll the flip bit unless last, then the group verdict.
 *   central   arrive = group barrier + release add; wait = poll the counter.
 *   naive     arrive = every work-item's release add; wait = poll the counter.
 *   tree      arrive = leaf add, root add if last at the leaf, release of the leaves if
 *             last at the root; wait = poll the leaf's generation word.
 *   lockfree  arrive = the arrival flag; wait = the master polls the flags and writes
 *             the release flags, the others poll their release flag. The master's
 *             release therefore waits for the master's gs_wait_token.
 * A back end adds its own protocols with GS_BACKEND_ARRIVE / GS_BACKEND_WAIT (CUDA:
 * cluster and cg, see gridsync/cuda.cuh). relaunch has no device-side barrier.
 *
 * Include after a shim (or through gridsync/cuda.cuh, cpu.h, ...). */
#ifndef GRIDSYNC_SPLIT_H
#define GRIDSYNC_SPLIT_H

#include "gridsync/barrier.h"

/* What gs_arrive tells gs_wait_token. Meaningful on the group's representative
 * (work-item 0); the other work-items carry it along. */
typedef struct gs_token {
    gs_u32 target; /* what the wait polls for (protocol-specific) */
    gs_u32 done;   /* non-zero: the representative already knows the episode completed */
    gs_u32 why;    /* non-zero: the arrival failed; the wait returns this */
} gs_token;

/* GS_BACKEND_ARRIVE(g, algo, target, done, why) and GS_BACKEND_WAIT(g, algo, target,
 * done, why) handle a back end's own protocols (all arguments but g and algo are
 * gs_u32 lvalues) and leave why untouched otherwise. */
#ifndef GS_BACKEND_ARRIVE
#define GS_BACKEND_ARRIVE(g, algo, target, done, why) ((void)0)
#endif
#ifndef GS_BACKEND_WAIT
#define GS_BACKEND_WAIT(g, algo, target, done, why) ((void)0)
#endif

GS_DEVICE gs_token gs_arrive(gs_grid *g)
{
    gs_token t;
    t.target = 0u;
    t.done = 0u;
    t.why = GS_ABORT_NONE;
    if (g->bad != GS_ABORT_NONE) {
        if (g->lid == 0u)
            gs_raise_abort(g, g->bad);
        t.why = g->bad;
        return t;
    }
    switch (g->algo) {
    case GS_ALGO_ID_CENTRAL:
        gs_group_barrier(); /* the group's writes happen before its arrival */
        if (g->lid == 0u) {
            gs_note_arrival(g);
            gs_fetch_add_release(gs_word_at(g, GS_LINE_COUNTER, 0u), 1u);
        }
        t.target = (g->episode + 1u) * g->groups - GS_EARLY;
        break;
    case GS_ALGO_ID_NAIVE:
        gs_fetch_add_release(gs_word_at(g, GS_LINE_COUNTER, 0u), 1u);
        if (g->lid == 0u)
            gs_note_arrival(g);
        t.target = (g->episode + 1u) * g->groups * g->lsize - GS_EARLY;
        break;
    case GS_ALGO_ID_FLIP:
        gs_group_barrier();
        if (g->lid == 0u) {
            gs_u32 add;
            gs_note_arrival(g);
            gs_u32 old = gs_flip_arrive(gs_word_at(g, GS_LINE_COUNTER, 0u), g->groups - GS_EARLY,
                                        g->group == 0u, &add);
            t.done = gs_flip_completed(old, add) ? 1u : 0u;
            t.target = (old & GS_FLIP_BIT) ^ GS_FLIP_BIT;
        }
        break;
    case GS_ALGO_ID_TREE:
        gs_group_barrier();
        t.target = g->episode + 1u;
        if (g->lid == 0u) {
            gs_u32 leaf = g->group / g->fanout;
            gs_u32 first = leaf * g->fanout;
            gs_u32 members = g->groups - first < g->fanout ? g->groups - first : g->fanout;
            gs_u32 add;
            gs_note_arrival(g);
            gs_u32 old = gs_flip_arrive(gs_word_at(g, GS_LINE_LEAF_COUNT(g->groups, leaf), 0u),
                                        members, g->group == first, &add);
            if (gs_flip_completed(old, add)) {
                old = gs_flip_arrive(gs_word_at(g, GS_LINE_COUNTER, 0u), g->leaves - GS_EARLY,
                                     leaf == 0u, &add);
                if (gs_flip_completed(old, add)) {
                    for (gs_u32 l = 0u; l < g->leaves; ++l)
                        gs_store_release(gs_word_at(g, GS_LINE_LEAF_GEN(g->groups, l), 0u), t.target);
                    t.done = 1u;
                }
            }
        }
        break;
    case GS_ALGO_ID_LOCKFREE:
        gs_group_barrier();
        t.target = g->episode + 1u;
        if (g->lid == 0u)
            gs_store_release(gs_word_at(g, GS_LINE_GROUP_A(g->group), GS_G_ARRIVED), t.target);
        break;
    default:
        t.why = GS_ABORT_BAD_STATE;
        GS_BACKEND_ARRIVE(g, g->algo, t.target, t.done, t.why);
        break;
    }
    return t;
}

GS_DEVICE gs_u32 gs_wait_token(gs_grid *g, gs_token t)
{
    gs_u32 why = GS_ABORT_NONE;
    if (t.why != GS_ABORT_NONE) {
        if (t.why == GS_ABORT_BAD_STATE && g->lid == 0u)
            gs_raise_abort(g, t.why);
        ++g->episode;
        return t.why;
    }
    switch (g->algo) {
    case GS_ALGO_ID_CENTRAL:
    case GS_ALGO_ID_NAIVE:
        if (g->lid == 0u)
            why = gs_wait(g, gs_word_at(g, GS_LINE_COUNTER, 0u), t.target, GS_UNTIL_REACHED);
        why = gs_group_verdict(g, why);
        break;
    case GS_ALGO_ID_FLIP:
        if (g->lid == 0u && !t.done)
            why = gs_wait(g, gs_word_at(g, GS_LINE_COUNTER, 0u), t.target, GS_UNTIL_FLIP);
        why = gs_group_verdict(g, why);
        break;
    case GS_ALGO_ID_TREE:
        if (g->lid == 0u && !t.done)
            why = gs_wait(g, gs_word_at(g, GS_LINE_LEAF_GEN(g->groups, g->group / g->fanout), 0u),
                          t.target, GS_UNTIL_REACHED);
        why = gs_group_verdict(g, why);
        break;
    case GS_ALGO_ID_LOCKFREE:
        if (g->group == 0u) {
            if (g->lid < g->spinners)
                for (gs_u32 j = 1u + g->lid; j < g->groups - GS_EARLY && why == GS_ABORT_NONE;
                     j += g->spinners)
                    why = gs_wait(g, gs_word_at(g, GS_LINE_GROUP_A(j), GS_G_ARRIVED), t.target,
                                  GS_UNTIL_REACHED);
            why = gs_group_verdict(g, why);
            if (why == GS_ABORT_NONE)
                for (gs_u32 j = 1u + g->lid; j < g->groups; j += g->lsize)
                    gs_store_release(gs_word_at(g, GS_LINE_GROUP_B(j), GS_G_RELEASE), t.target);
        } else if (g->lid == 0u) {
            why = gs_wait(g, gs_word_at(g, GS_LINE_GROUP_B(g->group), GS_G_RELEASE), t.target,
                          GS_UNTIL_REACHED);
        }
        why = gs_group_verdict(g, why);
        break;
    default:
        why = GS_ABORT_BAD_STATE;
        GS_BACKEND_WAIT(g, g->algo, t.target, t.done, why);
        if (why == GS_ABORT_BAD_STATE && g->lid == 0u)
            gs_raise_abort(g, why);
        break;
    }
    ++g->episode;
    return why;
}

#endif
