/* bench jacobi: an application, not a barrier alone. A 2-D 5-point Jacobi solver
 * (apps/jacobi, written against gridsync's public headers as a user writes it) runs
 * T iterations on an N x N grid with every method: each barrier protocol and auto in
 * one persistent kernel, and the baselines a user would write instead: cg (CUDA's
 * grid.sync()), relaunch (a launch per iteration) and relaunch-graph (those launches
 * in a CUDA graph). Each persistent method runs in every form --form names (jacobi.h):
 * sync, a barrier between iterations; split, a tile per group whose inner cells hide the
 * barrier (cg: the same tiles with grid.sync(), to tell the tiling's effect from the
 * overlap's); resident, the tiles kept in group memory (skipped where they do not fit
 * it). The relaunch baselines have no form and run once. The local form (bands that
 * wait only for their neighbours, gridsync's local synchronization) has no barrier and
 * runs as `auto` alone; its ratios are to the sync form's cg. So does the halo form (the
 * resident form's tiles, their halos in gridsync's tagged words, no barrier). Every configuration's
 * result is first compared with a sequential reference (exactly); one that differs is
 * FAIL and not timed. The methods of one grid run together, in rounds, each round in a
 * shuffled order (gsj_run_methods), cg first in the list: each row's paired_cg is the
 * median over the rounds of its time over grid.sync()'s in the same round.
 *
 * Rows: `jacobi` for each method, form, size and grid; `best` for each method's fastest
 * grid in a form at a size, whose ratios compare best with best of that form. The
 * ns/barrier column holds ns per iteration here (T iterations, T - 1 barriers; split: T);
 * the summary gives ms per iteration. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_defaults.h"
#include "jacobi.h"

#define JACOBI_SEED 20240601u

typedef struct jsize {
    unsigned n, iters;
} jsize;

static unsigned default_sizes(const gs_device_info *d, const cli_options *o, jsize *out)
{
    static const jsize gpu[] = {{512, 20000}, {1024, 5000}, {4096, 1000}, {8192, 200}};
    static const jsize gpu_quick[] = {{512, 2000}, {4096, 100}};
    static const jsize host[] = {{64, 50}}; /* cpu, PoCL: seconds on 2 cores */
    const jsize *list = d->is_gpu ? (o->quick ? gpu_quick : gpu) : host;
    unsigned n = d->is_gpu ? (o->quick ? 2u : 4u) : 1u;
    for (unsigned i = 0; i < n; ++i) {
        out[i] = list[i];
        if (o->iters) /* --iters T: the default sides, T iterations each */
            out[i].iters = o->iters;
    }
    return n;
}

/* GPU: blocks of 256 (the persistent kernels' launch bound); cpu: teams of 4 threads;
 * an OpenCL CPU device (PoCL): work-groups of 16. */
static unsigned default_block(const gs_device_info *d)
{
    return d->is_gpu ? 256u : d->backend == GS_BACKEND_CPU ? 4u : 16u;
}

/* The methods to run: the protocols (auto among them) and baselines the options name
 * that the app runs on this device, in cli_algos's order (cluster after the other
 * protocols: options.c says why). */
