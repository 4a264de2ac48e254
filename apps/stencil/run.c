/* gss_run: one configuration checked, then timed; and what the back ends share. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

gs_status gss_fail(gss_session *s, gs_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gsa_vnote(s->result->error, sizeof s->result->error, fmt, ap);
    va_end(ap);
    return status;
}

gs_status gss_barrier_open(gss_session *s, gs_barrier **out)
{
    return gsa_barrier_open(s->dev, s->cfg->method, s->cfg->groups, s->cfg->timeout_ms, out,
                            &s->result->algo, &s->result->state_bytes, s->result->error,
                            sizeof s->result->error);
}

static const gss_backend *backend_of(gs_device *dev)
{
    gs_device_info info;
    if (dev == NULL || gs_device_get_info(dev, &info) != GS_OK)
        return NULL;
    switch (info.backend) {
    case GS_BACKEND_CPU: return &gss_cpu_backend;
#ifdef GSS_HAVE_OPENCL
    case GS_BACKEND_OPENCL: return &gss_opencl_backend;
#endif
#ifdef GSS_HAVE_CUDA
    case GS_BACKEND_CUDA: return &gss_cuda_backend;
#endif
    default: return NULL;
    }
}

int gss_method_supported(gs_device *dev, gs_algo method)
{
    const gss_backend *be = backend_of(dev);
    return be != NULL && be->supported(dev, method);
}

gs_status gss_max_groups(gs_device *dev, gs_algo method, unsigned group_size, unsigned *out)
{
    const gss_backend *be = backend_of(dev);
    if (out == NULL || group_size == 0)
        return GS_ERR_INVALID_ARGUMENT;
    if (be == NULL || !be->supported(dev, method))
        return GS_ERR_UNSUPPORTED;
    return be->max_groups(dev, method, group_size, out);
}

/* One run, then its result element by element against the reference and, from the
 * blog's all-ones start, every element against the first. */
static gs_status run_checked(const gss_backend *be, gss_session *s, const uint32_t *reference,
                             uint32_t *result, double *ns)
{
    unsigned n = s->cfg->n;
    gs_status st = be->run(s, ns);
    if (st == GS_OK)
        st = be->fetch(s, result);
    if (st != GS_OK)
        return st;
    uint64_t differ = 0, unequal = 0;
    for (unsigned i = 0; i < n; ++i) {
        differ += result[i] != reference[i];
        unequal += s->cfg->seed == 0 && result[i] != result[0];
    }
    s->result->mismatches = differ;
    s->result->unequal = unequal;
    if (differ || unequal)
        return gss_fail(s, GS_ERR_CHECK_FAILED,
                        "%llu of %u elements differ from the reference, %llu from a[0]",
                        (unsigned long long)differ, n, (unsigned long long)unequal);
    return GS_OK;
}

static int config_ok(const gss_config *c)
{
    return c->n >= GSS_MIN_N && c->n <= GSS_MAX_N && c->iters > 0 && c->groups > 0 &&
           c->group_size > 0 && c->repeats <= 100000u;
}

/* Whether the configurations can run together: one problem (n, iters, seed) and as many
 * rounds (repeats); a refusal is every one's. */
static gs_status configs_ok(gs_device *dev, const gss_config *cfgs, unsigned n)
{
    if (cfgs == NULL || n == 0)
        return GS_ERR_INVALID_ARGUMENT;
    for (unsigned i = 0; i < n; ++i)
        if (!config_ok(&cfgs[i]) || cfgs[i].n != cfgs[0].n || cfgs[i].iters != cfgs[0].iters ||
            cfgs[i].seed != cfgs[0].seed || cfgs[i].repeats != cfgs[0].repeats)
            return GS_ERR_INVALID_ARGUMENT;
    const gss_backend *be = backend_of(dev);
    for (unsigned i = 0; i < n; ++i)
        if (be == NULL || !be->supported(dev, cfgs[i].method))
            return GS_ERR_UNSUPPORTED;
    return GS_OK;
}

GSA_COMPARE_SESSIONS(gss, gss_session, gss_backend, uint32_t, run_checked);

gs_status gss_run_methods(gs_device *dev, const gss_config *cfgs, unsigned n, gss_result *out)
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
    gss_entry *es = st == GS_OK ? calloc(n, sizeof *es) : NULL;
    if (st == GS_OK &&
        (gsa_compare_mem_alloc(&m, dev, cfgs[0].n, sizeof(uint32_t), need_ref, n, 2) || es == NULL))
        st = GS_ERR_OUT_OF_MEMORY;
    if (st == GS_OK && m.own_ref)
        st = gss_reference(cfgs[0].n, cfgs[0].iters, cfgs[0].seed, m.own_ref);
    if (st == GS_OK) {
        gss_initial(cfgs[0].n, cfgs[0].seed, m.initial);
        for (unsigned i = 0; i < n; ++i) {
            es[i].s = (gss_session){dev, &cfgs[i], m.initial, &out[i], NULL};
            es[i].reference = cfgs[i].reference ? cfgs[i].reference : m.own_ref;
        }
        gss_rounds x = {backend_of(dev), es, m.result};
        st = gsa_compare(n, cfgs[0].repeats, &gss_compare_ops, &x, m.status, m.timing);
        compared = 1;
        for (unsigned i = 0; i < n; ++i)
            gsa_times_of(&m.timing[i], &out[i].ms_median, &out[i].ms_min, &out[i].ms_max,
                         &out[i].paired_ratio);
    }
    for (unsigned i = 0; i < n; ++i)
        out[i].status = compared ? m.status[i] : st;
    gsa_compare_mem_free(&m);
    free(es);
    return st;
}

gs_status gss_run(gs_device *dev, const gss_config *cfg, gss_result *out)
{
    return gss_run_methods(dev, cfg, 1u, out);
}
