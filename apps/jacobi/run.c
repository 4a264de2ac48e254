/* gsj_run: one configuration checked, then timed; and what the back ends share. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

int gsj_method_has_forms(gs_algo method)
{
    return method != GS_ALGO_RELAUNCH && method != GS_ALGO_RELAUNCH_GRAPH;
}

gsj_form gsj_kernel_form(const gsj_config *c)
{
    return gsj_method_has_forms(c->method) ? c->form : GSJ_FORM_SYNC;
}

int gsj_method_in_form(gs_algo method, gsj_form form)
{
    return form == GSJ_FORM_LOCAL || form == GSJ_FORM_HALO ? method == GS_ALGO_AUTO
                                                           : gsj_form_name(form) != NULL;
}

const char *gsj_form_name(gsj_form form)
{
    return form == GSJ_FORM_SYNC       ? "sync"
           : form == GSJ_FORM_SPLIT    ? "split"
           : form == GSJ_FORM_LOCAL    ? "local"
           : form == GSJ_FORM_RESIDENT ? "resident"
           : form == GSJ_FORM_HALO     ? "halo"
                                       : NULL;
}

gs_status gsj_fail(gsj_session *s, gs_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gsa_vnote(s->result->error, sizeof s->result->error, fmt, ap);
    va_end(ap);
    return status;
}

gs_status gsj_local_open(gsj_session *s, gs_local **out)
{
    return gsa_local_open(s->dev, gsj_local_bands(s->cfg->n, s->cfg->groups), 0, s->cfg->timeout_ms,
                          out, &s->result->state_bytes, s->result->error, sizeof s->result->error);
}

gs_status gsj_halo_open(gsj_session *s, gs_local **out)
{
    /* config_ok: the words fit a state */
    return gsa_local_open(s->dev, 0, (unsigned)gsj_halo_words(s->cfg->n, s->cfg->groups),
                          s->cfg->timeout_ms, out, &s->result->state_bytes, s->result->error,
                          sizeof s->result->error);
}

gs_status gsj_local_verdict(gsj_session *s, gs_local *L, gs_status st)
{
    gs_local_abort ab;
    if (st == GS_ERR_TIMEOUT && gs_local_abort_info(L, &ab) == GS_OK && ab.tagged)
        return gsj_fail(s, st,
                        "halo: group %u waited for tagged word %u (group %u's) to hold "
                        "iteration %u; it held %u",
                        ab.group, ab.word,
                        ab.word / (8u * gsj_halo_stride(s->cfg->n, s->cfg->groups)), ab.awaited,
                        ab.seen);
    if (st == GS_ERR_TIMEOUT && gs_local_abort_info(L, &ab) == GS_OK)
        return gsj_fail(s, st,
                        "local: group %u waited for band %u to reach iteration %u; it held %u",
                        ab.group, ab.word, ab.awaited, ab.seen);
    return st == GS_OK ? GS_OK
                       : gsj_fail(s, st, "local launch of %u groups: %s", s->cfg->groups,
                                  gs_status_string(st));
}

gs_status gsj_barrier_open(gsj_session *s, gs_barrier **out)
{
    return gsa_barrier_open(s->dev, s->cfg->method, s->cfg->groups, s->cfg->timeout_ms, out,
                            &s->result->algo, &s->result->state_bytes, s->result->error,
                            sizeof s->result->error);
}

static const gsj_backend *backend_of(gs_device *dev)
{
    gs_device_info info;
    if (dev == NULL || gs_device_get_info(dev, &info) != GS_OK)
        return NULL;
    switch (info.backend) {
    case GS_BACKEND_CPU: return &gsj_cpu_backend;
#ifdef GSJ_HAVE_OPENCL
    case GS_BACKEND_OPENCL: return &gsj_opencl_backend;
#endif
#ifdef GSJ_HAVE_CUDA
    case GS_BACKEND_CUDA: return &gsj_cuda_backend;
#endif
    default: return NULL;
    }
}

void gsj_release(void)
{
    static const gsj_backend *const all[] = {
        &gsj_cpu_backend,
#ifdef GSJ_HAVE_OPENCL
        &gsj_opencl_backend,
#endif
#ifdef GSJ_HAVE_CUDA
        &gsj_cuda_backend,
#endif
    };
    for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
        if (all[i]->release)
            all[i]->release();
}

int gsj_method_supported(gs_device *dev, gs_algo method)
{
    const gsj_backend *be = backend_of(dev);
    return be != NULL && be->supported(dev, method);
}

gs_status gsj_max_groups(gs_device *dev, gs_algo method, gsj_form form, unsigned group_size,
                         unsigned *out)
{
    const gsj_backend *be = backend_of(dev);
    if (out == NULL || group_size == 0 || gsj_form_name(form) == NULL)
        return GS_ERR_INVALID_ARGUMENT;
    if (be == NULL || !be->supported(dev, method))
        return GS_ERR_UNSUPPORTED;
    if (!gsj_method_in_form(method, form))
        return GS_ERR_INVALID_ARGUMENT;
    return be->max_groups(dev, method, gsj_method_has_forms(method) ? form : GSJ_FORM_SYNC,
                          group_size, out);
}

