/* gridsync/grid.h - what a group knows about the barrier it takes part in, and the
 * one bounded wait every protocol polls with.
 *
 * Needs a shim (prims_*.h) included first. */
#ifndef GRIDSYNC_GRID_H
#define GRIDSYNC_GRID_H

#include "gridsync/state.h"

/* lockfree's flags: a shim may pack GS_FLAG_PACK of them into one state word, polled
 * together (CUDA: bytes, prims_cuda.cuh). By default a flag is a word of its own:
 *   gs_flag_poll(p)                 the flags of word p, flag k under gs_flag_mask(k)
 *   gs_flag_store_release(p, k, v)  flag k of word p := v, a release
 *   gs_flag_store_relaxed(p, k, v)
 *   gs_flags_store_fenced(p, v)     every flag of word p := v (after gs_fence_acq_rel)
 *   gs_flag_splat(v)                v as every flag of a word holds it */
#ifndef GS_FLAG_PACK
#define GS_FLAG_PACK 1u
#define gs_flag_poll(p) gs_poll_load(p)
#define gs_flag_store_release(p, k, v) gs_store_release((p), (v))
#define gs_flag_store_relaxed(p, k, v) gs_store_relaxed((p), (v))
#define gs_flags_store_fenced(p, v) gs_store_fenced((p), (v))
#define gs_flag_splat(v) (v)
#define gs_flag_mask(k) 0xffffffffu
#endif

/* An add made a release by the gs_fence_acq_rel before it, result unused (CUDA: red). */
#ifndef gs_add_fenced
#define gs_add_fenced(p, v) ((void)gs_fetch_add_fenced((p), (v)))
#endif

#include "gridsync/weaken.h"

/* Kept in registers for the whole kernel: made once by gs_grid_begin. What only a slow
 * wait needs (the bound, the back-off) stays in the header until then: every register
 * here is held across every barrier, and at 2048 work-items per SM a kernel has 32. */
typedef struct gs_grid {
    GS_GLOBAL gs_word *state;
    gs_u64 timeout;   /* clock units (gs_clock) a wait may last; 0: the header's */
    gs_u32 group;     /* this group, 0..groups-1 */
    gs_u32 groups;    /* groups in the launch */
    gs_u32 lid;       /* this work-item in its group */
    gs_u32 lsize;     /* work-items per group */
    gs_u32 episode;   /* barriers this group has completed, since the state was reset */
    gs_u32 algo;      /* GS_ALGO_ID_*, or GS_ALGO_BAD | GS_ABORT_BAD_* when the launch
                       * does not match the state */
    gs_u32 leaves;    /* tree: leaves; sharded: counters; flip, cluster: release lines */
    gs_u32 leaf;      /* group % leaves: this group's leaf, counter or release line */
    gs_u32 members;   /* tree: groups on this group's leaf */
    gs_u32 release;   /* flip, cluster, tree: GS_RELEASE_POLL or GS_RELEASE_LINES */
    gs_u32 spinners;  /* lockfree: work-items of the master that may poll */
} gs_grid;

GS_DEVICE GS_GLOBAL gs_word *gs_word_at(const gs_grid *g, gs_u32 line, gs_u32 word)
{
    return g->state + GS_WORD(line, word);
}

/* A launch that does not match its state keeps the reason in g.algo, under this bit:
 * no register of its own. */
#define GS_ALGO_BAD 0x80000000u
GS_DEVICE gs_u32 gs_launch_bad(const gs_grid *g)
{
    return (g->algo & GS_ALGO_BAD) ? (g->algo & ~GS_ALGO_BAD) : GS_ABORT_NONE;
}

/* How many of the groups fall on leaf (or shard) k of `leaves`, groups being dealt
 * round-robin: group j is on leaf j % leaves. */
GS_DEVICE gs_u32 gs_leaf_members(const gs_grid *g, gs_u32 k)
{
    return (g->groups - k + g->leaves - 1u) / g->leaves;
}

/* Every work-item of every group calls this once, before its first barrier. */
GS_DEVICE gs_grid gs_grid_begin(GS_GLOBAL gs_word *state)
{
    gs_grid g;
    g.state = state;
    g.group = gs_group_id();
    g.groups = gs_num_groups();
    g.lid = gs_local_id();
    g.lsize = gs_local_size();
    g.algo = gs_load_relaxed(&state[GS_HDR_ALGO]);
    g.timeout = 0u;
    g.leaves = gs_load_relaxed(&state[GS_HDR_LEAVES]);
    g.release = gs_load_relaxed(&state[GS_HDR_RELEASE]);
    /* Once here, not per episode: a division on an arrival's path cost the tree
     * 150-350 ns per barrier on an H200 (docs/performance.md). */
    g.leaf = g.leaves ? g.group % g.leaves : 0u;
    g.members = g.leaves ? gs_leaf_members(&g, g.leaf) : 0u;
    g.spinners = gs_load_relaxed(&state[GS_HDR_SPINNERS]);
    if (gs_load_relaxed(&state[GS_HDR_MAGIC]) != GS_STATE_MAGIC)
        g.algo = GS_ALGO_BAD | GS_ABORT_BAD_STATE;
    else if (gs_load_relaxed(&state[GS_HDR_GROUPS]) != g.groups || !gs_launch_shape_ok())
        g.algo = GS_ALGO_BAD | GS_ABORT_BAD_GRID;
    /* Every group ended the previous launch at the same episode, and only this group
     * writes its own count: the state needs no reset between launches. */
    g.episode = gs_launch_bad(&g) ? 0u
                                  : gs_load_relaxed(gs_word_at(&g, GS_LINE_GROUP_A(g.group), GS_G_ARRIVED));
    if (g.spinners == 0u || g.spinners > g.lsize)
        g.spinners = g.lsize;
    return g;
}

