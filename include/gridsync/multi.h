/* gridsync/multi.h - one barrier across the groups of several devices (GPUs of one
 * host, or the cpu back end's teams standing for devices), each device running its own
 * launch of the kernel:
 *
 *     gs_multi_grid m = gs_multi_begin(state);      // every work-item, once
 *     for (...) {
 *         work(gs_multi_rank(&m));                  // this device's part
 *         if (gs_multi_sync(&m))                    // every group of every device
 *             return;                               // a wait gave up: the host says why
 *     }
 *
 * `state` is this device's state (gs_multi_native of gridsync/host_multi.h, rank by
 * rank). Split phase as gs_arrive / gs_wait_token (gridsync/barrier.h), with the same
 * rules: t = gs_multi_arrive(&m); independent work; gs_multi_wait_token(&m, t).
 *
 * The episode is hierarchical. On each device the groups arrive at a flip counter
 * (barrier_flip.h); the last to arrive is the device's representative. It makes every
 * write of its device's groups visible at system scope with one fence.acq_rel.sys and
 * stores the episode into its slot of every device's flag line (all-to-all, relaxed .sys
 * stores after the fence: a release). Then, in the wait, it polls its own flag line
 * until every device's slot holds the episode (relaxed .sys polls, one fence.acquire.sys
 * after the last: an acquire), and releases its groups by storing the episode into the
 * device's release line, which the other groups poll (gpu scope). The representative
 * publishes in gs_multi_arrive, so the other devices go on while this one does the work
 * between arrive and wait. docs/multi.md gives the memory-model argument.
 *
 * Every wait is bounded by the state's timeout. A wait that expires raises the abort on
 * its device (naming its group, work-item and episode) and writes its rank into the
 * abort word of every other device; a wait that finds that word set leaves with
 * GS_ABORT_PEER at its next look. So a device that never arrives makes every other
 * device's launch end with GS_ERR_TIMEOUT, and the host's diagnosis (gs_multi_abort_info)
 * reads from each device's flag line which devices had not arrived.
 *
 * Rules: every work-item of every group of every device calls gs_multi_begin once and
 * the barrier the same number of times; the return value is the same on every
 * work-item of a group (leave the kernel on non-zero). One gs_multi_grid per kernel on
 * CUDA (its fields live in the group's shared memory, as a gs_grid's); use only the
 * gs_multi_* functions on it. Include it through gridsync/cpu.h or gridsync/cuda.cuh
 * (OpenCL: no system scope; the host refuses OpenCL devices). */
#ifndef GRIDSYNC_MULTI_H
#define GRIDSYNC_MULTI_H

#include "gridsync/barrier.h"
#include "gridsync/barrier_flip.h"
#include "gridsync/multi_state.h"

/* A distinct type, so that a barrier's gs_sync_<p> cannot be handed it. */
typedef struct gs_multi_grid {
    gs_grid g;
} gs_multi_grid;

/* This device's rank and the devices of the barrier (packed into the grid's `share`). */
GS_DEVICE gs_u32 gs_multi_rank_of(const gs_grid *g) { return gs_f(g)->share & 0xffffu; }
GS_DEVICE gs_u32 gs_multi_ranks_of(const gs_grid *g) { return gs_f(g)->share >> 16; }
GS_DEVICE gs_u32 gs_multi_rank(const gs_multi_grid *m) { return gs_multi_rank_of(&m->g); }
GS_DEVICE gs_u32 gs_multi_ranks(const gs_multi_grid *m) { return gs_multi_ranks_of(&m->g); }

/* Rank r's state, as this device reaches it (the host wrote the table before the
 * launch, and nothing writes it during one: plain loads, which may hit in a cache). */
GS_DEVICE GS_GLOBAL gs_word *gs_multi_peer(const gs_grid *g, gs_u32 r)
{
    GS_GLOBAL gs_word *t = gs_word_at(g, GS_MULTI_LINE_PEERS(gs_g_groups(g)), 2u * r);
    gs_u64 a = (gs_u64)t[0] | ((gs_u64)t[1] << 32);
    return (GS_GLOBAL gs_word *)a;
}

