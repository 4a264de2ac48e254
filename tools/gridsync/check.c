/* gridsync check: the self-test a user runs on a device before trusting it. For each
 * protocol: the blog's test_sync, the stencil against the sequential reference,
 * message passing under random delays and memory stress (with gs_sync, and in split
 * phase with independent work between gs_arrive and gs_wait_token), and two provoked faults (a
 * group that never arrives, a group that skips a barrier) that must end in
 * GS_ERR_TIMEOUT by the barrier's own 300 ms deadline, well before the default one would
 * have ended them, after which a reset barrier must compute
 * correctly again. Exit status 1 on any failure. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_defaults.h"
#include "cli.h"

#define CHECK_TIMEOUT_MS 300u

typedef struct check_ctx {
    gs_device *dev;
    const cli_options *o;
    gs_algo algo;
    unsigned groups, block;
    unsigned bound_ms; /* the wait bound the last run's barrier had (gs_barrier_get_timeout) */
    int failed;
} check_ctx;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Message passing: the last work-item of the last group writes this many polls late in
 * every phase. Random delays alone rarely make the one arrival a weakened barrier skips
 * the one whose data another group reads (on an H200, lockfree's master skipping the
 * last group's flag passed message passing under random delays alone). */
#define CHECK_LATE 4096u

/* Split phase: independent multiply-adds between gs_arrive and gs_wait_token. */
#define CHECK_SPLIT_COMPUTE 64u

static const char *run_one(check_ctx *c, gs_workload work, unsigned iters, unsigned delay,
                           unsigned stress, int split)
{
    gs_barrier *b;
    gs_run_result r;
    gs_run_config cfg = {.workload = work,
                         .groups = c->groups,
                         .group_size = c->block,
                         .iterations = iters,
                         .seed = 0xc0ffeeu + c->groups,
                         .delay = delay,
                         .stress = stress,
                         .late = work == GS_WORKLOAD_MP ? CHECK_LATE : 0,
                         .compute = split ? CHECK_SPLIT_COMPUTE : 0,
                         .split = split};
    gs_status s = gs_barrier_create(c->dev, c->algo, c->groups, &b);
    if (s == GS_OK && c->o->timeout_ms) /* --timeout-ms: every run but the provoked faults */
        s = gs_barrier_set_timeout(b, c->o->timeout_ms);
    if (s == GS_OK)
        s = gs_barrier_get_timeout(b, &c->bound_ms);
    if (s == GS_OK)
        s = gs_run(b, &cfg, &r);
    if (s == GS_OK)
        gs_barrier_destroy(b);
    else if (b && s != GS_ERR_TOO_MANY_GROUPS)
        gs_barrier_destroy(b);
    switch (s) {
    case GS_OK: return "pass";
    case GS_ERR_CHECK_FAILED: c->failed = 1; return "FAIL";
    case GS_ERR_TIMEOUT: c->failed = 1; return "timeout";
    default: c->failed = 1; return gs_status_string(s);
    }
}

/* A provoked fault must be reported as a timeout, promptly, naming the last group;
 * then the same barrier, reset, must pass message passing. */
static const char *fault(check_ctx *c, gs_workload work)
{
    /* The relaunch baselines have no device-side wait; cg's grid.sync() has no deadline
     * (provoking it would hang the GPU: the vendor reference is what gridsync fixes). */
    if (c->algo == GS_ALGO_RELAUNCH || c->algo == GS_ALGO_RELAUNCH_GRAPH || c->algo == GS_ALGO_CG ||
        c->groups < 2)
        return "n/a";
    gs_barrier *b;
    gs_run_result r;
    gs_abort_info info;
    gs_run_config cfg = {
        .workload = work, .groups = c->groups, .group_size = c->block, .iterations = 4, .seed = 1};
    if (gs_barrier_create(c->dev, c->algo, c->groups, &b) != GS_OK)
        return c->failed = 1, "error";
    /* Promptly: well before the timeout the barrier had (GS_DEFAULT_TIMEOUT_MS or
     * GRIDSYNC_TIMEOUT_MS) would have ended it, so its own 300 ms did. Not tighter: an
     * OpenCL deadline is a calibrated poll count that the host's load moves (0.6x to
     * 3.3x on PoCL with 2 workers, docs/protocols.md). */
    unsigned fallback = GS_DEFAULT_TIMEOUT_MS;
    gs_barrier_get_timeout(b, &fallback);
    double prompt_ms =
        fallback / 2.0 > 2.0 * CHECK_TIMEOUT_MS ? fallback / 2.0 : 2.0 * CHECK_TIMEOUT_MS;
    gs_barrier_set_timeout(b, CHECK_TIMEOUT_MS);
    double t0 = now_ms();
    gs_status s = gs_run(b, &cfg, &r);
    double took = now_ms() - t0;
    const char *v = "pass";
    if (s != GS_ERR_TIMEOUT)
        v = "FAIL(no timeout)";
    else if (took > prompt_ms)
        v = "FAIL(slow)";
    else if (gs_barrier_abort_info(b, &info) != GS_OK || info.missing == 0 ||
             info.first_missing[0] != c->groups - 1)
        v = "FAIL(diagnosis)";
    gs_run_config again = {.workload = GS_WORKLOAD_MP,
                           .groups = c->groups,
                           .group_size = c->block,
                           .iterations = 50,
                           .seed = 7,
                           .delay = 8};
    if (strcmp(v, "pass") == 0 && gs_run(b, &again, &r) != GS_ERR_NEEDS_RESET)
        v = "FAIL(no reset asked)";
    if (strcmp(v, "pass") == 0 && (gs_barrier_reset(b) != GS_OK || gs_run(b, &again, &r) != GS_OK))
        v = "FAIL(after reset)";
    gs_barrier_destroy(b);
    if (strcmp(v, "pass") != 0)
        c->failed = 1;
    return v;
}

/* OpenCL: are the seeds' OpenCL 1.2 fences (mem_fence(CLK_GLOBAL_MEM_FENCE)) enough on
 * this device? The same device opened again with that ordering forced runs the stencil
 * and message passing for every protocol. Informational: the library never chooses it. */
static void seeds_fences(const cli_options *o, check_ctx *c, gs_algo *algos, unsigned n)
{
    gs_device *dev12;
    if (setenv("GRIDSYNC_CL_ORDERING", "0", 1) != 0 ||
        gs_device_open(o->backend, o->device, &dev12) != GS_OK) {
        unsetenv("GRIDSYNC_CL_ORDERING");
        printf("seeds' OpenCL 1.2 fences: not tested (the device did not open with them)\n");
        return;
    }
    unsetenv("GRIDSYNC_CL_ORDERING");
    /* A program that does not build is no answer: every run would fail and read as "not
     * enough" (it did on NVIDIA's OpenCL while the headers had a variadic macro, which
     * OpenCL C 1.2 lacks). */
    unsigned bound = 0;
    gs_status built = gs_device_max_groups(dev12, 64, &bound);
    if (built == GS_ERR_BUILD) {
        printf("seeds' OpenCL 1.2 fences: not tested (the program did not build at OpenCL C "
               "1.2: gs_opencl_build_log says why)\n");
        gs_device_close(dev12);
        return;
    }
    check_ctx c12 = *c;
    c12.dev = dev12;
    c12.failed = 0;
    unsigned failing = 0, tried = 0;
    for (unsigned i = 0; i < n; ++i) {
        if (algos[i] == GS_ALGO_RELAUNCH || algos[i] == GS_ALGO_RELAUNCH_GRAPH)
            continue;
        c12.algo = algos[i];
        c12.failed = 0;
        run_one(&c12, GS_WORKLOAD_STENCIL, 200, 0, 0, 0);
        run_one(&c12, GS_WORKLOAD_MP, 300, 64, 16, 0);
        failing += c12.failed != 0;
        ++tried;
    }
    printf("seeds' OpenCL 1.2 fences (mem_fence(CLK_GLOBAL_MEM_FENCE)): %s (%u of %u protocols fail"
           " stencil or message passing with them)\n",
           failing ? "NOT enough on this device" : "enough in this test", failing, tried);
    gs_device_close(dev12);
}

int cmd_check(const cli_options *o)
{
    gs_device *dev;
    gs_device_info d;
    if (cli_open(o, &dev, &d) != 0)
        return 2;
    check_ctx c = {.dev = dev,
                   .o = o,
                   .algo = GS_ALGO_CENTRAL,
                   .block = o->block ? o->block : bench_default_block(&d)};
    unsigned bound;
    if (bench_bound(dev, c.block, &bound) != 0)
        return 2;
    unsigned want = d.is_gpu ? 2 * d.compute_units : d.backend == GS_BACKEND_CPU ? 8 : bound;
    c.groups = o->n_groups ? o->groups[0] : (want < bound ? want : bound);
    if (c.groups > bound) { /* every run would be refused: say so once, before any */
        fprintf(stderr,
                "gridsync: --groups %u: at most %u groups of %u can be co-resident on this "
                "device, and every check runs one persistent grid\n",
                c.groups, bound, c.block);
        gs_device_close(dev);
        return 2;
    }
    unsigned mp_iters = o->iters ? o->iters : o->quick ? 300 : 3000;
    gs_algo algos[GS_ALGO_COUNT_];
    unsigned n = cli_algos(o, dev, algos);
    printf("device: %s (%s, %s)\n", d.name, gs_backend_name(d.backend), d.platform);
    printf("grid: %u groups of %u; message passing: %u barriers, random delays, memory stress\n",
           c.groups, c.block, mp_iters);
    printf("%-15s %-8s %-8s %-8s %-8s %-18s %-18s\n", "protocol", "testsync", "stencil", "mp",
           "mp-split", "never-arrives", "skips-barrier");
    for (unsigned i = 0; i < n; ++i) {
        c.algo = algos[i];
        cli_progress("check: %s", gs_algo_name(c.algo));
        int relaunch = c.algo == GS_ALGO_RELAUNCH || c.algo == GS_ALGO_RELAUNCH_GRAPH;
        const char *ts = run_one(&c, GS_WORKLOAD_TESTSYNC, 0, 0, 0, 0);
        const char *st = run_one(&c, GS_WORKLOAD_STENCIL, relaunch ? 20 : 200, 0, 0, 0);
        const char *mp = run_one(&c, GS_WORKLOAD_MP, relaunch ? 50 : mp_iters, 64, 16, 0);
        const char *ms = run_one(&c, GS_WORKLOAD_MP, relaunch ? 50 : mp_iters, 64, 16, 1);
        const char *fe = fault(&c, GS_WORKLOAD_FAULT_EXIT);
        const char *fs = fault(&c, GS_WORKLOAD_FAULT_SKIP);
        printf("%-15s %-8s %-8s %-8s %-8s %-18s %-18s\n", gs_algo_name(c.algo), ts, st, mp, ms, fe,
               fs);
        fflush(stdout);
    }
    if (d.backend == GS_BACKEND_OPENCL && d.ordering != 0)
        seeds_fences(o, &c, algos, n);
    /* The bound read back from the barriers, so that --timeout-ms is seen to reach them
     * (the provoked faults keep their own, CHECK_TIMEOUT_MS). */
    if (c.bound_ms)
        printf("waits bounded at %u ms\n", c.bound_ms);
    else
        printf("waits bounded: not known, no barrier was made\n");
    printf("%s\n", c.failed ? "check: FAILED" : "check: all passed");
    gs_device_close(dev);
    return c.failed ? 1 : 0;
}
