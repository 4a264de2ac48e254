/* bench/micro/micro.cu - gs_micro: the costs the barrier protocols are made of, measured
 * on the GPU itself. Output: CSV rows `name,blocks,threads,ns` on stdout (and in the file
 * named by the first argument, if any); progress and notes on stderr.
 *
 * Times inside one SM come from clock64 converted to ns with the SM clock measured
 * against %globaltimer at the start (row sm_clock_mhz; the boost clock of an idle GPU
 * may differ slightly from the one under load). Times across SMs come from
 * %globaltimer or CUDA events.
 *
 * Rows:
 *   sm_clock_mhz, globaltimer_step_ns        calibration (value in the ns column)
 *   ld_acquire_gpu_chase / ld_relaxed_gpu_chase
 *                                           one dependent load of a line another SM wrote
 *                                           (a pointer chase over 2048 lines in L2)
 *   pingpong_one_way                         st.release.gpu by one SM seen by ld.acquire.gpu
 *                                           polling on another: half a round trip
 *   fence_acq_rel_gpu / fence_sc_gpu / fence_acq_rel_cta
 *                                           one fence with nothing outstanding
 *   st_then_fence_acq_rel_gpu                a relaxed store followed by the fence
 *   atom_{acq_rel,relaxed,release}_gpu       a dependent atom.add on one word, 1 thread
 *   atom_acq_rel_contended                   per-operation latency seen by each of N
 *                                           blocks doing dependent atom.add on ONE word
 *   atom_acq_rel_contended_throughput        wall time / (N*K): the word's service time
 *   atom_burst_mean / atom_burst_max         N blocks released together by grid.sync each
 *                                           do ONE atom.acq_rel: the arrival burst of a
 *                                           counter barrier (latency per block, mean and max)
 *   syncthreads / syncthreads_or             one block of 64/256/1024 threads
 *   nanosleep_req_T                          what __nanosleep(T) really waits
 *   cluster_barrier                          barrier.cluster arrive+wait, cluster of 2/4/8
 *   cg_grid_sync                             cooperative_groups grid.sync()
 *   launch_stream / launch_graph / launch_cooperative
 *                                           back-to-back empty kernels, per kernel
 *   probe_coop_cluster_ok                    1 if a cooperative launch with a cluster
 *                                           dimension is accepted, else 0 */
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace cg = cooperative_groups;

typedef unsigned long long u64;

static FILE *g_csv = nullptr;
static double g_mhz = 1000.0;

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "gs_micro: %s: %s (line %d)\n", #x, cudaGetErrorString(e_), __LINE__); \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static void row(const char *name, unsigned blocks, unsigned threads, double ns)
{
    printf("%s,%u,%u,%.2f\n", name, blocks, threads, ns);
    fflush(stdout);
    if (g_csv)
        fprintf(g_csv, "%s,%u,%u,%.2f\n", name, blocks, threads, ns);
}

static double cyc2ns(double cycles) { return cycles * 1000.0 / g_mhz; }

/* ---- device helpers ------------------------------------------------------------------ */

