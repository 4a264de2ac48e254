/* bench/micro/variants.cu - gs_variants: candidate barrier designs side by side with the
 * vendor's grid.sync(), in one bare harness, before any of them goes into the library.
 *
 * Every kernel is the same loop: (optionally) block b stores episode+1 into its slot of a
 * double buffer, the barrier, then (optionally) thread 0 reads the slot of another block
 * with a plain load and counts a mismatch. The timed runs leave the data out (the bare
 * barrier, as grid.sync() is usually quoted); a separate run with the data checks the
 * design and is timed too. Every poll is bounded: after ~2^21 polls a waiter raises an
 * abort flag that every other waiter sees, and the host reports the run as hung.
 *
 * Designs (thread 0 of a block is its representative unless said):
 *   cg         cooperative_groups::this_grid().sync(), grid object made once
 *   cg_split   this_grid().barrier_arrive() / barrier_wait(), grid object per call
 *   flip       atom.add.release (result used) on a flip counter; the last arriver does not
 *              poll; the others poll with ld.acquire  (= gridsync's flip)
 *   count_*    red.add.release on a monotonic counter; everybody polls until the count
 *              reaches (e+1)*N; the acquire is:  _facq  ld.relaxed polls + fence.acquire
 *                                                 _fence ld.relaxed polls + fence.acq_rel
 *                                                 _ldacq ld.acquire polls
 *   ccount<C>  Hopper clusters of C blocks: cluster barrier, rank 0 does count_facq over
 *              clusters, cluster barrier
 *   mlf        multi-line lock-free: each block st.release's its episode into its own word
 *              (32 words per 128-byte line); block 0's threads poll all words in parallel,
 *              fence, and store the episode into one release line per 32 blocks; every
 *              block polls its release line (32 pollers per line, not N)
 *   a2a_<L>    all to all, one hop and no atomics: block b stores episode+1 into its own
 *              flag (st.release), and every block's threads poll all flags, thread t the
 *              flags t, t+T, ... (relaxed loads, one fence.acquire at the end).  L is the
 *              layout: w = 32-bit flags, 32 per line; s = one 32-bit flag per 32-byte
 *              sector; b = 8-bit flags (episode mod 256), 128 per line, a thread polling
 *              four at once
 *   *_nofence  diagnostics, not barriers: the same traffic without a fence (relaxed
 *              arrival, no acquire), to show what the fences cost at each size
 *   tree2      K shard counters (b % K) with atom.release; the last of a shard fences and
 *              adds to a root; the last at the root fences and writes K release lines;
 *              each block polls release line b % K
 *   tree2p_lean two levels, everybody polls the root, but the root add carries no data
 *              (relaxed, no second fence): a waiter that sees the root complete acquires
 *              from every shard counter instead (one MEMBAR fewer, one more read)
 *   flip_frel  flip with fence.release.gpu + a relaxed add (is it a lighter MEMBAR? no:
 *              the same MEMBAR.ALL.GPU without the CCTL.IVALL)
 *   flip_sleep flip whose waiters sleep ~200 ns before each poll (less poll traffic)
 * Modes: `gs_variants [quick] [new]`, and `gs_variants quick a2a` for the floor set
 * (GS_A2A=1 adds the all-to-all flags up to 528 blocks, flip_frel and flip_sleep).
 * Output: CSV `design,blocks,threads,cluster,ns_median,ns_min,ns_with_data,errors,status`;
 * exit status 1 if any design (the *_nofence diagnostics aside) failed its check, hung
 * or could not be launched. */
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "gridsync/prims_cuda.cuh"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <vector>

namespace cg = cooperative_groups;

#define CK(x)                                                                              \
    do {                                                                                   \
        cudaError_t e_ = (x);                                                              \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "gs_variants: %s: %s (line %d)\n", #x, cudaGetErrorString(e_), \
                    __LINE__);                                                             \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

