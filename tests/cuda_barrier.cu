/* tests/cuda_barrier.cu - every protocol of the CUDA back end, through the public API
 * (gs_run with the built-in programs) and through gs_cuda_launch with user kernels
 * (gs_sync and the split-phase barrier), plus bad input and provoked faults.
 *
 *     cuda_barrier          correctness, stress, bad input     (label cuda)
 *     cuda_barrier fault    provoked deadlocks: every bounded protocol must end in
 *                           GS_ERR_TIMEOUT naming the missing group (label cuda;fault)
 *
 * Exits 77 (CTest: skipped) where no CUDA device can be opened. Prints one line per
 * check and ends with "cuda: N passed, N failed". GS_TEST_QUICK=1 shortens the stress. */
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "gridsync.h"
#include "gridsync/run.h"
#include "gridsync/host_cuda.h"

#include "cuda_kernels.cuh"

#include "cuda_check.h"

static gs_device *g_dev;
static gs_device_info g_info;

#define EXPECT_STATUS(expr, want, ...)                                                          \
    do {                                                                                        \
        gs_status got_ = (expr);                                                                \
        CHECK(got_ == (want), "%s (want %s) ", gs_status_string(got_), gs_status_string(want)); \
        if (got_ != (want)) {                                                                   \
            int code_ = 0;                                                                      \
            const char *text_ = "";                                                             \
            gs_device_native_error(g_dev, &code_, &text_);                                      \
            printf("    native: %d %s; ", code_, text_);                                        \
            printf(__VA_ARGS__);                                                                \
            printf("\n");                                                                       \
        }                                                                                       \
    } while (0)

static const gs_algo all_algos[] = {
    GS_ALGO_CENTRAL, GS_ALGO_LOCKFREE, GS_ALGO_NAIVE,    GS_ALGO_FLIP,           GS_ALGO_TREE,
    GS_ALGO_CLUSTER, GS_ALGO_CG,       GS_ALGO_RELAUNCH, GS_ALGO_RELAUNCH_GRAPH, GS_ALGO_SHARDED};
static const gs_algo bounded_algos[] = {GS_ALGO_CENTRAL, GS_ALGO_LOCKFREE, GS_ALGO_NAIVE,
                                        GS_ALGO_FLIP,    GS_ALGO_TREE,     GS_ALGO_CLUSTER,
                                        GS_ALGO_SHARDED};

static bool is_relaunch(gs_algo a) { return a == GS_ALGO_RELAUNCH || a == GS_ALGO_RELAUNCH_GRAPH; }
static bool quick() { return getenv("GS_TEST_QUICK") && atoi(getenv("GS_TEST_QUICK")); }

