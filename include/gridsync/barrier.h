/* gridsync/barrier.h - the device API: one episode of a barrier, and its split-phase
 * form, for each protocol by name, or for whichever protocol the state was made for.
 *
 * A kernel names its protocol (the lean form: no run-time dispatch, only that
 * protocol's code and registers; several kernels of one file may name different ones):
 *     gs_grid g = gs_grid_begin_flip(state);
 *     for (...) { work(); if (gs_sync_flip(&g)) return; }
 * or lets the state decide at run time (every protocol compiled in, a switch per
 * barrier; opt-in):
 *     gs_grid g = gs_grid_begin(state);
 *     for (...) { work(); if (gs_sync(&g)) return; }
 * `auto` (gs_grid_begin_auto, gs_sync_auto, ...) runs flip or tree, whichever the host
 * chose for the grid (GS_ALGO_AUTO): a two-way choice. The protocols, and so the names
 * gs_grid_begin_<p>, gs_sync_<p>, gs_arrive_<p>, gs_wait_token_<p>, are those of
 * gridsync/protocols.h that run on the back end (CUDA adds cluster and cg).
 *
 * gs_sync returns 0 when every group has arrived, and non-zero (the same on every
 * work-item of a group) when the group must leave the kernel: a wait timed out, another
 * group gave up, or the launch cannot use the state (another protocol, grid or group
 * size than the state was made for). The host call then reports the status.
 *
 * Split phase (hides the barrier's latency behind independent work):
 *     gs_token t = gs_arrive_flip(&g);   // my writes so far will be seen by every group ...
 *     independent_work();                // ... that has returned from its gs_wait_token
 *     if (gs_wait_token_flip(&g, t)) return;
 * Between the two, a group must not write data another group reads after its own wait,
 * nor read data another group writes before its arrive. Every work-item calls both, in
 * pairs, with no gs_sync or gs_arrive in between; a second gs_arrive before the wait is
 * undefined (for central and naive it releases the next episode early).
 *
 * The launch's last barrier may have waiters and leavers: a group that reads nothing
 * other groups wrote after it may call gs_arrive and return without gs_wait_token (a
 * reduction's groups, where one group finishes the sum: apps/pi). An arrival is a
 * group's whole part of an episode in central, naive, flip, tree, sharded and auto, so
 * any groups may leave; in lockfree group 0 releases the others in its wait, so group 0
 * must be a waiter; cluster and cg need every group's wait. The state stays right for
 * the next launch (each group's arrival records its count of episodes).
 *
 * Every protocol is written once as a setup, an arrival and a wait (barrier_*.h); the
 * functions here are generated from the list. */
#ifndef GRIDSYNC_BARRIER_H
#define GRIDSYNC_BARRIER_H

#include "gridsync/barrier_central.h"
#include "gridsync/barrier_flip.h"
#include "gridsync/barrier_lockfree.h"
#include "gridsync/barrier_naive.h"
#include "gridsync/barrier_sharded.h"
#include "gridsync/barrier_tree.h"

/* The protocols this back end's kernels have: the shared ones, and a back end's own
 * (cuda.cuh defines it before including this file, with cluster and cg). */
#ifndef GS_DEVICE_PROTOCOLS
#define GS_DEVICE_PROTOCOLS(X) GS_PROTOCOLS_SHARED(X)
#endif
/* What a back end's compiler needs at the end of gs_arrive (OpenCL: a group barrier). */
#ifndef GS_ARRIVE_END
#define GS_ARRIVE_END() ((void)0)
#endif

/* What every episode starts from: the token of an arrival that has not happened, which
 * already failed where the launch cannot use the state (the same on every work-item),
 * unless the protocol's representative tests that itself (rep_only, grid.h). */
GS_DEVICE gs_token gs_token_start(const gs_grid *g, int rep_only)
{
    gs_token t;
    t.target = 0u;
    t.done = 0u;
    t.before = 0u;
    t.why = rep_only ? GS_ABORT_NONE : gs_launch_bad(g);
    return t;
}
GS_DEVICE gs_token gs_token_initial(const gs_grid *g) { return gs_token_start(g, 0); }