/* ---- layout of the state (32-bit words, 32 per 128-byte line) ------------------------- */
#define LINE 32u
#define W_CTR 0u
#define W_ROOT (1u * LINE)
#define W_ABORT (2u * LINE)
#define W_SHARD(k) ((3u + (k)) * LINE) /* k < 64 */
#define W_ARR (67u * LINE)             /* N words, packed */
#define MAXN 8192u
#define W_REL (W_ARR + MAXN)                         /* release lines */
#define W_FLAGS (W_REL + (MAXN / LINE + 64u) * LINE) /* a2a flags, up to 8 words per flag */
#define STATE_WORDS (W_FLAGS + 8u * MAXN)

struct Args {
    unsigned *st;
    unsigned *data; /* 2*N */
    unsigned *err;
    int iters;
    unsigned K; /* tree2 shards */
};

/* ---- PTX: the library's own primitives (gridsync/prims_cuda.cuh), plus clusters ------ */
__device__ __forceinline__ void cluster_sync()
{
    asm volatile(
        "barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::
            : "memory");
}
__device__ __forceinline__ unsigned cluster_rank()
{
    unsigned r;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
__device__ __forceinline__ unsigned cluster_id()
{
    unsigned r;
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(r));
    return r;
}
__device__ __forceinline__ unsigned cluster_count()
{
    unsigned r;
    asm("mov.u32 %0, %%nclusterid.x;" : "=r"(r));
    return r;
}

/* Bounded poll: returns the value that satisfied `ok`, or gives up (abort raised). */
enum { P_RELAXED, P_ACQUIRE };
template <int KIND, class OK>
__device__ __forceinline__ bool poll(const Args &a, const unsigned *p, OK ok)
{
    for (unsigned n = 0;; ++n) {
        unsigned v = KIND == P_ACQUIRE ? gs_ld_acquire(p) : gs_ld_relaxed(p);
        if (ok(v))
            return true;
        if ((n & 63u) == 63u) {
            if (gs_ld_relaxed(a.st + W_ABORT) != 0u)
                return false;
            if (n > (1u << 21)) {
                atomicExch(a.st + W_ABORT, 1u);
                return false;
            }
        }
    }
}

/* ---- designs ---------------------------------------------------------------------------- */
enum Design {
    D_CG,
    D_CG_SPLIT,
    D_FLIP,
    D_COUNT_FACQ,
    D_COUNT_FENCE,
    D_COUNT_LDACQ,
    D_CCOUNT,
    D_MLF,
    D_TREE2,
    D_FLIP_FACQ,
    D_FLIP_RELAX,
    D_FLIP_MULTI2,
    D_FLIP_MULTI4,
    D_FLIPR,
    D_TREE2P,
    D_A2A_W,
    D_A2A_S,
    D_A2A_B,
    D_A2A_W_NOFENCE,
    D_FLIP_NOFENCE,
    D_FLIP_FREL,
    D_FLIP_SLEEP,
    D_TREE2P_NOFENCE,
    D_TREE2P_LEAN
};

/* flip's arrival: returns the counter before this block's add; *last says whether the
 * add completed the episode. The add: A_RELEASE atom.release; A_FENCE_RELEASE
 * fence.release.gpu + a relaxed add (PTX 8.6); A_NOFENCE a relaxed add, no release at
 * all (a diagnostic, not a barrier). */
enum { A_RELEASE, A_FENCE_RELEASE, A_NOFENCE };
template <int ARRIVE = A_RELEASE>
__device__ __forceinline__ unsigned flip_arrive(const Args &a, bool *last)
{
    unsigned n = gridDim.x;
    unsigned add = blockIdx.x == 0 ? 0x80000000u - (n - 1u) : 1u;
    unsigned old;
    if constexpr (ARRIVE == A_RELEASE) {
        old = gs_atom_add_release(a.st + W_CTR, add);
    } else {
        if constexpr (ARRIVE == A_FENCE_RELEASE)
            asm volatile("fence.release.gpu;" ::: "memory");
        old = gs_atom_add_relaxed(a.st + W_CTR, add);
    }
    *last = ((old ^ (old + add)) & 0x80000000u) != 0u;
    return old;
}

template <int D> struct Barrier;

template <> struct Barrier<D_CG> {
    cg::grid_group g = cg::this_grid();
    __device__ void sync(const Args &, unsigned) { g.sync(); }
};

