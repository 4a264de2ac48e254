/* gsp_run_ways: ways at one size, each warmed up, then timed in rounds from the launch to
 * pi on the host: each way's median of its timed runs (GSP_MIN_RUNS .. GSP_MAX_RUNS). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

#include "backend.h"

const char *gsp_way_name(gsp_way way)
{
    static const char *const names[GSP_WAYS] = {"host", "barrier", "ticket", "cub"};
    return (unsigned)way < GSP_WAYS ? names[way] : NULL;
}

gs_status gsp_fail(gsp_session *s, gs_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gsa_vnote(s->result->error, sizeof s->result->error, fmt, ap);
    va_end(ap);
    return status;
}

double gsp_host_total(const double *partials, unsigned groups)
{
    double sum = 0.0;
    for (unsigned g = 0; g < groups; ++g)
        sum += partials[g];
    return sum;
}

static const gsp_backend *backend_of(gs_device *dev)
{
    gs_device_info info;
    if (dev == NULL || gs_device_get_info(dev, &info) != GS_OK)
        return NULL;
    switch (info.backend) {
    case GS_BACKEND_CPU: return &gsp_cpu_backend;
#ifdef GSP_HAVE_OPENCL
    case GS_BACKEND_OPENCL: return &gsp_opencl_backend;
#endif
#ifdef GSP_HAVE_CUDA
    case GS_BACKEND_CUDA: return &gsp_cuda_backend;
#endif
    default: return NULL;
    }
}

int gsp_way_supported(gs_device *dev, gsp_way way)
{
    const gsp_backend *be = backend_of(dev);
    return be != NULL && (unsigned)way < GSP_WAYS && be->supported(way);
}

gs_status gsp_max_groups(gs_device *dev, unsigned group_size, unsigned *out)
{
    if (backend_of(dev) == NULL)
        return GS_ERR_UNSUPPORTED;
    return gs_device_max_groups(dev, group_size, out);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Timed rounds: at least GSP_MIN_RUNS, then more while the rounds add up to less than
 * GSP_TIMED_MS a way, up to GSP_MAX_RUNS: a run of 20 us is at the mercy of the host (on
 * an H100 the barrier way's median of 9 at 10^6 steps read 29 us where one of 300 read
 * 24). */
#define GSP_MIN_RUNS 15u
#define GSP_MAX_RUNS 201u
#define GSP_TIMED_MS 250.0

static int config_ok(const gsp_config *c)
{
    /* a power of two: the reduction halves the group */
    return c != NULL && c->steps != 0 && c->groups != 0 && c->group_size != 0 &&
           (c->group_size & (c->group_size - 1u)) == 0;
}

/* The barrier the barrier way ends on, then the back end's buffers; the warm-up run
 * takes first-launch costs out of the time. */
static gs_status open_entry(const gsp_backend *be, gsp_session *s)
{
    const gsp_config *c = s->cfg;
    /* The cpu back end launches every way through the barrier (a team of threads with its
     * group barrier is what gs_cpu_launch makes). Flip: its last arriver
     * (gs_arrive_last, pi_step.h) knows from one atomic, where auto's tree at 1056 groups
     * adds a hop (bench/micro/pi_finish.cu on an H200 at 10^6 steps: 12.0 against 13.1 us
     * of device time). */
    gs_status st = gs_barrier_create(s->dev, GS_ALGO_FLIP, c->groups, &s->bar);
    /* Its one episode is gs_arrive_last: nobody waits, so the launch needs no
     * co-residency, and on CUDA takes no cooperative attribute (gs_barrier_set_arrive_only;
     * docs/performance.md has what that saves). */
    if (st == GS_OK)
        st = gs_barrier_set_arrive_only(s->bar, 1);
    if (st == GS_OK && c->timeout_ms)
        st = gs_barrier_set_timeout(s->bar, c->timeout_ms);
    if (st != GS_OK)
        return gsp_fail(s, st, "gs_barrier_create(flip, %u groups)", c->groups);
    st = be->open(s);
    return st == GS_OK ? be->run(s, &s->result->pi) : st;
}

