/* bench/micro/jacobi_order.cu - issue 15's last gaps: at 4096^2 and 8192^2 the app's
 * flip and auto rows trailed cg's by 0.2-0.6% at 132 and 264 blocks, a gap that grew
 * with the iteration's time, not with the barrier's. Two suspects, measured here:
 *   order    the app measures cg first, then each protocol, each method's runs in a row;
 *            a chip that drifts over those seconds favours one of them
 *   back-off a wait that lasts longer than 16 polls sleeps, and the sleep grows to the
 *            back-off cap (16 us by default): a group whose tile finished early may see
 *            the release late, and the next iteration starts late by that much
 * So the same user kernels (apps/jacobi/jacobi_kernels.cuh, sync form) in interleaved
 * rounds: each round runs every variant once, the first variant of a round rotating;
 * the median of JO_ROUNDS rounds after one warm-up round. Variants:
 *   cg, cg-again      grid.sync(), twice: what two runs of the same kernel differ by
 *   flip              gridsync's flip through gs_cuda_launch_timed, default options
 *   flip-spin         flip with backoff_ns = 0 (never sleeps)
 *   flip-raw          flip's kernel launched as cg's is (cudaLaunchCooperativeKernel), on
 *                     the state of a barrier it was launched through once
 *   tree              gridsync's tree through gs_cuda_launch_timed (auto's choice at 4 and
 *                     8 blocks per SM)
 *   hand-cg           grid.sync()'s algorithm written out (hand_barriers.cuh)
 *   hand-flip         flip's algorithm written out: relaxed polls, one acquire fence, the
 *                     last arriver does not poll
 *   hand-flip-acq     hand-flip polling with acquire loads
 *   hand-flip-warp(-acq)  hand-flip with the first warp converged through the episode
 *                     (-acq: acquire polls, the last arriver's acquire left out on purpose)
 *   warp-verdict, warp-abort, warp-sleep  hand-flip-warp reporting a timeout to its
 *                     group, then raising the abort word, then sleeping between polls
 *   lean-flip         hand-flip's bare loop for 1024 polls, then a bounded wait out of
 *                     line (hand_barriers.cuh)
 *   warp-lean(-64)    warp-abort's converged warp polling bare for 1024 (64) polls, then
 *                     lean-flip's bounded wait out of line (hand_barriers.cuh)
 *   hand-flip@k       hand-flip with its counter k 128-byte lines into its words
 *   hand-flip-in-state  hand-flip on the memory of a flip state, its counter on the
 *                     state's counter line
 *   begun             hand-flip on a flip state's counter line, the kernel beginning the
 *                     state as gridsync's do (begun_hand_flip), launched as flip-raw
 *   begun-no-copy     the same on a state never launched through the library: its begin
 *                     writes no acknowledgement to host memory
 *   begin-bar, begin-slot, begin-nc, begin-relaxed  one piece of the begin each
 *                     (hand_barriers.cuh, begin_piece); begin-nc-last-warp, -no-bar, -warp:
 *                     the header's reads by another thread, without the group barrier, by
 *                     a whole warp
 *   st-cg, st-flip, st-hand-flip  cg, flip and hand-flip with each block's thread 0
 *                     stamping the global timer as it enters the barrier and as it leaves
 *                     it (stamped, below): per iteration, the last entry, how long after
 *                     it the last and the average block left, and the period from one
 *                     last entry to the next, printed as "stamps" lines after the table
 *                     (medians over iterations and runs): whether a variant's time goes
 *                     to the barrier or to the sweeps between
 * Every run's grid is compared bit for bit with cg's first. Device time between CUDA
 * events. JO_SIZES=n:iters,... (default 4096:1000,8192:200), JO_ROUNDS (default 7),
 * JO_GROUPS, JO_ONLY, JO_CARVEOUT (below). Also gridsync's ingredients one at a time on hand-flip
 * (+note ... +all) and flip taken apart (parts*), as bench/micro/jacobi_barriers.cu
 * names them (hand_barriers.cuh), and cg-slot: grid.sync() with a __shared__ slot.
 * Built and run by scripts/gpu.sh (stage jacobi_order):
 *     nvcc -arch=sm_90 -O3 -std=c++17 --fmad=false -Iinclude -Iapps/jacobi \
 *          bench/micro/jacobi_order.cu apps/jacobi/reference.c apps/jacobi/tiles.c \
 *          build/src/libgridsync-cuda.a build/src/libgridsync.a -lcuda -o jacobi_order */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "gridsync/host_cuda.h"

#include "jacobi.h"
#include "jacobi_kernels.cuh"