template <> struct Barrier<D_CG_SPLIT> {
    __device__ void sync(const Args &, unsigned)
    {
        auto t = cg::this_grid().barrier_arrive();
        cg::this_grid().barrier_wait(std::move(t));
    }
};

template <> struct Barrier<D_FLIP> {
    __device__ void sync(const Args &a, unsigned)
    {
        __syncthreads();
        if (threadIdx.x == 0) {
            bool last;
            unsigned old = flip_arrive(a, &last);
            if (last)
                gs_fence_acq_rel();
            else
                poll<P_ACQUIRE>(a, a.st + W_CTR,
                                [old](unsigned v) { return ((v ^ old) & 0x80000000u) != 0u; });
        }
        __syncthreads();
    }
};

template <int ACQ> struct Count {
    __device__ static void arrive_wait(const Args &a, unsigned *ctr, unsigned target)
    {
        gs_red_add_release(ctr, 1u);
        auto ok = [target](unsigned v) { return (int)(v - target) >= 0; };
        if (ACQ == 2) {
            poll<P_ACQUIRE>(a, ctr, ok);
        } else {
            poll<P_RELAXED>(a, ctr, ok);
            if (ACQ == 0)
                gs_fence_acquire();
            else
                gs_fence_acq_rel();
        }
    }
};

template <int D> struct CountBarrier {
    __device__ void sync(const Args &a, unsigned e)
    {
        __syncthreads();
        if (threadIdx.x == 0)
            Count<D - D_COUNT_FACQ>::arrive_wait(a, a.st + W_CTR, (e + 1u) * gridDim.x);
        __syncthreads();
    }
};
template <> struct Barrier<D_COUNT_FACQ> : CountBarrier<D_COUNT_FACQ> {
};
template <> struct Barrier<D_COUNT_FENCE> : CountBarrier<D_COUNT_FENCE> {
};
template <> struct Barrier<D_COUNT_LDACQ> : CountBarrier<D_COUNT_LDACQ> {
};

template <> struct Barrier<D_CCOUNT> {
    __device__ void sync(const Args &a, unsigned e)
    {
        cluster_sync();
        if (threadIdx.x == 0 && cluster_rank() == 0u)
            Count<0>::arrive_wait(a, a.st + W_CTR, (e + 1u) * cluster_count());
        cluster_sync();
    }
};

template <> struct Barrier<D_MLF> {
    __device__ void sync(const Args &a, unsigned e)
    {
        unsigned n = gridDim.x, want = e + 1u;
        __syncthreads();
        if (threadIdx.x == 0)
            gs_st_release(a.st + W_ARR + blockIdx.x, want);
        if (blockIdx.x == 0) {
            for (unsigned w = threadIdx.x; w < n; w += blockDim.x)
                poll<P_RELAXED>(a, a.st + W_ARR + w, [want](unsigned v) { return v == want; });
            gs_fence_acquire();
            __syncthreads();
            for (unsigned l = threadIdx.x; l * LINE < n; l += blockDim.x) {
                gs_fence_acq_rel(); /* the warps fence at once */
                gs_st_relaxed(a.st + W_REL + l * LINE, want);
            }
        } else if (threadIdx.x == 0) {
            poll<P_RELAXED>(a, a.st + W_REL + (blockIdx.x / LINE) * LINE,
                            [want](unsigned v) { return v == want; });
            gs_fence_acquire();
        }
        __syncthreads();
    }
};

/* Two-level arrival: block b adds to shard b % K; the last of a shard fences and adds
 * to the root. True for the block whose add completed the root. T_LEAN: no fence before
 * the root add (the root carries no data); T_NOFENCE: no release anywhere (a diagnostic,
 * not a barrier). */
