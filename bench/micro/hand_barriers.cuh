/* bench/micro/hand_barriers.cuh - grid barriers written out bare, as policies of the
 * app's Jacobi kernel templates (apps/jacobi/jacobi_kernels.cuh), for the micro-benchmarks
 * that take gridsync's barrier apart (jacobi_barriers.cu, jacobi_order.cu). Each works
 * on its own zeroed counter words (the counter, an abort word at +32, notes from +64),
 * never reset: the top bit flips once per episode. Every wait gives up after POLL_LIMIT
 * polls (the result then differs from cg's and the row says so): nothing here hangs. */
#ifndef GS_BENCH_HAND_BARRIERS_CUH
#define GS_BENCH_HAND_BARRIERS_CUH

#include <cooperative_groups.h>

#include "gridsync/cuda.cuh"

/* The counter words a hand-written barrier needs for `groups` groups. */
#define HAND_WORDS(groups) (64u + 32u * (groups))
#define POLL_LIMIT (1u << 26)

/* grid.sync()'s algorithm on our own counter (state[0], zeroed once, never reset: the
 * top bit flips once per episode as in cooperative groups). */
struct hand_cg {
    gs_word *counter;
    __device__ explicit hand_cg(gs_word *state) : counter(state) {}
    __device__ gs_u32 sync()
    {
        __syncthreads();
        if (threadIdx.x == 0) {
            gs_u32 add = blockIdx.x == 0 ? 0x80000000u - (gridDim.x - 1u) : 1u;
            gs_u32 old = gs_fetch_add_release(counter, add);
            for (gs_u32 polls = 0;
                 ((gs_ld_acquire(counter) ^ old) & 0x80000000u) == 0u && polls < POLL_LIMIT;
                 ++polls) {
            }
        }
        __syncthreads();
        return 0u;
    }
};

/* flip's algorithm, bare: the last arriver does not poll; ACQ_POLLS: acquire polls (the
 * last arriver then takes no acquire at all: a deliberate bug, which the check must
 * catch). The rest add one of gridsync's ingredients each (the ladder):
 *   NOTE     a progress note stored after the add (gridsync's arrival note)
 *   VERDICT  the closing group barrier as __syncthreads_or of the wait's status
 *   BOOK     the poll loop's bookkeeping: a poll count, every 16th poll a look at the
 *            clock and an abort word, a back-off branch
 *   SLOT     the counter's address and the episode in a __shared__ slot, the episode
 *            counted by the representative after the verdict (gridsync's gs_grid) */
template <int ACQ_POLLS, int NOTE = 0, int VERDICT = 0, int BOOK = 0, int SLOT = 0>
struct hand_flip {
    gs_word *counter;
    __device__ explicit hand_flip(gs_word *state) : counter(state)
    {
        if (SLOT && threadIdx.x == 0) {
            slot()->counter = state;
            slot()->episode = 0u;
        }
    }
    struct shared_slot {
        gs_word *counter;
        gs_u32 episode;
    };
    static __device__ shared_slot *slot()
    {
        __shared__ shared_slot s;
        return &s;
    }
    __device__ gs_u32 poll(gs_word *c, gs_u32 old)
    {
        if (!BOOK) {
            for (gs_u32 polls = 0;
                 (((ACQ_POLLS ? gs_ld_acquire(c) : gs_ld_relaxed(c)) ^ old) & 0x80000000u) == 0u &&
                 polls < POLL_LIMIT;
                 ++polls) {
            }
            return 0u;
        }
        gs_u32 polls = 0, backoff = 0;
        unsigned long long start = 0;
        while (((gs_ld_relaxed(c) ^ old) & 0x80000000u) == 0u) {
            ++polls;
            if (backoff)
                __nanosleep(backoff);
            if ((polls & 15u) != 0u)
                continue;
            unsigned long long now;
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
            if (polls == 16u)
                start = now;
            else
                backoff = backoff ? backoff : 32u;
            if (gs_ld_relaxed(c + 32) != 0u || now - start > 2000000000ull || polls >= POLL_LIMIT)
                return 1u;
        }
        return 0u;
    }
    __device__ gs_u32 sync()
    {
        __syncthreads();
        gs_u32 why = 0u;
        if (threadIdx.x == 0) {
            gs_word *c = SLOT ? slot()->counter : counter;
            gs_u32 add = blockIdx.x == 0 ? 0x80000000u - (gridDim.x - 1u) : 1u;
            gs_u32 old = gs_fetch_add_release(c, add);
            if (NOTE)
                gs_st_relaxed(c + 64 + 32 * blockIdx.x, (SLOT ? slot()->episode : 0u) + 1u);
            if (((old ^ (old + add)) & 0x80000000u) == 0u)
                why = poll(c, old);
            if (!ACQ_POLLS)
                gs_fence_acquire();
        }
        if (VERDICT)
            why = __syncthreads_or(why != 0u) ? 1u : 0u;
        else
            __syncthreads();
        if (SLOT && threadIdx.x == 0)
            ++slot()->episode;
        return why;
    }
};

