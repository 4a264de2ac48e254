/* bench/micro/hand_barriers.cuh - grid barriers written out bare, as policies of the
 * app's Jacobi kernel templates (apps/jacobi/jacobi_kernels.cuh), for the micro-benchmarks
 * that take gridsync's barrier apart (jacobi_barriers.cu, jacobi_order.cu). Each works
 * on its own zeroed counter words (the counter, an abort word at +32, notes from +64),
 * never reset: the top bit flips once per episode. Every wait gives up after POLL_LIMIT
 * polls (the result then differs from cg's and the row says so): nothing here hangs. */
#ifndef GS_BENCH_HAND_BARRIERS_CUH
#define GS_BENCH_HAND_BARRIERS_CUH

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

#endif