#include "hand_barriers.cuh"
#include "timing.cuh"

/* stamped's buffer: [group][iteration][enter, leave] in global-timer ns */
__device__ unsigned long long *g_stamps;
__device__ unsigned g_stamp_iters;

/* Barrier B with thread 0 stamping the global timer around each of its syncs. The
 * stamps cost every variant the same two stores a barrier. */
template <class B> struct stamped {
    B inner;
    unsigned k;
    __device__ explicit stamped(gs_word *state) : inner(state), k(0u) {}
    static __device__ unsigned long long now()
    {
        unsigned long long t;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        return t;
    }
    __device__ gs_u32 sync()
    {
        unsigned long long *at = g_stamps + 2ull * ((size_t)blockIdx.x * g_stamp_iters + k);
        if (threadIdx.x == 0)
            at[0] = now();
        gs_u32 why = inner.sync();
        if (threadIdx.x == 0)
            at[1] = now();
        ++k;
        return why;
    }
};

enum how { CG, LIBRARY, RAW, HAND, HAND_IN_STATE, ON_STATE };
struct variant {
    const char *name;
    how launch; /* CG, HAND: a cooperative launch of `kernel` (HAND on its own zeroed
                   words); LIBRARY: through a flip barrier; RAW: flip's kernel launched
                   cooperatively on its state; HAND_IN_STATE: a hand-written kernel on the
                   memory of a flip barrier's state (made for 1056 groups, never launched);
                   ON_STATE: cooperatively on a flip state made for the grid, never
                   launched through the library (so its header has no host copy's address) */
    const void *kernel;
    unsigned backoff; /* the flip barrier's option (GS_OPTION_DEFAULT: the default) */
    unsigned line;    /* HAND, HAND_IN_STATE: the counter this many 128-byte lines in */
    int tree;         /* LIBRARY: a tree barrier instead of flip */
};

/* One run's stamps (stamped): the medians over its barriers (the first two left out) of
 * the period from one barrier's last entry to the next one's, how long after the last
 * entry the last block and the average block left, and the entries' spread. */
struct stamp_stats {
    double period, last_leave, mean_leave, spread;
};
static stamp_stats stamp_medians(const std::vector<unsigned long long> &t, unsigned groups,
                                 unsigned iters)
{
    std::vector<double> period, last, mean, spread;
    double prev = 0;
    for (unsigned k = 0; k + 1u < iters; ++k) {
        unsigned long long in_max = 0, in_min = ~0ull, out_max = 0;
        double out_sum = 0;
        for (unsigned g = 0; g < groups; ++g) {
            const unsigned long long *at = &t[2ull * ((size_t)g * iters + k)];
            in_max = std::max(in_max, at[0]);
            in_min = std::min(in_min, at[0]);
            out_max = std::max(out_max, at[1]);
            out_sum += (double)at[1];
        }
        if (k >= 2) {
            period.push_back((double)in_max - prev);
            last.push_back((double)(out_max - in_max));
            mean.push_back(out_sum / groups - (double)in_max);
            spread.push_back((double)(in_max - in_min));
        }
        prev = (double)in_max;
    }
    return {median(period), median(last), median(mean), median(spread)};
}