enum { T_FULL, T_LEAN, T_NOFENCE };
__device__ __forceinline__ unsigned shard_members(unsigned s, unsigned K)
{
    return gridDim.x / K + (s < gridDim.x % K ? 1u : 0u);
}
template <int T = T_FULL>
__device__ __forceinline__ bool two_level_arrive(const Args &a, unsigned want)
{
    unsigned K = a.K, s = blockIdx.x % K, *shard = a.st + W_SHARD(s);
    unsigned old = T == T_NOFENCE ? gs_atom_add_relaxed(shard, 1u) : gs_atom_add_release(shard, 1u);
    if (old + 1u != want * shard_members(s, K))
        return false;
    if (T == T_FULL)
        gs_fence_acq_rel(); /* the shard's writes travel on with this block's */
    return gs_atom_add_relaxed(a.st + W_ROOT, 1u) + 1u == want * K;
}

template <> struct Barrier<D_TREE2> {
    __device__ void sync(const Args &a, unsigned e)
    {
        __syncthreads();
        if (threadIdx.x == 0) {
            unsigned K = a.K, s = blockIdx.x % K, want = e + 1u;
            if (two_level_arrive(a, want)) {
                gs_fence_acq_rel();
                for (unsigned k = 0; k < K; ++k)
                    gs_st_relaxed(a.st + W_REL + k * LINE, want);
            }
            poll<P_RELAXED>(a, a.st + W_REL + s * LINE,
                            [want](unsigned v) { return (int)(v - want) >= 0; });
            gs_fence_acquire();
        }
        __syncthreads();
    }
};

/* Polls with D loads in flight, spaced SPACE cycles apart at the start: a change is seen
 * about RT/D after it lands instead of up to RT. */
template <int D, class OK>
__device__ __forceinline__ void poll_multi(const Args &a, const unsigned *p, OK ok)
{
    const long long SPACE = 400 / D;
    unsigned v[D];
#pragma unroll
    for (int d = 0; d < D; ++d) {
        v[d] = gs_ld_relaxed(p);
        long long t0 = clock64();
        while (clock64() - t0 < SPACE)
            ;
    }
    for (unsigned n = 0;; ++n) {
#pragma unroll
        for (int d = 0; d < D; ++d) {
            if (ok(v[d]))
                return;
            v[d] = gs_ld_relaxed(p);
        }
        if ((n & 15u) == 15u) {
            if (gs_ld_relaxed(a.st + W_ABORT) != 0u)
                return;
            if (n > (1u << 20)) {
                atomicExch(a.st + W_ABORT, 1u);
                return;
            }
        }
    }
}

/* flip variants. MODE 0: last arriver fence.acquire, polls ld.acquire; 1: relaxed polls +
 * fence.acquire; 2/4: relaxed polls with 2/4 in flight; MODE_SLEEP: relaxed polls, each
 * after a ~200 ns sleep (less poll traffic on the counter's slice, later detection: does
 * the traffic slow the arrivals and their fences?). ARRIVE: flip_arrive's add; without a
 * release (A_NOFENCE) there is no acquire either. */
enum { MODE_SLEEP = 8 };
template <int MODE, int ARRIVE = A_RELEASE> struct FlipV {
    __device__ void sync(const Args &a, unsigned)
    {
        __syncthreads();
        if (threadIdx.x == 0) {
            bool last;
            unsigned old = flip_arrive<ARRIVE>(a, &last);
            auto ok = [old](unsigned v) { return ((v ^ old) & 0x80000000u) != 0u; };
            if (!last) {
                if constexpr (MODE == 0)
                    poll<P_ACQUIRE>(a, a.st + W_CTR, ok);
                else if constexpr (MODE == 1)
                    poll<P_RELAXED>(a, a.st + W_CTR, ok);
                else if constexpr (MODE == MODE_SLEEP)
                    poll<P_RELAXED>(a, a.st + W_CTR, [ok](unsigned v) {
                        __nanosleep(200);
                        return ok(v);
                    });
                else
                    poll_multi<MODE>(a, a.st + W_CTR, ok);
            }
            if constexpr (ARRIVE != A_NOFENCE)
                gs_fence_acquire();
        }
        __syncthreads();
    }
};
template <> struct Barrier<D_FLIP_FACQ> : FlipV<0> {
};
template <> struct Barrier<D_FLIP_RELAX> : FlipV<1> {
};
template <> struct Barrier<D_FLIP_MULTI2> : FlipV<2> {
};
template <> struct Barrier<D_FLIP_MULTI4> : FlipV<4> {
};
template <> struct Barrier<D_FLIP_NOFENCE> : FlipV<1, A_NOFENCE> {
};
template <> struct Barrier<D_FLIP_FREL> : FlipV<1, A_FENCE_RELEASE> {
};
template <> struct Barrier<D_FLIP_SLEEP> : FlipV<MODE_SLEEP> {
};

