/* gsr_run: one configuration checked, then timed; and what the back ends share. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

const char *gsr_method_name(gs_algo method)
{
    return method == GSR_LOCAL ? "local" : gs_algo_name(method);
}

int gsr_is_barrierless(gs_algo method) { return method == GSR_LOCAL || gsa_is_baseline(method); }

gs_status gsr_fail(gsr_session *s, gs_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gsa_vnote(s->result->error, sizeof s->result->error, fmt, ap);
    va_end(ap);
    return status;
}

gs_status gsr_barrier_open(gsr_session *s, gs_barrier **out)
{
    return gsa_barrier_open(s->dev, s->cfg->method, s->cfg->groups, s->cfg->timeout_ms, out,
                            &s->result->algo, &s->result->state_bytes, s->result->error,
                            sizeof s->result->error);
}

gs_status gsr_local_open(gsr_session *s, gs_local **out)
{
    return gsa_local_open(s->dev, s->shape.rows * s->shape.cols, 0, s->cfg->timeout_ms, out,
                          &s->result->state_bytes, s->result->error, sizeof s->result->error);
}

gs_status gsr_local_verdict(gsr_session *s, gs_local *L, gs_status st)
{
    if (st == GS_OK)
        return GS_OK;
    gs_local_abort *ab = &s->result->abort;
    if (st == GS_ERR_TIMEOUT && gs_local_abort_info(L, ab) == GS_OK)
        return gsr_fail(s, st,
                        "local: group %u waited for tile word %u (tile %u,%u) to reach %u; "
                        "it held %u",
                        ab->group, ab->word, ab->word / s->shape.cols, ab->word % s->shape.cols,
                        ab->awaited, ab->seen);
    return gsr_fail(s, st, "local launch of %u groups: %s", s->cfg->groups, gs_status_string(st));
}

static const gsr_backend *backend_of(gs_device *dev)
{
    gs_device_info info;
    if (dev == NULL || gs_device_get_info(dev, &info) != GS_OK)
        return NULL;
    switch (info.backend) {
    case GS_BACKEND_CPU: return &gsr_cpu_backend;
#ifdef GSR_HAVE_OPENCL
    case GS_BACKEND_OPENCL: return &gsr_opencl_backend;
#endif
#ifdef GSR_HAVE_CUDA
    case GS_BACKEND_CUDA: return &gsr_cuda_backend;
#endif
    default: return NULL;
    }
}

int gsr_method_supported(gs_device *dev, gs_algo method)
{
    const gsr_backend *be = backend_of(dev);
    return be != NULL && be->supported(dev, method);
}

gs_status gsr_max_groups(gs_device *dev, gs_algo method, unsigned tile, unsigned *out)
{
    const gsr_backend *be = backend_of(dev);
    if (out == NULL || tile < GSR_MIN_TILE || tile > GSR_MAX_TILE)
        return GS_ERR_INVALID_ARGUMENT;
    if (be == NULL || !be->supported(dev, method))
        return GS_ERR_UNSUPPORTED;
    return be->max_groups(dev, method, tile, out);
}

/* One run, then its result against the reference. */
static gs_status run_checked(const gsr_backend *be, gsr_session *s, const float *reference,
                             float *result, double *ns)
{
    size_t cells = (size_t)s->cfg->n * s->cfg->n;
    gs_status st = be->run(s, ns);
    if (st == GS_OK)
        st = be->fetch(s, result);
    if (st != GS_OK)
        return st;
    s->result->mismatches = gsr_compare(result, reference, cells, &s->result->max_abs_diff);
    if (s->result->mismatches)
        return gsr_fail(s, GS_ERR_CHECK_FAILED,
                        "%llu of %zu cells differ from the reference (max |diff| %g)",
                        (unsigned long long)s->result->mismatches, cells, s->result->max_abs_diff);
    return GS_OK;
}

/* In range, and the schedule's tickets and the progress words fit the local state
 * (checked for every scheme: they share the schedule). */
static int config_ok(const gsr_config *c)
{
    if (c->n < GSR_MIN_N || c->n > GSR_MAX_N || c->sweeps < 1 || c->sweeps > GSR_MAX_SWEEPS ||
        c->tile < GSR_MIN_TILE || c->tile > GSR_MAX_TILE || c->groups == 0 ||
        c->repeats > 100000u || !(c->omega > 0.0f && c->omega < 2.0f))
        return 0;
    uint64_t rows = (c->n - 2u + c->tile - 1u) / c->tile, half = (rows * rows + 1u) / 2u;
    uint64_t steps = 2u * ((uint64_t)c->sweeps - 1u) + 2u * rows - 1u;
    /* Tickets are 32-bit, and 0xffffffff is gs_local_next's "none left" (GS_LOCAL_END). */
    return rows * rows <= GS_LOCAL_MAX_WORDS && steps * half < 0xffffffffu;
}

