/* bench sor: the SOR wavefront (apps/sor, written against gridsync's public headers as a
 * user writes it): S lexicographic Gauss-Seidel/SOR sweeps of an N x N grid in tiles,
 * with every scheme: local (tickets and a progress word per tile, one ordinary launch),
 * global (a persistent kernel, a gridsync barrier per wavefront step: auto, or the
 * protocols --algo names), and the baselines cg (CUDA's grid.sync()), relaunch (a
 * launch per step) and relaunch-graph (those launches in a CUDA graph). Every
 * configuration's result is first compared with the sequential reference, bit for bit;
 * one that differs is FAIL and not timed.
 *
 * The schemes of a size and grid run together (gsr_run_methods): each opened and checked,
 * then their timed runs in rounds, each round in a shuffled order, so that a device that
 * drifts weighs on all alike; x_cg_pair (CSV and JSON paired_cg) is the median over the
 * rounds of a row's time over cg's in the same round.
 *
 * Rows: `sor` per scheme, size and grid (block: the tile side; ns/barrier: ns per
 * wavefront step); `best` per scheme at a size. The summary gives cell updates per
 * second and local's speed-up over the fastest global protocol and over the baselines. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_defaults.h"
#include "cli.h"
#include "sor.h"

#define SOR_SEED 20240917u
#define SOR_OMEGA 1.5f

/* The app and the CLI name the local scheme by the same value. */
typedef char sor_local_is_cli_local[GSR_LOCAL == CLI_ALGO_LOCAL ? 1 : -1];

typedef struct ssize {
    unsigned n, sweeps;
} ssize;

/* GPU: small grids with many sweeps, where a barrier per step costs the most (a step is
 * a tile's work: microseconds), up to 8192^2; 3072^2, where a step's 4608 tiles are a few
 * more than the 4224 warps that fit on 132 SMs (a barrier per step then idles most groups
 * for a second round of tiles, which local's groups do not wait for); cpu and PoCL:
 * seconds on 2 cores. */
static unsigned default_sizes(const gs_device_info *d, const cli_options *o, ssize *out)
{
    static const ssize gpu[] = {{512, 4000}, {1024, 2000}, {2048, 1000},
                                {3072, 600}, {4096, 400},  {8192, 100}};
    static const ssize gpu_quick[] = {{1024, 500}, {4096, 50}};
    static const ssize host[] = {{66, 20}};
    const ssize *list = d->is_gpu ? (o->quick ? gpu_quick : gpu) : host;
    unsigned n = d->is_gpu ? (o->quick ? 2u : 6u) : 1u;
    for (unsigned i = 0; i < n; ++i) {
        out[i] = list[i];
        if (o->iters) /* --iters S: the default sides, S sweeps each */
            out[i].sweeps = o->iters;
    }
    return n;
}

/* GPU: a warp's 32 columns; cpu: teams of 4 threads; an OpenCL CPU device: 8. */
static unsigned default_tile(const gs_device_info *d)
{
    return d->is_gpu ? 32u : d->backend == GS_BACKEND_CPU ? 4u : 8u;
}

/* --algo not given: local, global with auto, and the baselines; --algo all: every
 * protocol too; else those named. Only what the app runs on this device. */
