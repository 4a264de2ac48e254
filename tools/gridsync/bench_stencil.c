/* bench stencil: the Chinese blog's benchmark (seed 001) as an application
 * (apps/stencil): a[i] += a[i+1] + a[i+2] (mod n) with two grid barriers per iteration,
 * 2048 work-items in groups of 1024, 64 and 32, 500,000 iterations on a GPU, with every
 * protocol and the baselines (relaunch; CUDA: relaunch-graph, cg). Each result must equal
 * the sequential reference element by element, and from the blog's all-ones start every
 * element must equal every other, before it is timed. A second size, 2^20 elements, no
 * longer fits one element per work-item (registers): the sums go through memory.
 * ns/barrier is the run's time over its 2T barriers; the summary puts the blog's times
 * beside ours. The methods of a block size run together (gss_run_methods): each opened
 * and checked, then their timed runs in rounds, each round in a shuffled order;
 * x_cg_pair (CSV and JSON paired_cg) is the median over the rounds of a row's time over
 * cg's in the same round. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stencil.h"

#define STENCIL_BLOG_ITERS 500000u
#define STENCIL_BIG_N (1u << 20)

typedef struct ssize {
    unsigned n, iters;
} ssize;

/* GPU: the blog's size and iterations, then 2^20 elements; cpu and PoCL: seconds. */
static unsigned sizes_of(const gs_device_info *d, const cli_options *o, ssize *out)
{
    if (o->n_sizes) {
        for (unsigned i = 0; i < o->n_sizes; ++i)
            out[i] = (ssize){o->sizes_n[i], o->sizes_t[i]};
        return o->n_sizes;
    }
    unsigned small = d->is_gpu ? (o->quick ? 50000u : STENCIL_BLOG_ITERS) : 100u;
    unsigned big = d->is_gpu ? (o->quick ? 100u : 1000u) : 2u;
    if (o->n) { /* --n N: that size alone */
        out[0] = (ssize){o->n, o->iters ? o->iters : o->n <= GSS_BLOG_N ? small : big};
        return 1;
    }
    out[0] = (ssize){GSS_BLOG_N, o->iters ? o->iters : small};
    out[1] = (ssize){STENCIL_BIG_N, o->iters ? o->iters : big};
    return 2;
}

/* The blog's work-group sizes (--block: one); the cpu back end's teams are threads on
 * 2 cores, so there teams of 4. */
static unsigned blocks_of(const gs_device_info *d, const cli_options *o, unsigned *out)
{
    if (o->block) {
        out[0] = o->block;
        return 1;
    }
    if (d->backend == GS_BACKEND_CPU) {
        out[0] = 4;
        return 1;
    }
    out[0] = 1024, out[1] = 64, out[2] = 32;
    return 3;
}

static unsigned methods(gs_device *dev, const cli_options *o, gs_algo *out)
{
    gs_algo named[GS_ALGO_COUNT_];
    unsigned n = 0, k = cli_algos(o, dev, named);
    for (unsigned i = 0; i < k; ++i)
        if (gss_method_supported(dev, named[i]))
            out[n++] = named[i];
    return n;
}

/* The methods of one size and block size, measured together (gss_run_methods: in rounds,
 * each in a shuffled order, cg first where it runs, so that every row's paired ratio is to
 * grid.sync()'s time in the same round; with `cg_base`, cg runs in the rounds for that
 * alone, its row being another call's): ms[m] at `groups`, a table row each in the order
 * given, and a line on stderr for each. */
static int measure(gs_device *dev, const cli_options *o, const gs_algo *ms, unsigned k, int cg_base,
                   const ssize *z, unsigned groups, unsigned block, const uint32_t *reference,
                   bench_table *t)
{
    gss_config cfgs[GS_ALGO_COUNT_ + 2] = {{0}};
    gss_result res[GS_ALGO_COUNT_ + 2];
    unsigned at[GS_ALGO_COUNT_ + 1]; /* ms[m]'s configuration is cfgs[at[m]] */
    const gss_config one = {.n = z->n,
                            .iters = z->iters,
                            .seed = 0,
                            .groups = groups,
                            .group_size = block,
                            .repeats = o->repeats,
                            .timeout_ms = o->timeout_ms,
                            .reference = reference};
    gs_algo order[GS_ALGO_COUNT_ + 2];
    int cg;
    unsigned n = bench_cg_first(ms, k, cg_base, order, at, &cg);
    for (unsigned i = 0; i < n; ++i) {
        cfgs[i] = one;
        cfgs[i].method = order[i];
    }
    (void)gss_run_methods(dev, cfgs, n, res); /* each row's status is in its result */
    for (unsigned m = 0; m < k; ++m) {
        const gss_result *x = &res[at[m]];
        bench_row *r = table_add(t);
        if (r == NULL)
            return 2;
        *r = (bench_row){.experiment = "stencil",
                         .algo = ms[m],
                         .groups = groups,
                         .block = block,
                         .iters = z->iters,
                         .n = z->n};
        bench_row_times(r, x->status, x->state_bytes, x->ms_median, x->ms_min, x->ms_max,
                        x->paired_ratio, cg);
        if (x->status == GS_OK)
            r->ns_per_barrier = x->ms_median * 1e6 / (2.0 * z->iters);
        cli_progress("stencil %u x %u: %-15s %5u x %-4u %11.3f ms  %s%s%s", z->n, z->iters,
                     gs_algo_name(ms[m]), groups, block, r->total_ms, r->check,
                     x->error[0] ? ": " : "", x->error);
    }
    table_show(t, stdout);
    return 0;
}

