/* apps/appkit/appkit.c - appkit.h. */
#include "appkit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void gsa_vnote(char *error, size_t size, const char *fmt, va_list ap)
{
    if (error != NULL && size > 0 && error[0] == '\0')
        vsnprintf(error, size, fmt, ap);
}

void gsa_note(char *error, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gsa_vnote(error, size, fmt, ap);
    va_end(ap);
}

int gsa_is_baseline(gs_algo method)
{
    return method == GS_ALGO_CG || method == GS_ALGO_RELAUNCH || method == GS_ALGO_RELAUNCH_GRAPH;
}

int gsa_protocol_runs(gs_device *dev, gs_algo algo)
{
    if (algo == GS_ALGO_AUTO) /* gs_algo_supported answers for what auto resolves to */
        return gs_algo_supported(dev, GS_ALGO_FLIP) && gs_algo_supported(dev, GS_ALGO_TREE);
    return !gsa_is_baseline(algo) && gs_algo_supported(dev, algo);
}

gs_status gsa_barrier_open(gs_device *dev, gs_algo method, unsigned groups, unsigned timeout_ms,
                           gs_barrier **out, gs_algo *algo, size_t *state_bytes, char *error,
                           size_t error_size)
{
    gs_barrier *b = NULL;
    gs_status st = gs_barrier_create(dev, method, groups, &b);
    if (st == GS_OK && timeout_ms)
        st = gs_barrier_set_timeout(b, timeout_ms);
    if (st == GS_OK)
        st = gs_barrier_get_algo(b, algo);
    if (st == GS_OK)
        st = gs_barrier_state_bytes(b, state_bytes);
    if (st != GS_OK) {
        if (b)
            gs_barrier_destroy(b);
        const char *name = gs_algo_name(method);
        gsa_note(error, error_size, "gs_barrier_create(%s, %u groups)", name ? name : "?", groups);
        return st;
    }
    *out = b;
    return GS_OK;
}

gs_status gsa_local_open(gs_device *dev, unsigned words, unsigned tagged, unsigned timeout_ms,
                         gs_local **out, size_t *state_bytes, char *error, size_t error_size)
{
    gs_local *L = NULL;
    gs_status st = gs_local_create_with(dev, words, tagged, timeout_ms, &L);
    if (st == GS_OK)
        st = gs_local_get_words(L, NULL, state_bytes);
    if (st != GS_OK) {
        if (L)
            gs_local_destroy(L);
        gsa_note(error, error_size, "gs_local_create_with(%u words, %u tagged)", words, tagged);
        return st;
    }
    *out = L;
    return GS_OK;
}

