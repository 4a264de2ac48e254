/* gridsync/grid.h - what a group keeps of the barrier it takes part in, and the one
 * bounded wait every protocol polls with.
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

/* A function only a slow wait calls: out of the hot loop where the shim can say so. */
#ifndef GS_COLD_ABORT
#define GS_COLD_ABORT GS_COLD
#endif
#ifndef GS_COLD
#define GS_COLD GS_DEVICE
#endif

/* The test suite's deliberately broken builds (tests/weaken/gridsync_test_hooks.h) come
 * in here, and only where GS_TEST_HOOKS is defined: a normal build, and the OpenCL
 * source users get, have no weakening in them. */
#if defined(GS_TEST_HOOKS) && !defined(GRIDSYNC_TEST_HOOKS_H)
#include "gridsync_test_hooks.h"
#endif
/* A header word (constant while a kernel runs): the CUDA shim reads it through the
 * read-only cache; elsewhere a relaxed load. */
#ifndef gs_load_header
#define gs_load_header(p) gs_load_relaxed(p)
#endif
/* The representative's test read again at each use (the CUDA shim's note says why); a
 * shim without the distinction has one test. */
#ifndef gs_local_first_fresh
#define gs_local_first_fresh() gs_local_first()
#endif
/* Who makes a group's fields at the kernel's start (gs_grid_begin) and acknowledges the
 * launch: the representative, or where the shim says so (CUDA) its whole warp. */
#ifndef gs_begin_lead
#define gs_begin_lead() gs_local_first_fresh()
#endif
#ifndef GS_EARLY
#define GS_EARLY 0u /* the weakened count releases this many arrivals early */
#endif

/* What a group keeps of its barrier for the whole kernel, made once by
 * gs_grid_begin_<p>. Every register it took would be held across every barrier of the
 * user's loop, where a kernel of 2048 threads per SM has 32 registers in all and a
 * stencil's loop uses them all: so the group's and work-item's indices are read again
 * from the hardware at each use (gs_group_id(), ...), the bound and the back-off stay in
 * the state's header until a wait is slow, a protocol packs its constants into `aux` and
 * `share`, and where the shim says so (CUDA: GS_GRID_IN_SHARED) the fields live in the
 * group's shared memory, one copy per group, and a gs_grid holds nothing: the kernel
 * keeps no register for its barrier, as with grid.sync(). (So on CUDA a kernel has one
 * gs_grid; a second gs_grid_begin in the same kernel would share its fields.) */
typedef struct gs_grid_fields {
    GS_GLOBAL gs_word *state;
    gs_u32 episode;       /* barriers this group has completed, since the state was reset */
    gs_u32 algo;          /* GS_ALGO_ID_*: a constant in a kernel that names its protocol */
    gs_u32 aux;           /* GS_AUX_* below: why the launch cannot use the state, or the
                     * protocol's packed constants (flip, cluster, tree, sharded, auto) */
    gs_u32 share;         /* tree: the group's add at its leaf; lockfree, sharded: spinners;
                           * flip: its first poll's delay (ns) */
    gs_u32 group, groups; /* read once at the start (see gs_g_group) */
#if !(defined(GS_GRID_IN_SHARED) && GS_GRID_IN_SHARED)
    gs_u32 lid, lsize;
#endif
} gs_grid_fields;

#if defined(GS_GRID_IN_SHARED) && GS_GRID_IN_SHARED
typedef struct gs_grid {
    gs_u32 in_shared_memory_;
} gs_grid;
GS_DEVICE gs_grid_fields *gs_grid_slot(void)
{
    GS_SHARED gs_grid_fields slot;
    return &slot;
}
#define gs_f(g) ((void)(g), gs_grid_slot())
#else
#define GS_GRID_IN_SHARED 0
typedef gs_grid_fields gs_grid;
#define gs_f(g) ((gs_grid_fields *)(g))
#endif

/* The group's and work-item's indices where a protocol needs them: the group's from the
 * grid (on CUDA in shared memory: one load where the linear index from the special
 * registers took ten reads and two multiplies on the arrival's path), the work-item's
 * from the hardware at each use on CUDA (no register held), from the grid elsewhere. */