/* Makes every other device leave at its next look (the abort word of each). */
GS_COLD_ABORT void gs_multi_tell(const gs_grid *g)
{
    gs_u32 me = gs_multi_rank_of(g);
    for (gs_u32 r = 0u; r < gs_multi_ranks_of(g); ++r)
        if (r != me)
            gs_store_relaxed_sys(gs_multi_peer(g, r) + GS_WORD(GS_LINE_ABORT, GS_ABORT_MULTI_FROM),
                                 me + 1u);
}

/* The look of every wait here, every 16th failed poll: another device said leave (this
 * device's abort then names the group that saw it); this device's abort word (the
 * other devices are told, in case a wait of this device's own raised it); the clock
 * (raise the abort and tell the others). */
GS_COLD gs_u32 gs_multi_look(const gs_grid *g, gs_spin_seen seen)
{
    if (gs_load_relaxed_sys(gs_word_at(g, GS_LINE_ABORT, GS_ABORT_MULTI_FROM)) != 0u) {
        gs_raise_abort(g, GS_ABORT_PEER);
        return GS_ABORT_PEER;
    }
    gs_u32 why = gs_look_at(seen);
    if (why == GS_ABORT_TIMEOUT)
        gs_raise_abort(g, GS_ABORT_TIMEOUT);
    if (why != GS_ABORT_NONE)
        gs_multi_tell(g);
    return why;
}

/* A non-representative group's wait for its device's release line (gpu scope). */
GS_DEVICE gs_u32 gs_multi_await_release(const gs_grid *g, GS_GLOBAL gs_word *w, gs_u32 target)
{
    GS_BOUNDED_SPIN(gs_ready(gs_poll_load(w), target, GS_UNTIL_REACHED, 0u), gs_f(g)->state,
                    gs_multi_look(g, gs_spin));
}

/* The representative's wait for one device's slot (system scope; the caller takes the
 * acquire once, after the last slot). */
GS_DEVICE gs_u32 gs_multi_await_slot(const gs_grid *g, GS_GLOBAL gs_word *w, gs_u32 target)
{
    GS_BOUNDED_SPIN_THEN(gs_ready(gs_poll_load_sys(w), target, GS_UNTIL_REACHED, 0u),
                         gs_f(g)->state, gs_multi_look(g, gs_spin), (void)0);
}

/* Until every device's slot of this device's flag line holds `target` (GS_EARLY fewer:
 * the weakened build of tests/weaken), then the acquire of everything they released. */
GS_DEVICE gs_u32 gs_multi_await_peers(const gs_grid *g, gs_u32 target)
{
    GS_GLOBAL gs_word *line = gs_word_at(g, GS_MULTI_LINE_FLAGS(gs_g_groups(g)), 0u);
    gs_u32 ranks = gs_multi_ranks_of(g) - GS_EARLY;
    for (gs_u32 r = 0u; r < ranks; ++r) {
        gs_u32 why = gs_multi_await_slot(g, line + r, target);
        if (why != GS_ABORT_NONE)
            return why;
    }
    gs_poll_acquire_sys();
    return GS_ABORT_NONE;
}

/* The last arriver of this device: one fence releases every write its groups made
 * before arriving (it acquired them through the counter's add), then the episode into
 * its slot of every device's flag line, its own included. Its own line through its own
 * state pointer, not the table's entry: that may be another virtual address of the same
 * memory (an NCCL window's), which PTX orders with this one only after a proxy fence. */
GS_DEVICE void gs_multi_publish(const gs_grid *g, gs_u32 value)
{
    gs_u32 me = gs_multi_rank_of(g), slot = GS_WORD(GS_MULTI_LINE_FLAGS(gs_g_groups(g)), me);
    gs_fence_acq_rel_sys();
    for (gs_u32 r = 0u; r < gs_multi_ranks_of(g); ++r)
        gs_store_fenced_sys((r == me ? gs_f(g)->state : gs_multi_peer(g, r)) + slot, value);
}

/* Every work-item, once, before its first barrier: reads this device's header. A state
 * that is not a device's state of a barrier across devices is left untouched
 * (GS_ERR_BAD_STATE at the host); a grid of another group count than the state's raises
 * the abort (GS_ABORT_BAD_GRID) and tells the other devices, which then leave too. */