static unsigned methods(gs_device *dev, const cli_options *o, gs_algo *out)
{
    gs_algo named[GS_ALGO_COUNT_ + 1];
    unsigned n = 0, k = cli_algos(o, dev, named);
    for (unsigned i = 0; i < k; ++i) {
        gs_algo m = named[i];
        int by_default = m == GSR_LOCAL || m == GS_ALGO_AUTO || gsa_is_baseline(m);
        if ((o->given & OPT_ALGO || by_default) && gsr_method_supported(dev, m))
            out[n++] = m;
    }
    return n;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Schemes at one size, measured together (gsr_run_methods: in rounds, each in a shuffled
 * order, cg first where it runs, so that every row's paired ratio is to grid.sync()'s time
 * in the same round; with `cg_base`, cg runs in the rounds for that alone, its row being
 * another call's): ms[m] at `groups`, a table row each in the order given, and a line on
 * stderr for each. */
static int measure(gs_device *dev, const cli_options *o, const gs_algo *ms, unsigned k, int cg_base,
                   const ssize *z, unsigned groups, unsigned tile, const float *reference,
                   bench_table *t)
{
    gsr_config cfgs[GS_ALGO_COUNT_ + 2] = {{0}};
    gsr_result res[GS_ALGO_COUNT_ + 2];
    unsigned at[GS_ALGO_COUNT_ + 1]; /* ms[m]'s configuration is cfgs[at[m]] */
    const gsr_config one = {.n = z->n,
                            .sweeps = z->sweeps,
                            .tile = tile,
                            .omega = SOR_OMEGA,
                            .seed = SOR_SEED,
                            .groups = groups,
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
    (void)gsr_run_methods(dev, cfgs, n, res); /* each row's status is in its result */
    for (unsigned m = 0; m < k; ++m) {
        const gsr_result *x = &res[at[m]];
        bench_row *r = table_add(t);
        if (r == NULL)
            return 2;
        r->experiment = "sor";
        r->algo = ms[m];
        r->groups = groups;
        r->block = tile;
        r->iters = z->sweeps;
        r->n = z->n;
        bench_row_times(r, x->status, x->state_bytes, x->ms_median, x->ms_min, x->ms_max,
                        x->paired_ratio, cg);
        if (x->status == GS_OK)
            r->ns_per_barrier = x->steps ? x->ms_median * 1e6 / x->steps : 0;
        char shown[40];
        snprintf(shown, sizeof shown,
                 ms[m] == GS_ALGO_AUTO && x->status == GS_OK ? "%s (%s)" : "%s%.0s",
                 gsr_method_name(ms[m]), gsr_method_name(x->algo));
        cli_progress("sor %u^2 x %u tile %u: %-16s %5u groups %11.3f ms %11.1f Mupd/s  %s%s%s",
                     z->n, z->sweeps, tile, shown, groups, r->total_ms, x->updates_per_s / 1e6,
                     r->check, x->error[0] ? ": " : "", x->error);
    }
    table_show(t, stdout);
    return 0;
}

/* What bench_measure_sets calls measure with. */
typedef struct sor_sets {
    gs_device *dev;
    const cli_options *o;
    const ssize *z;
    unsigned tile;
    const float *reference;
    bench_table *t;
} sor_sets;
static int measure_set(void *ctx, const gs_algo *ms, unsigned k, int cg_base, unsigned groups)
{
    const sor_sets *x = ctx;
    return measure(x->dev, x->o, ms, k, cg_base, x->z, groups, x->tile, x->reference, x->t);
}

/* Every scheme at every grid of one size, the schemes of a grid in the same rounds
 * (bench_measure_sets' sets: one that runs at its own bound, below the grid, runs with the
 * others there), then a best row per scheme. */
static int run_size(gs_device *dev, const cli_options *o, bench_table *t, const ssize *z,
                    const gs_algo *ms, unsigned n_ms, unsigned tile)
{
    /* GPU: 1 to 32 blocks of one warp per SM (4 and 16 with --quick) */
    unsigned gl[CLI_MAX_LIST],
        n_g = o->n_groups ? o->n_groups : bench_default_groups(&t->dev, o, 32u, 4u, 16u, gl);
    if (o->n_groups)
        memcpy(gl, o->groups, n_g * sizeof *gl);
    float *reference = malloc((size_t)z->n * z->n * sizeof *reference);
    double t0 = now_s();
    gs_status s = reference ? gsr_reference(z->n, z->sweeps, SOR_OMEGA, SOR_SEED, reference)
                            : GS_ERR_OUT_OF_MEMORY;
    if (s != GS_OK) {
        cli_progress("sor %u^2 x %u: no reference: %s", z->n, z->sweeps, gs_status_string(s));
        free(reference);
        return 1;
    }
    cli_progress("sor %u^2 x %u: reference computed on the host in %.1f s", z->n, z->sweeps,
                 now_s() - t0);
    unsigned first = t->n, done[GS_ALGO_COUNT_ + 1][CLI_MAX_LIST], n_done[GS_ALGO_COUNT_ + 1] = {0};
    for (unsigned gi = 0; gi < n_g; ++gi) {
        gs_algo now[GS_ALGO_COUNT_ + 1];
        unsigned at[GS_ALGO_COUNT_ + 1], k = 0;
        for (unsigned m = 0; m < n_ms; ++m) {
            unsigned groups = gl[gi], bound = 0;
            /* Default grids stop at the scheme's own bound (each grid run once). */
            if (!o->n_groups && gsr_max_groups(dev, ms[m], tile, &bound) == GS_OK && bound &&
                groups > bound)
                groups = bound;
            int seen = 0;
            for (unsigned j = 0; j < n_done[m]; ++j)
                seen |= done[m][j] == groups;
            if (seen)
                continue;
            done[m][n_done[m]++] = groups;
            now[k] = ms[m];
            at[k++] = groups;
        }
        sor_sets x = {dev, o, z, tile, reference, t};
        if (bench_measure_sets(now, at, k, measure_set, &x) != 0) {
            free(reference);
            return 2;
        }
    }
    free(reference);
    int rc = table_add_best(t, first, ms, n_ms) == 0 ? 0 : 2;
    table_show(t, stdout);
    return rc;
}

int bench_sor(gs_device *dev, const cli_options *o, bench_table *t)
{
    gs_algo ms[GS_ALGO_COUNT_ + 1];
    unsigned n_ms = methods(dev, o, ms);
    if (o->n_tiles > 1 || (o->n_tiles == 1 && o->tile > 32)) {
        fprintf(stderr, "gridsync: --tile: bench sor takes one side from 2 to 32\n");
        return 2;
    }
    unsigned tile = o->tile ? o->tile : default_tile(&t->dev);
    ssize sizes[CLI_MAX_LIST];
    unsigned n_sizes = o->n_sizes ? o->n_sizes : default_sizes(&t->dev, o, sizes);
    for (unsigned i = 0; i < o->n_sizes; ++i)
        sizes[i] = (ssize){o->sizes_n[i], o->sizes_t[i]};
    for (unsigned i = 0; i < n_sizes; ++i)
        if (sizes[i].n < GSR_MIN_N || sizes[i].n > GSR_MAX_N || sizes[i].sweeps > GSR_MAX_SWEEPS) {
            cli_progress("--sizes: N must be %u to %u and S at most %u, not %u:%u", GSR_MIN_N,
                         GSR_MAX_N, GSR_MAX_SWEEPS, sizes[i].n, sizes[i].sweeps);
            return 2;
        }
    if (n_ms == 0) {
        cli_progress("sor: none of the schemes named runs on this device");
        return 2;
    }
    int rc = 0;
    for (unsigned i = 0; i < n_sizes && rc != 2; ++i) {
        int r = run_size(dev, o, t, &sizes[i], ms, n_ms, tile);
        rc = rc ? rc : r;
    }
    return rc;
}

/* The fastest passing best row at size (n, sweeps) of the kind asked: a gridsync
 * barrier protocol (global), or exactly `algo`. */
static const bench_row *fastest(const bench_table *t, const bench_row *at, int global, gs_algo algo)
{
    const bench_row *best = NULL;
    for (unsigned i = 0; i < t->n; ++i) {
        const bench_row *r = &t->rows[i];
        int kind =
            global ? r->algo != CLI_ALGO_LOCAL && !gsa_is_baseline(r->algo) : r->algo == algo;
        if (r->any_grid && kind && r->status == GS_OK && r->n == at->n && r->iters == at->iters &&
            (!best || r->total_ms < best->total_ms))
            best = r;
    }
    return best;
}

static void speedup(FILE *f, const char *name, const bench_row *base, const bench_row *local)
{
    if (base && local && local->total_ms > 0)
        fprintf(f, "  %s %6.2fx", name, base->total_ms / local->total_ms);
    else
        fprintf(f, "  %s %7s", name, "-");
}

/* Each size's best rows with cell updates per second, then local's speed-ups. */
void bench_sor_summary(const bench_table *t, FILE *f)
{
    fprintf(f, "sor: each scheme at its fastest grid (Mupd/s: 10^6 cell updates per second)\n");
    for (unsigned i = 0; i < t->n; ++i) {
        const bench_row *r = &t->rows[i];
        if (!r->any_grid)
            continue;
        double updates = (double)(r->n - 2u) * (r->n - 2u) * r->iters;
        fprintf(f, "  %5u^2 x %-6u %-15s %6u groups tile %-2u %11.3f ms %11.1f Mupd/s\n", r->n,
                r->iters, cli_algo_name(r->algo), r->groups, r->block, r->total_ms,
                r->total_ms > 0 ? updates / (r->total_ms * 1e3) : 0);
        const bench_row *next = i + 1 < t->n ? &t->rows[i + 1] : NULL;
        if (next && next->any_grid && next->n == r->n && next->iters == r->iters)
            continue; /* the speed-ups after a size's last best row */
        const bench_row *local = fastest(t, r, 0, CLI_ALGO_LOCAL);
        fprintf(f, "  %5u^2 x %-6u local's speed-up:", r->n, r->iters);
        speedup(f, "over global", fastest(t, r, 1, GS_ALGO_AUTO), local);
        speedup(f, "relaunch", fastest(t, r, 0, GS_ALGO_RELAUNCH), local);
        speedup(f, "graph", fastest(t, r, 0, GS_ALGO_RELAUNCH_GRAPH), local);
        speedup(f, "cg", fastest(t, r, 0, GS_ALGO_CG), local);
        fputc('\n', f);
    }
}