static unsigned methods(gs_device *dev, const cli_options *o, gs_algo *out)
{
    gs_algo named[GS_ALGO_COUNT_];
    unsigned n = 0, k = cli_algos(o, dev, named);
    for (unsigned i = 0; i < k; ++i)
        if (gsj_method_supported(dev, named[i]))
            out[n++] = named[i];
    return n;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The methods of one size, form and grid, measured together (gsj_run_methods: in
 * rounds, each in a shuffled order, cg first where it runs, so that every row's paired
 * ratio is to grid.sync()'s time in the same round; with `cg_base`, cg runs in the rounds
 * for that alone, its row being another call's): a table row each, in the order given,
 * and a line on stderr for each. */
static int measure(gs_device *dev, const cli_options *o, const gs_algo *ms, unsigned k, int cg_base,
                   gsj_form form, const jsize *z, unsigned groups, unsigned block,
                   const float *reference, bench_table *t)
{
    gsj_config cfgs[GS_ALGO_COUNT_ + 2] = {{0}};
    gsj_result res[GS_ALGO_COUNT_ + 2];
    unsigned at[GS_ALGO_COUNT_ + 1]; /* ms[m]'s configuration is cfgs[at[m]] */
    const gsj_config one = {.n = z->n,
                            .iters = z->iters,
                            .seed = JACOBI_SEED,
                            .form = form,
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
    (void)gsj_run_methods(dev, cfgs, n, res); /* each row's status is in its result */
    for (unsigned m = 0; m < k; ++m) {
        const gsj_result *x = &res[at[m]];
        bench_row *r = table_add(t);
        if (r == NULL)
            return 2;
        r->experiment = "jacobi";
        r->algo = ms[m];
        r->form = gsj_method_has_forms(ms[m]) ? gsj_form_name(form) : NULL;
        r->groups = groups;
        r->block = block;
        r->iters = z->iters;
        r->n = z->n;
        bench_row_times(r, x->status, x->state_bytes, x->ms_median, x->ms_min, x->ms_max,
                        x->paired_ratio, cg);
        if (x->status == GS_OK)
            r->ns_per_barrier = x->ms_per_iter * 1e6;
        char shown[40];
        snprintf(shown, sizeof shown, x->algo != ms[m] && x->status == GS_OK ? "%s (%s)" : "%s%.0s",
                 gs_algo_name(ms[m]), gs_algo_name(x->algo));
        cli_progress("jacobi %u^2 x %u: %-16s %-5s %5u x %-4u %11.3f ms %10.5f ms/iter  %s%s%s",
                     z->n, z->iters, shown, r->form ? r->form : "-", groups, block, r->total_ms,
                     x->ms_per_iter, r->check, x->error[0] ? ": " : "", x->error);
    }
    table_show(t, stdout);
    return 0;
}

/* What bench_measure_sets calls measure with. */
typedef struct jacobi_sets {
    gs_device *dev;
    const cli_options *o;
    gsj_form form;
    const jsize *z;
    unsigned block;
    const float *reference;
    bench_table *t;
} jacobi_sets;
static int measure_set(void *ctx, const gs_algo *ms, unsigned k, int cg_base, unsigned groups)
{
    const jacobi_sets *x = ctx;
    return measure(x->dev, x->o, ms, k, cg_base, x->form, x->z, groups, x->block, x->reference,
                   x->t);
}

/* Measures every method at every grid of one size in one form, then adds the form's best
 * rows. The methods without forms (relaunch) run in the first form only. The methods of a
 * grid run together (measure, in bench_measure_sets' sets); one whose own bound is below
 * the grid runs at its bound, with the others that run there. */
static int run_form(gs_device *dev, const cli_options *o, bench_table *t, const jsize *z,
                    const gs_algo *ms, unsigned n_ms, unsigned block, gsj_form form, int first_form,
                    const float *reference)
{
    /* GPU: 1, 2, 4 and 8 blocks per SM (1 and 4 with --quick) */
    unsigned gl[CLI_MAX_LIST],
        n_g = o->n_groups ? o->n_groups : bench_default_groups(&t->dev, o, 8u, 1u, 4u, gl);
    if (o->n_groups)
        memcpy(gl, o->groups, n_g * sizeof *gl);
    unsigned first = t->n, done[GS_ALGO_COUNT_ + 1][CLI_MAX_LIST], n_done[GS_ALGO_COUNT_ + 1] = {0};
    for (unsigned gi = 0; gi < n_g; ++gi) {
        gs_algo todo[GS_ALGO_COUNT_ + 1];
        unsigned at[GS_ALGO_COUNT_ + 1], n_todo = 0;
        for (unsigned m = 0; m < n_ms; ++m) {
            unsigned groups = gl[gi], bound = 0;
            if ((!first_form && !gsj_method_has_forms(ms[m])) ||
                (gsj_method_has_forms(ms[m]) && !gsj_method_in_form(ms[m], form)))
                continue;
            /* Default grids stop at the method's own bound (and are run once each). */
            if (!o->n_groups && gsj_max_groups(dev, ms[m], form, block, &bound) == GS_OK && bound &&
                groups > bound)
                groups = bound;
            size_t most = 0; /* the resident and halo forms' tiles must fit a group's memory */
            if ((form == GSJ_FORM_RESIDENT || form == GSJ_FORM_HALO) &&
                gsj_method_has_forms(ms[m]) &&
                (gsj_group_memory(dev, &most) != GS_OK ||
                 gsj_resident_bytes(z->n, groups) > most)) {
                cli_progress("jacobi %u^2 x %u: %s %s at %u groups skipped: tiles of %zu "
                             "bytes, a group's memory has %zu",
                             z->n, z->iters, gs_algo_name(ms[m]), gsj_form_name(form), groups,
                             gsj_resident_bytes(z->n, groups), most);
                continue;
            }
            int seen = 0;
            for (unsigned k = 0; k < n_done[m]; ++k)
                seen |= done[m][k] == groups;
            if (seen)
                continue;
            done[m][n_done[m]++] = groups;
            todo[n_todo] = ms[m];
            at[n_todo++] = groups;
        }
        jacobi_sets x = {dev, o, form, z, block, reference, t};
        if (bench_measure_sets(todo, at, n_todo, measure_set, &x) != 0)
            return 2;
    }
    int rc = table_add_best(t, first, ms, n_ms) == 0 ? 0 : 2;
    table_show(t, stdout);
    return rc;
}

/* Measures every method at every grid of one size, in each form named. */
static int run_size(gs_device *dev, const cli_options *o, bench_table *t, const jsize *z,
                    const gs_algo *ms, unsigned n_ms, unsigned block)
{
    float *reference = malloc((size_t)z->n * z->n * sizeof *reference);
    double t0 = now_s();
    gs_status s =
        reference ? gsj_reference(z->n, z->iters, JACOBI_SEED, reference) : GS_ERR_OUT_OF_MEMORY;
    if (s != GS_OK) {
        cli_progress("jacobi %u^2 x %u: no reference: %s", z->n, z->iters, gs_status_string(s));
        free(reference);
        return 1;
    }
    cli_progress("jacobi %u^2 x %u: reference computed on the host in %.1f s", z->n, z->iters,
                 now_s() - t0);
    static const struct {
        unsigned bit;
        gsj_form form;
    } forms[] = {{CLI_FORM_SYNC, GSJ_FORM_SYNC},
                 {CLI_FORM_SPLIT, GSJ_FORM_SPLIT},
                 {CLI_FORM_LOCAL, GSJ_FORM_LOCAL},
                 {CLI_FORM_RESIDENT, GSJ_FORM_RESIDENT},
                 {CLI_FORM_HALO, GSJ_FORM_HALO}};
    int rc = 0, first_form = 1;
    for (unsigned f = 0; f < sizeof forms / sizeof *forms && rc != 2; ++f) {
        if (o->forms && !(o->forms & forms[f].bit))
            continue;
        rc = run_form(dev, o, t, z, ms, n_ms, block, forms[f].form, first_form, reference);
        first_form = 0;
    }
    free(reference);
    return rc;
}

int bench_jacobi(gs_device *dev, const cli_options *o, bench_table *t)
{
    gs_algo ms[GS_ALGO_COUNT_ + 1];
    unsigned n_ms = methods(dev, o, ms);
    unsigned block = o->block ? o->block : default_block(&t->dev);
    jsize sizes[CLI_MAX_LIST];
    unsigned n_sizes = o->n_sizes ? o->n_sizes : default_sizes(&t->dev, o, sizes);
    for (unsigned i = 0; i < o->n_sizes; ++i)
        sizes[i] = (jsize){o->sizes_n[i], o->sizes_t[i]};
    for (unsigned i = 0; i < n_sizes; ++i)
        if (sizes[i].n < GSJ_MIN_N || sizes[i].n > GSJ_MAX_N) {
            cli_progress("--sizes: N must be %u to %u, not %u", GSJ_MIN_N, GSJ_MAX_N, sizes[i].n);
            return 2;
        }
    if (n_ms == 0) {
        cli_progress("jacobi: none of the methods named runs on this device");
        return 2;
    }
    int rc = 0;
    for (unsigned i = 0; i < n_sizes && rc != 2; ++i) {
        int r = run_size(dev, o, t, &sizes[i], ms, n_ms, block);
        rc = rc ? rc : r;
    }
    gsj_release(); /* the grids every method of the last size ran on */
    return rc;
}

/* A ratio, or "-" where the base did not run or pass. */
static void ratio(FILE *f, const char *name, double x)
{
    if (x > 0)
        fprintf(f, "  %s %6.3f", name, x);
    else
        fprintf(f, "  %s %6s", name, "-");
}

/* A split best row's time over the same method's best in the sync form at its size (0:
 * that did not run or pass). */
static double over_sync(const bench_table *t, const bench_row *r)
{
    for (unsigned i = 0; i < t->n; ++i) {
        const bench_row *b = &t->rows[i];
        if (b->any_grid && b->algo == r->algo && b->n == r->n && b->iters == r->iters && b->form &&
            strcmp(b->form, "sync") == 0 && b->status == GS_OK && r->status == GS_OK &&
            b->total_ms > 0)
            return r->total_ms / b->total_ms;
    }
    return 0;
}

/* Each size's best rows: ms per iteration and the ratios that matter. */
void bench_jacobi_summary(const bench_table *t, FILE *f)
{
    fprintf(f,
            "jacobi: each method at its fastest grid in each form; ratios of total time to the "
            "fastest cg of the\n  same form (split: cg's tiles with grid.sync()), relaunch-graph "
            "and relaunch, and (split)\n  to the same method's fastest sync form\n");
    for (unsigned i = 0; i < t->n; ++i) {
        const bench_row *r = &t->rows[i];
        if (!r->any_grid)
            continue;
        fprintf(f, "  %5u^2 x %-6u %-15s %-5s %6u x %-4u %11.3f ms %10.5f ms/iter", r->n, r->iters,
                gs_algo_name(r->algo), r->form ? r->form : "-", r->groups, r->block, r->total_ms,
                r->total_ms / r->iters);
        ratio(f, "x_cg", table_ratio(t, r, GS_ALGO_CG));
        ratio(f, "x_graph", table_ratio(t, r, GS_ALGO_RELAUNCH_GRAPH));
        ratio(f, "x_relnch", table_ratio(t, r, GS_ALGO_RELAUNCH));
        if (r->form && strcmp(r->form, "split") == 0)
            ratio(f, "x_sync", over_sync(t, r));
        fputc('\n', f);
    }
}