/* The grid of a kernel that only waits (the OpenCL deadline calibration, occupancy
 * discovery): no header to read, the wait bound given (not 0), one polling work-item
 * per group, no back-off. */
GS_DEVICE gs_grid gs_grid_waiter(GS_GLOBAL gs_word *state, gs_u64 timeout)
{
    gs_grid g;
    g.state = state;
    g.timeout = timeout;
    g.group = gs_group_id();
    g.groups = gs_num_groups();
    g.lid = 0u;
    g.lsize = 1u;
    g.episode = 0u;
    g.algo = GS_ALGO_ID_CENTRAL;
    g.leaves = 1u;
    g.leaf = 0u;
    g.members = g.groups;
    g.release = GS_RELEASE_POLL;
    g.spinners = 1u;
    return g;
}

/* First to give up records who and where; the host reads it after the launch. */
GS_DEVICE void gs_raise_abort(const gs_grid *g, gs_u32 reason)
{
    if (gs_cas_relaxed(gs_word_at(g, GS_LINE_ABORT, GS_ABORT_REASON), 0u, reason) == 0u) {
        gs_store_relaxed(gs_word_at(g, GS_LINE_ABORT, GS_ABORT_GROUP), g->group);
        gs_store_relaxed(gs_word_at(g, GS_LINE_ABORT, GS_ABORT_EPISODE), g->episode);
    }
}

/* What a wait waits for. */
#define GS_UNTIL_REACHED 0u /* the word has reached target (modulo 2^32) */
#define GS_UNTIL_FLIP 1u    /* the word's flip bit equals target */
#define GS_UNTIL_FLAGS 2u   /* every flag of the word under mask equals target (as a flag holds it) */

GS_DEVICE int gs_ready(gs_u32 v, gs_u32 target, gs_u32 until, gs_u32 mask)
{
    return until == GS_UNTIL_FLIP    ? (v & GS_FLIP_BIT) == target
           : until == GS_UNTIL_FLAGS ? ((v ^ gs_flag_splat(target)) & mask) == 0u
                                     : (gs_u32)(v - target) < GS_FLIP_BIT;
}

/* One poll of w for gs_ready. */
GS_DEVICE gs_u32 gs_poll_word(GS_GLOBAL gs_word *w, gs_u32 until)
{
    return until == GS_UNTIL_FLAGS ? gs_flag_poll(w) : gs_poll_load(w);
}

/* The only spin in gridsync. Polls with the shim's gs_poll_load and, once the
 * condition holds, takes the acquire with gs_poll_acquire (an acquire load per poll on
 * the cpu and OpenCL; on CUDA relaxed polls and one fence.acquire, since ld.acquire
 * invalidates the SM's L1 at every poll). Every 16th failed poll looks at the abort
 * word and the clock, so the fast path costs nothing extra. Returns 0 when the
 * condition holds, else why the caller must leave. */
GS_DEVICE gs_u32 gs_wait_masked(const gs_grid *g, GS_GLOBAL gs_word *w, gs_u32 target,
                                gs_u32 until, gs_u32 mask)
{
    gs_u64 polls = 0u; /* 64 bits: OpenCL's clock is this count, 2^32 polls last ~1.5 s on PoCL */
    gs_u64 deadline = 0u;
    gs_u32 backoff = 0u;
    while (!gs_ready(gs_poll_word(w, until), target, until, mask)) {
        ++polls;
        gs_pause(polls, backoff);
        if ((polls & 15u) != 0u)
            continue;
        if (polls == 16u && g->timeout == 0u)
            backoff = gs_load_relaxed(&g->state[GS_HDR_BACKOFF]);
#if defined(GS_NO_DEADLINE) && GS_NO_DEADLINE
        continue; /* only to measure what the bound costs (scripts/gpu.sh): never shipped */
#endif
        if (gs_load_relaxed(gs_word_at(g, GS_LINE_ABORT, GS_ABORT_REASON)) != 0u)
            return GS_ABORT_PEER;
        gs_u64 now = gs_clock(polls);
        if (deadline == 0u) {
            gs_u64 bound = g->timeout;
            if (bound == 0u)
                bound = (gs_u64)gs_load_relaxed(&g->state[GS_HDR_TIMEOUT_LO]) |
                        ((gs_u64)gs_load_relaxed(&g->state[GS_HDR_TIMEOUT_HI]) << 32);
            deadline = now + bound;
        } else if (now >= deadline) {
            gs_raise_abort(g, GS_ABORT_TIMEOUT);
            return GS_ABORT_TIMEOUT;
        }
    }
    gs_poll_acquire();
    return GS_ABORT_NONE;
}
GS_DEVICE gs_u32 gs_wait(const gs_grid *g, GS_GLOBAL gs_word *w, gs_u32 target, gs_u32 until)
{
    return gs_wait_masked(g, w, target, until, 0xffffffffu);
}