/* gridsync's flip taken apart: the library's own arrival (gs_flip_arrive_rep) and settle
 * (gs_flip_settle, or a bare poll), called from a policy that leaves out one thing the
 * library's gs_sync_flip does at each barrier:
 *   LEAN_FIRST  the representative is threadIdx.x == 0, a predicate the compiler may keep
 *               across the loop, where gs_g_first reads tid.x, tid.y, tid.z and laneid
 *               through volatile asm twice a barrier (no register held)
 *   NO_BAD      no per-barrier test that the launch can use its state (every work-item's
 *               shared load of aux, and a branch before the group barrier)
 *   BARE_POLL   the representative polls bare (no poll count, look or back-off)
 * flip-parts<0,0,0> is gs_sync_flip written out: it must time as flip does. Launched by
 * this program's own cooperative launch on the library's state, after one launch through
 * gs_cuda_launch_timed (which records the launch's shape in the state). */
template <int LEAN_FIRST, int NO_BAD, int BARE_POLL> struct flip_parts {
    gs_grid g;
    __device__ explicit flip_parts(gs_word *state) : g(gs_grid_begin_flip(state)) {}
    __device__ bool first() { return LEAN_FIRST ? threadIdx.x == 0 : gs_g_first(&g); }
    __device__ gs_u32 sync()
    {
        gs_token t = {0u, 0u, 0u, 0u};
        if (!NO_BAD && (t.why = gs_launch_bad(&g)) != 0u)
            return t.why;
        gs_group_barrier();
        gs_u32 why = 0u;
        if (first()) {
            t.target = gs_flip_bit_after(&g);
            gs_u32 add = gs_flip_group_share(&g);
            gs_flip_arrive_rep(&g, &t, add, 0);
            if (!BARE_POLL) {
                why = gs_flip_settle(&g, &t, add, 0);
            } else {
                if (!gs_flip_completed(t.before, add)) {
                    gs_word *c = gs_word_at(&g, GS_LINE_COUNTER, 0u);
                    gs_u32 polls = 0;
                    while ((gs_ld_relaxed(c) & GS_FLIP_BIT) != t.target && ++polls < POLL_LIMIT) {
                    }
                    why = polls >= POLL_LIMIT;
                }
                gs_fence_acquire();
            }
        }
        why = gs_group_verdict(&g, why);
        if (first())
            ++gs_f(&g)->episode;
        return why;
    }
};

/* grid.sync() in a kernel that also has a static __shared__ slot (written once, read at
 * each barrier), as gridsync's kernels keep their fields: whether shared memory in the
 * kernel alone (the SM's L1/shared split) changes the user's sweep. */
struct cg_slot {
    cooperative_groups::grid_group grid;
    static __device__ gs_u32 *slot()
    {
        __shared__ gs_u32 s;
        return &s;
    }
    __device__ explicit cg_slot(gs_word *) : grid(cooperative_groups::this_grid())
    {
        if (threadIdx.x == 0)
            *slot() = 0u;
        __syncthreads();
    }
    __device__ gs_u32 sync()
    {
        grid.sync();
        return *slot();
    }
};

/* hand-flip on a flip state's counter line, in a kernel that begins the state as a
 * gridsync kernel does (gs_grid_begin_flip: the header read, the launch acknowledged,
 * in host memory too where the host gave a copy's address, the fields in shared memory)
 * but never uses the fields: what the begin alone costs the user's loop. */
struct begun_hand_flip {
    gs_grid g;
    hand_flip<0> h;
    __device__ explicit begun_hand_flip(gs_word *state)
        : g(gs_grid_begin_flip(state)), h(state + 32u * GS_LINE_COUNTER)
    {
    }
    __device__ gs_u32 sync() { return h.sync(); }
};

