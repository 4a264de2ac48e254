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

gs_status gss_run(gs_device *dev, const gss_config *cfg, gss_result *out)
{
    if (out == NULL)
        return GS_ERR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (cfg == NULL || cfg->n < GSS_MIN_N || cfg->n > GSS_MAX_N || cfg->iters == 0 ||
        cfg->groups == 0 || cfg->group_size == 0 || cfg->repeats > 100000u)
        return GS_ERR_INVALID_ARGUMENT;
    const gss_backend *be = backend_of(dev);
    if (be == NULL || !be->supported(dev, cfg->method))
        return GS_ERR_UNSUPPORTED;
    out->algo = cfg->method;
    size_t bytes = (size_t)cfg->n * sizeof(uint32_t);
    uint32_t *initial = malloc(bytes), *result = malloc(bytes);
    uint32_t *own_ref = cfg->reference ? NULL : malloc(bytes);
    double *times = malloc((cfg->repeats + 1u) * sizeof *times);
    const uint32_t *reference = cfg->reference ? cfg->reference : own_ref;
    gs_status st = initial && result && reference && times ? GS_OK : GS_ERR_OUT_OF_MEMORY;
    if (st == GS_OK && own_ref)
        st = gss_reference(cfg->n, cfg->iters, cfg->seed, own_ref);
    gss_session s = {dev, cfg, initial, out, NULL};
    if (st == GS_OK) {
        gss_initial(cfg->n, cfg->seed, initial);
        st = be->open(&s);
        if (st == GS_OK) /* the warm-up is the check: a wrong method is never timed */
            st = run_checked(be, &s, reference, result, &times[cfg->repeats]);
        for (unsigned r = 0; st == GS_OK && r < cfg->repeats; ++r)
            st = run_checked(be, &s, reference, result, &times[r]);
        be->close(&s);
    }
    if (st == GS_OK && cfg->repeats) {
        gsa_sort(times, cfg->repeats);
        out->ms_median = times[cfg->repeats / 2] / 1e6;
        out->ms_min = times[0] / 1e6;
        out->ms_max = times[cfg->repeats - 1] / 1e6;
    }
    free(initial);
    free(result);
    free(own_ref);
    free(times);
    return st;
}