/* Waits until every flag of `count` words, `stride` words apart from w, equals target
 * (lockfree's master and its arrival flags), 32 words at a time. A pass issues
 * GS_PASS_LOADS loads before it tests any, so that their round trips overlap, and keeps
 * the words not yet ready in a mask; the first pass reads every word, then
 * gs_wait_masked waits (bounded) for the first word still missing, and the next pass
 * reads only the others still missing (where fewer are left than loads, the first of
 * them is read again: no load waits on a branch). Re-reading every word after the first
 * laggard cost lockfree a whole pass again at 2112 and 4224 groups. 4 loads at a time:
 * on an H200 lockfree was faster than with 1 or 8 at each of six sizes, and than with 5
 * or 6 at 4224 x 64 (docs/performance.md, fifth and sixth rounds); more loads in flight
 * need registers a 2048-thread SM does not have (so every flag of a word is tested: one
 * more register for a mask made the CUDA kernel spill). */
#ifndef GS_PASS_LOADS
#define GS_PASS_LOADS 4u
#endif
GS_DEVICE gs_u32 gs_wait_flags(const gs_grid *g, GS_GLOBAL gs_word *w, gs_u32 stride,
                               gs_u32 count, gs_u32 target)
{
    for (gs_u32 base = 0u; base < count; base += 32u, w += 32u * stride) {
        gs_u32 n = count - base;
        gs_u32 pending = n >= 32u ? 0xffffffffu : (1u << n) - 1u;
        for (;;) {
            for (gs_u32 todo = pending; todo != 0u;) {
                gs_u32 at[GS_PASS_LOADS], v[GS_PASS_LOADS];
                for (gs_u32 i = 0u; i < GS_PASS_LOADS; ++i) {
                    at[i] = gs_lowest_bit(todo != 0u ? todo : pending);
                    todo &= todo - 1u;
                }
                for (gs_u32 i = 0u; i < GS_PASS_LOADS; ++i)
                    v[i] = gs_flag_poll(w + at[i] * stride);
                for (gs_u32 i = 0u; i < GS_PASS_LOADS; ++i)
                    pending &= gs_ready(v[i], target, GS_UNTIL_FLAGS, 0xffffffffu)
                                   ? ~(1u << at[i])
                                   : 0xffffffffu;
            }
            if (pending == 0u)
                break;
            gs_u32 why = gs_wait_masked(g, w + gs_lowest_bit(pending) * stride, target,
                                        GS_UNTIL_FLAGS, 0xffffffffu);
            if (why != GS_ABORT_NONE)
                return why;
            pending &= pending - 1u;
        }
    }
    gs_poll_acquire(); /* the words a pass found ready */
    return GS_ABORT_NONE;
}

/* What a protocol's arrival tells its wait: the value to poll for, whether the
 * representative already knows the episode is complete (it arrived last; the tree), the
 * counter's value before its add (flip, cluster: the wait decodes it, so that nothing in
 * the arrival waits for the add's round trip and the split phase's work runs while the
 * add is in flight), and why the arrival failed (0 = it did not). Meaningful on the
 * representative; the others carry it. */
typedef struct gs_token {
    gs_u32 target;
    gs_u32 done;
    gs_u32 before;
    gs_u32 why;
} gs_token;

/* Progress for the host's diagnosis of a timeout: which groups arrived where. Every
 * protocol notes it after its arrival: a store before the release would make the
 * release fence wait for that store's acknowledgement (about 165 ns on an H200). */
GS_DEVICE void gs_note_arrival(const gs_grid *g)
{
    gs_store_relaxed(gs_word_at(g, GS_LINE_GROUP_A(g->group), GS_G_ARRIVED), g->episode + 1u);
}

/* Ends a barrier: a group barrier that also tells every work-item whether any of
 * them must leave. */
GS_DEVICE gs_u32 gs_group_verdict(const gs_grid *g, gs_u32 why)
{
    return gs_group_any(why != 0u, gs_word_at(g, GS_LINE_GROUP_A(g->group), GS_G_VERDICT))
               ? (why ? why : GS_ABORT_PEER)
               : GS_ABORT_NONE;
}

#endif