/* begun_hand_flip's begin taken apart: hand-flip on a flip state's counter line after one
 * piece of gs_grid_begin_flip: BEGIN_BAR a group barrier; BEGIN_SLOT the representative
 * writes a 32-byte slot in shared memory, then the group barrier; BEGIN_NC the
 * representative reads four header words through the read-only path (gs_load_header)
 * into a shared word, then the group barrier; BEGIN_RELAXED the same with relaxed loads. */
enum {
    BEGIN_BAR,
    BEGIN_SLOT,
    BEGIN_NC,
    BEGIN_RELAXED,
    BEGIN_NC_LAST_WARP,
    BEGIN_NC_NO_BAR,
    BEGIN_NC_WARP
};
template <int PIECE> struct begin_piece {
    hand_flip<0> h;
    struct slot_t {
        gs_word *p;
        gs_u32 a, b, c, d, e, f;
    };
    static __device__ slot_t *slot()
    {
        __shared__ slot_t s;
        return &s;
    }
    __device__ explicit begin_piece(gs_word *state) : h(state + 32u * GS_LINE_COUNTER)
    {
        if (threadIdx.x == 0 && PIECE == BEGIN_SLOT)
            *slot() = slot_t{state, 1u, 2u, 3u, 4u, 5u, 6u};
        /* BEGIN_NC_LAST_WARP: the reads by the last warp's first thread; BEGIN_NC_NO_BAR:
         * no group barrier after them (the first episode's orders the slot); BEGIN_NC_WARP:
         * by the whole first warp, each lane one word */
        unsigned reader = PIECE == BEGIN_NC_LAST_WARP ? blockDim.x - 32u : 0u;
        if (threadIdx.x == reader && (PIECE == BEGIN_NC || PIECE == BEGIN_RELAXED ||
                                      PIECE == BEGIN_NC_LAST_WARP || PIECE == BEGIN_NC_NO_BAR)) {
            gs_u32 x = 0u;
            for (gs_u32 w = 0u; w < 4u; ++w)
                x +=
                    PIECE == BEGIN_RELAXED ? gs_load_relaxed(&state[w]) : gs_load_header(&state[w]);
            slot()->a = x;
        }
        if (PIECE == BEGIN_NC_WARP && threadIdx.x < 32u) {
            gs_u32 x = gs_load_header(&state[threadIdx.x % 4u]);
            x += __shfl_xor_sync(0xffffffffu, x, 1);
            x += __shfl_xor_sync(0xffffffffu, x, 2);
            if (threadIdx.x == 0u)
                slot()->a = x;
        }
        if (PIECE != BEGIN_NC_NO_BAR)
            __syncthreads();
    }
    __device__ gs_u32 sync() { return h.sync(); }
};

/* hand-flip with the group's first warp converged through the episode: lane 0's add (one
 * predicated instruction, no branch), its result to every lane, and every lane polling
 * the same word (one request a poll), so that no lane of the first warp takes a branch
 * of its own. ACQ: acquire polls, and as in hand_flip<1> the last arriver then takes no
 * acquire at all, a deliberate bug the check catches (an H100 run: FAIL at 512^2 on 132
 * blocks, bench/results/h100/eleventh/jacobi_order_warp.csv). Made to report a timeout
 * (warp_bounded): VERDICT the whole group leaves on it (__syncthreads_or); ABORT lane 0
 * raises the abort word (+32) as it gives up; SLEEP polls after the 16th sleep 256 ns. */
template <int ACQ, int VERDICT = 0, int ABORT = 0, int SLEEP = 0> struct hand_flip_warp {
    gs_word *counter;
    __device__ explicit hand_flip_warp(gs_word *state) : counter(state) {}
    __device__ gs_u32 sync()
    {
        __syncthreads();
        gs_u32 why = 0u;
        if (threadIdx.x < 32u) {
            gs_u32 add = blockIdx.x == 0 ? 0x80000000u - (gridDim.x - 1u) : 1u, old = 0u;
            if (threadIdx.x == 0u)
                old = gs_fetch_add_release(counter, add);
            old = __shfl_sync(0xffffffffu, old, 0);
            if (((old ^ (old + add)) & 0x80000000u) == 0u) {
                gs_u32 polls = 0;
                while ((((ACQ ? gs_ld_acquire(counter) : gs_ld_relaxed(counter)) ^ old) &
                        0x80000000u) == 0u &&
                       ++polls < POLL_LIMIT) {
                    if (SLEEP && polls > 16u)
                        __nanosleep(256u);
                }
                why = polls >= POLL_LIMIT;
                if (ABORT && why && threadIdx.x == 0u)
                    gs_st_relaxed(counter + 32, 1u);
            }
            if (!ACQ)
                gs_fence_acquire();
        }
        if (VERDICT)
            return __syncthreads_or(why != 0u) ? 1u : 0u;
        __syncthreads();
        return why;
    }
};