/* Whether the configurations can run together: one problem (n, sweeps, omega, seed) and
 * as many rounds (repeats); a refusal is every one's. */
static gs_status configs_ok(gs_device *dev, const gsr_config *cfgs, unsigned n)
{
    if (cfgs == NULL || n == 0)
        return GS_ERR_INVALID_ARGUMENT;
    for (unsigned i = 0; i < n; ++i)
        if (!config_ok(&cfgs[i]) || cfgs[i].n != cfgs[0].n || cfgs[i].sweeps != cfgs[0].sweeps ||
            cfgs[i].omega != cfgs[0].omega || cfgs[i].seed != cfgs[0].seed ||
            cfgs[i].repeats != cfgs[0].repeats)
            return GS_ERR_INVALID_ARGUMENT;
    const gsr_backend *be = backend_of(dev);
    for (unsigned i = 0; i < n; ++i)
        if (be == NULL || !be->supported(dev, cfgs[i].method))
            return GS_ERR_UNSUPPORTED;
    return GS_OK;
}

GSA_COMPARE_SESSIONS(gsr, gsr_session, gsr_backend, float, run_checked);

gs_status gsr_run_methods(gs_device *dev, const gsr_config *cfgs, unsigned n, gsr_result *out)
{
    if (out == NULL)
        return GS_ERR_INVALID_ARGUMENT;
    memset(out, 0, n * sizeof *out);
    gs_status st = configs_ok(dev, cfgs, n);
    int need_ref = 0;
    for (unsigned i = 0; st == GS_OK && i < n; ++i) {
        out[i].algo = cfgs[i].method;
        need_ref |= cfgs[i].reference == NULL;
    }
    gsa_compare_mem m = {0};
    int compared = 0; /* then each configuration has its own status */
    gsr_entry *es = st == GS_OK ? calloc(n, sizeof *es) : NULL;
    if (st == GS_OK && (gsa_compare_mem_alloc(&m, dev, (size_t)cfgs[0].n * cfgs[0].n, sizeof(float),
                                              need_ref, n, 1) ||
                        es == NULL))
        st = GS_ERR_OUT_OF_MEMORY;
    if (st == GS_OK && m.own_ref)
        st = gsr_reference(cfgs[0].n, cfgs[0].sweeps, cfgs[0].omega, cfgs[0].seed, m.own_ref);
    if (st == GS_OK) {
        gsr_initial(cfgs[0].n, cfgs[0].seed, m.initial);
        for (unsigned i = 0; i < n; ++i) {
            const gsr_config *c = &cfgs[i];
            es[i].s = (gsr_session){dev,
                                    c,
                                    gsr_shape_of(c->n, c->tile, c->sweeps),
                                    1.0f - c->omega,
                                    c->omega * 0.25f,
                                    m.initial,
                                    &out[i],
                                    NULL};
            es[i].reference = c->reference ? c->reference : m.own_ref;
            out[i].steps = es[i].s.shape.steps;
        }
        gsr_rounds x = {backend_of(dev), es, m.result};
        st = gsa_compare(n, cfgs[0].repeats, &gsr_compare_ops, &x, m.status, m.timing);
        compared = 1;
        double updates = (double)(cfgs[0].n - 2u) * (cfgs[0].n - 2u) * cfgs[0].sweeps;
        for (unsigned i = 0; i < n; ++i) {
            gsa_times_of(&m.timing[i], &out[i].ms_median, &out[i].ms_min, &out[i].ms_max,
                         &out[i].paired_ratio);
            out[i].updates_per_s = out[i].ms_median > 0 ? updates / (out[i].ms_median / 1e3) : 0;
        }
    }
    for (unsigned i = 0; i < n; ++i)
        out[i].status = compared ? m.status[i] : st;
    gsa_compare_mem_free(&m);
    free(es);
    return st;
}

gs_status gsr_run(gs_device *dev, const gsr_config *cfg, gsr_result *out)
{
    return gsr_run_methods(dev, cfg, 1u, out);
}
