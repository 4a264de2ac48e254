/* bench/micro/libsync.cu - gs_libsync: the library's own barriers in the barest loop a
 * user kernel can have (`for (...) if (gs_sync(&g)) return;`), launched through
 * gs_cuda_launch_timed, so their cost can be set beside gs_variants' bare designs and
 * beside `gridsync bench` (whose built-in program adds its phase loop and checks).
 *
 *     gs_libsync [ALGO,...]       default: central,flip,tree,sharded,cluster,cg
 * With GS_LIBSYNC_ONLY set it also times the loop built for flip or cg alone
 * (gs_sync_flip, gs_sync_cg: rows only-flip and only-cg): what gs_sync's dispatch costs.
 * Output: CSV `algo,blocks,threads,ns_median,ns_min,status`; the median of 5 launches
 * of 2000 barriers each, after one warm-up launch. Row raw-cg: grid.sync() in a kernel
 * of its own, no library, in the same process. */
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gridsync.h"
#include "gridsync/host_cuda.h"

#define LIBSYNC_KERNEL k_sync
#define LIBSYNC_ACCESSOR libsync_all
#include "libsync_kernel.cuh"

/* The same loop compiled for one protocol (libsync_only_*.cu): what the dispatch costs
 * (rows only-cg, only-flip). */
const void *libsync_only_flip(void);
const void *libsync_only_cg(void);

/* The vendor's barrier with no library at all, launched here too: the yardstick that
 * tells the library's cost from the machine's state (clocks) in this very process. */
__global__ void __launch_bounds__(1024) k_raw_cg(int iters)
{
    cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    for (int i = 0; i < iters; ++i)
        grid.sync();
}

static void measure_raw(unsigned n, unsigned t)
{
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    std::vector<double> v;
    for (int r = 0; r < 6; ++r) {
        int iters = r ? 2000 : 200;
        void *args[] = {&iters};
        cudaEventRecord(e0);
        cudaError_t e = cudaLaunchCooperativeKernel((const void *)k_raw_cg, n, t, args, 0, 0);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms = 0;
        cudaEventElapsedTime(&ms, e0, e1);
        if (e != cudaSuccess) {
            printf("raw-cg,%u,%u,,,%s\n", n, t, cudaGetErrorString(e));
            return;
        }
        if (r)
            v.push_back(ms * 1e6 / iters);
    }
    std::sort(v.begin(), v.end());
    printf("raw-cg,%u,%u,%.1f,%.1f,ok\n", n, t, v[2], v[0]);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
}

static void measure(gs_device *dev, gs_algo algo, unsigned n, unsigned t, int only = 0)
{
    const char *name = only ? (algo == GS_ALGO_FLIP ? "only-flip" : "only-cg") : gs_algo_name(algo);
    gs_barrier *b = nullptr;
    gs_status s = gs_barrier_create(dev, algo, n, &b);
    if (s != GS_OK) {
        printf("%s,%u,%u,,,%s\n", name, n, t, gs_status_string(s));
        return;
    }
    void *state = nullptr;
    gs_cuda_state(b, &state);
    int iters = 200;
    void *args[] = {&state, &iters};
    const void *k = !only                  ? libsync_all()
                    : algo == GS_ALGO_FLIP ? libsync_only_flip()
                                           : libsync_only_cg();
    double ns = 0;
    s = gs_cuda_launch_timed(b, k, GS_DIM3_1D(n), GS_DIM3_1D(t), 0, args, nullptr, &ns);
    std::vector<double> v;
    iters = 2000;
    for (int r = 0; r < 5 && s == GS_OK; ++r) { /* after a warm-up of 200 */
        s = gs_cuda_launch_timed(b, k, GS_DIM3_1D(n), GS_DIM3_1D(t), 0, args, nullptr, &ns);
        v.push_back(ns / iters);
    }
    if (s != GS_OK) {
        printf("%s,%u,%u,,,%s\n", name, n, t, gs_status_string(s));
    } else {
        std::sort(v.begin(), v.end());
        printf("%s,%u,%u,%.1f,%.1f,ok\n", name, n, t, v[2], v[0]);
    }
    fflush(stdout);
    gs_barrier_destroy(b);
}

int main(int argc, char **argv)
{
    std::string list = argc > 1 ? argv[1] : "central,flip,tree,sharded,cluster,cg";
    gs_device *dev = nullptr;
    gs_status s = gs_device_open(GS_BACKEND_CUDA, 0, &dev);
    if (s != GS_OK) {
        fprintf(stderr, "gs_libsync: %s\n", gs_status_string(s));
        return s == GS_ERR_NO_DEVICE ? 77 : 1;
    }
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    printf("algo,blocks,threads,ns_median,ns_min,status\n");
    const unsigned cfg[][2] = {{1u * sms, 256}, {2u * sms, 256}, {8u * sms, 256},
                               {8u * sms, 64},  {16u * sms, 64}, {32u * sms, 64}};
    int diag = getenv("GS_LIBSYNC_ONLY") != nullptr;
    for (const auto &c : cfg) {
        measure_raw(c[0], c[1]);
        if (diag) {
            measure(dev, GS_ALGO_CG, c[0], c[1], 1);
            measure(dev, GS_ALGO_FLIP, c[0], c[1], 1);
        }
        size_t at = 0;
        while (at <= list.size()) {
            size_t end = list.find(',', at);
            if (end == std::string::npos)
                end = list.size();
            gs_algo algo;
            if (gs_algo_from_name(list.substr(at, end - at).c_str(), &algo) == GS_OK)
                measure(dev, algo, c[0], c[1]);
            at = end + 1;
        }
    }
    gs_device_close(dev);
    return 0;
}