__device__ __forceinline__ u64 gtimer()
{
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
__device__ __forceinline__ unsigned ld_acquire(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ unsigned ld_relaxed(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void st_release(unsigned *p, unsigned v)
{
    asm volatile("st.release.gpu.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void st_relaxed(unsigned *p, unsigned v)
{
    asm volatile("st.relaxed.gpu.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
/* An opaque zero that depends on v: keeps a chain of operations dependent. */
__device__ __forceinline__ unsigned dep0(unsigned v)
{
    unsigned z;
    asm volatile("and.b32 %0, %1, 0;" : "=r"(z) : "r"(v));
    return z;
}

/* ---- calibration --------------------------------------------------------------------- */

__global__ void k_calib(u64 *out)
{
    u64 t0 = gtimer();
    long long c0 = clock64();
    while (gtimer() - t0 < 2000000ull) {
    }
    long long c1 = clock64();
    u64 t1 = gtimer();
    out[0] = (u64)(c1 - c0);
    out[1] = t1 - t0;
    /* smallest non-zero step of the global timer */
    u64 step = ~0ull, prev = gtimer();
    for (int i = 0; i < 20000; ++i) {
        u64 now = gtimer();
        if (now != prev) {
            step = min(step, now - prev);
            prev = now;
        }
    }
    out[2] = step;
}

/* ---- loads: pointer chase over lines written by another SM ------------------------- */

#define CHASE_LINES 2048
__global__ void k_chase(unsigned *buf, const unsigned *perm, unsigned *flag, int acquire, u64 *out)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 1) { /* the writer: builds the chain, then releases it */
        for (int i = 0; i < CHASE_LINES; ++i)
            st_relaxed(&buf[perm[i] * 32], perm[(i + 1) % CHASE_LINES] * 32);
        st_release(flag, 1);
        return;
    }
    while (ld_acquire(flag) != 1) {
    }
    unsigned idx = perm[0] * 32;
    long long c0 = clock64();
    if (acquire)
        for (int i = 0; i < CHASE_LINES; ++i)
            idx = ld_acquire(&buf[idx]);
    else
        for (int i = 0; i < CHASE_LINES; ++i)
            idx = ld_relaxed(&buf[idx]);
    long long c1 = clock64();
    out[0] = (u64)(c1 - c0);
    out[1] = idx;
}

/* ---- ping-pong between two SMs ------------------------------------------------------ */

__global__ void k_pingpong(unsigned *f, int rounds, u64 *out)
{
    if (threadIdx.x != 0)
        return;
    unsigned *mine = f + 32 * blockIdx.x, *theirs = f + 32 * (1 - blockIdx.x);
    unsigned smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    out[2 + blockIdx.x] = smid;
    long long c0 = clock64();
    for (int i = 1; i <= rounds; ++i) {
        if (blockIdx.x == 0) {
            st_release(mine, i);
            while (ld_acquire(theirs) != (unsigned)i) {
            }
        } else {
            while (ld_acquire(theirs) != (unsigned)i) {
            }
            st_release(mine, i);
        }
    }
    long long c1 = clock64();
    if (blockIdx.x == 0)
        out[0] = (u64)(c1 - c0);
}

/* ---- fences -------------------------------------------------------------------------- */

template <int KIND> __global__ void k_fence(unsigned *p, int n, u64 *out)
{
    long long c0 = clock64();
    for (int i = 0; i < n; ++i) {
        if (KIND == 3)
            st_relaxed(p + 32 * (i & 7), i);
        if (KIND == 0 || KIND == 3)
            asm volatile("fence.acq_rel.gpu;" ::: "memory");
        else if (KIND == 1)
            asm volatile("fence.sc.gpu;" ::: "memory");
        else
            asm volatile("fence.acq_rel.cta;" ::: "memory");
    }
    long long c1 = clock64();
    out[0] = (u64)(c1 - c0);
}

/* ---- atomics ------------------------------------------------------------------------- */

template <int SEM> __device__ __forceinline__ unsigned atom_add(unsigned *p, unsigned v)
{
    unsigned o;
    if (SEM == 0)
        asm volatile("atom.acq_rel.gpu.add.u32 %0, [%1], %2;"
                     : "=r"(o)
                     : "l"(p), "r"(v)
                     : "memory");
    else if (SEM == 1)
        asm volatile("atom.relaxed.gpu.add.u32 %0, [%1], %2;"
                     : "=r"(o)
                     : "l"(p), "r"(v)
                     : "memory");
    else
        asm volatile("atom.release.gpu.add.u32 %0, [%1], %2;"
                     : "=r"(o)
                     : "l"(p), "r"(v)
                     : "memory");
    return o;
}

/* Each block's thread 0 does n dependent atomics on *p; per-block clock and timer spans. */
template <int SEM> __global__ void k_atom(unsigned *p, int n, u64 *out)
{
    if (threadIdx.x != 0)
        return;
    unsigned v = 0;
    u64 t0 = gtimer();
    long long c0 = clock64();
    for (int i = 0; i < n; ++i)
        v = atom_add<SEM>(p + dep0(v), 1u);
    long long c1 = clock64();
    u64 t1 = gtimer();
    out[4 * blockIdx.x + 0] = (u64)(c1 - c0);
    out[4 * blockIdx.x + 1] = t0;
    out[4 * blockIdx.x + 2] = t1;
    out[4 * blockIdx.x + 3] = v;
}

/* Rounds of: grid.sync, then one atom.acq_rel per block; latency per block per round. */
__global__ void k_burst(unsigned *p, int rounds, u64 *out)
{
    cg::grid_group grid = cg::this_grid();
    for (int r = 0; r < rounds; ++r) {
        grid.sync();
        if (threadIdx.x == 0) {
            long long c0 = clock64();
            unsigned v = atom_add<0>(p, 1u);
            long long c1 = clock64() + dep0(v);
            out[(size_t)r * gridDim.x + blockIdx.x] = (u64)(c1 - c0);
        }
    }
}

/* ---- intra-block barriers ----------------------------------------------------------- */

template <int OR> __global__ void k_syncthreads(int n, u64 *out)
{
    int acc = 0;
    long long c0 = clock64();
    for (int i = 0; i < n; ++i) {
        if (OR)
            acc += __syncthreads_or(threadIdx.x == (unsigned)(i & 31) + 7777u);
        else
            __syncthreads();
    }
    long long c1 = clock64();
    if (threadIdx.x == 0) {
        out[0] = (u64)(c1 - c0);
        out[1] = acc;
    }
}

/* ---- __nanosleep ----------------------------------------------------------------------- */

__global__ void k_nanosleep(unsigned t, int n, u64 *out)
{
    u64 t0 = gtimer();
    long long c0 = clock64();
    for (int i = 0; i < n; ++i)
        __nanosleep(t);
    long long c1 = clock64();
    u64 t1 = gtimer();
    out[0] = (u64)(c1 - c0);
    out[1] = t1 - t0;
}

/* ---- cluster barrier ----------------------------------------------------------------- */

__global__ void k_cluster(int n, u64 *out)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    long long c0 = clock64();
    for (int i = 0; i < n; ++i) {
        asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
        asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    }
    long long c1 = clock64();
    if (threadIdx.x == 0 && blockIdx.x == 0)
        out[0] = (u64)(c1 - c0);
#endif
}

/* ---- grid.sync -------------------------------------------------------------------------- */

__global__ void k_gridsync(int n, u64 *out)
{
    cg::grid_group grid = cg::this_grid();
    grid.sync();
    u64 t0 = gtimer();
    for (int i = 0; i < n; ++i)
        grid.sync();
    u64 t1 = gtimer();
    if (threadIdx.x == 0 && blockIdx.x == 0)
        out[0] = t1 - t0;
}

__global__ void k_empty(int x) {}

/* ---- host ------------------------------------------------------------------------------ */

struct Ctx {
    int dev = 0;
    int sms = 0;
    u64 *out = nullptr; /* device */
    std::vector<u64> h;
    void fetch(size_t n)
    {
        h.resize(n);
        CK(cudaMemcpy(h.data(), out, n * sizeof(u64), cudaMemcpyDeviceToHost));
    }
};

static void calibrate(Ctx &c)
{
    k_calib<<<1, 1>>>(c.out);
    CK(cudaDeviceSynchronize());
    c.fetch(3);
    g_mhz = (double)c.h[0] / (double)c.h[1] * 1000.0;
    row("sm_clock_mhz", 1, 1, g_mhz);
    row("globaltimer_step_ns", 1, 1, (double)c.h[2]);
}

static void chase(Ctx &c)
{
    unsigned *buf, *perm, *flag;
    std::vector<unsigned> hp(CHASE_LINES);
    for (unsigned i = 0; i < CHASE_LINES; ++i)
        hp[i] = i;
    srand(12345);
    for (unsigned i = CHASE_LINES - 1; i > 0; --i)
        std::swap(hp[i], hp[rand() % (i + 1)]);
    CK(cudaMalloc(&buf, CHASE_LINES * 128));
    CK(cudaMalloc(&perm, CHASE_LINES * 4));
    CK(cudaMalloc(&flag, 128));
    CK(cudaMemcpy(perm, hp.data(), CHASE_LINES * 4, cudaMemcpyHostToDevice));
    for (int acquire = 1; acquire >= 0; --acquire) {
        double best = 1e30;
        for (int rep = 0; rep < 5; ++rep) {
            CK(cudaMemset(flag, 0, 128));
            k_chase<<<2, 32>>>(buf, perm, flag, acquire, c.out);
            CK(cudaDeviceSynchronize());
            c.fetch(1);
            best = std::min(best, cyc2ns((double)c.h[0] / CHASE_LINES));
        }
        row(acquire ? "ld_acquire_gpu_chase" : "ld_relaxed_gpu_chase", 1, 1, best);
    }
    CK(cudaFree(buf));
    CK(cudaFree(perm));
    CK(cudaFree(flag));
}

static void pingpong(Ctx &c)
{
    unsigned *f;
    const int rounds = 20000;
    CK(cudaMalloc(&f, 256));
    double best = 1e30;
    for (int rep = 0; rep < 3; ++rep) {
        CK(cudaMemset(f, 0, 256));
        void *args[] = {&f, (void *)&rounds, &c.out};
        /* cooperative: both blocks are guaranteed to run at once */
        CK(cudaLaunchCooperativeKernel((const void *)k_pingpong, 2, 32, args, 0, 0));
        CK(cudaDeviceSynchronize());
        c.fetch(4);
        best = std::min(best, cyc2ns((double)c.h[0] / (2.0 * rounds)));
    }
    fprintf(stderr, "gs_micro: ping-pong between SM %llu and SM %llu\n", c.h[2], c.h[3]);
    row("pingpong_one_way", 2, 1, best);
    CK(cudaFree(f));
}

template <int KIND> static void fence1(Ctx &c, const char *name, unsigned *p)
{
    const int n = 10000;
    double best = 1e30;
    for (int rep = 0; rep < 3; ++rep) {
        k_fence<KIND><<<1, 1>>>(p, n, c.out);
        CK(cudaDeviceSynchronize());
        c.fetch(1);
        best = std::min(best, cyc2ns((double)c.h[0] / n));
    }
    row(name, 1, 1, best);
}

static void fences(Ctx &c)
{
    unsigned *p;
    CK(cudaMalloc(&p, 32 * 8 * 4));
    fence1<0>(c, "fence_acq_rel_gpu", p);
    fence1<1>(c, "fence_sc_gpu", p);
    fence1<2>(c, "fence_acq_rel_cta", p);
    fence1<3>(c, "st_then_fence_acq_rel_gpu", p);
    CK(cudaFree(p));
}

template <int SEM> static void atom1(Ctx &c, const char *name, unsigned *p)
{
    const int n = 10000;
    double best = 1e30;
    for (int rep = 0; rep < 3; ++rep) {
        k_atom<SEM><<<1, 32>>>(p, n, c.out);
        CK(cudaDeviceSynchronize());
        c.fetch(4);
        best = std::min(best, cyc2ns((double)c.h[0] / n));
    }
    row(name, 1, 1, best);
}

static void atomics(Ctx &c, unsigned max_blocks)
{
    unsigned *p;
    CK(cudaMalloc(&p, 128));
    CK(cudaMemset(p, 0, 128));
    atom1<0>(c, "atom_acq_rel_gpu", p);
    atom1<1>(c, "atom_relaxed_gpu", p);
    atom1<2>(c, "atom_release_gpu", p);
    /* contended: N blocks on one word */
    unsigned ns_[] = {2, 8, 32, (unsigned)c.sms, 2u * c.sms, 4u * c.sms, 8u * c.sms};
    for (unsigned N : ns_) {
        if (N > max_blocks)
            continue;
        const int n = 2000;
        k_atom<0><<<N, 32>>>(p, n, c.out);
        CK(cudaDeviceSynchronize());
        c.fetch(4 * N);
        double per = 0;
        u64 t0 = ~0ull, t1 = 0;
        for (unsigned b = 0; b < N; ++b) {
            per += cyc2ns((double)c.h[4 * b] / n);
            t0 = std::min(t0, c.h[4 * b + 1]);
            t1 = std::max(t1, c.h[4 * b + 2]);
        }
        row("atom_acq_rel_contended", N, 1, per / N);
        row("atom_acq_rel_contended_throughput", N, 1, (double)(t1 - t0) / ((double)N * n));
    }
    /* bursts after grid.sync */
    for (unsigned N : ns_) {
        if (N > max_blocks)
            continue;
        const int rounds = 200;
        u64 *o;
        CK(cudaMalloc(&o, (size_t)rounds * N * sizeof(u64)));
        void *args[] = {&p, (void *)&rounds, &o};
        CK(cudaLaunchCooperativeKernel((const void *)k_burst, N, 64, args, 0, 0));
        CK(cudaDeviceSynchronize());
        std::vector<u64> h((size_t)rounds * N);
        CK(cudaMemcpy(h.data(), o, h.size() * sizeof(u64), cudaMemcpyDeviceToHost));
        double mean = 0, maxsum = 0;
        for (int r = 1; r < rounds; ++r) { /* round 0 warms up */
            u64 mx = 0;
            for (unsigned b = 0; b < N; ++b) {
                mean += (double)h[(size_t)r * N + b];
                mx = std::max(mx, h[(size_t)r * N + b]);
            }
            maxsum += (double)mx;
        }
        row("atom_burst_mean", N, 64, cyc2ns(mean / ((double)(rounds - 1) * N)));
        row("atom_burst_max", N, 64, cyc2ns(maxsum / (rounds - 1)));
        CK(cudaFree(o));
    }
    CK(cudaFree(p));
}

static void syncthreads(Ctx &c)
{
    const int n = 10000;
    for (unsigned t : {64u, 256u, 1024u}) {
        double best = 1e30, best_or = 1e30;
        for (int rep = 0; rep < 3; ++rep) {
            k_syncthreads<0><<<1, t>>>(n, c.out);
            CK(cudaDeviceSynchronize());
            c.fetch(1);
            best = std::min(best, cyc2ns((double)c.h[0] / n));
            k_syncthreads<1><<<1, t>>>(n, c.out);
            CK(cudaDeviceSynchronize());
            c.fetch(1);
            best_or = std::min(best_or, cyc2ns((double)c.h[0] / n));
        }
        row("syncthreads", 1, t, best);
        row("syncthreads_or", 1, t, best_or);
    }
}

static void nanosleeps(Ctx &c)
{
    for (unsigned t : {0u, 1u, 16u, 32u, 64u, 100u, 128u, 256u, 500u, 1000u, 2000u, 10000u}) {
        const int n = t >= 1000 ? 100 : 1000;
        k_nanosleep<<<1, 1>>>(t, n, c.out);
        CK(cudaDeviceSynchronize());
        c.fetch(2);
        char name[64];
        snprintf(name, sizeof name, "nanosleep_req_%u", t);
        row(name, 1, 1, cyc2ns((double)c.h[0] / n));
    }
}

static cudaError_t launch_cluster(const void *k, unsigned blocks, unsigned threads, unsigned cs,
                                  int coop, void **args)
{
    cudaLaunchConfig_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cudaLaunchAttribute at[2];
    memset(at, 0, sizeof at);
    cfg.gridDim = dim3(blocks);
    cfg.blockDim = dim3(threads);
    int n = 0;
    at[n].id = cudaLaunchAttributeClusterDimension;
    at[n].val.clusterDim.x = cs;
    at[n].val.clusterDim.y = 1;
    at[n].val.clusterDim.z = 1;
    ++n;
    if (coop) {
        at[n].id = cudaLaunchAttributeCooperative;
        at[n].val.cooperative = 1;
        ++n;
    }
    cfg.attrs = at;
    cfg.numAttrs = n;
    return cudaLaunchKernelExC(&cfg, k, args);
}

static void clusters(Ctx &c, int cc_major)
{
    if (cc_major < 9) {
        fprintf(stderr, "gs_micro: no clusters before sm_90\n");
        return;
    }
    int n = 10000;
    for (unsigned cs : {2u, 4u, 8u}) {
        void *args[] = {&n, &c.out};
        cudaError_t e = launch_cluster((const void *)k_cluster, cs, 128, cs, 0, args);
        if (e == cudaSuccess)
            e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            fprintf(stderr, "gs_micro: cluster %u: %s\n", cs, cudaGetErrorString(e));
            cudaGetLastError();
            continue;
        }
        c.fetch(1);
        row("cluster_barrier", cs, 128, cyc2ns((double)c.h[0] / n));
        /* how many such clusters fit at once (1 block per SM worth of threads) */
        cudaLaunchConfig_t cfg;
        memset(&cfg, 0, sizeof cfg);
        cudaLaunchAttribute at;
        memset(&at, 0, sizeof at);
        at.id = cudaLaunchAttributeClusterDimension;
        at.val.clusterDim.x = cs;
        at.val.clusterDim.y = 1;
        at.val.clusterDim.z = 1;
        cfg.gridDim = dim3(cs * 64);
        cfg.blockDim = dim3(256);
        cfg.attrs = &at;
        cfg.numAttrs = 1;
        int maxc = 0;
        if (cudaOccupancyMaxActiveClusters(&maxc, (const void *)k_cluster, &cfg) == cudaSuccess)
            row("max_active_clusters_256thr", cs, 256, (double)maxc);
        cudaGetLastError();
    }
    /* does the driver take cooperative + cluster together? */
    int one = 1;
    void *args[] = {&one};
    cudaError_t e = launch_cluster((const void *)k_empty, 2 * c.sms, 128, 2, 1, args);
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    fprintf(stderr, "gs_micro: cooperative + cluster launch: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    row("probe_coop_cluster_ok", 2 * c.sms, 128, e == cudaSuccess ? 1.0 : 0.0);
}

static void gridsyncs(Ctx &c)
{
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_gridsync, 256, 0));
    int n = 2000;
    for (unsigned N : {(unsigned)c.sms, 2u * c.sms, (unsigned)(per_sm * c.sms)}) {
        if (N > (unsigned)(per_sm * c.sms))
            continue;
        void *args[] = {&n, &c.out};
        CK(cudaLaunchCooperativeKernel((const void *)k_gridsync, N, 256, args, 0, 0));
        CK(cudaDeviceSynchronize());
        c.fetch(1);
        row("cg_grid_sync", N, 256, (double)c.h[0] / n);
    }
}

static void launches(Ctx &c)
{
    cudaStream_t s;
    cudaEvent_t e0, e1;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const int n = 2000;
    unsigned blocks = c.sms;
    float ms = 0;
    for (int i = 0; i < 10; ++i)
        k_empty<<<blocks, 256, 0, s>>>(i);
    CK(cudaEventRecord(e0, s));
    for (int i = 0; i < n; ++i)
        k_empty<<<blocks, 256, 0, s>>>(i);
    CK(cudaEventRecord(e1, s));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    row("launch_stream", blocks, 256, ms * 1e6 / n);

    CK(cudaEventRecord(e0, s));
    for (int i = 0; i < n; ++i) {
        void *args[] = {&i};
        CK(cudaLaunchCooperativeKernel((const void *)k_empty, blocks, 256, args, 0, s));
    }
    CK(cudaEventRecord(e1, s));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    row("launch_cooperative", blocks, 256, ms * 1e6 / n);

    cudaGraph_t g;
    cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < n; ++i)
        k_empty<<<blocks, 256, 0, s>>>(i);
    CK(cudaStreamEndCapture(s, &g));
    CK(cudaGraphInstantiate(&ge, g, 0));
    CK(cudaGraphUpload(ge, s));
    CK(cudaGraphLaunch(ge, s)); /* warm-up */
    CK(cudaEventRecord(e0, s));
    CK(cudaGraphLaunch(ge, s));
    CK(cudaEventRecord(e1, s));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    row("launch_graph", blocks, 256, ms * 1e6 / n);
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    CK(cudaStreamDestroy(s));
}

int main(int argc, char **argv)
{
    Ctx c;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        fprintf(stderr, "gs_micro: no CUDA device\n");
        return 77;
    }
    if (argc > 1 && !(g_csv = fopen(argv[1], "w"))) {
        perror(argv[1]);
        return 1;
    }
    cudaDeviceProp prop;
    CK(cudaSetDevice(0));
    CK(cudaGetDeviceProperties(&prop, 0));
    c.sms = prop.multiProcessorCount;
    fprintf(stderr, "gs_micro: %s, %d SMs, cc %d.%d\n", prop.name, c.sms, prop.major, prop.minor);
    CK(cudaMalloc(&c.out, 64 * 1024 * sizeof(u64)));
    printf("name,blocks,threads,ns\n");
    if (g_csv)
        fprintf(g_csv, "name,blocks,threads,ns\n");
    calibrate(c);
    chase(c);
    pingpong(c);
    fences(c);
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_burst, 64, 0));
    atomics(c, std::min((unsigned)(per_sm * c.sms), 8u * c.sms));
    syncthreads(c);
    nanosleeps(c);
    clusters(c, prop.major);
    gridsyncs(c);
    launches(c);
    if (g_csv)
        fclose(g_csv);
    CK(cudaFree(c.out));
    return 0;
}
