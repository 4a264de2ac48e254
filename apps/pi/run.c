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

/* One way's session: its barrier, its back end's buffers, its timed runs. */
typedef struct gsp_entry {
    gsp_session s;
    gs_status status;
    double ms[GSP_MAX_RUNS];
    unsigned runs;
} gsp_entry;

static int config_ok(const gsp_config *c)
{
    /* a power of two: the reduction halves the group */
    return c != NULL && c->steps != 0 && c->groups != 0 && c->group_size != 0 &&
           (c->group_size & (c->group_size - 1u)) == 0;
}

/* The barrier the barrier way ends on, then the back end's buffers; the warm-up run
 * takes first-launch costs out of the time. */
static gs_status open_entry(const gsp_backend *be, gsp_entry *e, double *pi)
{
    gsp_session *s = &e->s;
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
    return st == GS_OK ? be->run(s, pi) : st;
}

static void close_entry(const gsp_backend *be, gsp_entry *e)
{
    if (e->s.impl)
        be->close(&e->s);
    if (e->s.bar)
        gs_barrier_destroy(e->s.bar);
    e->s.bar = NULL;
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
    gsp_entry *es = calloc(n, sizeof *es);
    unsigned *order = calloc(n, sizeof *order);
    if (es == NULL || order == NULL) {
        free(es);
        free(order);
        for (unsigned i = 0; i < n; ++i)
            out[i].status = GS_ERR_OUT_OF_MEMORY;
        return GS_ERR_OUT_OF_MEMORY;
    }
    for (unsigned i = 0; i < n; ++i) {
        es[i].s = (gsp_session){dev, &cfgs[i], &out[i], NULL, NULL};
        es[i].status = open_entry(be, &es[i], &out[i].pi);
    }
    /* Rounds: every way still running once a round, so that a device drifting over the
     * seconds of a size weighs on every way alike (one way's runs in a row put the barrier
     * way, second, 0.01-0.26% behind the host way at 10^10 steps in six runs of six on an
     * H100). Each round in its own order (a seeded shuffle): with the first of a round
     * merely rotating, every way always ran right after the same other way, whose end
     * (a copy and a host sum, or a wait in the library) set the device's idle gap before
     * it. */
    double spent = 0.0;
    unsigned live = 0, seed = 0x9e3779b9u;
    for (unsigned i = 0; i < n; ++i)
        live += es[i].status == GS_OK;
    for (unsigned r = 0;
         live && r < GSP_MAX_RUNS && (r < GSP_MIN_RUNS || spent < GSP_TIMED_MS * live); ++r) {
        gsa_shuffle(order, n, &seed);
        for (unsigned k = 0; k < n; ++k) {
            gsp_entry *e = &es[order[k]];
            if (e->status != GS_OK)
                continue;
            double t0 = now_ms();
            e->status = be->run(&e->s, &e->s.result->pi);
            e->ms[e->runs] = now_ms() - t0;
            spent += e->ms[e->runs++];
            live -= e->status != GS_OK;
        }
    }
    /* paired with the first configuration round by round (before the sorts below) */
    for (unsigned i = 1; i < n; ++i) {
        unsigned both = es[i].runs < es[0].runs ? es[i].runs : es[0].runs;
        double d[GSP_MAX_RUNS];
        for (unsigned r = 0; r < both; ++r)
            d[r] = es[i].ms[r] - es[0].ms[r];
        out[i].paired_ms = both ? gsa_median(d, both) : 0.0;
    }
    gs_status first = GS_OK;
    for (unsigned i = 0; i < n; ++i) {
        out[i].status = es[i].status;
        out[i].ms = es[i].status == GS_OK && es[i].runs ? gsa_median(es[i].ms, es[i].runs) : 0.0;
        if (first == GS_OK)
            first = es[i].status;
        close_entry(be, &es[i]);
    }
    free(es);
    free(order);
    return first;
}

gs_status gsp_run(gs_device *dev, const gsp_config *cfg, gsp_result *out)
{
    return gsp_run_ways(dev, cfg, 1u, out);
}