/* flip arrivals, but the release is replicated: the last arriver fences and writes K
 * release lines; block b polls line b % K. The counter line sees no polls. */
template <> struct Barrier<D_FLIPR> {
    __device__ void sync(const Args &a, unsigned e)
    {
        __syncthreads();
        if (threadIdx.x == 0) {
            unsigned want = e + 1u, K = a.K;
            bool last;
            (void)flip_arrive(a, &last);
            if (last) {
                gs_fence_acq_rel();
                for (unsigned k = 0; k < K; ++k)
                    gs_st_relaxed(a.st + W_REL + k * LINE, want);
            } else {
                poll<P_RELAXED>(a, a.st + W_REL + (blockIdx.x % K) * LINE,
                                [want](unsigned v) { return (int)(v - want) >= 0; });
                gs_fence_acquire();
            }
        }
        __syncthreads();
    }
};

/* all to all: LAYOUT 0 words packed, 1 a word per sector, 2 bytes packed (4 per poll). */
template <int LAYOUT, bool FENCE> struct A2A {
    __device__ void sync(const Args &a, unsigned e)
    {
        unsigned n = gridDim.x, want = e + 1u;
        unsigned *f = a.st + W_FLAGS;
        __syncthreads();
        if (threadIdx.x == 0) {
            if (LAYOUT == 2) {
                unsigned char *fb = (unsigned char *)f + blockIdx.x;
                if (FENCE)
                    asm volatile("st.release.gpu.global.u8 [%0], %1;" ::"l"(fb),
                                 "h"((unsigned short)(want & 0xffu))
                                 : "memory");
                else
                    asm volatile("st.relaxed.gpu.global.u8 [%0], %1;" ::"l"(fb),
                                 "h"((unsigned short)(want & 0xffu))
                                 : "memory");
            } else {
                unsigned *w = f + blockIdx.x * (LAYOUT == 1 ? 8u : 1u);
                if (FENCE)
                    gs_st_release(w, want);
                else
                    gs_st_relaxed(w, want);
            }
        }
        unsigned words = LAYOUT == 2 ? (n + 3u) / 4u : n;
        for (unsigned i = threadIdx.x; i < words; i += blockDim.x) {
            if (LAYOUT == 2) {
                /* a flag is want or want+1 (its block may already be in the next
                 * episode): every byte's want-relative difference non-negative */
                unsigned valid =
                    i * 4u + 4u <= n ? 0x80808080u : 0x80808080u >> (8u * (i * 4u + 4u - n));
                unsigned rep = (want & 0xffu) * 0x01010101u;
                poll<P_RELAXED>(
                    a, f + i, [rep, valid](unsigned v) { return (__vsub4(v, rep) & valid) == 0u; });
            } else {
                poll<P_RELAXED>(a, f + i * (LAYOUT == 1 ? 8u : 1u),
                                [want](unsigned v) { return (int)(v - want) >= 0; });
            }
        }
        if (FENCE && threadIdx.x < words)
            gs_fence_acquire();
        __syncthreads();
    }
};
template <> struct Barrier<D_A2A_W> : A2A<0, true> {
};
template <> struct Barrier<D_A2A_S> : A2A<1, true> {
};
template <> struct Barrier<D_A2A_B> : A2A<2, true> {
};
template <> struct Barrier<D_A2A_W_NOFENCE> : A2A<0, false> {
};

/* two levels, everybody polls the root counter (no release lines). T_LEAN: the root
 * add carries no data (no second fence); a waiter that sees the root complete then
 * acquires from every shard counter (lane k reads shard k, polling it if it is not yet
 * complete there): a shard's adds form one release sequence, so reading its final count
 * synchronizes with every member. One MEMBAR on the critical path instead of two, one
 * more read. T_NOFENCE: the diagnostic without fences. */