#if GS_GRID_IN_SHARED
#define gs_g_group(g) (gs_f(g)->group)
#define gs_g_groups(g) (gs_f(g)->groups)
#define gs_g_lid(g) ((void)(g), gs_local_id())
#define gs_g_lsize(g) ((void)(g), gs_local_size())
#define gs_g_first(g) ((void)(g), gs_local_first())
#define gs_g_first_fresh(g) ((void)(g), gs_local_first_fresh())
#else
#define gs_g_group(g) (gs_f(g)->group)
#define gs_g_groups(g) (gs_f(g)->groups)
#define gs_g_lid(g) (gs_f(g)->lid)
#define gs_g_lsize(g) (gs_f(g)->lsize)
#define gs_g_first(g) (gs_f(g)->lid == 0u)
#define gs_g_first_fresh(g) gs_g_first(g)
#endif

/* The grid a group's fields make: where they live in shared memory, the representative
 * (on CUDA its whole warp: gs_begin_lead) writes them and every work-item waits for it
 * (gs_grid_begin is called by all, once). */
GS_DEVICE gs_grid gs_grid_publish(const gs_grid_fields *f)
{
#if GS_GRID_IN_SHARED
    gs_grid g;
    g.in_shared_memory_ = 0u;
    if (gs_begin_lead())
        *gs_grid_slot() = *f;
    gs_group_barrier();
    return g;
#else
    return *f;
#endif
}

/* The body of a gs_grid_begin_<p>: the statements given make `f`, the group's fields
 * (gs_grid_open, then the protocol's setup), and the grid is published. One argument,
 * with no comma outside parentheses: OpenCL C 1.2 has no variadic macros (NVIDIA's
 * compiler refused the program at -cl-std=CL1.2, the seeds' ordering). Where the fields
 * live in shared memory only the representative (on CUDA its warp, gs_begin_lead) makes
 * them: when every work-item read the header, an otherwise empty kernel of 1056 x 256 took
 * 25 us from launch to end on an H100 against 11 us without gridsync (8448 warps' loads of
 * the same few words, queued at one L2 line); with the representative alone, 12.2 against
 * 10.4 in the same run (one warp's lanes reading the same word make one request). */
#if GS_GRID_IN_SHARED
/* (clang-format would join the block and the store into one line) */
/* clang-format off */
#define GS_GRID_BEGIN(MAKE)        \
    gs_grid g_;                    \
    g_.in_shared_memory_ = 0u;     \
    if (gs_begin_lead()) {         \
        gs_grid_fields f;          \
        { MAKE }                   \
        *gs_grid_slot() = f;       \
    }                              \
    gs_group_barrier();            \
    return g_;
/* clang-format on */
#else
#define GS_GRID_BEGIN(MAKE) \
    gs_grid_fields f;       \
    {                       \
        MAKE                \
    }                       \
    return f;
#endif

/* aux: either GS_AUX_BAD | the reason (GS_ABORT_BAD_*, GS_ABORT_PEER) the launch cannot
 * use the state, or: release lines (flip, cluster, tree), the count of leaves, counters
 * or release lines, and this group's own, group % that count (a division once, not per
 * episode: on an arrival's path one cost the tree 150-350 ns per barrier on an H200), and
 * for auto whether the host chose the tree. The host keeps the count within
 * GS_AUX_MAX_COUNT. */
#define GS_AUX_BAD 0x80000000u
#define GS_AUX_LINES 0x40000000u
#define GS_AUX_COUNT_SHIFT 16u
#define GS_AUX_COUNT_MASK GS_AUX_MAX_COUNT
#define GS_AUX_TREE 0x8000u
#define GS_AUX_OWN_MASK 0x7fffu
GS_DEVICE gs_u32 gs_aux_count(const gs_grid *g)
{
    return (gs_f(g)->aux >> GS_AUX_COUNT_SHIFT) & GS_AUX_COUNT_MASK;
}
GS_DEVICE gs_u32 gs_aux_own(const gs_grid *g) { return gs_f(g)->aux & GS_AUX_OWN_MASK; }
GS_DEVICE int gs_aux_lines(const gs_grid *g) { return (gs_f(g)->aux & GS_AUX_LINES) != 0u; }

