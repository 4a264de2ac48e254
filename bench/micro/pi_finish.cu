/* bench/micro/pi_finish.cu - where the Pi program's ways to finish (apps/pi) spend their
 * time: each variant's device time (CUDA events around its kernels) and its time from
 * the launch to pi on the host (the app's measure), medians of 201 after 20 warm-ups, at
 * 10^6 .. 10^9 steps on 1056 blocks of 256. Variants:
 *   host       the partials kernel, the partials copied back, summed on the host
 *              (host-mapped: the kernel writes them into mapped pinned host memory)
 *   app-*      the app's own kernel (one kernel, the way a run-time argument)
 *   ticket     a kernel of its own: release add, the verdict in shared memory, one
 *              acquire fence on the last group only
 *   tagless    no fence at all: each partial is a 64-bit relaxed store over a NaN that
 *              no partial can be, the ticket a relaxed add; the last group polls the
 *              partials until none is the NaN, sums, and puts the NaNs back
 *   mapped     the ticket kernel writing pi into mapped pinned host memory (no copy)
 *   tree, flip gs_sync_<p> then group 0 sums, in a kernel of its own (flip-plain: the
 *              flip kernel launched with <<<>>>, not cooperatively)
 *   arrive     flip, every group but 0 arrives and leaves, group 0 waits and sums
 *              (arrive-mapped: into mapped pinned host memory)
 *   last-flip, last-tree  gs_arrive_last_<p>: every group arrives, none waits, the group
 *              whose arrival completed the episode sums (last-flip-plain: launched with
 *              <<<>>>, where nothing waits and co-residency is not needed; last-flip-ao:
 *              through the library on an arrive-only barrier, gs_barrier_set_arrive_only,
 *              launched without the cooperative attribute)
 *   flip-coop, flip-plain-ev, flip-plain-api  the library's launch path taken apart: the
 *              flip kernel launched cooperatively by hand; with <<<>>> and the done event
 *              the library records after an untimed launch (and synchronizes at collect);
 *              with <<<>>> after the cudaSetDevice and cudaStreamIsCapturing it calls;
 *              app-barrier-plain: the app's barrier way launched with <<<>>> on the
 *              library's state (its device side without the library's host path);
 *              app-barrier-launch: the app's barrier way as the app runs it, through
 *              gs_cuda_launch (its wait the only one), pi in mapped host memory
 * Every variant prints the time the launch call itself took on the host too, the time
 * from there to the end of the stream's synchronize, and from there to pi on the host
 * (the collect, for a launch through the library).
 * Built and run by scripts/gpu.sh (stage pi_finish) against the build's libraries:
 *     nvcc -arch=sm_90 -O3 -std=c++17 -Iinclude -Iapps/pi bench/micro/pi_finish.cu \
 *          build/src/libgridsync-cuda.a build/src/libgridsync.a -lcuda -o pi_finish */
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda/atomic>
#include <cuda_runtime.h>

#include "gridsync/cuda.cuh"
#include "gridsync/host_cuda.h"

#include "pi_app_kernel.cuh"
#include "pi_step.h"
#include "timing.cuh"

#define GROUPS 1056u
#define BLOCK 256u
#define SENTINEL 0xfff8dead0000beefull /* a NaN: no partial sum is one */

__global__ void __launch_bounds__(BLOCK)
    k_partials(double *scratch, double *partials, unsigned long long steps)
{
    gsp_partial(scratch, partials, steps);
}

/* The barrier way in a kernel of its own, with a protocol named at compile time. */
template <int FLIP>
__global__ void __launch_bounds__(BLOCK)
    k_barrier(gs_word *state, double *scratch, double *partials, double *result,
              unsigned long long steps)
{
    gs_grid g = FLIP ? gs_grid_begin_flip(state) : gs_grid_begin_tree(state);
    gsp_partial(scratch, partials, steps);
    if (FLIP ? gs_sync_flip(&g) : gs_sync_tree(&g))
        return;
    if (blockIdx.x == 0)
        gsp_total(scratch, partials, result);
}