template <int T> struct Tree2P {
    __device__ void sync(const Args &a, unsigned e)
    {
        unsigned K = a.K, want = e + 1u;
        __syncthreads();
        if (threadIdx.x == 0) {
            if (!two_level_arrive<T>(a, want))
                poll<P_RELAXED>(a, a.st + W_ROOT,
                                [want, K](unsigned v) { return (int)(v - want * K) >= 0; });
            if (T == T_FULL)
                gs_fence_acquire();
        }
        __syncthreads();
        if (T == T_LEAN) {
            if (threadIdx.x < K) {
                unsigned members = shard_members(threadIdx.x, K);
                poll<P_RELAXED>(a, a.st + W_SHARD(threadIdx.x), [want, members](unsigned v) {
                    return (int)(v - want * members) >= 0;
                });
                gs_fence_acquire();
            }
            __syncthreads();
        }
    }
};
template <> struct Barrier<D_TREE2P> : Tree2P<T_FULL> {
};
template <> struct Barrier<D_TREE2P_LEAN> : Tree2P<T_LEAN> {
};
template <> struct Barrier<D_TREE2P_NOFENCE> : Tree2P<T_NOFENCE> {
};

template <int D, int DATA> __global__ void __launch_bounds__(1024) k_var(Args a)
{
    Barrier<D> bar;
    unsigned n = gridDim.x, b = blockIdx.x;
    for (int i = 0; i < a.iters; ++i) {
        unsigned e = (unsigned)i;
        if (DATA && threadIdx.x == 0)
            a.data[(e & 1u) * n + b] = e + 1u;
        bar.sync(a, e);
        if (DATA && threadIdx.x == 0) {
            unsigned x = (b + 1u + e * 13u) % n;
            if (a.data[(e & 1u) * n + x] != e + 1u)
                atomicAdd(a.err, 1u);
        }
        if ((i & 255) == 255 && gs_ld_relaxed(a.st + W_ABORT) != 0u)
            return;
    }
}

/* ---- host --------------------------------------------------------------------------------- */
struct Kernels {
    const void *timed, *data;
};
template <int D> static Kernels kernels()
{
    return {(const void *)k_var<D, 0>, (const void *)k_var<D, 1>};
}

static int g_sms;

static bool launch(const void *k, unsigned n, unsigned t, unsigned cs, Args a)
{
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[2];
    int na = 0;
    cfg.gridDim = dim3(n);
    cfg.blockDim = dim3(t);
    at[na].id = cudaLaunchAttributeCooperative;
    at[na].val.cooperative = 1;
    ++na;
    if (cs > 1) {
        at[na].id = cudaLaunchAttributeClusterDimension;
        at[na].val.clusterDim.x = cs;
        at[na].val.clusterDim.y = 1;
        at[na].val.clusterDim.z = 1;
        ++na;
    }
    cfg.attrs = at;
    cfg.numAttrs = na;
    void *args[] = {&a};
    cudaError_t e = cudaLaunchKernelExC(&cfg, k, args);
    if (e != cudaSuccess) {
        fprintf(stderr, "launch %u x %u cs %u: %s\n", n, t, cs, cudaGetErrorString(e));
        (void)cudaGetLastError();
        return false;
    }
    return true;
}

static unsigned bound(const void *k, unsigned t, unsigned cs)
{
    if (cs <= 1) {
        int per = 0;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, k, t, 0));
        return (unsigned)per * g_sms;
    }
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at;
    cfg.gridDim = dim3(cs * 64);
    cfg.blockDim = dim3(t);
    at.id = cudaLaunchAttributeClusterDimension;
    at.val.clusterDim.x = cs;
    at.val.clusterDim.y = 1;
    at.val.clusterDim.z = 1;
    cfg.attrs = &at;
    cfg.numAttrs = 1;
    if (cs > 8)
        cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    int nc = 0;
    if (cudaOccupancyMaxActiveClusters(&nc, k, &cfg) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return (unsigned)nc * cs;
}

static unsigned *g_st, *g_data, *g_err;
static int g_failed; /* a design failed its check or hung: the exit status says so */