gs_status gsj_group_memory(gs_device *dev, size_t *out)
{
    const gsj_backend *be = backend_of(dev);
    if (out == NULL)
        return GS_ERR_INVALID_ARGUMENT;
    return be == NULL ? GS_ERR_UNSUPPORTED : be->group_memory(dev, out);
}

/* One run, then its result against the reference. */
static gs_status run_checked(const gsj_backend *be, gsj_session *s, const float *reference,
                             float *result, double *ns)
{
    size_t cells = (size_t)s->cfg->n * s->cfg->n;
    gs_status st = be->run(s, ns);
    if (st == GS_OK)
        st = be->fetch(s, result);
    if (st != GS_OK)
        return st;
    s->result->mismatches = gsj_compare(result, reference, cells, &s->result->max_abs_diff);
    if (s->result->mismatches)
        return gsj_fail(s, GS_ERR_CHECK_FAILED,
                        "%llu of %zu cells differ from the reference (max |diff| %g)",
                        (unsigned long long)s->result->mismatches, cells, s->result->max_abs_diff);
    return GS_OK;
}

static int config_ok(const gsj_config *c)
{
    if (!(c->n >= GSJ_MIN_N && c->n <= GSJ_MAX_N && c->iters > 0 && c->groups > 0 &&
          c->group_size > 0 && c->repeats <= 100000u && gsj_method_in_form(c->method, c->form)))
        return 0;
    /* the local form's progress words count iterations, and its tickets stay below the
     * end marker */
    if (c->form == GSJ_FORM_HALO) /* tags count iterations; the words must fit a state */
        return c->iters <= GSJ_LOCAL_MAX_ITERS &&
               gsj_halo_words(c->n, c->groups) <= GS_LOCAL_MAX_TAGGED;
    return c->form != GSJ_FORM_LOCAL ||
           (c->iters <= GSJ_LOCAL_MAX_ITERS &&
            (uint64_t)c->iters * gsj_local_bands(c->n, c->groups) < GS_LOCAL_END);
}

/* Whether the configurations can run together: a refusal is every one's. */
static gs_status configs_ok(gs_device *dev, const gsj_config *cfgs, unsigned n)
{
    if (cfgs == NULL || n == 0)
        return GS_ERR_INVALID_ARGUMENT;
    for (unsigned i = 0; i < n; ++i)
        if (!config_ok(&cfgs[i]) || cfgs[i].n != cfgs[0].n || cfgs[i].iters != cfgs[0].iters ||
            cfgs[i].seed != cfgs[0].seed || cfgs[i].repeats != cfgs[0].repeats)
            return GS_ERR_INVALID_ARGUMENT;
    const gsj_backend *be = backend_of(dev);
    for (unsigned i = 0; i < n; ++i)
        if (be == NULL || !be->supported(dev, cfgs[i].method))
            return GS_ERR_UNSUPPORTED;
    return GS_OK;
}

GSA_COMPARE_SESSIONS(gsj, gsj_session, gsj_backend, float, run_checked);

gs_status gsj_run_methods(gs_device *dev, const gsj_config *cfgs, unsigned n, gsj_result *out)
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
    gsj_entry *es = st == GS_OK ? calloc(n, sizeof *es) : NULL;
    if (st == GS_OK && (gsa_compare_mem_alloc(&m, dev, (size_t)cfgs[0].n * cfgs[0].n, sizeof(float),
                                              need_ref, n, 2) ||
                        es == NULL))
        st = GS_ERR_OUT_OF_MEMORY;
    if (st == GS_OK && m.own_ref)
        st = gsj_reference(cfgs[0].n, cfgs[0].iters, cfgs[0].seed, m.own_ref);
    if (st == GS_OK) {
        gsj_initial(cfgs[0].n, cfgs[0].seed, m.initial);
        for (unsigned i = 0; i < n; ++i) {
            es[i].s = (gsj_session){dev, &cfgs[i], m.initial, &out[i], NULL, i ? &es[0].s : NULL};
            es[i].reference = cfgs[i].reference ? cfgs[i].reference : m.own_ref;
        }
        /* closed the first last: the others may share its grids */
        gsj_rounds x = {backend_of(dev), es, m.result};
        st = gsa_compare(n, cfgs[0].repeats, &gsj_compare_ops, &x, m.status, m.timing);
        compared = 1;
        for (unsigned i = 0; i < n; ++i) {
            out[i].ms_per_iter = m.timing[i].median / 1e6 / cfgs[i].iters;
            gsa_times_of(&m.timing[i], &out[i].ms_median, &out[i].ms_min, &out[i].ms_max,
                         &out[i].paired_ratio);
        }
    }
    for (unsigned i = 0; i < n; ++i)
        out[i].status = compared ? m.status[i] : st;
    gsa_compare_mem_free(&m);
    free(es);
    return st;
}

gs_status gsj_run(gs_device *dev, const gsj_config *cfg, gsj_result *out)
{
    return gsj_run_methods(dev, cfg, 1u, out);
}