/* flip at its leanest with a real bound: hand-flip's bare loop for FAST polls, then the
 * rest of the wait (a back-off sleep, every 16th poll the clock against a 2 s deadline
 * and the abort word at +32) in a function of its own, __noinline__, that a release in
 * time never reaches; the verdict as __syncthreads_or. Whether moving every slow path
 * out of line gives the user's sweep loop grid.sync()'s schedule: ptxas wrote 71 cycles
 * of fixed stalls into this kernel's loop (FAST 64 or 1024), 66 into cg's and
 * hand-flip's, 70 into the library's flip (docs/performance.md, twenty-third round). */
__device__ __noinline__ gs_u32 lean_flip_slow_wait(gs_word *c, gs_u32 old)
{
    gs_u32 polls = 0u;
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    while (((gs_ld_relaxed(c) ^ old) & 0x80000000u) == 0u) {
        __nanosleep(32u);
        if ((++polls & 15u) != 0u)
            continue;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
        if (gs_ld_relaxed(c + 32) != 0u || now - start > 2000000000ull)
            return 1u;
    }
    return 0u;
}
template <unsigned FAST> struct lean_flip {
    gs_word *counter;
    __device__ explicit lean_flip(gs_word *state) : counter(state) {}
    __device__ gs_u32 sync()
    {
        __syncthreads();
        gs_u32 why = 0u;
        if (threadIdx.x == 0) {
            gs_u32 add = blockIdx.x == 0 ? 0x80000000u - (gridDim.x - 1u) : 1u;
            gs_u32 old = gs_fetch_add_release(counter, add);
            if (((old ^ (old + add)) & 0x80000000u) == 0u) {
                gs_u32 polls = 0u;
                while (((gs_ld_relaxed(counter) ^ old) & 0x80000000u) == 0u)
                    if (++polls == FAST) {
                        why = lean_flip_slow_wait(counter, old);
                        break;
                    }
            }
            gs_fence_acquire();
        }
        return __syncthreads_or(why != 0u) ? 1u : 0u;
    }
};

/* hand-flip-warp made to report, one ingredient of a bounded wait at a time (see
 * hand_flip_warp): VERDICT, ABORT, SLEEP. ptxas wrote 66, 67 and 70 cycles of fixed stalls
 * into the user's sweep loop with one, two and three of them (docs/performance.md,
 * twenty-third round). */
template <int VERDICT, int ABORT, int SLEEP>
using warp_bounded = hand_flip_warp<0, VERDICT, ABORT, SLEEP>;

/* warp-lean: warp-abort's converged first warp polling bare for FAST polls, then
 * lean_flip's slow wait out of line (clock, abort word, back-off), the verdict as
 * __syncthreads_or: whether warp-abort's schedule of the user's loop (67 cycles, level
 * with grid.sync()) survives a real time bound kept out of line. It does not: ptxas wrote
 * 71 cycles (FAST 64 or 1024), and the kernel ran 0.1-0.25% behind grid.sync() at 8192^2
 * where warp-abort was level in the same call (docs/performance.md, twenty-fourth round). */
template <unsigned FAST> struct warp_lean {
    gs_word *counter;
    __device__ explicit warp_lean(gs_word *state) : counter(state) {}
    __device__ gs_u32 sync()
    {
        __syncthreads();
        gs_u32 why = 0u;
        if (threadIdx.x < 32u) {
            gs_u32 add = blockIdx.x == 0 ? 0x80000000u - (gridDim.x - 1u) : 1u, old = 0u;
            if (threadIdx.x == 0u)
                old = gs_fetch_add_release(counter, add);
            old = __shfl_sync(0xffffffffu, old, 0);
            if (((old ^ (old + add)) & 0x80000000u) == 0u) {
                gs_u32 polls = 0;
                while (((gs_ld_relaxed(counter) ^ old) & 0x80000000u) == 0u)
                    if (++polls == FAST) {
                        why = lean_flip_slow_wait(counter, old);
                        break;
                    }
            }
            gs_fence_acquire();
        }
        return __syncthreads_or(why != 0u) ? 1u : 0u;
    }
};

#endif