static void close_entry(const gsp_backend *be, gsp_session *s)
{
    if (s->impl)
        be->close(s);
    if (s->bar)
        gs_barrier_destroy(s->bar);
    s->bar = NULL;
}

/* What gsa_rounds calls back with: the back end and the ways' sessions. */
typedef struct gsp_rounds {
    const gsp_backend *be;
    gsp_session *ss;
} gsp_rounds;

/* gsa_rounds_ops: a way opened and warmed up; one run, from the launch to pi on the
 * host (ms). */
static gs_status open_way(void *ctx, unsigned i)
{
    gsp_rounds *x = ctx;
    return open_entry(x->be, &x->ss[i]);
}
static gs_status run_way(void *ctx, unsigned i, double *ms)
{
    gsp_rounds *x = ctx;
    double t0 = now_ms();
    gs_status st = x->be->run(&x->ss[i], &x->ss[i].result->pi);
    *ms = now_ms() - t0;
    return st;
}

/* Whether the configurations can run at all: a refusal is every way's. */
static gs_status configs_ok(gs_device *dev, const gsp_config *cfgs, unsigned n)
{
    if (n == 0 || cfgs == NULL)
        return GS_ERR_INVALID_ARGUMENT;
    for (unsigned i = 0; i < n; ++i)
        if (!config_ok(&cfgs[i]))
            return GS_ERR_INVALID_ARGUMENT;
    if (backend_of(dev) == NULL)
        return GS_ERR_UNSUPPORTED;
    for (unsigned i = 0; i < n; ++i)
        if (!gsp_way_supported(dev, cfgs[i].way))
            return GS_ERR_UNSUPPORTED;
    return GS_OK;
}

gs_status gsp_run_ways(gs_device *dev, const gsp_config *cfgs, unsigned n, gsp_result *out)
{
    if (out == NULL)
        return GS_ERR_INVALID_ARGUMENT;
    gs_status refused = configs_ok(dev, cfgs, n);
    for (unsigned i = 0; i < n; ++i) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].status = refused;
    }
    if (refused != GS_OK)
        return refused;
    const gsp_backend *be = backend_of(dev);
    gsp_session *ss = calloc(n, sizeof *ss);
    gs_status *status = calloc(n, sizeof *status);
    gsa_timing *timing = calloc(n, sizeof *timing);
    gs_status st = ss && status && timing ? GS_OK : GS_ERR_OUT_OF_MEMORY;
    if (st == GS_OK) {
        for (unsigned i = 0; i < n; ++i)
            ss[i] = (gsp_session){dev, &cfgs[i], &out[i], NULL, NULL};
        /* Rounds: every way still running once a round, so that a device drifting over
         * the seconds of a size weighs on every way alike (one way's runs in a row put the
         * barrier way, second, 0.01-0.26% behind the host way at 10^10 steps in six runs
         * of six on an H100). Each round in its own order (a seeded shuffle): with the
         * first of a round merely rotating, every way always ran right after the same
         * other way, whose end (a copy and a host sum, or a wait in the library) set the
         * device's idle gap before it. */
        static const gsa_rounds_ops ops = {open_way, run_way};
        const gsa_rounds_plan plan = {GSP_MIN_RUNS, GSP_MAX_RUNS, GSP_TIMED_MS};
        gsp_rounds x = {be, ss};
        st = gsa_rounds(n, &plan, &ops, &x, status, timing);
        for (unsigned i = 0; i < n; ++i)
            close_entry(be, &ss[i]);
    }
    gs_status first = st;
    for (unsigned i = 0; i < n; ++i) {
        out[i].status = st == GS_OK ? status[i] : st;
        out[i].ms = st == GS_OK ? timing[i].median : 0.0;
        out[i].paired_ms = st == GS_OK && i ? timing[i].paired_diff : 0.0;
        if (first == GS_OK)
            first = out[i].status;
    }
    free(ss);
    free(status);
    free(timing);
    return first;
}

gs_status gsp_run(gs_device *dev, const gsp_config *cfg, gsp_result *out)
{
    return gsp_run_ways(dev, cfg, 1u, out);
}