/* one run: reset, launch, wait; returns ms (events) or <0 on failure/hang */
static double run_once(const void *k, unsigned n, unsigned t, unsigned cs, int iters, unsigned K,
                       unsigned *errors)
{
    CK(cudaMemset(g_st, 0, STATE_WORDS * sizeof(unsigned)));
    CK(cudaMemset(g_data, 0, 2 * MAXN * sizeof(unsigned)));
    CK(cudaMemset(g_err, 0, sizeof(unsigned)));
    CK(cudaDeviceSynchronize());
    Args a = {g_st, g_data, g_err, iters, K};
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0));
    bool ok = launch(k, n, t, cs, a);
    CK(cudaEventRecord(e1));
    CK(cudaDeviceSynchronize());
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    unsigned ab = 0;
    CK(cudaMemcpy(&ab, g_st + W_ABORT, sizeof ab, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(errors, g_err, sizeof *errors, cudaMemcpyDeviceToHost));
    if (!ok)
        return -1.0;
    if (ab)
        return -2.0;
    return ms;
}

static void measure(const char *name, Kernels ks, unsigned n, unsigned t, unsigned cs,
                    unsigned K = 32)
{
    const int iters = 2000, reps = 5;
    unsigned bd = std::min(bound(ks.timed, t, cs), bound(ks.data, t, cs));
    if (n > bd || n > MAXN || (cs > 1 && n % cs)) {
        printf("%s,%u,%u,%u,,,,,skipped(bound %u)\n", name, n, t, cs, bd);
        fflush(stdout);
        return;
    }
    unsigned errors = 0, e2 = 0;
    double dms = run_once(ks.data, n, t, cs, iters, K, &errors); /* check (and warm-up) */
    if (dms < 0) {
        printf("%s,%u,%u,%u,,,,,%s\n", name, n, t, cs,
               dms == -1.0 ? "launch-failed" : "hung(aborted)");
        g_failed = 1;
        fflush(stdout);
        return;
    }
    (void)run_once(ks.timed, n, t, cs, 200, K, &e2);
    std::vector<double> v;
    for (int r = 0; r < reps; ++r) {
        double ms = run_once(ks.timed, n, t, cs, iters, K, &e2);
        if (ms < 0) {
            printf("%s,%u,%u,%u,,,,,hung(aborted)\n", name, n, t, cs);
            g_failed = 1;
            fflush(stdout);
            return;
        }
        v.push_back(ms * 1e6 / iters);
    }
    std::sort(v.begin(), v.end());
    bool diagnostic = strstr(name, "nofence") != nullptr; /* not a barrier: expected to fail */
    g_failed |= errors != 0u && !diagnostic;
    printf("%s,%u,%u,%u,%.1f,%.1f,%.1f,%u,%s\n", name, n, t, cs, v[reps / 2], v[0],
           dms * 1e6 / iters, errors,
           !errors      ? "pass"
           : diagnostic ? "FAIL(diagnostic)"
                        : "FAIL");
    fflush(stdout);
}

/* One design at several K (shards, lines): rows named <prefix>_k<K>. */
static void measure_k(const char *prefix, Kernels ks, unsigned n, unsigned t,
                      std::initializer_list<unsigned> Ks)
{
    for (unsigned K : Ks) {
        char nm[32];
        snprintf(nm, sizeof nm, "%s_k%u", prefix, K);
        measure(nm, ks, n, t, 1, K);
    }
}