/* The barrier way where only group 0 waits: every other group arrives and leaves (the
 * launch's last barrier; flip's arrival is a group's whole part of an episode). The
 * result goes to `result`, device or mapped host memory. */
__global__ void __launch_bounds__(BLOCK) k_arrive(gs_word *state, double *scratch, double *partials,
                                                  double *result, unsigned long long steps)
{
    gs_grid g = gs_grid_begin_flip(state);
    gsp_partial(scratch, partials, steps);
    gs_token t = gs_arrive_flip(&g);
    if (blockIdx.x != 0)
        return;
    if (gs_wait_token_flip(&g, t))
        return;
    gsp_total(scratch, partials, result);
}

/* The barrier's last arriver sums (gs_arrive_last_<p>): nobody waits. */
template <int FLIP>
__global__ void __launch_bounds__(BLOCK) k_last(gs_word *state, double *scratch, double *partials,
                                                double *result, unsigned long long steps)
{
    gs_grid g = FLIP ? gs_grid_begin_flip(state) : gs_grid_begin_tree(state);
    gsp_partial(scratch, partials, steps);
    if (FLIP ? gs_arrive_last_flip(&g) : gs_arrive_last_tree(&g))
        gsp_total(scratch, partials, result);
}

/* The app's kernel with each group's times (globaltimer, ns): its start, after the
 * begin, after its partial, after its arrival (barrier) or ticket, the waiter's return
 * from its wait, its end. `waiter`: the barrier way's one waiting group, which sums. */
static __device__ __forceinline__ unsigned long long stamp_now()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
#define STAMPS 6u
__global__ void __launch_bounds__(1024)
    k_stamped(gs_word *state, gs_word *ticket, double *scratch, double *partials, double *result,
              unsigned long long steps, unsigned way, unsigned waiter, unsigned long long *stamps)
{
    unsigned long long *mine = stamps + STAMPS * blockIdx.x;
    const bool rep = threadIdx.x == 0;
    if (rep)
        mine[0] = stamp_now();
    gs_grid g;
    if (way == GSP_WAY_BARRIER)
        g = gs_grid_begin_auto(state);
    if (rep)
        mine[1] = stamp_now();
    gsp_partial(scratch, partials, steps);
    if (rep)
        mine[2] = stamp_now();
    if (way == GSP_WAY_BARRIER) {
        gs_token t = gs_arrive_auto(&g);
        if (rep)
            mine[3] = stamp_now();
        if (blockIdx.x == waiter) {
            if (gs_wait_token_auto(&g, t) != 0u)
                return;
            if (rep)
                mine[4] = stamp_now();
            gsp_total(scratch, partials, result);
        }
    } else {
        __shared__ unsigned last;
        __syncthreads();
        if (rep)
            last = gs_fetch_add_acq_rel(ticket, 1u) + 1u == gs_num_groups();
        __syncthreads();
        if (rep)
            mine[3] = stamp_now();
        if (last) {
            if (rep)
                mine[4] = stamp_now();
            gsp_total(scratch, partials, result);
            if (rep)
                gs_store_relaxed(ticket, 0u);
        }
    }
    __syncthreads();
    if (rep)
        mine[5] = stamp_now();
}

/* The ticket with the least ordering a release/acquire ticket needs. */
__global__ void __launch_bounds__(BLOCK)
    k_ticket(unsigned *ticket, double *scratch, double *partials, double *result,
             unsigned long long steps)
{
    __shared__ unsigned last;
    gsp_partial(scratch, partials, steps);
    if (threadIdx.x == 0) {
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> t(*ticket);
        unsigned before = t.fetch_add(1u, cuda::memory_order_release);
        last = before + 1u == gridDim.x;
        if (last)
            cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
    }
    __syncthreads();
    if (last) {
        gsp_total(scratch, partials, result);
        if (threadIdx.x == 0)
            *ticket = 0u;
    }
}