/* A word of the state, from the group's fields (not published yet in a protocol's setup,
 * or a copy: flip's episode in one piece) or from the grid. */
GS_DEVICE GS_GLOBAL gs_word *gs_field_word(const gs_grid_fields *f, gs_u32 line, gs_u32 word)
{
    return f->state + GS_WORD(line, word);
}
GS_DEVICE GS_GLOBAL gs_word *gs_word_at(const gs_grid *g, gs_u32 line, gs_u32 word)
{
    return gs_field_word(gs_f(g), line, word);
}

/* Why the launch cannot use its state (kept in aux: no register of its own), or 0. */
GS_DEVICE gs_u32 gs_bad_of(gs_u32 aux)
{
    return (aux & GS_AUX_BAD) ? (aux & ~GS_AUX_BAD) : GS_ABORT_NONE;
}
GS_DEVICE gs_u32 gs_launch_bad(const gs_grid *g) { return gs_bad_of(gs_f(g)->aux); }

/* How many of the groups fall on leaf (or shard) k of `count`, groups being dealt
 * round-robin: group j is on leaf j % count. */
GS_DEVICE gs_u32 gs_leaf_members(gs_u32 groups, gs_u32 count, gs_u32 k)
{
    return (groups - k + count - 1u) / count;
}

/* The count packed into aux and this group's place in it (a protocol's setup). */
GS_DEVICE gs_u32 gs_aux_make(gs_u32 count, int lines)
{
    gs_u32 own = count ? gs_group_id() % count : 0u;
    return (lines ? GS_AUX_LINES : 0u) | ((count & GS_AUX_COUNT_MASK) << GS_AUX_COUNT_SHIFT) |
           (own & GS_AUX_OWN_MASK);
}

/* lockfree and sharded: how many work-items of a group may poll (the host's choice; all
 * of them where it is 0 or more than the group has). */
GS_DEVICE gs_u32 gs_spinners(GS_GLOBAL gs_word *state)
{
    gs_u32 n = gs_load_header(&state[GS_HDR_SPINNERS]);
    return n == 0u || n > gs_local_size() ? gs_local_size() : n;
}

/* Any protocol id a kernel may take (the run-time dispatch: its switch refuses the rest). */
#define GS_ACCEPT_ANY 0xffffffffu

/* The host's copy of the abort line, where the shim has one (gs_host_store) and the host
 * gave its address (GS_HDR_MIRROR_*), or 0. Measured on the H100, 132 x 256, an empty
 * kernel through gs_cuda_launch: 26.6 us from call to return when the host copied the
 * line back after the kernel (and cleared the acknowledgement with a memset before it),
 * against 12.6 us for a bare cooperative launch and wait; with this copy, 10.9 against
 * 10.8 (at 1056 x 256: 13.5 against 12.4). */
GS_DEVICE gs_u64 gs_mirror_of(GS_GLOBAL gs_word *state)
{
#if defined(GS_HOST_MIRROR) && GS_HOST_MIRROR
    return (gs_u64)gs_load_header(&state[GS_HDR_MIRROR_LO]) |
           ((gs_u64)gs_load_header(&state[GS_HDR_MIRROR_HI]) << 32);
#else
    (void)state;
    return 0u;
#endif
}
#if !(defined(GS_HOST_MIRROR) && GS_HOST_MIRROR)
#define gs_host_store(address, v) ((void)(address), (void)(v))
#endif

/* The winner's record of an abort, in the line and (its reason) in the host's copy. */
GS_COLD_ABORT void gs_record_abort(GS_GLOBAL gs_word *state, gs_u32 reason, gs_u32 episode,
                                   gs_u32 group, gs_u32 item)
{
    gs_store_relaxed(&state[GS_WORD(GS_LINE_ABORT, GS_ABORT_GROUP)], group);
    gs_store_relaxed(&state[GS_WORD(GS_LINE_ABORT, GS_ABORT_EPISODE)], episode);
    gs_store_relaxed(&state[GS_WORD(GS_LINE_ABORT, GS_ABORT_ITEM)], item);
    gs_u64 at = gs_mirror_of(state); /* the reason alone: the host reads the rest */
    if (at != 0u)
        gs_host_store(at + 4u * GS_ABORT_REASON, reason);
}