GS_DEVICE gs_grid_fields gs_multi_open(GS_GLOBAL gs_word *state)
{
    gs_grid_fields f = gs_grid_open_as(state, GS_MULTI_MAGIC, GS_MULTI_ALGO_ID, GS_MULTI_ALGO_ID);
    if (gs_bad_of(f.aux) != GS_ABORT_BAD_STATE) {
        gs_u32 rank = gs_load_header(&state[GS_HDR_MULTI_RANK]);
        gs_u32 ranks = gs_load_header(&state[GS_HDR_MULTI_RANKS]);
        if (rank < ranks && ranks <= GS_MULTI_MAX_RANKS)
            f.share = rank | (ranks << 16);
        else
            f.aux = GS_AUX_BAD | GS_ABORT_BAD_STATE;
    }
    return f;
}

/* The grid's fields, made where they are needed (GS_GRID_BEGIN: on CUDA the representative
 * alone reads the header). */
GS_DEVICE gs_grid gs_multi_grid_begin(GS_GLOBAL gs_word *state)
{
    GS_GRID_BEGIN(f = gs_multi_open(state);)
}

GS_DEVICE gs_multi_grid gs_multi_begin(GS_GLOBAL gs_word *state)
{
    gs_multi_grid m;
    m.g = gs_multi_grid_begin(state);
    if (gs_launch_bad(&m.g) == GS_ABORT_BAD_GRID && gs_g_first(&m.g))
        gs_multi_tell(&m.g);
    return m;
}

/* The arrival: the group's writes, a group barrier, the representative's release add at
 * the device's flip counter; the last arriver of the device publishes at once (so that
 * the other devices need not wait for this one's work between arrive and wait). The
 * token: target = the episode + 1 (what the slots and the release line will hold),
 * done = 1 on the representative of the last group to arrive on its device. The note
 * (diagnosis, and where the next launch starts) goes after the publish's fence, which
 * would otherwise wait for it. */
GS_DEVICE void gs_multi_arrive_group(gs_grid *g, gs_token *t)
{
    gs_group_barrier();
    t->target = gs_f(g)->episode + 1u;
    if (gs_g_first(g)) {
        gs_u32 add = gs_flip_share(gs_g_groups(g), gs_g_group(g) == 0u);
        t->before = gs_fetch_add_release(gs_word_at(g, GS_LINE_COUNTER, 0u), add);
        t->done = (gs_u32)gs_flip_completed(t->before, add);
        if (t->done)
            gs_multi_publish(g, t->target);
        gs_note_arrival(g);
    }
}

/* The wait: the device's last arriver waits for every device's slot, then releases its
 * groups; the others wait for that release. */
GS_DEVICE gs_u32 gs_multi_wait_group(gs_grid *g, const gs_token *t)
{
    gs_u32 why = GS_ABORT_NONE;
    if (gs_g_first(g)) {
        GS_GLOBAL gs_word *release = gs_word_at(g, GS_MULTI_LINE_RELEASE(gs_g_groups(g)), 0u);
        if (t->done) {
            why = gs_multi_await_peers(g, t->target);
            if (why == GS_ABORT_NONE)
                gs_store_release(release, t->target);
        } else {
            why = gs_multi_await_release(g, release, t->target);
        }
    }
    return gs_group_verdict(g, why);
}

GS_DEVICE gs_token gs_multi_arrive(gs_multi_grid *m)
{
    gs_token t = gs_token_initial(&m->g);
    if (t.why == GS_ABORT_NONE)
        gs_multi_arrive_group(&m->g, &t);
    GS_ARRIVE_END();
    return t;
}

GS_DEVICE gs_u32 gs_multi_wait_token(gs_multi_grid *m, gs_token t)
{
    gs_u32 why = t.why;
    if (why == GS_ABORT_NONE)
        why = gs_multi_wait_group(&m->g, &t);
    return gs_episode_end(&m->g, 0, why);
}

/* One episode: 0 once every group of every device has arrived; non-zero: leave. */
GS_DEVICE gs_u32 gs_multi_sync(gs_multi_grid *m)
{
    return gs_multi_wait_token(m, gs_multi_arrive(m));
}

#endif