/* After an episode. (A launch that does not match its state raised the abort when it
 * began, gs_grid_open: nothing of it in the user's loop.) In shared memory the
 * representative counts for the group; the others read the count only after the next
 * episode's group barrier (each protocol's arrival). A rep_only protocol's kernel keeps
 * the representative's test (gs_g_first); the others' read it fresh (gs_g_first_fresh:
 * the CUDA shim's note says why). */
GS_DEVICE gs_u32 gs_episode_end(gs_grid *g, int rep_only, gs_u32 why)
{
    if (!GS_GRID_IN_SHARED || (rep_only ? gs_g_first(g) : gs_g_first_fresh(g)))
        ++gs_f(g)->episode;
    return why;
}

/* ---- one protocol by name --------------------------------------------------------- */

#define GS_DEFINE_PROTOCOL_API_(ID, name, value, text, desc)                         \
    GS_DEVICE gs_grid gs_grid_begin_##name(GS_GLOBAL gs_word *state)                 \
    {                                                                                \
        GS_GRID_BEGIN(f = gs_grid_open(state, GS_ALGO_ID_##ID, GS_ALGO_ID_##ID);     \
                      if (gs_bad_of(f.aux) == GS_ABORT_NONE) gs_##name##_setup(&f);) \
    }                                                                                \
    GS_DEVICE gs_token gs_arrive_##name(gs_grid *g)                                  \
    {                                                                                \
        gs_token t = gs_token_start(g, GS_REP_ONLY_##name);                          \
        if (t.why == GS_ABORT_NONE)                                                  \
            gs_##name##_arrive(g, &t);                                               \
        GS_ARRIVE_END();                                                             \
        return t;                                                                    \
    }                                                                                \
    GS_DEVICE gs_u32 gs_wait_token_##name(gs_grid *g, gs_token t)                    \
    {                                                                                \
        gs_u32 why = t.why;                                                          \
        if (why == GS_ABORT_NONE || GS_REP_ONLY_##name)                              \
            why = gs_##name##_wait(g, &t);                                           \
        return gs_episode_end(g, GS_REP_ONLY_##name, why);                           \
    }                                                                                \
    GS_DEVICE gs_u32 gs_sync_##name(gs_grid *g)                                      \
    {                                                                                \
        gs_token t = gs_token_start(g, GS_REP_ONLY_##name);                          \
        gs_u32 why = t.why;                                                          \
        if (why == GS_ABORT_NONE)                                                    \
            why = gs_##name##_episode(g, &t);                                        \
        return gs_episode_end(g, GS_REP_ONLY_##name, why);                           \
    }

GS_DEVICE_PROTOCOLS(GS_DEFINE_PROTOCOL_API_)

/* ---- auto: flip or tree, as the host chose --------------------------------------- */

/* The host's choice, kept in aux (GS_AUX_TREE): no register of its own. */
GS_DEVICE int gs_auto_tree(const gs_grid *g) { return (gs_f(g)->aux & GS_AUX_TREE) != 0u; }

/* The representative's fields for auto (GS_GRID_BEGIN makes them where they are needed). */
GS_DEVICE gs_grid_fields gs_auto_open(GS_GLOBAL gs_word *state)
{
    gs_grid_fields f = gs_grid_open(state, GS_ALGO_ID_FLIP, GS_ALGO_ID_TREE);
    if (gs_bad_of(f.aux) == GS_ABORT_NONE) {
        if (gs_load_header(&state[GS_HDR_ALGO]) == GS_ALGO_ID_TREE) {
            gs_tree_setup(&f);
            f.aux |= GS_AUX_TREE;
        } else {
            gs_flip_setup(&f);
        }
    }
    return f;
}

GS_DEVICE gs_grid gs_grid_begin_auto(GS_GLOBAL gs_word *state)
{
    GS_GRID_BEGIN(f = gs_auto_open(state);)
}
/* Flip and tree test the launch in the representative (GS_REP_ONLY_flip, _tree),
 * and only it reads the choice: the other work-items read nothing at a barrier. */
GS_DEVICE void gs_auto_arrive(gs_grid *g, gs_token *t)
{
    gs_group_barrier();
    if (gs_g_first(g)) {
        if (gs_auto_tree(g))
            gs_tree_arrive_first(g, t);
        else
            gs_flip_arrive_first(g, t);
    }
}
GS_DEVICE gs_u32 gs_auto_wait(gs_grid *g, const gs_token *t)
{
    gs_u32 why = GS_ABORT_NONE;
    if (gs_g_first(g))
        why = gs_auto_tree(g) ? gs_tree_wait_first(g, t) : gs_flip_wait_first(g, t);
    return gs_group_verdict(g, why);
}
GS_DEVICE gs_token gs_arrive_auto(gs_grid *g)
{
    gs_token t = gs_token_start(g, 1);
    gs_auto_arrive(g, &t);
    GS_ARRIVE_END();
    return t;
}
GS_DEVICE gs_u32 gs_wait_token_auto(gs_grid *g, gs_token t)
{
    return gs_episode_end(g, 1, gs_auto_wait(g, &t));
}
/* The whole episode: the representative runs tree's halves back to back, or flip's
 * episode in one piece (gridsync/barrier_flip.h says why). */
#if defined(GS_EPISODE_IN_ONE_PIECE) && GS_EPISODE_IN_ONE_PIECE
GS_DEVICE gs_u32 gs_sync_auto(gs_grid *g)
{
    gs_token t = gs_token_start(g, 1);
    gs_u32 why = GS_ABORT_NONE;
    gs_group_barrier();
    if (gs_rep_warp()) {             /* flip's episode runs on the representative's warp */
        gs_grid_fields f = *gs_f(g); /* the choice and flip's fields: one round of loads */
        if ((f.aux & GS_AUX_TREE) == 0u) {
            why = gs_flip_episode_of(g, &t, &f);
        } else if (gs_g_first(g)) {
            gs_tree_arrive_first(g, &t);
            why = gs_tree_wait_first(g, &t);
        }
    }
    return gs_episode_end(g, 1, gs_group_verdict(g, why));
}
#else /* the halves (gridsync/barrier_flip.h says why) */
GS_DEVICE gs_u32 gs_sync_auto(gs_grid *g)
{
    gs_token t = gs_token_start(g, 1);
    gs_auto_arrive(g, &t);
    return gs_episode_end(g, 1, gs_auto_wait(g, &t));
}
#endif

/* ---- the last arriver: a launch's last episode where one group finishes ------------ */

/* gs_arrive_last_<p> (flip, tree, auto): every group arrives and none waits; it returns
 * 1 on every work-item of the one group whose arrival completed the episode, which has
 * then seen every group's writes from before its arrival, and 0 on the others (and
 * everywhere when the launch cannot use the state: the host call reports that). A
 * reduction's last step (apps/pi's barrier way):
 *     if (gs_arrive_last_flip(&g)) sum_the_partials();
 * It is a whole episode of the barrier: the state stays right for the next launch. The
 * other groups must not read what others write after it, as after gs_arrive. Nobody
 * polls, so nothing here can time out: it costs one atomic's round trip, as a ticket
 * counter does. It is the group's last episode of the launch: a group that has not
 * waited cannot tell its next arrival from a late one of this episode (two arrivals of
 * one group would complete it early and name the wrong last group), so its next gs_sync
 * (or gs_arrive's gs_wait_token) returns GS_ABORT_AFTER_LAST and its next gs_arrive_last
 * returns 0, without touching the state, and it raises the abort: the launch ends in
 * GS_ERR_BAD_STATE naming the group and the episode (gs_bad_told; cpu: 170 of 200
 * launches of 2 groups with a gs_sync_flip after it had no last group, GS_OK). The mark
 * costs the fast path nothing: it is the launch test's aux, which the next episode reads
 * anyway. */
GS_DEVICE int gs_last_verdict(gs_grid *g, int last)
{
    GS_GLOBAL gs_word *slot = gs_word_at(g, GS_LINE_GROUP_A(gs_g_group(g)), GS_G_VERDICT);
    /* Before the verdict's group barrier, which makes it every work-item's. */
    if (!GS_GRID_IN_SHARED || gs_g_first(g))
        gs_f(g)->aux = GS_AUX_BAD | GS_ABORT_AFTER_LAST;
    last = gs_group_any(last, slot);
#if defined(GS_GROUP_ANY_IN_MEMORY)
    if (last) { /* the slot says "leave" to the next barrier's verdict: clear it */
        gs_group_barrier();
        if (gs_g_first(g))
            gs_store_relaxed(slot, 0u);
    }
#endif
    (void)gs_episode_end(g, 1, GS_ABORT_NONE);
    return last;
}
GS_DEVICE int gs_auto_last_first(gs_grid *g, gs_token *t)
{
    return gs_auto_tree(g) ? gs_tree_last_first(g, t) : gs_flip_last_first(g, t);
}
#define GS_DEFINE_ARRIVE_LAST_(name)                                               \
    GS_DEVICE int gs_arrive_last_##name(gs_grid *g)                                \
    {                                                                              \
        gs_token t = gs_token_initial(g); /* a bad launch touches nothing */       \
        if (t.why != GS_ABORT_NONE) {                                              \
            if (gs_g_first(g))                                                     \
                gs_bad_told(g, t.why);                                             \
            return 0;                                                              \
        }                                                                          \
        gs_group_barrier(); /* the group's writes happen before its arrival */     \
        return gs_last_verdict(g, gs_g_first(g) && gs_##name##_last_first(g, &t)); \
    }
GS_DEFINE_ARRIVE_LAST_(flip)
GS_DEFINE_ARRIVE_LAST_(tree)
GS_DEFINE_ARRIVE_LAST_(auto)

/* ---- whichever protocol the state was made for (run-time dispatch) ----------------- */

#define GS_SETUP_CASE_(ID, name, value, text, desc) \
    case GS_ALGO_ID_##ID:                           \
        gs_##name##_setup(&f);                      \
        break;
#define GS_ARRIVE_CASE_(ID, name, value, text, desc) \
    case GS_ALGO_ID_##ID:                            \
        gs_##name##_arrive(g, &t);                   \
        break;
#define GS_WAIT_CASE_(ID, name, value, text, desc) \
    case GS_ALGO_ID_##ID: why = gs_##name##_wait(g, &t); break;
/* gs_sync keeps each protocol's arrival and wait together in one case: PoCL 3.1
 * miscompiles the composed form (two switches with a protocol's barriers on either side
 * of its work-item-0 block), running the representative's arrival on every work-item. */
#define GS_EPISODE_CASE_(ID, name, value, text, desc) \
    case GS_ALGO_ID_##ID: why = gs_##name##_episode(g, &t); break;

/* The representative's fields for the run-time dispatch. */
GS_DEVICE gs_grid_fields gs_any_open(GS_GLOBAL gs_word *state)
{
    gs_grid_fields f = gs_grid_open(state, GS_ACCEPT_ANY, GS_ACCEPT_ANY);
    if (gs_bad_of(f.aux) == GS_ABORT_NONE) {
        switch (f.algo) {
            GS_DEVICE_PROTOCOLS(GS_SETUP_CASE_)
        default: f.aux = GS_AUX_BAD | GS_ABORT_BAD_STATE; /* a protocol this kernel lacks */
        }
    }
    return f;
}

GS_DEVICE gs_grid gs_grid_begin(GS_GLOBAL gs_word *state) { GS_GRID_BEGIN(f = gs_any_open(state);) }

GS_DEVICE gs_token gs_arrive(gs_grid *g)
{
    gs_token t = gs_token_initial(g);
    if (t.why == GS_ABORT_NONE) {
        switch (gs_f(g)->algo) {
            GS_DEVICE_PROTOCOLS(GS_ARRIVE_CASE_)
        default: break;
        }
    }
    GS_ARRIVE_END();
    return t;
}

GS_DEVICE gs_u32 gs_wait_token(gs_grid *g, gs_token t)
{
    gs_u32 why = t.why;
    if (why == GS_ABORT_NONE) {
        switch (gs_f(g)->algo) {
            GS_DEVICE_PROTOCOLS(GS_WAIT_CASE_)
        default: break;
        }
    }
    return gs_episode_end(g, 0, why);
}

GS_DEVICE gs_u32 gs_sync(gs_grid *g)
{
    gs_token t = gs_token_initial(g);
    gs_u32 why = t.why;
    if (why == GS_ABORT_NONE) {
        switch (gs_f(g)->algo) {
            GS_DEVICE_PROTOCOLS(GS_EPISODE_CASE_)
        default: break;
        }
    }
    return gs_episode_end(g, 0, why);
}

#undef GS_SETUP_CASE_
#undef GS_ARRIVE_CASE_
#undef GS_WAIT_CASE_
#undef GS_EPISODE_CASE_

#endif