/* First to give up records who and where; the host reads it after the launch. */
GS_COLD_ABORT void gs_raise_abort_at(GS_GLOBAL gs_word *state, gs_u32 episode, gs_u32 group,
                                     gs_u32 item, gs_u32 reason)
{
    if (gs_cas_relaxed(&state[GS_WORD(GS_LINE_ABORT, GS_ABORT_REASON)], 0u, reason) == 0u)
        gs_record_abort(state, reason, episode, group, item);
}
GS_COLD_ABORT void gs_raise_abort(const gs_grid *g, gs_u32 reason)
{
    if (gs_cas_relaxed(gs_word_at(g, GS_LINE_ABORT, GS_ABORT_REASON), 0u, reason) == 0u)
        gs_record_abort(gs_f(g)->state, reason, gs_f(g)->episode, gs_g_group(g), gs_g_lid(g));
}

/* Every work-item of every group, once, before its first barrier: reads the header and
 * decides whether this launch can use the state for protocol `a` (or `b`: auto takes two;
 * GS_ACCEPT_ANY, the run-time dispatch, takes the header's). g.algo is `a` for a kernel
 * of one protocol, a constant. A state without the magic may be anything: nothing is
 * written to it, and the host, which finds no acknowledgement in its own barrier's
 * state, reports the launch (GS_ERR_BAD_STATE). gs_grid_open_as takes the magic of a
 * state laid out as a barrier's for another use (gridsync/multi_state.h). */
GS_DEVICE gs_grid_fields gs_grid_open_as(GS_GLOBAL gs_word *state, gs_u32 magic, gs_u32 a, gs_u32 b)
{
    gs_grid_fields g;
    /* Every word the checks need, loaded before any is tested (the header's through the
     * read-only path, gs_load_header; the abort word, which a launch may write,
     * relaxed): their round trips overlap, where a load after each test made four in a
     * row. Every gridsync state has the header and abort lines. */
    gs_u32 found = gs_load_header(&state[GS_HDR_MAGIC]);
    gs_u32 algo = gs_load_header(&state[GS_HDR_ALGO]);
    gs_u32 size = gs_load_header(&state[GS_HDR_GROUP_SIZE]);
    gs_u32 groups = gs_load_header(&state[GS_HDR_GROUPS]);
    gs_u32 aborted = gs_load_relaxed(&state[GS_WORD(GS_LINE_ABORT, GS_ABORT_REASON)]);
    g.state = state;
    g.aux = 0u;
    g.share = 0u;
    g.episode = 0u;
    g.algo = a == GS_ACCEPT_ANY ? algo : a;
    g.group = gs_group_id();
    g.groups = gs_num_groups();
#if !GS_GRID_IN_SHARED
    g.lid = gs_local_id();
    g.lsize = gs_local_size();
#endif
    if (found != magic || (a != GS_ACCEPT_ANY && algo != a && algo != b)) {
        g.aux = GS_AUX_BAD | GS_ABORT_BAD_STATE;
        return g;
    }
    if (gs_group_id() == 0u && gs_begin_lead()) {
        gs_store_relaxed(&state[GS_WORD(GS_LINE_ABORT, GS_ABORT_ACK)], 1u);
        gs_u64 at = gs_mirror_of(state);
        if (at != 0u)
            gs_host_store(at + 4u * GS_ABORT_ACK, 1u);
    }
    if (groups != gs_num_groups() || (size != 0u && size != gs_local_size())) {
        g.aux = GS_AUX_BAD | GS_ABORT_BAD_GRID;
        if (gs_local_first_fresh()) /* here, once, not in the user's loop */
            gs_raise_abort_at(state, 0u, gs_group_id(), gs_local_id(), GS_ABORT_BAD_GRID);
    } else if (aborted != GS_ABORT_NONE) {
        g.aux = GS_AUX_BAD | GS_ABORT_PEER; /* an earlier launch aborted: leave at once */
    } else {
        /* Every group ended the previous launch at the same episode, and only this group
         * writes its own count: the state needs no reset between launches. */
        g.episode = gs_load_relaxed(&state[GS_WORD(GS_LINE_GROUP_A(gs_group_id()), GS_G_ARRIVED)]);
    }
    return g;
}
GS_DEVICE gs_grid_fields gs_grid_open(GS_GLOBAL gs_word *state, gs_u32 a, gs_u32 b)
{
    return gs_grid_open_as(state, GS_STATE_MAGIC, a, b);
}