int main()
{
    gs_device *dev;
    if (gs_device_open(GS_BACKEND_CUDA, 0, &dev) != GS_OK) {
        fprintf(stderr, "jacobi_order: no CUDA device\n");
        return 2;
    }
    const void *cg_kernel = (const void *)gsj_persistent<gsj_cg>;
    const void *flip_kernel = (const void *)gsj_persistent<gsj_flip>;
    const variant vs[] = {
        {"cg", CG, cg_kernel, 0},
        {"cg-again", CG, cg_kernel, 0},
        {"flip", LIBRARY, flip_kernel, GS_OPTION_DEFAULT},
        {"flip-spin", LIBRARY, flip_kernel, 0u},
        {"flip-raw", RAW, flip_kernel, GS_OPTION_DEFAULT},
        {"tree", LIBRARY, (const void *)gsj_persistent<gsj_tree>, GS_OPTION_DEFAULT, 0, 1},
        {"hand-cg", HAND, (const void *)gsj_persistent<hand_cg>, 0},
        {"hand-flip", HAND, (const void *)gsj_persistent<hand_flip<0>>, 0},
        {"hand-flip-acq", HAND, (const void *)gsj_persistent<hand_flip<1>>, 0},
        {"hand-flip-warp", HAND, (const void *)gsj_persistent<hand_flip_warp<0>>, 0},
        {"hand-flip-warp-acq", HAND, (const void *)gsj_persistent<hand_flip_warp<1>>, 0},
        /* where the counter lies: other lines of its own words, and the line of a flip
         * state's counter (GS_LINE_COUNTER) */
        {"hand-flip@1", HAND, (const void *)gsj_persistent<hand_flip<0>>, 0, 1},
        {"hand-flip@2", HAND, (const void *)gsj_persistent<hand_flip<0>>, 0, 2},
        {"hand-flip@3", HAND, (const void *)gsj_persistent<hand_flip<0>>, 0, 3},
        {"hand-flip@4", HAND, (const void *)gsj_persistent<hand_flip<0>>, 0, 4},
        {"hand-flip@5", HAND, (const void *)gsj_persistent<hand_flip<0>>, 0, 5},
        {"hand-flip@6", HAND, (const void *)gsj_persistent<hand_flip<0>>, 0, 6},
        {"hand-flip@7", HAND, (const void *)gsj_persistent<hand_flip<0>>, 0, 7},
        {"hand-flip-in-state", HAND_IN_STATE, (const void *)gsj_persistent<hand_flip<0>>, 0,
         GS_LINE_COUNTER},
        {"begun", RAW, (const void *)gsj_persistent<begun_hand_flip>, GS_OPTION_DEFAULT},
        {"begun-no-copy", ON_STATE, (const void *)gsj_persistent<begun_hand_flip>,
         GS_OPTION_DEFAULT},
        {"begin-bar", ON_STATE, (const void *)gsj_persistent<begin_piece<BEGIN_BAR>>,
         GS_OPTION_DEFAULT},
        {"begin-slot", ON_STATE, (const void *)gsj_persistent<begin_piece<BEGIN_SLOT>>,
         GS_OPTION_DEFAULT},
        {"begin-nc", ON_STATE, (const void *)gsj_persistent<begin_piece<BEGIN_NC>>,
         GS_OPTION_DEFAULT},
        {"begin-relaxed", ON_STATE, (const void *)gsj_persistent<begin_piece<BEGIN_RELAXED>>,
         GS_OPTION_DEFAULT},
        {"begin-nc-last-warp", ON_STATE,
         (const void *)gsj_persistent<begin_piece<BEGIN_NC_LAST_WARP>>, GS_OPTION_DEFAULT},
        {"begin-nc-no-bar", ON_STATE, (const void *)gsj_persistent<begin_piece<BEGIN_NC_NO_BAR>>,
         GS_OPTION_DEFAULT},
        {"begin-nc-warp", ON_STATE, (const void *)gsj_persistent<begin_piece<BEGIN_NC_WARP>>,
         GS_OPTION_DEFAULT},
        {"+note", HAND, (const void *)gsj_persistent<hand_flip<0, 1>>, 0},
        {"+verdict", HAND, (const void *)gsj_persistent<hand_flip<0, 0, 1>>, 0},
        {"+book", HAND, (const void *)gsj_persistent<hand_flip<0, 0, 0, 1>>, 0},
        {"+slot", HAND, (const void *)gsj_persistent<hand_flip<0, 0, 0, 0, 1>>, 0},
        {"+all", HAND, (const void *)gsj_persistent<hand_flip<0, 1, 1, 1, 1>>, 0},
        {"parts", RAW, (const void *)gsj_persistent<flip_parts<0, 0, 0>>, GS_OPTION_DEFAULT},
        {"parts-first-nobad", RAW, (const void *)gsj_persistent<flip_parts<1, 1, 0>>,
         GS_OPTION_DEFAULT},
        {"parts-all-bare", RAW, (const void *)gsj_persistent<flip_parts<1, 1, 1>>,
         GS_OPTION_DEFAULT},
        {"warp-verdict", HAND, (const void *)gsj_persistent<warp_bounded<1, 0, 0>>, 0},
        {"warp-abort", HAND, (const void *)gsj_persistent<warp_bounded<1, 1, 0>>, 0},
        {"warp-sleep", HAND, (const void *)gsj_persistent<warp_bounded<1, 1, 1>>, 0},
        {"lean-flip", HAND, (const void *)gsj_persistent<lean_flip<1024u>>, 0},
        {"warp-lean", HAND, (const void *)gsj_persistent<warp_lean<1024u>>, 0},
        {"warp-lean-64", HAND, (const void *)gsj_persistent<warp_lean<64u>>, 0},
        {"cg-slot", CG, (const void *)gsj_persistent<cg_slot>, 0},
        {"st-cg", CG, (const void *)gsj_persistent<stamped<gsj_cg>>, 0},
        {"st-flip", LIBRARY, (const void *)gsj_persistent<stamped<gsj_flip>>, GS_OPTION_DEFAULT},
        {"st-hand-flip", HAND, (const void *)gsj_persistent<stamped<hand_flip<0>>>, 0},
    };
    const unsigned all = sizeof vs / sizeof *vs;
    /* JO_ONLY=name,name,...: only these (cg, the reference, always first) */
    const char *only = getenv("JO_ONLY");
    std::vector<variant> chosen;
    for (unsigned v = 0; v < all; ++v) {
        char key[40];
        snprintf(key, sizeof key, ",%s,", vs[v].name);
        std::string list = std::string(",") + (only ? only : "") + ",";
        if (v == 0 || !only || list.find(key) != std::string::npos)
            chosen.push_back(vs[v]);
    }
    const unsigned nv = (unsigned)chosen.size();
    /* JO_GROUPS=g,g,...: the grids (default 1, 2, 4, 8 blocks per SM of an H100/H200) */
    std::vector<unsigned> groups_list;
    for (const char *p = getenv("JO_GROUPS") ? getenv("JO_GROUPS") : "132,264,528,1056"; p && *p;) {
        groups_list.push_back((unsigned)strtoul(p, NULL, 10));
        p = strchr(p, ',');
        p = p ? p + 1 : NULL;
    }
    const char *sizes_env = getenv("JO_SIZES");
    unsigned rounds = getenv("JO_ROUNDS") ? (unsigned)atoi(getenv("JO_ROUNDS")) : 7u;
    std::vector<std::pair<unsigned, unsigned>> sizes;
    for (const char *p = sizes_env ? sizes_env : "4096:1000,8192:200"; p && *p;) {
        unsigned n = 0, t = 0;
        if (sscanf(p, "%u:%u", &n, &t) == 2)
            sizes.push_back({n, t});
        p = strchr(p, ',');
        p = p ? p + 1 : NULL;
    }
    /* JO_CARVEOUT=percent: every kernel's preferred shared-memory carveout
     * (cudaFuncAttributePreferredSharedMemoryCarveout; 0: the most L1) */
    if (const char *cv = getenv("JO_CARVEOUT"))
        for (unsigned v = 0; v < nv; ++v)
            if (cudaFuncSetAttribute(chosen[v].kernel,
                                     cudaFuncAttributePreferredSharedMemoryCarveout,
                                     atoi(cv)) != cudaSuccess)
                return 1;
    cudaStream_t s;
    cudaEvent_t e0, e1;
    bench_stream_events(&s, &e0, &e1);
    int failed = 0;
    printf("n,iters,groups,variant,median_ms,min_ms,max_ms,x_cg,rounds,check\n");
    for (auto z : sizes) {
        unsigned n = z.first, iters = z.second;
        size_t cells = (size_t)n * n, bytes = cells * sizeof(float);
        std::vector<float> init(cells), want(cells), got(cells);
        gsj_initial(n, 20240601u, init.data());
        float *a, *b, *a0;
        cudaMalloc(&a, bytes);
        cudaMalloc(&b, bytes);
        cudaMalloc(&a0, bytes);
        cudaMemcpy(a0, init.data(), bytes, cudaMemcpyHostToDevice);
        for (unsigned groups : groups_list) {
            unsigned gx, gy;
            gsj_tiling(groups, &gx, &gy);
            std::vector<gs_barrier *> bars(nv, nullptr);
            std::vector<void *> states(nv, nullptr);
            for (unsigned v = 0; v < nv; ++v) {
                if (chosen[v].launch == HAND) {
                    size_t words = (HAND_WORDS(groups) + 32u * chosen[v].line) * sizeof(gs_word);
                    if (cudaMalloc(&states[v], words) != cudaSuccess ||
                        cudaMemset(states[v], 0, words) != cudaSuccess)
                        return 1;
                }
                if (chosen[v].launch == CG || chosen[v].launch == HAND)
                    continue;
                gs_barrier_options o;
                gs_barrier_options_init(&o);
                o.backoff_ns = chosen[v].backoff;
                unsigned made_for = chosen[v].launch == HAND_IN_STATE ? 1056u : groups;
                gs_algo algo = chosen[v].tree ? GS_ALGO_TREE : GS_ALGO_FLIP;
                if (gs_barrier_create_with(dev, algo, made_for, &o, &bars[v]) != GS_OK ||
                    gs_cuda_state(bars[v], &states[v]) != GS_OK)
                    return 1;
            }
            std::vector<void *> counters(nv);
            for (unsigned v = 0; v < nv; ++v)
                counters[v] =
                    (gs_word *)states[v] + (chosen[v].launch >= HAND ? 32u * chosen[v].line : 0u);
            unsigned long long *stamps = nullptr;
            std::vector<unsigned long long> host_stamps((size_t)2 * groups * iters);
            if (cudaMalloc(&stamps, host_stamps.size() * sizeof(unsigned long long)) !=
                    cudaSuccess ||
                cudaMemcpyToSymbol(g_stamps, &stamps, sizeof stamps) != cudaSuccess ||
                cudaMemcpyToSymbol(g_stamp_iters, &iters, sizeof iters) != cudaSuccess)
                return 1;
            std::vector<std::vector<stamp_stats>> st(nv);
            std::vector<std::vector<double>> ms(nv);
            std::vector<int> bad(nv, 0);
            int have_want = 0;
            for (unsigned r = 0; r <= rounds; ++r)
                for (unsigned i = 0; i < nv; ++i) {
                    unsigned v = (i + r) % nv; /* the round's first variant rotates */
                    cudaMemcpyAsync(a, a0, bytes, cudaMemcpyDeviceToDevice, s);
                    cudaMemcpyAsync(b, a0, bytes, cudaMemcpyDeviceToDevice, s);
                    cudaStreamSynchronize(s);
                    void *args[] = {&counters[v], &a, &b, &n, &iters};
                    double ns = 0;
                    /* RAW: the first launch through the library records the shape */
                    if (chosen[v].launch == LIBRARY || (chosen[v].launch == RAW && r == 0)) {
                        if (gs_cuda_launch_timed(bars[v], chosen[v].kernel, GS_DIM3_1D(groups),
                                                 GS_DIM3_1D(256), 0, args, s, &ns) != GS_OK)
                            bad[v] = 1;
                    } else {
                        cudaEventRecord(e0, s);
                        if (cudaLaunchCooperativeKernel(chosen[v].kernel, groups, 256, args, 0,
                                                        s) != cudaSuccess)
                            bad[v] = 1;
                        cudaEventRecord(e1, s);
                        cudaEventSynchronize(e1);
                        float f = 0;
                        cudaEventElapsedTime(&f, e0, e1);
                        ns = f * 1e6;
                    }
                    cudaMemcpy(got.data(), iters % 2 ? b : a, bytes, cudaMemcpyDeviceToHost);
                    if (!have_want && chosen[v].launch == CG && !bad[v]) {
                        want = got;
                        have_want = 1;
                    } else if (have_want && memcmp(got.data(), want.data(), bytes) != 0) {
                        bad[v] = 1;
                    }
                    if (r > 0)
                        ms[v].push_back(ns / 1e6);
                    if (r > 0 && strncmp(chosen[v].name, "st-", 3) == 0) {
                        cudaMemcpy(host_stamps.data(), stamps,
                                   host_stamps.size() * sizeof(unsigned long long),
                                   cudaMemcpyDeviceToHost);
                        st[v].push_back(stamp_medians(host_stamps, groups, iters));
                    }
                }
            double cg_ms = median(ms[0]);
            for (unsigned v = 0; v < nv; ++v) {
                double m = median(ms[v]);
                failed |= bad[v];
                printf("%u,%u,%u,%s,%.4f,%.4f,%.4f,%.4f,%u,%s\n", n, iters, groups, chosen[v].name,
                       m, *std::min_element(ms[v].begin(), ms[v].end()),
                       *std::max_element(ms[v].begin(), ms[v].end()), cg_ms > 0 ? m / cg_ms : 0.0,
                       rounds, bad[v] ? "FAIL" : "pass");
                if (bars[v])
                    gs_barrier_destroy(bars[v]);
                else if (states[v])
                    cudaFree(states[v]);
            }
            for (unsigned v = 0; v < nv; ++v) {
                if (st[v].empty())
                    continue;
                std::vector<double> p, l, m, sp;
                for (const stamp_stats &x : st[v]) {
                    p.push_back(x.period);
                    l.push_back(x.last_leave);
                    m.push_back(x.mean_leave);
                    sp.push_back(x.spread);
                }
                printf("stamps,%u,%u,%u,%s,period_ns %.0f,last_leave_ns %.0f,mean_leave_ns "
                       "%.0f,entry_spread_ns %.0f\n",
                       n, iters, groups, chosen[v].name, median(p), median(l), median(m),
                       median(sp));
            }
            cudaFree(stamps);
            fflush(stdout);
        }
        cudaFree(a);
        cudaFree(b);
        cudaFree(a0);
    }
    gs_device_close(dev);
    return failed;
}