/* What bench_measure_sets calls measure with. */
typedef struct stencil_sets {
    gs_device *dev;
    const cli_options *o;
    const ssize *z;
    unsigned block;
    const uint32_t *reference;
    bench_table *t;
} stencil_sets;
static int measure_set(void *ctx, const gs_algo *ms, unsigned k, int cg_base, unsigned groups)
{
    const stencil_sets *x = ctx;
    return measure(x->dev, x->o, ms, k, cg_base, x->z, groups, x->block, x->reference, x->t);
}

/* Every method at every block size of one size, the methods of a block size that run at
 * one group count in the same rounds (bench_measure_sets). The blog's grid: as many work-items as it has (2048), capped at each method's
 * co-residency bound. */
static int run_size(gs_device *dev, const cli_options *o, bench_table *t, const ssize *z,
                    const gs_algo *ms, unsigned n_ms)
{
    uint32_t *reference = malloc((size_t)z->n * sizeof *reference);
    gs_status s = reference ? gss_reference(z->n, z->iters, 0, reference) : GS_ERR_OUT_OF_MEMORY;
    if (s != GS_OK) {
        cli_progress("stencil %u x %u: no reference: %s", z->n, z->iters, gs_status_string(s));
        free(reference);
        return 1;
    }
    unsigned bl[3], n_bl = blocks_of(&t->dev, o, bl);
    int rc = 0;
    for (unsigned b = 0; b < n_bl && rc == 0; ++b) {
        unsigned groups[GS_ALGO_COUNT_ + 1];
        for (unsigned m = 0; m < n_ms; ++m) {
            unsigned bound = 0;
            groups[m] = t->dev.backend == GS_BACKEND_CPU ? 2u : (GSS_BLOG_N + bl[b] - 1) / bl[b];
            if (gss_max_groups(dev, ms[m], bl[b], &bound) == GS_OK && bound && groups[m] > bound)
                groups[m] = bound;
        }
        stencil_sets x = {dev, o, z, bl[b], reference, t};
        rc = bench_measure_sets(ms, groups, n_ms, measure_set, &x);
    }
    free(reference);
    return rc;
}

int bench_stencil(gs_device *dev, const cli_options *o, bench_table *t)
{
    gs_algo ms[GS_ALGO_COUNT_ + 1];
    unsigned n_ms = methods(dev, o, ms);
    ssize sizes[CLI_MAX_LIST];
    unsigned n_sizes = sizes_of(&t->dev, o, sizes);
    if (n_ms == 0) {
        cli_progress("stencil: none of the methods named runs on this device");
        return 2;
    }
    int rc = 0;
    for (unsigned i = 0; i < n_sizes && rc != 2; ++i) {
        int r = run_size(dev, o, t, &sizes[i], ms, n_ms);
        rc = rc ? rc : r;
    }
    return rc;
}

/* The blog's GTX-era OpenCL times for 2048 items x 500,000 iterations, by work-group
 * size (1024, 64, 32; "10000+" is 10000 here), and the protocol of ours that is its
 * barrier: globalSync1 (every work-item an atomic) is naive, globalSync2 (one
 * representative per group on a counter) central, globalSync3 (flags, group 0 the
 * master) lockfree. Its kernel with no barrier at all took 220 ms. */
static const struct {
    const char *blog;
    gs_algo ours;
    double ms[3];
} blog[] = {{"globalSync1", GS_ALGO_NAIVE, {3020, 3021, 10000}},
            {"globalSync2", GS_ALGO_CENTRAL, {1020, 1024, 10000}},
            {"globalSync3", GS_ALGO_LOCKFREE, {1405, 1377, 10000}}};
#define BLOG_NO_BARRIER_MS 220.0

static const bench_row *find(const bench_table *t, gs_algo a, unsigned block, unsigned n)
{
    for (unsigned i = 0; i < t->n; ++i)
        if (t->rows[i].algo == a && t->rows[i].block == block && t->rows[i].n == n &&
            t->rows[i].status == GS_OK)
            return &t->rows[i];
    return NULL;
}

void bench_stencil_summary(const bench_table *t, FILE *f)
{
    static const unsigned blocks[3] = {1024, 64, 32};
    fprintf(f, "stencil: the blog's times (2048 items, 500000 iterations; 32: \"10000+\") beside "
               "ours at 2048 "
               "elements, ours scaled to 500000 iterations\n");
    for (unsigned k = 0; k < sizeof blog / sizeof *blog; ++k)
        for (unsigned b = 0; b < 3; ++b) {
            const bench_row *r = find(t, blog[k].ours, blocks[b], GSS_BLOG_N);
            fprintf(f, "  %-12s %5u: blog %7.0f ms   %-9s", blog[k].blog, blocks[b], blog[k].ms[b],
                    gs_algo_name(blog[k].ours));
            if (r)
                fprintf(f, " %11.3f ms (x %u: %.3f ms)\n",
                        r->total_ms * STENCIL_BLOG_ITERS / r->iters, r->iters, r->total_ms);
            else
                fprintf(f, " %11s\n", "-");
        }
    fprintf(f,
            "  the blog's kernel without a barrier (wrong results): %.0f ms; fastest of ours per "
            "block:\n",
            BLOG_NO_BARRIER_MS);
    for (unsigned b = 0; b < 3; ++b) {
        const bench_row *best = NULL;
        for (unsigned i = 0; i < t->n; ++i)
            if (t->rows[i].block == blocks[b] && t->rows[i].n == GSS_BLOG_N &&
                t->rows[i].status == GS_OK &&
                (!best || t->rows[i].total_ms / t->rows[i].iters < best->total_ms / best->iters))
                best = &t->rows[i];
        if (best)
            fprintf(f, "  %5u: %-15s %11.3f ms at 500000 iterations\n", blocks[b],
                    gs_algo_name(best->algo), best->total_ms * STENCIL_BLOG_ITERS / best->iters);
    }
}