/* The grid of a kernel that only waits (the OpenCL deadline calibration, occupancy
 * discovery), on a state whose header only it uses: its one polling work-item per group
 * writes the bound there, the same value from every group. */
GS_DEVICE gs_grid gs_grid_waiter(GS_GLOBAL gs_word *state, gs_u64 timeout)
{
    gs_grid_fields g;
    g.group = gs_group_id();
    g.groups = gs_num_groups();
#if !GS_GRID_IN_SHARED
    g.lid = 0u; /* its one polling work-item */
    g.lsize = 1u;
#endif
    gs_store_relaxed(&state[GS_HDR_TIMEOUT_LO], (gs_u32)timeout);
    gs_store_relaxed(&state[GS_HDR_TIMEOUT_HI], (gs_u32)(timeout >> 32));
    g.state = state;
    g.episode = 0u;
    g.algo = GS_ALGO_ID_CENTRAL;
    g.aux = 0u;
    g.share = 1u;
    return gs_grid_publish(&g);
}

/* What a wait waits for. */
#define GS_UNTIL_REACHED 0u /* the word has reached target (modulo 2^32) */
#define GS_UNTIL_FLIP 1u    /* the word's flip bit equals target */
#define GS_UNTIL_FLAGS 2u /* every flag of the word under mask equals target (as a flag holds it) */

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

/* A wait's clock, in the shim's ticks (gs_tick_t, gs_ticks(polls): CUDA 32-bit ticks of
 * 2.048 us of %globaltimer, the cpu nanoseconds, OpenCL the poll count), and the header's
 * bound in them. A wait keeps its deadline in those ticks, not in 64 bits: every register
 * it holds is one the user's loop around the barrier does not have. */
#ifndef gs_tick_t
#define gs_tick_t gs_u64
#define gs_ticks(polls) gs_clock(polls)
#define gs_ticks_of_bound(units) (units)
#endif
/* A wait's poll count: 64 bits where it is the clock (OpenCL: 2^32 polls last ~1.5 s on
 * PoCL), else the shim may say 32. */
#ifndef gs_polls_t
#define gs_polls_t gs_u64
#endif
/* The bound in a state's header (a barrier's or local synchronization's: the same words). */
GS_DEVICE gs_tick_t gs_bound_of(GS_GLOBAL gs_word *state)
{
    return gs_ticks_of_bound((gs_u64)gs_load_header(&state[GS_HDR_TIMEOUT_LO]) |
                             ((gs_u64)gs_load_header(&state[GS_HDR_TIMEOUT_HI]) << 32));
}
GS_DEVICE gs_tick_t gs_wait_bound(const gs_grid *g) { return gs_bound_of(gs_f(g)->state); }

/* What a wait's look decides on: the abort word, read beside a poll (GS_BOUNDED_SPIN),
 * and the clock against the wait's deadline. */
typedef struct gs_spin_seen {
    gs_tick_t deadline; /* the clock at the wait's first look plus the header's bound */
    gs_tick_t now;      /* the clock at this look */
    gs_u32 abort;       /* the abort word */
} gs_spin_seen;
/* Half the clock's range: a deadline is at most that far ahead, so that `now` is past it
 * where now - deadline, wrapped, is at most this (a bound of more than half the range is
 * cut to it; CUDA's half is 73 minutes, longer than the longest bound). */
#define GS_TICKS_HALF ((gs_tick_t)(~(gs_tick_t)0 >> 1))

