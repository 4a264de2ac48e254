/* gsp_run: one way at one size, warmed up, then timed from the launch to pi on the host:
 * the median of the timed runs (GSP_MIN_RUNS .. GSP_MAX_RUNS). */
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
    if (s->result->error[0] == '\0') {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(s->result->error, sizeof s->result->error, fmt, ap);
        va_end(ap);
    }
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

/* Timed runs: at least GSP_MIN_RUNS, then more while they add up to less than
 * GSP_TIMED_MS, up to GSP_MAX_RUNS: a run of 20 us is at the mercy of the host (on an
 * H100 the barrier way's median of 9 at 10^6 steps read 29 us where one of 300 read 24). */
#define GSP_MIN_RUNS 15u
#define GSP_MAX_RUNS 201u
#define GSP_TIMED_MS 250.0

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_ms(double *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return v[n / 2u];
}

gs_status gsp_run(gs_device *dev, const gsp_config *cfg, gsp_result *out)
{
    if (out == NULL)
        return GS_ERR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    /* a power of two: the reduction halves the group */
    if (cfg == NULL || cfg->steps == 0 || cfg->groups == 0 || cfg->group_size == 0 ||
        (cfg->group_size & (cfg->group_size - 1u)) != 0)
        return GS_ERR_INVALID_ARGUMENT;
    const gsp_backend *be = backend_of(dev);
    if (be == NULL || !gsp_way_supported(dev, cfg->way))
        return GS_ERR_UNSUPPORTED;
    gsp_session s = {dev, cfg, out, NULL, NULL};
    /* The barrier the barrier way ends on; the cpu back end launches every way through
     * it (a team of threads with its group barrier is what gs_cpu_launch makes). Flip:
     * its last arriver (gs_arrive_last, pi_step.h) knows from one atomic, where auto's
     * tree at 1056 groups adds a hop (bench/micro/pi_finish.cu on an H200 at 10^6 steps:
     * 12.0 against 13.1 us of device time). */
    gs_status st = gs_barrier_create(dev, GS_ALGO_FLIP, cfg->groups, &s.bar);
    /* Its one episode is gs_arrive_last: nobody waits, so the launch needs no
     * co-residency, and on CUDA takes no cooperative attribute (gs_barrier_set_arrive_only;
     * docs/performance.md has what that saves). */
    if (st == GS_OK)
        st = gs_barrier_set_arrive_only(s.bar, 1);
    if (st == GS_OK && cfg->timeout_ms)
        st = gs_barrier_set_timeout(s.bar, cfg->timeout_ms);
    if (st != GS_OK)
        gsp_fail(&s, st, "gs_barrier_create(flip, %u groups)", cfg->groups);
    if (st == GS_OK)
        st = be->open(&s);
    double pi = 0.0;
    if (st == GS_OK) /* the warm-up: first-launch costs out of the time */
        st = be->run(&s, &pi);
    double ms[GSP_MAX_RUNS], spent = 0.0;
    unsigned n = 0;
    for (; st == GS_OK && n < GSP_MAX_RUNS && (n < GSP_MIN_RUNS || spent < GSP_TIMED_MS); ++n) {
        double t0 = now_ms();
        st = be->run(&s, &pi);
        ms[n] = now_ms() - t0;
        spent += ms[n];
    }
    out->ms = n ? median_ms(ms, n) : 0.0;
    out->pi = pi;
    be->close(&s);
    if (s.bar)
        gs_barrier_destroy(s.bar);
    return st;
}