static int ascending(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

void gsa_sort(double *v, unsigned n)
{
    if (v != NULL && n > 1)
        qsort(v, n, sizeof *v, ascending);
}

double gsa_median(double *v, unsigned n)
{
    if (v == NULL || n == 0)
        return 0.0;
    gsa_sort(v, n);
    return v[n / 2u];
}

void gsa_shuffle(unsigned *order, unsigned n, unsigned *seed)
{
    for (unsigned i = 0; i < n; ++i)
        order[i] = i;
    for (unsigned i = n; i > 1u; --i) {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 17;
        *seed ^= *seed << 5;
        unsigned j = *seed % i, t = order[i - 1u];
        order[i - 1u] = order[j];
        order[j] = t;
    }
}

gs_status gsa_rounds(unsigned n, const gsa_rounds_plan *plan, const gsa_rounds_ops *ops, void *ctx,
                     gs_status *status, gsa_timing *timing)
{
    unsigned most = plan->max > plan->min ? plan->max : plan->min;
    double *ns = malloc(((size_t)n * most + 1u) * sizeof *ns);
    double *ratio = malloc((most + 1u) * sizeof *ratio), *diff = malloc((most + 1u) * sizeof *diff);
    unsigned *order = malloc((n + 1u) * sizeof *order);
    memset(timing, 0, n * sizeof *timing);
    gs_status st = ns && ratio && diff && order ? GS_OK : GS_ERR_OUT_OF_MEMORY;
    for (unsigned i = 0; i < n; ++i)
        status[i] = st == GS_OK ? ops->open(ctx, i) : st;
    unsigned live = 0, seed = 0x9e3779b9u;
    double spent = 0.0;
    for (unsigned i = 0; i < n; ++i)
        live += status[i] == GS_OK;
    for (unsigned r = 0; live && r < most && (r < plan->min || spent < plan->budget * live); ++r) {
        gsa_shuffle(order, n, &seed);
        for (unsigned k = 0; k < n; ++k) {
            unsigned i = order[k];
            if (status[i] != GS_OK)
                continue;
            /* run r of i is ns[i * most + r]: a configuration never misses a round */
            double *t = &ns[(size_t)i * most + timing[i].runs++];
            status[i] = ops->run(ctx, i, t);
            spent += *t;
            live -= status[i] != GS_OK;
        }
    }
    for (unsigned i = 0; st == GS_OK && i < n; ++i) { /* the pairs first, before the sorts */
        const double *mine = &ns[(size_t)i * most], *base = ns;
        unsigned both = timing[i].runs < timing[0].runs ? timing[i].runs : timing[0].runs;
        for (unsigned r = 0; r < both; ++r) {
            ratio[r] = base[r] > 0 ? mine[r] / base[r] : 0.0;
            diff[r] = mine[r] - base[r];
        }
        timing[i].paired = status[i] == GS_OK ? gsa_median(ratio, both) : 0.0;
        timing[i].paired_diff = status[i] == GS_OK ? gsa_median(diff, both) : 0.0;
    }
    for (unsigned i = 0; st == GS_OK && i < n; ++i) {
        double *mine = &ns[(size_t)i * most];
        unsigned k = timing[i].runs;
        if (status[i] != GS_OK || k == 0)
            continue;
        gsa_sort(mine, k);
        timing[i].median = mine[k / 2u];
        timing[i].min = mine[0];
        timing[i].max = mine[k - 1u];
    }
    free(ns);
    free(ratio);
    free(diff);
    free(order);
    return st;
}

/* gsa_compare's view of gsa_rounds: the open is the app's open and its checked warm-up. */
typedef struct gsa_compare_of {
    const gsa_compare_ops *ops;
    void *ctx;
} gsa_compare_of;
static gs_status compare_open(void *of, unsigned i)
{
    const gsa_compare_of *x = of;
    double warm_up = 0.0;
    gs_status st = x->ops->open(x->ctx, i);
    return st == GS_OK ? x->ops->run(x->ctx, i, &warm_up) : st;
}
static gs_status compare_run(void *of, unsigned i, double *ns)
{
    const gsa_compare_of *x = of;
    return x->ops->run(x->ctx, i, ns);
}

gs_status gsa_compare(unsigned n, unsigned repeats, const gsa_compare_ops *ops, void *ctx,
                      gs_status *status, gsa_timing *timing)
{
    static const gsa_rounds_ops rounds = {compare_open, compare_run};
    const gsa_rounds_plan plan = {repeats, repeats, 0.0};
    gsa_compare_of of = {ops, ctx};
    gs_status st = gsa_rounds(n, &plan, &rounds, &of, status, timing);
    for (unsigned i = n; i-- > 0;)
        ops->close(ctx, i);
    for (unsigned i = 0; st == GS_OK && i < n; ++i)
        st = status[i];
    return st;
}

int gsa_memory_fits(gs_device *dev, double host, double device)
{
    gs_device_info info;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (gs_device_get_info(dev, &info) == GS_OK && info.backend == GS_BACKEND_CPU)
        host += device;
    return pages <= 0 || page <= 0 || host <= (double)pages * (double)page;
}

gs_status gsa_compare_mem_alloc(gsa_compare_mem *m, gs_device *dev, size_t cells, size_t size,
                                int own_ref, unsigned n, unsigned device_arrays)
{
    double array = (double)cells * (double)size;
    if (!gsa_memory_fits(dev, 3.0 * array, device_arrays * array)) /* the reference: 1 */
        return GS_ERR_OUT_OF_MEMORY;
    m->initial = malloc(cells * size);
    m->result = malloc(cells * size);
    m->own_ref = own_ref ? malloc(cells * size) : NULL;
    m->status = calloc(n, sizeof *m->status);
    m->timing = calloc(n, sizeof *m->timing);
    return m->initial && m->result && (!own_ref || m->own_ref) && m->status && m->timing
               ? GS_OK
               : GS_ERR_OUT_OF_MEMORY;
}

void gsa_compare_mem_free(gsa_compare_mem *m)
{
    free(m->initial);
    free(m->result);
    free(m->own_ref);
    free(m->status);
    free(m->timing);
    memset(m, 0, sizeof *m);
}

void gsa_times_of(const gsa_timing *t, double *median_ms, double *min_ms, double *max_ms,
                  double *paired)
{
    *median_ms = t->median / 1e6;
    *min_ms = t->min / 1e6;
    *max_ms = t->max / 1e6;
    *paired = t->paired;
}