/* Why a wait that saw `seen` must end: the abort word, then the clock past the deadline
 * (GS_ABORT_TIMEOUT: the caller raises the abort with what it knows); 0 to go on. */
GS_DEVICE gs_u32 gs_look_at(gs_spin_seen seen)
{
#if defined(GS_NO_DEADLINE) && GS_NO_DEADLINE /* only to measure what the bound costs */
    return GS_ABORT_NONE;
#endif
    if (seen.abort != 0u)
        return GS_ABORT_PEER;
    if ((gs_tick_t)(seen.now - seen.deadline) <= GS_TICKS_HALF)
        return GS_ABORT_TIMEOUT;
    return GS_ABORT_NONE;
}

/* A barrier's look, every 16th failed poll: a timeout raises the abort, naming the
 * group, its work-item and the episode, where `records`: whether this work-item is the
 * one that records (every waiter is but the lanes of flip's warp other than lane 0,
 * gs_rep_warp_wait; elsewhere a constant the compiler folds). */
GS_COLD gs_u32 gs_wait_look_as(const gs_grid *g, gs_spin_seen seen, int records)
{
    gs_u32 why = gs_look_at(seen);
    if (why == GS_ABORT_TIMEOUT && records)
        gs_raise_abort(g, GS_ABORT_TIMEOUT);
    return why;
}

/* The only spin in gridsync, written once for every wait that expands it (gs_wait_masked
 * below, gridsync/local.h, gridsync/multi.h): the statements of a function's body that
 * return 0 once READY (an expression polled again each time, with the shim's
 * gs_poll_load) holds, else why the caller must leave. Once READY holds it takes the
 * acquire with gs_poll_acquire (an acquire load per poll on the cpu and OpenCL; on CUDA
 * relaxed polls and one fence.acquire, since ld.acquire invalidates the SM's L1 at every
 * poll).
 *
 * Every 16th failed poll evaluates LOOK, which may use gs_spin (gs_spin_seen: the abort
 * word, the clock and the wait's deadline; gs_wait_look_as). The abort word is loaded
 * beside one more poll, the header's words through the read-only cache (gs_load_header)
 * and the bound once, into the deadline: a look waits for no L2 round trip of its own.
 * Where the look read the abort word after a failed poll and then the bound, two round
 * trips one after the other, a group in its look when the release came saw it up to two
 * round trips late, and with a hundred groups or more one of them nearly always was: in
 * the user's Jacobi kernel at 8192^2 on 132 blocks, flip written bare with such a look
 * was 0.14% slower than without (bench/micro/jacobi_order.cu, "+book";
 * bench/results/h200/eleventh/jacobi_order_ladder.csv), where an iteration is 0.9 ms;
 * the library's flip gained 0.17% at 512^2 and 0.13% at 8192^2 on 132 blocks with the
 * look's words read this way (H100, bench/results/h100/twelfth/ab_headers_spin.csv).
 *
 * From the 16th poll on the poller backs off by the nanoseconds in the header's
 * GS_HDR_BACKOFF (HEADER: the state's first word), so the fast path costs nothing extra.
 * The back-off grows by half at every look, up to the header's GS_HDR_BACKOFF_CAP
 * (GS_DEFAULT_BACKOFF_CAP_NS unless the barrier's options say otherwise): a wait long
 * enough to grow it is one where pollers share their SMs with groups still computing,
 * and a poll every ~0.7 us takes their issue slots: the Pi program's barrier way on an
 * H100, 10^10 steps, took 11.47 ms with a fixed 32 ns against the host way's 11.24,
 * 11.31 with a fixed 1000 ns, 11.27 with 20000. The time a release may wait for a
 * sleeper grows with the wait: ~0.8 us at 100 us of waiting, the cap after about half a
 * millisecond. A group that waits long and alone (the others arrived and left,
 * docs/using.md) sees the release up to a cap late: the Pi program's barrier way with
 * group 0 its one waiter, on an H200, woke 6.1 us after the last arrival at 10^9 steps and
 * 21.5 at 10^10 with the default cap, 1.5 and 2.8 with 2048 ns
 * (bench/results/h200/pi_finish_stamps.csv); a small cap costs the groups still
 * computing on the poller's SM its polls' issue slots, and apps/pi makes its waiter the
 * last group instead, which waits ~10 us. GS_BOUNDED_SPIN_THEN takes the acquire as
 * ACQUIRE instead: a wait of several words may take one acquire after the last
 * (gridsync/multi.h, at system scope). */