static double now_ms()
{
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

static unsigned bound_for(unsigned block)
{
    unsigned n = 0;
    EXPECT_STATUS(gs_device_max_groups(g_dev, block, &n), GS_OK, "max_groups(%u)", block);
    return n;
}

/* Runs a built-in program and expects it to be right. */
static void run_ok(gs_algo algo, gs_run_config cfg, const char *what, gs_run_result *out = nullptr)
{
    gs_barrier *b = nullptr;
    gs_run_result r;
    memset(&r, 0, sizeof r);
    EXPECT_STATUS(gs_barrier_create(g_dev, algo, cfg.groups, &b), GS_OK, "%s: create %s",
                  gs_algo_name(algo), what);
    if (!b)
        return;
    double t0 = now_ms();
    gs_status s = gs_run(b, &cfg, &r);
    double took = now_ms() - t0;
    EXPECT_STATUS(s, GS_OK, "%s: %s groups=%u block=%u iterations=%u", gs_algo_name(algo), what,
                  cfg.groups, cfg.group_size, cfg.iterations);
    CHECK(r.mismatches == 0, "%s: %s: %llu mismatches", gs_algo_name(algo), what,
          (unsigned long long)r.mismatches);
    if (cfg.workload == GS_WORKLOAD_STENCIL && cfg.seed == 0)
        CHECK(r.all_equal, "%s: %s: stencil values differ", gs_algo_name(algo), what);
    printf("ok   %-14s %-22s groups=%-5u block=%-4u iters=%-6u device %.3f ms (%.1f ns/barrier), "
           "host %.0f ms%s\n",
           gs_algo_name(algo), what, cfg.groups, cfg.group_size, cfg.iterations, r.elapsed_ns / 1e6,
           r.barriers ? r.elapsed_ns / r.barriers : 0.0, took,
           r.reference_checked ? "" : " (no reference)");
    fflush(stdout);
    if (out)
        *out = r;
    gs_barrier_destroy(b);
}

static gs_run_config config(gs_workload w, unsigned groups, unsigned block, unsigned iters,
                            unsigned seed = 1, unsigned delay = 0)
{
    gs_run_config c;
    memset(&c, 0, sizeof c);
    c.workload = w;
    c.groups = groups;
    c.group_size = block;
    c.iterations = iters;
    c.seed = seed;
    c.delay = delay;
    return c;
}

/* ---- the built-in programs, every protocol ------------------------------------------- */

static void test_device_info()
{
    CHECK(g_info.backend == GS_BACKEND_CUDA, "backend %d", (int)g_info.backend);
    CHECK(g_info.compute_units > 0, "SMs %u", g_info.compute_units);
    CHECK(g_info.max_group_size >= 1024, "max group %u", g_info.max_group_size);
    CHECK(g_info.name[0] != 0, "no name");
    printf("device: %s (%s), %u SMs, cc %u.%u, L2 %llu KiB, %llu MiB\n", g_info.name,
           g_info.platform, g_info.compute_units, g_info.cc_major, g_info.cc_minor,
           (unsigned long long)g_info.l2_bytes >> 10,
           (unsigned long long)g_info.global_mem_bytes >> 20);
    for (unsigned block : {64u, 256u, 1024u})
        printf("bound: %u groups of %u\n", bound_for(block), block);
    /* 32 registers or fewer: full SMs of 256-thread blocks */
    CHECK(bound_for(256) >= 8 * g_info.compute_units, "bound(256) = %u", bound_for(256));
    for (gs_algo a : all_algos)
        CHECK(gs_algo_supported(g_dev, a) || (a == GS_ALGO_CLUSTER && g_info.cc_major < 9),
              "%s unsupported", gs_algo_name(a));
}

static void test_programs(gs_algo a)
{
    unsigned sms = g_info.compute_units;
    run_ok(a, config(GS_WORKLOAD_TESTSYNC, sms, 256, 0), "testsync");
    run_ok(a, config(GS_WORKLOAD_TESTSYNC, 2 * sms, 1024, 0), "testsync 1024");
    run_ok(a, config(GS_WORKLOAD_STENCIL, sms, 128, 32, 0), "stencil");
    run_ok(a, config(GS_WORKLOAD_STENCIL, sms, 128, 16, 7), "stencil seeded");
    gs_run_config virt = config(GS_WORKLOAD_STENCIL, sms, 64, 8, 0);
    virt.logical_groups = 3 * sms + 1;
    run_ok(a, virt, "stencil virtual");
    unsigned mp_groups = bound_for(64);
    if (mp_groups > 4 * sms)
        mp_groups = 4 * sms;
    run_ok(a, config(GS_WORKLOAD_MP, mp_groups, 64, 300, 11, 32), "mp");
    gs_run_config stress = config(GS_WORKLOAD_MP, sms, 128, 200, 3, 16);
    stress.stress = 16;
    run_ok(a, stress, "mp memory stress");
    /* groups smaller than a warp: flip's episode runs on the representative's warp, its
     * shuffle over the lanes the group has (gridsync/prims_cuda.cuh, gs_rep_warp_lanes) */
    run_ok(a, config(GS_WORKLOAD_MP, sms, 16, 100, 13, 8), "mp 16-thread groups");
    run_ok(a, config(GS_WORKLOAD_TESTSYNC, sms, 1, 0), "testsync 1-thread groups");
    /* the whole device, barriers only; then once more on the same state (no reset) */
    unsigned full = bound_for(256);
    gs_barrier *b = nullptr;
    if (a != GS_ALGO_NAIVE || full <= 2048) {
        EXPECT_STATUS(gs_barrier_create(g_dev, a, full, &b), GS_OK, "create full");
        gs_run_config e = config(GS_WORKLOAD_EMPTY, full, 256, 200);
        gs_run_result r;
        for (int i = 0; i < 2 && b; ++i) {
            gs_status s = gs_run(b, &e, &r);
            if (a == GS_ALGO_CLUSTER && s == GS_ERR_TOO_MANY_GROUPS) {
                printf("note %s: %u groups exceed the cluster bound\n", gs_algo_name(a), full);
                break;
            }
            EXPECT_STATUS(s, GS_OK, "%s full device run %d", gs_algo_name(a), i);
            printf("ok   %-14s %-22s groups=%-5u block=256  %.1f ns/barrier\n", gs_algo_name(a),
                   i ? "empty full (again)" : "empty full", full, r.elapsed_ns / 200);
        }
        if (b)
            gs_barrier_destroy(b);
    }
}

static void test_stress()
{
    unsigned sms = g_info.compute_units;
    unsigned long_run = quick() ? 10000 : 100000;
    unsigned mid = quick() ? 2000 : 20000;
    for (gs_algo a : all_algos) {
        if (!gs_algo_supported(g_dev, a))
            continue;
        unsigned n =
            (a == GS_ALGO_FLIP || a == GS_ALGO_CLUSTER || a == GS_ALGO_RELAUNCH) ? long_run : mid;
        run_ok(a, config(GS_WORKLOAD_MP, 2 * sms, 128, n, 2024 + (unsigned)a, 16), "mp stress");
    }
}

/* ---- user kernels through gs_cuda_launch ------------------------------------------ */

struct mp_buffers {
    unsigned *buf = nullptr, *scratch = nullptr;
    gs_word *c = nullptr;
    mp_buffers(unsigned groups, unsigned block)
    {
        cudaMalloc(&buf, 2ull * groups * block * 4);
        cudaMalloc(&scratch, GS_SCRATCH_WORDS * 4);
        cudaMalloc(&c, 128);
        cudaMemset(scratch, 0, GS_SCRATCH_WORDS * 4);
        cudaMemset(c, 0, 128);
    }
    ~mp_buffers()
    {
        cudaFree(buf);
        cudaFree(scratch);
        cudaFree(c);
    }
    unsigned errors()
    {
        unsigned e = ~0u;
        cudaMemcpy(&e, c, 4, cudaMemcpyDeviceToHost);
        return e;
    }
};

static void user_mp(gs_algo a, unsigned groups, unsigned block, unsigned episodes, int split)
{
    gs_barrier *b = nullptr;
    void *state = nullptr;
    EXPECT_STATUS(gs_barrier_create(g_dev, a, groups, &b), GS_OK, "user create");
    if (!b)
        return;
    EXPECT_STATUS(gs_cuda_state(b, &state), GS_OK, "state");
    mp_buffers m(groups, block);
    gs_work_params prm;
    memset(&prm, 0, sizeof prm);
    prm.work = GS_WORK_MP;
    prm.phase_end = episodes + 1;
    prm.logical_groups = groups;
    prm.seed = 99;
    prm.delay = 16;
    void *args[] = {&state, &m.buf, &m.scratch, &m.c, &prm, &split};
    double ns = 0;
    gs_status s = gs_cuda_launch_timed(b, (const void *)user_mp_kernel, GS_DIM3_1D(groups),
                                       GS_DIM3_1D(block), 0, args, nullptr, &ns);
    EXPECT_STATUS(s, GS_OK, "%s user mp split=%d", gs_algo_name(a), split);
    unsigned e = m.errors();
    CHECK(e == 0, "%s user mp split=%d: %u errors", gs_algo_name(a), split, e);
    printf("ok   %-14s %-22s groups=%-5u block=%-4u iters=%-6u %.1f ns/episode\n", gs_algo_name(a),
           split ? "user mp split-phase" : "user mp gs_sync", groups, block, episodes,
           ns / episodes);
    gs_barrier_destroy(b);
}

static void test_user_kernels()
{
    unsigned sms = g_info.compute_units;
    for (gs_algo a : all_algos) {
        if (!gs_algo_supported(g_dev, a) || is_relaunch(a))
            continue;
        user_mp(a, 2 * sms, 128, quick() ? 500 : 5000, 0);
        user_mp(a, 2 * sms, 128, quick() ? 500 : 5000, 1);
    }
    /* the bound is the user kernel's own: 40 KiB of shared memory per block */
    size_t smem = 40 * 1024;
    unsigned kb = 0, n = 0;
    EXPECT_STATUS(gs_cuda_max_groups(g_dev, (const void *)user_smem_kernel, 256, smem, &kb), GS_OK,
                  "user max groups");
    CHECK(kb > 0 && kb < bound_for(256), "smem-bound %u vs %u", kb, bound_for(256));
    gs_barrier *b = nullptr;
    EXPECT_STATUS(gs_barrier_create(g_dev, GS_ALGO_FLIP, kb + 1, &b), GS_OK, "create kb+1");
    void *state = nullptr;
    unsigned *out = nullptr;
    cudaMalloc(&out, (size_t)(kb + 1) * 256 * 4);
    gs_cuda_state(b, &state);
    void *args[] = {&state, &out};
    EXPECT_STATUS(gs_cuda_launch(b, (const void *)user_smem_kernel, GS_DIM3_1D(kb + 1),
                                 GS_DIM3_1D(256), smem, args, nullptr),
                  GS_ERR_TOO_MANY_GROUPS, "one group above the kernel's bound");
    gs_barrier_destroy(b);
    EXPECT_STATUS(gs_barrier_create(g_dev, GS_ALGO_FLIP, kb, &b), GS_OK, "create kb");
    gs_cuda_state(b, &state);
    EXPECT_STATUS(gs_cuda_launch(b, (const void *)user_smem_kernel, GS_DIM3_1D(kb), GS_DIM3_1D(256),
                                 smem, args, nullptr),
                  GS_OK, "at the kernel's bound");
    std::vector<unsigned> h((size_t)kb * 256);
    cudaMemcpy(h.data(), out, h.size() * 4, cudaMemcpyDeviceToHost);
    for (size_t i = 0; i < h.size(); i += 97)
        n += h[i] != (unsigned)(i / 256) + 1u;
    CHECK(n == 0, "user smem kernel: %u wrong", n);
    /* bad input */
    EXPECT_STATUS(gs_cuda_launch(nullptr, (const void *)user_smem_kernel, GS_DIM3_1D(kb),
                                 GS_DIM3_1D(256), smem, args, nullptr),
                  GS_ERR_INVALID_ARGUMENT, "null barrier");
    EXPECT_STATUS(gs_cuda_launch(b, nullptr, GS_DIM3_1D(kb), GS_DIM3_1D(256), smem, args, nullptr),
                  GS_ERR_INVALID_ARGUMENT, "null kernel");
    EXPECT_STATUS(gs_cuda_launch(b, (const void *)user_smem_kernel, GS_DIM3_1D(kb - 1),
                                 GS_DIM3_1D(256), smem, args, nullptr),
                  GS_ERR_INVALID_ARGUMENT, "groups differ from the barrier's");
    EXPECT_STATUS(gs_cuda_launch(b, (const void *)user_smem_kernel, GS_DIM3_1D(kb), GS_DIM3_1D(0),
                                 smem, args, nullptr),
                  GS_ERR_INVALID_ARGUMENT, "zero group size");
    EXPECT_STATUS(gs_cuda_launch(b, (const void *)user_smem_kernel, GS_DIM3_1D(kb),
                                 GS_DIM3_1D(2048), smem, args, nullptr),
                  GS_ERR_INVALID_ARGUMENT, "group size above 1024");
    EXPECT_STATUS(gs_cuda_state(nullptr, &state), GS_ERR_INVALID_ARGUMENT, "null state");
    int ordinal = -1;
    unsigned cluster = 0;
    EXPECT_STATUS(gs_cuda_ordinal(g_dev, &ordinal), GS_OK, "ordinal");
    CHECK(ordinal >= 0, "ordinal %d", ordinal);
    EXPECT_STATUS(gs_cuda_ordinal(nullptr, &ordinal), GS_ERR_INVALID_ARGUMENT, "null ordinal dev");
    EXPECT_STATUS(gs_cuda_ordinal(g_dev, nullptr), GS_ERR_INVALID_ARGUMENT, "null ordinal");
    EXPECT_STATUS(
        gs_cuda_cluster_size(g_dev, (const void *)user_smem_kernel, kb, 256, smem, &cluster), GS_OK,
        "cluster size");
    CHECK(cluster >= 1 && kb % cluster == 0, "cluster size %u for %u groups", cluster, kb);
    EXPECT_STATUS(gs_cuda_cluster_size(g_dev, nullptr, kb, 256, smem, &cluster),
                  GS_ERR_INVALID_ARGUMENT, "cluster size of no kernel");
    EXPECT_STATUS(
        gs_cuda_cluster_size(g_dev, (const void *)user_smem_kernel, 0, 256, smem, &cluster),
        GS_ERR_INVALID_ARGUMENT, "cluster size of no groups");
    gs_device *cpu = nullptr;
    if (gs_device_open(GS_BACKEND_CPU, 0, &cpu) == GS_OK) {
        EXPECT_STATUS(gs_cuda_ordinal(cpu, &ordinal), GS_ERR_UNSUPPORTED,
                      "ordinal of a cpu device");
        EXPECT_STATUS(
            gs_cuda_cluster_size(cpu, (const void *)user_smem_kernel, kb, 256, smem, &cluster),
            GS_ERR_UNSUPPORTED, "cluster size on a cpu device");
        gs_device_close(cpu);
    }
    gs_barrier_destroy(b);
    EXPECT_STATUS(gs_barrier_create(g_dev, GS_ALGO_RELAUNCH, kb, &b), GS_OK, "create relaunch");
    EXPECT_STATUS(gs_cuda_launch(b, (const void *)user_smem_kernel, GS_DIM3_1D(kb), GS_DIM3_1D(256),
                                 smem, args, nullptr),
                  GS_ERR_UNSUPPORTED, "relaunch with a user kernel");
    gs_barrier_destroy(b);
    cudaFree(out);
}

/* ---- bad input through the public API ---------------------------------------------- */

static void test_bad_input()
{
    gs_barrier *b = nullptr;
    gs_run_result r;
    EXPECT_STATUS(gs_barrier_create(nullptr, GS_ALGO_FLIP, 4, &b), GS_ERR_INVALID_ARGUMENT,
                  "null dev");
    EXPECT_STATUS(gs_barrier_create(g_dev, GS_ALGO_FLIP, 4, nullptr), GS_ERR_INVALID_ARGUMENT,
                  "null out");
    EXPECT_STATUS(gs_barrier_create(g_dev, GS_ALGO_FLIP, 0, &b), GS_ERR_INVALID_ARGUMENT,
                  "zero groups");
    EXPECT_STATUS(gs_barrier_create(g_dev, (gs_algo)99, 4, &b), GS_ERR_UNKNOWN_ALGO, "algo 99");
    EXPECT_STATUS(gs_run(nullptr, nullptr, &r), GS_ERR_INVALID_ARGUMENT, "null run");
    unsigned max_groups = 0;
    EXPECT_STATUS(gs_device_max_groups(g_dev, 0, &max_groups), GS_ERR_INVALID_ARGUMENT, "block 0");
    EXPECT_STATUS(gs_device_max_groups(g_dev, 4096, &max_groups), GS_ERR_INVALID_ARGUMENT,
                  "block 4096");
    /* one group above the bound: refused before anything runs, except by the relaunch
     * baselines, which need no co-residency */
    for (unsigned block : {64u, 1024u}) {
        unsigned bound = bound_for(block);
        for (gs_algo a : all_algos) {
            if (!gs_algo_supported(g_dev, a))
                continue;
            gs_run_config cfg = config(GS_WORKLOAD_TESTSYNC, bound + 1, block, 0);
            EXPECT_STATUS(gs_barrier_create(g_dev, a, bound + 1, &b), GS_OK, "create bound+1");
            if (!b)
                continue;
            gs_status s = gs_run(b, &cfg, &r);
            EXPECT_STATUS(s, is_relaunch(a) ? GS_OK : GS_ERR_TOO_MANY_GROUPS, "%s: %u groups of %u",
                          gs_algo_name(a), bound + 1, block);
            gs_barrier_destroy(b);
        }
    }
    /* the cluster protocol's own bound */
    if (gs_algo_supported(g_dev, GS_ALGO_CLUSTER)) {
        unsigned bound = bound_for(1024);
        EXPECT_STATUS(gs_barrier_create(g_dev, GS_ALGO_CLUSTER, bound, &b), GS_OK,
                      "cluster create");
        gs_run_config cfg = config(GS_WORKLOAD_TESTSYNC, bound, 1024, 0);
        gs_status s = gs_run(b, &cfg, &r);
        CHECK(s == GS_OK || s == GS_ERR_TOO_MANY_GROUPS, "cluster at the bound: %s",
              gs_status_string(s));
        gs_barrier_destroy(b);
    }
}

/* ---- provoked faults ------------------------------------------------------------------ */

static void provoke(gs_algo a, gs_workload fault, unsigned groups, unsigned block)
{
    const unsigned timeout_ms = 300;
    gs_barrier *b = nullptr;
    gs_run_result r;
    gs_abort_info ai;
    EXPECT_STATUS(gs_barrier_create(g_dev, a, groups, &b), GS_OK, "create");
    if (!b)
        return;
    EXPECT_STATUS(gs_barrier_set_timeout(b, timeout_ms), GS_OK, "timeout");
    gs_run_config cfg = config(fault, groups, block, 5);
    double t0 = now_ms();
    gs_status s = gs_run(b, &cfg, &r);
    double took = now_ms() - t0;
    EXPECT_STATUS(s, GS_ERR_TIMEOUT, "%s fault %d", gs_algo_name(a), (int)fault);
    CHECK(took < 2.0 * timeout_ms + 1000.0, "%s: took %.0f ms", gs_algo_name(a), took);
    gs_barrier_abort_info(b, &ai);
    CHECK(ai.missing == 1 && ai.first_missing[0] == groups - 1,
          "%s fault %d: reason %d group %u episode %u missing %u first %u", gs_algo_name(a),
          (int)fault, (int)ai.reason, ai.group, ai.episode, ai.missing, ai.first_missing[0]);
    printf("ok   %-14s fault %d: %s after %.0f ms, group %u gave up at episode %u, missing %u\n",
           gs_algo_name(a), (int)fault, gs_status_string(s), took, ai.group, ai.episode,
           ai.missing);
    gs_run_config mp = config(GS_WORKLOAD_MP, groups, block, 100, 5, 8);
    EXPECT_STATUS(gs_run(b, &mp, &r), GS_ERR_NEEDS_RESET, "%s: before reset", gs_algo_name(a));
    EXPECT_STATUS(gs_barrier_reset(b), GS_OK, "reset");
    EXPECT_STATUS(gs_run(b, &mp, &r), GS_OK, "%s: after reset", gs_algo_name(a));
    CHECK(r.mismatches == 0, "%s after reset: %llu", gs_algo_name(a),
          (unsigned long long)r.mismatches);
    gs_barrier_destroy(b);
}

/* The seeds' deadlock: twice the co-resident bound, launched plainly (no cooperative
 * attribute, no library guard). The resident blocks wait, time out and leave; the
 * blocks that start after them find the abort and leave: the kernel ends instead of
 * hanging the GPU, the abort word says why, and the device computes correctly after. */
static __global__ void plain_kernel(gs_word *state, unsigned *out)
{
    gs_grid g = gs_grid_begin(state);
    unsigned i = gs_group_id() * gs_local_size() + gs_local_id();
    out[i] = 1u;
    if (gs_sync(&g))
        return;
    out[i] = 2u;
}

static void test_plain_oversubscribed()
{
    unsigned bound = 0, block = 256;
    EXPECT_STATUS(gs_cuda_max_groups(g_dev, (const void *)plain_kernel, block, 0, &bound), GS_OK,
                  "plain kernel bound");
    unsigned n = 2 * bound;
    gs_barrier *b = nullptr;
    void *state = nullptr;
    unsigned *out = nullptr;
    EXPECT_STATUS(gs_barrier_create(g_dev, GS_ALGO_FLIP, n, &b), GS_OK, "create 2x bound");
    gs_barrier_set_timeout(b, 300);
    gs_cuda_state(b, &state);
    cudaMalloc(&out, (size_t)n * block * 4);
    double t0 = now_ms();
    plain_kernel<<<n, block>>>((gs_word *)state, out);
    cudaError_t e = cudaDeviceSynchronize();
    double took = now_ms() - t0;
    unsigned reason = 0;
    cudaMemcpy(&reason, (char *)state + GS_WORD(GS_LINE_ABORT, GS_ABORT_REASON) * 4, 4,
               cudaMemcpyDeviceToHost);
    CHECK(e == cudaSuccess, "plain 2x launch: %s", cudaGetErrorString(e));
    CHECK(took < 2 * 300 + 500, "plain 2x launch took %.0f ms", took);
    CHECK(reason == GS_ABORT_TIMEOUT, "plain 2x launch: abort reason %u", reason);
    printf("ok   flip           plain launch of %u blocks (bound %u): ended after %.0f ms, abort "
           "reason %u\n",
           n, bound, took, reason);
    cudaFree(out);
    gs_barrier_destroy(b);
    gs_run_config cfg = config(GS_WORKLOAD_MP, bound, block, 200);
    run_ok(GS_ALGO_FLIP, cfg, "after the plain 2x launch");
}

/* Groups and work-items are numbered linearly over 2-D and 3-D grids and blocks
 * (cuda.cuh): launched plainly in such shapes with the state's group count, every
 * work-item gets past the barrier; a grid whose group count is not the state's ends
 * every block at its first barrier with GS_ABORT_BAD_GRID. (cuda_user_api.cu launches
 * 2-D grids through gs_cuda_launch and checks the data.) */
static void test_2d_launch()
{
    const unsigned groups = 8, block = 64;
    const dim3 grids[] = {dim3(groups / 2, 2), dim3(groups), dim3(groups / 2, 1, 2),
                          dim3(groups, 2)};
    const dim3 blocks[] = {dim3(block), dim3(block / 2, 2), dim3(block / 4, 2, 2), dim3(block)};
    unsigned *out = nullptr;
    cudaMalloc(&out, (size_t)2 * groups * block * 4);
    std::vector<unsigned> h((size_t)2 * groups * block);
    auto past_barrier = [&]() { /* work-items that got past plain_kernel's barrier */
                                cudaMemcpy(h.data(), out, h.size() * 4, cudaMemcpyDeviceToHost);
                                unsigned n = 0;
                                for (unsigned v : h)
                                    n += v == 2u;
                                return n;
    };
    for (int i = 0; i < 4; ++i) {
        bool right = i < 3;
        gs_barrier *b = nullptr;
        void *state = nullptr;
        EXPECT_STATUS(gs_barrier_create(g_dev, GS_ALGO_FLIP, groups, &b), GS_OK, "create 2-D");
        if (!b)
            break;
        gs_barrier_set_timeout(b, 300);
        gs_cuda_state(b, &state);
        cudaMemset(out, 0, h.size() * 4);
        plain_kernel<<<grids[i], blocks[i]>>>((gs_word *)state, out);
        cudaError_t e = cudaDeviceSynchronize();
        unsigned reason = 0;
        cudaMemcpy(&reason, (char *)state + GS_WORD(GS_LINE_ABORT, GS_ABORT_REASON) * 4, 4,
                   cudaMemcpyDeviceToHost);
        unsigned passed = past_barrier();
        CHECK(e == cudaSuccess && reason == (right ? 0u : (unsigned)GS_ABORT_BAD_GRID) &&
                  passed == (right ? groups * block : 0u),
              "grid (%u,%u,%u) block (%u,%u,%u): %s, abort reason %u, %u past the barrier",
              grids[i].x, grids[i].y, grids[i].z, blocks[i].x, blocks[i].y, blocks[i].z,
              cudaGetErrorString(e), reason, passed);
        gs_barrier_destroy(b);
    }
    cudaFree(out);
    printf("ok   flip           2-D and 3-D grids and blocks synchronize; a wrong group count is "
           "refused\n");
}

static void test_faults()
{
    test_plain_oversubscribed();
    unsigned sms = g_info.compute_units;
    for (gs_algo a : bounded_algos) {
        if (!gs_algo_supported(g_dev, a))
            continue;
        provoke(a, GS_WORKLOAD_FAULT_EXIT, 2 * sms, 64);
        provoke(a, GS_WORKLOAD_FAULT_SKIP, 2 * sms, 64);
        provoke(a, GS_WORKLOAD_FAULT_SKIP, 8, 32);
    }
    /* cg cannot time out: the back end refuses to provoke it */
    gs_barrier *b = nullptr;
    gs_run_result r;
    EXPECT_STATUS(gs_barrier_create(g_dev, GS_ALGO_CG, sms, &b), GS_OK, "cg create");
    gs_run_config cfg = config(GS_WORKLOAD_FAULT_EXIT, sms, 64, 5);
    EXPECT_STATUS(gs_run(b, &cfg, &r), GS_ERR_UNSUPPORTED, "cg fault");
    gs_barrier_destroy(b);
}

int main(int argc, char **argv)
{
    bool fault = argc > 1 && strcmp(argv[1], "fault") == 0;
    setvbuf(stdout, nullptr, _IOLBF, 0);
    gs_status s = gs_device_open(GS_BACKEND_CUDA, 0, &g_dev);
    if (s == GS_ERR_NO_DEVICE || s == GS_ERR_BACKEND_UNAVAILABLE) {
        printf("no CUDA device (%s): skipped\n", gs_status_string(s));
        return 77;
    }
    if (s != GS_OK) {
        printf("cannot open the CUDA device: %s\n", gs_status_string(s));
        return 1;
    }
    gs_device_get_info(g_dev, &g_info);
    if (fault) {
        test_faults();
    } else {
        test_device_info();
        test_bad_input();
        test_2d_launch();
        for (gs_algo a : all_algos)
            if (gs_algo_supported(g_dev, a))
                test_programs(a);
        test_user_kernels();
        test_stress();
    }
    gs_device_close(g_dev);
    printf("cuda%s: %d passed, %d failed\n", fault ? " faults" : "", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