/* No fence: the partials carry their own readiness (a NaN until written). */
__global__ void __launch_bounds__(BLOCK)
    k_tagless(unsigned *ticket, double *scratch, unsigned long long *slots, double *result,
              unsigned long long steps, int *timeouts)
{
    __shared__ unsigned last;
    const unsigned lid = threadIdx.x, groups = gridDim.x;
    double h = 1.0 / (double)steps, sum = 0.0;
    unsigned long long stride = (unsigned long long)groups * BLOCK;
    for (unsigned long long i = (unsigned long long)blockIdx.x * BLOCK + lid; i < steps;
         i += stride) {
        double x = ((double)i + 0.5) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    sum = gsp_group_sum(scratch, sum); /* the app's: shuffles, on work-item 0 */
    if (lid == 0u) {
        double p = sum * h;
        unsigned long long bits;
        memcpy(&bits, &p, sizeof bits);
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> slot(slots[blockIdx.x]);
        slot.store(bits, cuda::memory_order_relaxed);
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> t(*ticket);
        last = t.fetch_add(1u, cuda::memory_order_relaxed) + 1u == groups;
    }
    __syncthreads();
    if (!last)
        return;
    double v = 0.0;
    for (unsigned g = lid; g < groups; g += BLOCK) {
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> slot(slots[g]);
        unsigned long long bits = slot.load(cuda::memory_order_relaxed);
        for (unsigned spins = 0; bits == SENTINEL; ++spins) {
            if (spins > (1u << 24)) {
                atomicAdd(timeouts, 1);
                break;
            }
            bits = slot.load(cuda::memory_order_relaxed);
        }
        slot.store(SENTINEL, cuda::memory_order_relaxed);
        double p;
        memcpy(&p, &bits, sizeof p);
        v += p;
    }
    v = gsp_group_sum(scratch, v);
    if (lid == 0u) {
        *result = v;
        *ticket = 0u;
    }
}

enum {
    V_HOST,
    V_APP_TICKET,
    V_APP_BARRIER,
    V_TICKET,
    V_TAGLESS,
    V_MAPPED,
    V_TREE,
    V_FLIP,
    V_FLIP_PLAIN,
    V_ARRIVE,
    V_ARRIVE_MAPPED,
    V_HOST_MAPPED,
    V_LAST_FLIP,
    V_LAST_TREE,
    V_LAST_FLIP_PLAIN,
    V_LAST_FLIP_AO,
    V_FLIP_COOP,
    V_FLIP_PLAIN_EV,
    V_FLIP_PLAIN_API,
    V_APP_BARRIER_PLAIN,
    V_APP_BARRIER_LAUNCH,
    V_COUNT
};
static const char *names[V_COUNT] = {"host",
                                     "app-ticket",
                                     "app-barrier",
                                     "ticket",
                                     "tagless",
                                     "mapped",
                                     "tree",
                                     "flip",
                                     "flip-plain",
                                     "arrive",
                                     "arrive-mapped",
                                     "host-mapped",
                                     "last-flip",
                                     "last-tree",
                                     "last-flip-plain",
                                     "last-flip-ao",
                                     "flip-coop",
                                     "flip-plain-ev",
                                     "flip-plain-api",
                                     "app-barrier-plain",
                                     "app-barrier-launch"};

int main()
{
    gs_device *dev;
    if (gs_device_open(GS_BACKEND_CUDA, 0, &dev) != GS_OK) {
        fprintf(stderr, "pi_finish: no CUDA device\n");
        return 2;
    }
    gs_barrier *bar, *tree, *flip, *flip_ao;
    void *state, *tree_state, *flip_state, *flip_ao_state;
    if (gs_barrier_create(dev, GS_ALGO_FLIP, GROUPS, &bar) != GS_OK ||
        gs_cuda_state(bar, &state) != GS_OK ||
        gs_barrier_create(dev, GS_ALGO_TREE, GROUPS, &tree) != GS_OK ||
        gs_cuda_state(tree, &tree_state) != GS_OK ||
        gs_barrier_create(dev, GS_ALGO_FLIP, GROUPS, &flip) != GS_OK ||
        gs_cuda_state(flip, &flip_state) != GS_OK ||
        gs_barrier_create(dev, GS_ALGO_FLIP, GROUPS, &flip_ao) != GS_OK ||
        gs_barrier_set_arrive_only(flip_ao, 1) != GS_OK ||
        gs_cuda_state(flip_ao, &flip_ao_state) != GS_OK)
        return 1;
    cudaStream_t s;
    cudaEvent_t e0, e1;
    bench_stream_events(&s, &e0, &e1);
    cudaEvent_t done; /* as the library's untimed launch records after the kernel */
    cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
    unsigned *ticket;
    double *scratch, *partials, *result, *host, *mapped, *mapped_dev, *mapped_parts,
        *mapped_parts_dev;
    unsigned long long *slots;
    int *timeouts;
    cudaMalloc(&ticket, sizeof(unsigned) * 2);
    cudaMemset(ticket, 0, sizeof(unsigned) * 2);
    cudaMalloc(&scratch, GROUPS * BLOCK * sizeof(double));
    cudaMalloc(&partials, GROUPS * sizeof(double));
    cudaMalloc(&slots, GROUPS * sizeof(unsigned long long));
    std::vector<unsigned long long> nan(GROUPS, SENTINEL);
    cudaMemcpy(slots, nan.data(), GROUPS * sizeof(unsigned long long), cudaMemcpyHostToDevice);
    cudaMalloc(&result, sizeof(double));
    cudaMalloc(&timeouts, sizeof(int));
    cudaMemset(timeouts, 0, sizeof(int));
    cudaMallocHost(&host, GROUPS * sizeof(double));
    cudaHostAlloc(&mapped, sizeof(double), cudaHostAllocMapped);
    cudaHostGetDevicePointer(&mapped_dev, mapped, 0);
    cudaHostAlloc(&mapped_parts, GROUPS * sizeof(double), cudaHostAllocMapped);
    cudaHostGetDevicePointer(&mapped_parts_dev, mapped_parts, 0);
    int failed = 0;
    printf("steps,variant,device_us,host_us,launch_us,pi,sync_us,collect_us\n");
    for (unsigned long long steps : {1000000ull, 10000000ull, 100000000ull, 1000000000ull}) {
        for (int v = 0; v < V_COUNT; ++v) {
            std::vector<double> dev_us, host_us, launch_us, sync_us, collect_us;
            double pi = 0.0;
            for (int i = 0; i < 221; ++i) {
                double t0 = now_us();
                cudaEventRecord(e0, s);
                unsigned way =
                    v == V_APP_BARRIER || v == V_APP_BARRIER_PLAIN || v == V_APP_BARRIER_LAUNCH
                        ? GSP_WAY_BARRIER
                    : v == V_APP_TICKET ? GSP_WAY_TICKET
                                        : GSP_WAY_HOST;
                void *args[] = {&state, &ticket, &scratch, &partials, &result, &steps, &way};
                switch (v) {
                case V_HOST: k_partials<<<GROUPS, BLOCK, 0, s>>>(scratch, partials, steps); break;
                case V_HOST_MAPPED:
                    k_partials<<<GROUPS, BLOCK, 0, s>>>(scratch, mapped_parts_dev, steps);
                    break;
                case V_APP_BARRIER_LAUNCH: {
                    void *margs[] = {&state,      &ticket, &scratch, &partials,
                                     &mapped_dev, &steps,  &way};
                    if (gs_cuda_launch(bar, (const void *)k_app, GS_DIM3_1D(GROUPS),
                                       GS_DIM3_1D(BLOCK), 0, margs, s) != GS_OK)
                        failed = 1;
                    break;
                }
                case V_APP_BARRIER_PLAIN:
                    k_app<<<GROUPS, BLOCK, 0, s>>>((gs_word *)state, ticket, scratch, partials,
                                                   result, steps, way);
                    break;
                case V_APP_TICKET:
                    k_app<<<GROUPS, BLOCK, 0, s>>>(NULL, ticket, scratch, partials, result, steps,
                                                   way);
                    break;
                case V_APP_BARRIER:
                    if (gs_cuda_launch_async(bar, (const void *)k_app, GS_DIM3_1D(GROUPS),
                                             GS_DIM3_1D(BLOCK), 0, args, s) != GS_OK)
                        failed = 1;
                    break;
                case V_TICKET:
                    k_ticket<<<GROUPS, BLOCK, 0, s>>>(ticket, scratch, partials, result, steps);
                    break;
                case V_TAGLESS:
                    k_tagless<<<GROUPS, BLOCK, 0, s>>>(ticket, scratch, slots, result, steps,
                                                       timeouts);
                    break;
                case V_MAPPED:
                    k_ticket<<<GROUPS, BLOCK, 0, s>>>(ticket, scratch, partials, mapped_dev, steps);
                    break;
                case V_FLIP_COOP: {
                    void *cargs[] = {&flip_state, &scratch, &partials, &result, &steps};
                    if (cudaLaunchCooperativeKernel((const void *)k_barrier<1>, GROUPS, BLOCK,
                                                    cargs, 0, s) != cudaSuccess)
                        failed = 1;
                    break;
                }
                case V_FLIP_PLAIN_API: {
                    enum cudaStreamCaptureStatus cs;
                    cudaSetDevice(0);
                    cudaStreamIsCapturing(s, &cs);
                }
                    /* fall through */
                case V_FLIP_PLAIN_EV:
                case V_FLIP_PLAIN:
                    k_barrier<1><<<GROUPS, BLOCK, 0, s>>>((gs_word *)flip_state, scratch, partials,
                                                          result, steps);
                    break;
                case V_ARRIVE:
                case V_ARRIVE_MAPPED: {
                    double *to = v == V_ARRIVE ? result : mapped_dev;
                    void *aargs[] = {&flip_state, &scratch, &partials, &to, &steps};
                    if (gs_cuda_launch_async(flip, (const void *)k_arrive, GS_DIM3_1D(GROUPS),
                                             GS_DIM3_1D(BLOCK), 0, aargs, s) != GS_OK)
                        failed = 1;
                    break;
                }
                case V_LAST_FLIP_PLAIN:
                    k_last<1><<<GROUPS, BLOCK, 0, s>>>((gs_word *)flip_state, scratch, partials,
                                                       result, steps);
                    break;
                case V_LAST_FLIP:
                case V_LAST_FLIP_AO:
                case V_LAST_TREE: {
                    void *largs[] = {v == V_LAST_TREE      ? &tree_state
                                     : v == V_LAST_FLIP_AO ? &flip_ao_state
                                                           : &flip_state,
                                     &scratch, &partials, &result, &steps};
                    if (gs_cuda_launch_async(
                            v == V_LAST_TREE      ? tree
                            : v == V_LAST_FLIP_AO ? flip_ao
                                                  : flip,
                            v == V_LAST_TREE ? (const void *)k_last<0> : (const void *)k_last<1>,
                            GS_DIM3_1D(GROUPS), GS_DIM3_1D(BLOCK), 0, largs, s) != GS_OK)
                        failed = 1;
                    break;
                }
                case V_TREE:
                case V_FLIP: {
                    void *bargs[] = {v == V_TREE ? &tree_state : &flip_state, &scratch, &partials,
                                     &result, &steps};
                    if (gs_cuda_launch_async(
                            v == V_TREE ? tree : flip,
                            v == V_TREE ? (const void *)k_barrier<0> : (const void *)k_barrier<1>,
                            GS_DIM3_1D(GROUPS), GS_DIM3_1D(BLOCK), 0, bargs, s) != GS_OK)
                        failed = 1;
                    break;
                }
                }
                if (v == V_FLIP_PLAIN_EV)
                    cudaEventRecord(done, s);
                cudaEventRecord(e1, s);
                double t_launched = now_us();
                if (v == V_HOST)
                    cudaMemcpyAsync(host, partials, GROUPS * sizeof(double), cudaMemcpyDeviceToHost,
                                    s);
                else if (v != V_MAPPED && v != V_ARRIVE_MAPPED && v != V_HOST_MAPPED &&
                         v != V_APP_BARRIER_LAUNCH)
                    cudaMemcpyAsync(host, result, sizeof(double), cudaMemcpyDeviceToHost, s);
                if (v != V_APP_BARRIER_LAUNCH) /* its launch waited */
                    cudaStreamSynchronize(s);
                double t_synced = now_us();
                gs_barrier *used =
                    v == V_APP_BARRIER                  ? bar
                    : v == V_LAST_FLIP_AO               ? flip_ao
                    : (v == V_TREE || v == V_LAST_TREE) ? tree
                    : (v == V_FLIP || v == V_ARRIVE || v == V_ARRIVE_MAPPED || v == V_LAST_FLIP)
                        ? flip
                        : NULL;
                if (used && gs_barrier_collect(used) != GS_OK)
                    failed = 1;
                if (v == V_FLIP_PLAIN_EV && cudaEventSynchronize(done) != cudaSuccess)
                    failed = 1;
                if (v == V_HOST || v == V_HOST_MAPPED) {
                    const volatile double *p = v == V_HOST ? host : mapped_parts;
                    pi = 0.0;
                    for (unsigned g = 0; g < GROUPS; ++g)
                        pi += p[g];
                } else {
                    pi = v == V_MAPPED || v == V_ARRIVE_MAPPED || v == V_APP_BARRIER_LAUNCH
                             ? *(volatile double *)mapped
                             : host[0];
                    *(volatile double *)mapped = 0.0;
                }
                double t1 = now_us();
                float ms = 0.0f;
                cudaEventSynchronize(e1); /* after t1: app-barrier-launch did not wait for it */
                cudaEventElapsedTime(&ms, e0, e1);
                if (i >= 20) {
                    dev_us.push_back(ms * 1000.0);
                    host_us.push_back(t1 - t0);
                    launch_us.push_back(t_launched - t0);
                    sync_us.push_back(t_synced - t_launched);
                    collect_us.push_back(t1 - t_synced);
                }
            }
            std::sort(dev_us.begin(), dev_us.end());
            std::sort(host_us.begin(), host_us.end());
            std::sort(launch_us.begin(), launch_us.end());
            std::sort(sync_us.begin(), sync_us.end());
            std::sort(collect_us.begin(), collect_us.end());
            if (!(fabs(pi - M_PI) < 1e-9))
                failed = 1;
            printf("%llu,%s,%.2f,%.2f,%.2f,%.15f,%.2f,%.2f\n", steps, names[v],
                   dev_us[dev_us.size() / 2], host_us[host_us.size() / 2],
                   launch_us[launch_us.size() / 2], pi, sync_us[sync_us.size() / 2],
                   collect_us[collect_us.size() / 2]);
            fflush(stdout);
        }
    }
    /* Where the time goes, per launch (medians over 21): the last partial's end and the
     * last arrival after the first start; when the finishing group (barrier: the waiter;
     * ticket: the last) had arrived, and how many groups arrived after it; how long after
     * the last arrival the waiter's wait returned; the end after the last partial. The
     * barrier way with its waiter the last group or group 0, its back-off growing to
     * 2048 ns or the library's 16384. */
    unsigned long long *stamps, *hs;
    cudaMalloc(&stamps, STAMPS * GROUPS * sizeof(unsigned long long));
    cudaMallocHost(&hs, STAMPS * GROUPS * sizeof(unsigned long long));
    printf("steps,way,waiter,cap_ns,last_partial_us,last_arrival_us,finisher_arrived_us,"
           "arrived_after_it,wake_us,tail_us,span_us\n");
    struct config {
        unsigned way, waiter, cap;
    } configs[] = {{GSP_WAY_TICKET, 0, 0},      {GSP_WAY_BARRIER, GROUPS - 1, 2048},
                   {GSP_WAY_BARRIER, 0, 2048},  {GSP_WAY_BARRIER, GROUPS - 1, 16384},
                   {GSP_WAY_BARRIER, 0, 16384}, {GSP_WAY_BARRIER, GROUPS - 1, 256}};
    for (unsigned long long steps : {100000000ull, 1000000000ull, 10000000000ull}) {
        for (const config &c : configs) {
            gs_barrier *cb = NULL;
            void *cstate = NULL;
            if (c.way == GSP_WAY_BARRIER) {
                gs_barrier_options o;
                gs_barrier_options_init(&o);
                o.backoff_cap_ns = c.cap;
                if (gs_barrier_create_with(dev, GS_ALGO_AUTO, GROUPS, &o, &cb) != GS_OK ||
                    gs_cuda_state(cb, &cstate) != GS_OK)
                    return 1;
            }
            std::vector<double> col[7];
            for (int i = 0; i < 24; ++i) {
                unsigned way = c.way, waiter = c.waiter;
                void *args[] = {&cstate, &ticket, &scratch, &partials, &result,
                                &steps,  &way,    &waiter,  &stamps};
                if (cb) {
                    if (gs_cuda_launch_async(cb, (const void *)k_stamped, GS_DIM3_1D(GROUPS),
                                             GS_DIM3_1D(BLOCK), 0, args, s) != GS_OK)
                        failed = 1;
                } else {
                    k_stamped<<<GROUPS, BLOCK, 0, s>>>(NULL, ticket, scratch, partials, result,
                                                       steps, way, waiter, stamps);
                }
                cudaMemcpyAsync(hs, stamps, STAMPS * GROUPS * sizeof(unsigned long long),
                                cudaMemcpyDeviceToHost, s);
                cudaStreamSynchronize(s);
                if (cb && gs_barrier_collect(cb) != GS_OK)
                    failed = 1;
                if (i < 3)
                    continue;
                unsigned long long s0 = ~0ull, p1 = 0, a1 = 0, e1 = 0;
                unsigned fin = c.waiter;
                for (unsigned g = 0; g < GROUPS; ++g) {
                    const unsigned long long *m = hs + STAMPS * g;
                    s0 = std::min(s0, m[0]);
                    p1 = std::max(p1, m[2]);
                    a1 = std::max(a1, m[3]);
                    e1 = std::max(e1, m[5]);
                    if (c.way == GSP_WAY_TICKET && m[3] >= hs[STAMPS * fin + 3])
                        fin = g; /* the ticket's finisher: the last to take one */
                }
                unsigned after = 0;
                for (unsigned g = 0; g < GROUPS; ++g)
                    after += hs[STAMPS * g + 3] > hs[STAMPS * fin + 3];
                const unsigned long long *f = hs + STAMPS * fin;
                col[0].push_back((p1 - s0) / 1e3);
                col[1].push_back((a1 - s0) / 1e3);
                col[2].push_back((f[3] - s0) / 1e3);
                col[3].push_back(after);
                col[4].push_back(((double)f[4] - (double)a1) / 1e3);
                col[5].push_back((e1 - p1) / 1e3);
                col[6].push_back((e1 - s0) / 1e3);
            }
            printf("%llu,%s,%u,%u", steps, c.way == GSP_WAY_BARRIER ? "barrier" : "ticket",
                   c.waiter, c.cap);
            for (auto &v : col) {
                std::sort(v.begin(), v.end());
                printf(",%.2f", v[v.size() / 2]);
            }
            printf("\n");
            fflush(stdout);
            if (cb)
                gs_barrier_destroy(cb);
        }
    }
    int t = 0;
    cudaMemcpy(&t, timeouts, sizeof t, cudaMemcpyDeviceToHost);
    if (cudaGetLastError() != cudaSuccess || failed || t) {
        fprintf(stderr, "pi_finish: a launch failed, pi was wrong or a poll gave up (%d)\n", t);
        return 1;
    }
    gs_barrier_destroy(bar);
    gs_barrier_destroy(tree);
    gs_barrier_destroy(flip_ao);
    gs_barrier_destroy(flip);
    gs_device_close(dev);
    return 0;
}