#define GS_BOUNDED_SPIN(READY, HEADER, LOOK) \
    GS_BOUNDED_SPIN_THEN(READY, HEADER, LOOK, gs_poll_acquire())
#define GS_BOUNDED_SPIN_THEN(READY, HEADER, LOOK, ACQUIRE)                                       \
    gs_polls_t gs_spin_polls = 0u;                                                               \
    gs_spin_seen gs_spin = {0u, 0u, 0u};                                                         \
    gs_u32 gs_spin_backoff = 0u;                                                                 \
    while (!(READY)) {                                                                           \
        ++gs_spin_polls;                                                                         \
        gs_pause(gs_spin_polls, gs_spin_backoff);                                                \
        if ((gs_spin_polls & 15u) != 0u)                                                         \
            continue;                                                                            \
        gs_spin.abort = gs_load_relaxed(&(HEADER)[GS_WORD(GS_LINE_ABORT, GS_ABORT_REASON)]);     \
        if (READY) /* polled again beside the abort word's load */                               \
            break;                                                                               \
        if (gs_spin_polls == 16u) {                                                              \
            gs_spin_backoff = gs_load_header(&(HEADER)[GS_HDR_BACKOFF]);                         \
        } else {                                                                                 \
            gs_u32 gs_spin_cap = gs_load_header(&(HEADER)[GS_HDR_BACKOFF_CAP]);                  \
            if (gs_spin_backoff < gs_spin_cap) {                                                 \
                gs_spin_backoff += gs_spin_backoff >> 1;                                         \
                gs_spin_backoff = gs_spin_backoff < gs_spin_cap ? gs_spin_backoff : gs_spin_cap; \
            }                                                                                    \
        }                                                                                        \
        gs_spin.now = gs_ticks(gs_spin_polls);                                                   \
        if (gs_spin_polls == 16u) {                                                              \
            gs_tick_t gs_spin_bound = gs_bound_of(HEADER);                                       \
            gs_spin.deadline =                                                                   \
                gs_spin.now + (gs_spin_bound < GS_TICKS_HALF ? gs_spin_bound : GS_TICKS_HALF);   \
        }                                                                                        \
        gs_u32 gs_spin_why = (LOOK);                                                             \
        if (gs_spin_why != GS_ABORT_NONE)                                                        \
            return gs_spin_why;                                                                  \
    }                                                                                            \
    ACQUIRE;                                                                                     \
    return GS_ABORT_NONE

/* A barrier's wait: until w is ready for gs_ready, bounded by the barrier's header; a
 * timeout recorded where `records` (gs_wait_look_as). */
GS_DEVICE gs_u32 gs_wait_masked_as(const gs_grid *g, GS_GLOBAL gs_word *w, gs_u32 target,
                                   gs_u32 until, gs_u32 mask, int records)
{
    GS_BOUNDED_SPIN(gs_ready(gs_poll_word(w, until), target, until, mask), gs_f(g)->state,
                    gs_wait_look_as(g, gs_spin, records));
}
GS_DEVICE gs_u32 gs_wait_masked(const gs_grid *g, GS_GLOBAL gs_word *w, gs_u32 target, gs_u32 until,
                                gs_u32 mask)
{
    return gs_wait_masked_as(g, w, target, until, mask, 1);
}
GS_DEVICE gs_u32 gs_wait(const gs_grid *g, GS_GLOBAL gs_word *w, gs_u32 target, gs_u32 until)
{
    return gs_wait_masked(g, w, target, until, 0xffffffffu);
}

#if defined(GS_EPISODE_IN_ONE_PIECE) && GS_EPISODE_IN_ONE_PIECE
/* gs_wait for the representative's whole warp (the shim's gs_rep_warp, flip's episode in
 * one piece): every lane polls and looks alike, and lane 0 alone records a timeout, as
 * the representative did (its group and work-item). */