int main(int argc, char **argv)
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    g_sms = p.multiProcessorCount;
    fprintf(stderr, "gs_variants on %s, %d SMs\n", p.name, g_sms);
    CK(cudaMalloc(&g_st, STATE_WORDS * sizeof(unsigned)));
    CK(cudaMalloc(&g_data, 2 * MAXN * sizeof(unsigned)));
    CK(cudaMalloc(&g_err, sizeof(unsigned)));
    printf("design,blocks,threads,cluster,ns_median,ns_min,ns_with_data,errors,status\n");
    struct Cfg {
        unsigned n, t;
    };
    std::vector<Cfg> cfgs = {{(unsigned)g_sms, 256}, {2u * g_sms, 256}, {8u * g_sms, 256},
                             {8u * g_sms, 64},       {16u * g_sms, 64}, {32u * g_sms, 64}};
    if (argc > 1 && strcmp(argv[1], "quick") == 0)
        cfgs = {{(unsigned)g_sms, 256}, {8u * g_sms, 256}, {32u * g_sms, 64}};
    bool all = !(argc > 2 && strcmp(argv[2], "new") == 0);
    if (argc > 2 && strcmp(argv[2], "a2a") == 0) {
        cfgs = {{(unsigned)g_sms, 256}, {2u * g_sms, 256}, {4u * g_sms, 256}, {8u * g_sms, 256},
                {8u * g_sms, 64},       {16u * g_sms, 64}, {32u * g_sms, 64}};
        for (Cfg c : cfgs) {
            measure("cg", kernels<D_CG>(), c.n, c.t, 1);
            measure("flip", kernels<D_FLIP>(), c.n, c.t, 1);
            if (c.n <= 528u && getenv("GS_A2A")) {
                measure("a2a_w", kernels<D_A2A_W>(), c.n, c.t, 1);
                measure("a2a_s", kernels<D_A2A_S>(), c.n, c.t, 1);
                measure("a2a_b", kernels<D_A2A_B>(), c.n, c.t, 1);
                measure("a2a_w_nofence", kernels<D_A2A_W_NOFENCE>(), c.n, c.t, 1);
            }
            measure("flip_nofence", kernels<D_FLIP_NOFENCE>(), c.n, c.t, 1);
            if (getenv("GS_A2A")) {
                measure("flip_frel", kernels<D_FLIP_FREL>(), c.n, c.t, 1);
                measure("flip_sleep", kernels<D_FLIP_SLEEP>(), c.n, c.t, 1);
            }
            measure("tree2p_k8", kernels<D_TREE2P>(), c.n, c.t, 1, 8u);
            measure("tree2p_k8_nofence", kernels<D_TREE2P_NOFENCE>(), c.n, c.t, 1, 8u);
            measure_k("tree2p_lean", kernels<D_TREE2P_LEAN>(), c.n, c.t, {4u, 8u, 16u, 33u});
            measure_k("flipr", kernels<D_FLIPR>(), c.n, c.t, {4u, 16u, 32u});
        }
        return g_failed;
    }
    for (Cfg c : cfgs) {
        measure("cg", kernels<D_CG>(), c.n, c.t, 1);
        measure("flip", kernels<D_FLIP>(), c.n, c.t, 1);
        measure("flip_facq", kernels<D_FLIP_FACQ>(), c.n, c.t, 1);
        measure("flip_relax", kernels<D_FLIP_RELAX>(), c.n, c.t, 1);
        measure("flip_multi2", kernels<D_FLIP_MULTI2>(), c.n, c.t, 1);
        measure("flip_multi4", kernels<D_FLIP_MULTI4>(), c.n, c.t, 1);
        measure_k("flipr", kernels<D_FLIPR>(), c.n, c.t, {4u, 16u});
        measure_k("tree2p", kernels<D_TREE2P>(), c.n, c.t, {8u, 16u, 33u});
        if (!all)
            continue;
        measure("cg_split", kernels<D_CG_SPLIT>(), c.n, c.t, 1);
        measure("flip", kernels<D_FLIP>(), c.n, c.t, 1);
        measure("count_facq", kernels<D_COUNT_FACQ>(), c.n, c.t, 1);
        measure("count_fence", kernels<D_COUNT_FENCE>(), c.n, c.t, 1);
        measure("count_ldacq", kernels<D_COUNT_LDACQ>(), c.n, c.t, 1);
        for (unsigned cs : {2u, 4u, 8u, 16u})
            measure("ccount", kernels<D_CCOUNT>(), c.n, c.t, cs);
        measure("mlf", kernels<D_MLF>(), c.n, c.t, 1);
        measure_k("tree2", kernels<D_TREE2>(), c.n, c.t, {8u, 16u, 33u, 64u});
    }
    return g_failed;
}