GS_DEVICE gs_u32 gs_rep_warp_wait(const gs_grid *g, GS_GLOBAL gs_word *w, gs_u32 target,
                                  gs_u32 until)
{
    return gs_wait_masked_as(g, w, target, until, 0xffffffffu, gs_lane_id_pure() == 0u);
}
#endif

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
GS_DEVICE gs_u32 gs_wait_flags(const gs_grid *g, GS_GLOBAL gs_word *w, gs_u32 stride, gs_u32 count,
                               gs_u32 target)
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
                    pending &= gs_ready(v[i], target, GS_UNTIL_FLAGS, 0xffffffffu) ? ~(1u << at[i])
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
GS_DEVICE GS_GLOBAL gs_word *gs_note_word_of(const gs_grid_fields *f)
{
    return gs_field_word(f, GS_LINE_GROUP_A(f->group), GS_G_ARRIVED);
}
GS_DEVICE void gs_note_arrival(const gs_grid *g)
{
    gs_store_relaxed(gs_note_word_of(gs_f(g)), gs_f(g)->episode + 1u);
}

/* Ends a barrier: a group barrier that also tells every work-item whether any of
 * them must leave. */
GS_DEVICE gs_u32 gs_group_verdict(const gs_grid *g, gs_u32 why)
{
    return gs_group_any(why != 0u, gs_word_at(g, GS_LINE_GROUP_A(gs_g_group(g)), GS_G_VERDICT))
               ? (why ? why : GS_ABORT_PEER)
               : GS_ABORT_NONE;
}

/* The group's own misuse found where an episode begins (the one such: an episode after
 * its gs_arrive_last_<p> in the same launch, gridsync/barrier.h) is recorded, by the
 * representative, so that the launch ends in an error the host reports, not in groups
 * that left their loops early and GS_OK. Every other reason was raised, or left for the
 * host to find, when the launch began (gs_grid_open). A plain store of the reason, not
 * gs_raise_abort's first-wins exchange: with it in the arrival, PoCL 3.1's LLVM 15 crashed
 * building the protocols' kernels (SIGSEGV in its inliner, PHINode::removeIncomingValue).
 * So a later record may replace an earlier one; either names a group that misused the
 * barrier. */
GS_DEVICE void gs_bad_told(const gs_grid *g, gs_u32 why)
{
    if (why == GS_ABORT_AFTER_LAST) {
        gs_store_relaxed(gs_word_at(g, GS_LINE_ABORT, GS_ABORT_REASON), why);
        gs_record_abort(gs_f(g)->state, why, gs_f(g)->episode, gs_g_group(g), gs_g_lid(g));
    }
}

/* Where a protocol's arrival and wait touch the state from the representative alone
 * (after the arrival's group barrier), it tests there whether the launch can use the
 * state (its arrival sets t->why, its wait passes it to the verdict) and defines
 * GS_REP_ONLY_<name> as 1: the other work-items then test nothing at a barrier,
 * where every work-item's load of aux and branch before the group barrier cost 30-50 ns
 * a barrier in the Jacobi app's kernel on an H200 (bench/micro/jacobi_barriers.cu,
 * parts-nobad). Elsewhere 0, and gridsync/barrier.h tests it on every work-item. */
GS_DEVICE gs_u32 gs_rep_launch_bad(gs_token *t, const gs_grid *g)
{
    t->why = gs_launch_bad(g);
    if (t->why != GS_ABORT_NONE)
        gs_bad_told(g, t->why);
    return t->why;
}

/* A protocol whose episode is its arrival then its wait (all but cg) says so with this,
 * after it defines gs_<name>_arrive and gs_<name>_wait. */
#define GS_EPISODE_FROM_HALVES(name)                              \
    GS_DEVICE gs_u32 gs_##name##_episode(gs_grid *g, gs_token *t) \
    {                                                             \
        gs_##name##_arrive(g, t);                                 \
        return gs_##name##_wait(g, t);                            \
    }

#endif
