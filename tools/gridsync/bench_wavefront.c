/* bench wavefront: PeerWave's experiments on apps/nw (Needleman-Wunsch as Rodinia's nw
 * computes it, written against gridsync's public headers as a user writes it):
 *   size         the matrix grows, the tile stays (B = the first --tile, default 16)
 *   tile         B = 16, 32, 64 at one size: tiles per SM, barriers inside a tile
 *   granularity  the local scheme's flags: a flag per tile, per k tiles, per tile row
 *   schedule     anti-diagonal tickets against PeerWave's row allocation
 * with the schemes a user could pick: relaunch (and CUDA's relaunch-graph), global (a
 * grid barrier per anti-diagonal; CUDA's cg), local (tickets and progress words, with as
 * many groups as the longest diagonal has tiles but at most the co-resident count, and
 * in the size experiment on a GPU at the co-resident count and 10 x that) and, in the size and tile
 * experiments, local-tagged (the same tickets, tile boundaries in tagged words; its
 * granularity is a tile and its schedule diagonal tickets, so it has no variants).
 * --schemes runs some of them. The configurations of a point (a size and tile) run
 * together, their timed runs in interleaved rounds (nw_run_methods), every session open
 * at once. Every matrix is compared with the host's reference cell for cell before it is
 * timed (every timed run too up to 8192^2); a wrong one is FAIL and not timed. Rows
 * carry their speed-up over relaunch and over global at the same size and tile; `best` rows and the summary give each point's fastest scheme and the
 * issue's targets (local-tagged's also against local). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nw.h"

#define WF_SEED 20260117u
#define WF_CHECK_ALL_MAX 8192u /* above it only the warm-up is compared (4 GiB at 32768) */

typedef struct wf {
    gs_device *dev;
    const cli_options *o;
    bench_table *t;
    unsigned schemes;   /* 1 << nw_scheme of each scheme to run */
    gs_algo protocol;   /* the global scheme's barrier */
    unsigned ref_n;     /* the cached reference's size */
    int32_t *reference; /* (ref_n + 1)^2 cells */
} wf;

/* The reference of size n, computed once for all its rows. */
static const int32_t *reference_of(wf *w, unsigned n)
{
    if (w->reference && w->ref_n == n)
        return w->reference;
    free(w->reference);
    w->reference = malloc(((size_t)n + 1u) * (n + 1u) * sizeof *w->reference);
    w->ref_n = n;
    if (w->reference && nw_reference(n, WF_SEED, w->reference) == GS_OK)
        return w->reference;
    free(w->reference);
    w->reference = NULL;
    return NULL;
}

/* The co-resident group count of a persistent kernel of this scheme (on the cpu back end
 * at most 4 teams: 2 cores run the rest in turn). */
static unsigned resident_groups(wf *w, nw_scheme scheme, unsigned B)
{
    unsigned bound = 1;
    if (nw_max_groups(w->dev, scheme, w->protocol, B, B, &bound) != GS_OK || bound == 0)
        bound = 1;
    return w->t->dev.backend == GS_BACKEND_CPU && bound > 4 ? 4 : bound;
}

/* Groups a persistent kernel runs at by default: as many as the longest anti-diagonal
 * has tiles (R, as the relaunch baseline launches), at most the co-resident count. More
 * only wait, and their polls slow the others: on the H100 at 16384^2, B = 16 (R = 1024),
 * local-tagged took 6.13 ms with 1056 groups and 7.13 with the 2640 that fit; at B = 32
 * (R = 512) 5.10 ms with 528 and 8.55 with 2640 (bench/results/h100/wavefront_groups.csv). */
static unsigned default_groups(wf *w, nw_scheme scheme, unsigned B, unsigned R)
{
    unsigned resident = resident_groups(w, scheme, B);
    return R < resident ? R : resident;
}

/* The speed-up of r over the passing row of `scheme` at the same size and tile: of the
 * same experiment where it ran one, else of any. */
static double speedup(const bench_table *t, const bench_row *r, const char *scheme)
{
    for (int same = 1; same >= 0; --same)
        for (unsigned i = 0; i < t->n; ++i) {
            const bench_row *b = &t->rows[i];
            if (b->scheme && strcmp(b->scheme, scheme) == 0 && b->n == r->n && b->tile == r->tile &&
                !b->any_grid && b->status == GS_OK && r->status == GS_OK && r->total_ms > 0 &&
                (!same || strcmp(b->experiment, r->experiment) == 0))
                return b->total_ms / r->total_ms;
        }
    return 0;
}

/* A configuration of a point, before it runs. */
typedef struct wf_item {
    nw_scheme scheme;
    nw_variant variant; /* NW_LOCAL's */
    unsigned groups;
} wf_item;

/* A point's configurations, gathered in the order their rows take. */
typedef struct wf_point {
    wf_item *items;
    unsigned n, cap;
} wf_point;

static void wants_item(wf_point *p, nw_scheme scheme, const nw_variant *v, unsigned groups)
{
    if (p->n < p->cap)
        p->items[p->n++] = (wf_item){scheme, v ? *v : (nw_variant){NW_FLAG_TILE, 1}, groups};
}

/* A point's configuration as the app takes it. */
static nw_config config_of(const wf *w, unsigned n, unsigned B, const wf_item *it,
                           const int32_t *reference)
{
    nw_config cfg = {.n = n,
                     .tile = B,
                     .seed = WF_SEED,
                     .scheme = it->scheme,
                     .protocol = w->protocol,
                     .variant = it->variant,
                     .groups = it->groups,
                     .group_size = B,
                     .repeats = w->o->repeats,
                     .check_all = n <= WF_CHECK_ALL_MAX,
                     .timeout_ms = w->o->timeout_ms,
                     .reference = reference};
    return cfg;
}

/* A configuration's table row, and a line on stderr. */
static void add_row(wf *w, const char *exp, const nw_config *cfg, const nw_result *res)
{
    bench_row *r = table_add(w->t);
    if (r == NULL)
        return;
    gs_status s = res->status;
    nw_scheme scheme = cfg->scheme;
    r->experiment = exp;
    r->scheme = nw_scheme_name(scheme);
    r->algo = scheme == NW_RELAUNCH         ? GS_ALGO_RELAUNCH
              : scheme == NW_RELAUNCH_GRAPH ? GS_ALGO_RELAUNCH_GRAPH
              : scheme == NW_CG             ? GS_ALGO_CG
              : scheme == NW_GLOBAL         ? res->algo
                                            : GS_ALGO_COUNT_; /* local: no protocol */
    if (scheme == NW_GLOBAL)
        snprintf(r->variant, sizeof r->variant, "%s", gs_algo_name(w->protocol));
    else if (scheme == NW_LOCAL)
        nw_variant_name(cfg->variant, r->variant, sizeof r->variant);
    r->groups = cfg->groups;
    r->block = cfg->tile;
    r->tile = cfg->tile;
    r->n = cfg->n;
    r->iters = res->launches;
    r->status = s;
    r->check = bench_verdict(s);
    r->state_bytes = res->state_bytes;
    if (s == GS_OK) {
        r->total_ms = res->ms_median;
        r->gcups = res->gcups;
        r->spread = res->ms_median > 0 ? (res->ms_max - res->ms_min) / res->ms_median : 0;
        r->x_relaunch = speedup(w->t, r, "relaunch");
        r->x_global = speedup(w->t, r, "global");
    }
    /* the app's own words where it has them, else the status's */
    const char *why = res->error[0] ? res->error : s != GS_OK ? gs_status_string(s) : "";
    cli_progress("wavefront %s %u^2 B %u: %-14s %-8s %6u groups %11.3f ms %8.4f GCUPS  %s%s%s", exp,
                 cfg->n, cfg->tile, r->scheme, r->variant, cfg->groups, r->total_ms, r->gcups,
                 r->check, why[0] ? ": " : "", why);
    table_show(w->t, stdout);
}

/* A point's configurations, measured together: every one opened and checked, then their
 * timed runs in interleaved rounds (nw_run_methods), so that a device that drifts over
 * the seconds of a point weighs on all alike; a row each, in the order gathered. */
static void measure_point(wf *w, const char *exp, unsigned n, unsigned B, const wf_point *p)
{
    nw_config *cfgs = calloc(p->n ? p->n : 1u, sizeof *cfgs);
    nw_result *res = calloc(p->n ? p->n : 1u, sizeof *res);
    /* asked before the reference, which at sizes that cannot fit pages for minutes */
    const int32_t *reference = nw_memory_fits(w->dev, n, p->n) ? reference_of(w, n) : NULL;
    for (unsigned i = 0; cfgs && res && i < p->n; ++i)
        cfgs[i] = config_of(w, n, B, &p->items[i], reference);
    if (cfgs && res && reference && p->n)
        (void)nw_run_methods(w->dev, cfgs, p->n, res); /* each row's status is in its result */
    for (unsigned i = 0; i < p->n; ++i) {
        nw_config c = cfgs ? cfgs[i] : config_of(w, n, B, &p->items[i], NULL);
        nw_result none = {.status = GS_ERR_OUT_OF_MEMORY};
        add_row(w, exp, &c, res && cfgs && reference ? &res[i] : &none);
    }
    free(cfgs);
    free(res);
}

/* A `best` row for the fastest passing row from `first` on. */
static void add_best(bench_table *t, unsigned first)
{
    int best = -1;
    for (unsigned i = first; i < t->n; ++i)
        if (t->rows[i].status == GS_OK &&
            (best < 0 || t->rows[i].total_ms < t->rows[best].total_ms))
            best = (int)i;
    bench_row *r = best < 0 ? NULL : table_add(t);
    if (r == NULL)
        return;
    *r = t->rows[best];
    r->experiment = "best";
    r->any_grid = 1;
    table_show(t, stdout);
}

/* Whether the run includes `scheme` (every one that runs here by default). */
static int wants(const wf *w, nw_scheme scheme) { return (w->schemes >> scheme) & 1u; }

/* A persistent scheme of any grid at its default group count (or each --groups) and,
 * where `ten_x` on a GPU, at the co-resident count (where that is more) and 10 x that. */
static void any_grid(wf *w, wf_point *p, unsigned n, unsigned B, nw_scheme scheme,
                     const nw_variant *v, int ten_x)
{
    unsigned R = (n + B - 1u) / B;
    if (w->o->n_groups) {
        for (unsigned g = 0; g < w->o->n_groups; ++g)
            wants_item(p, scheme, v, w->o->groups[g]);
        return;
    }
    unsigned groups = default_groups(w, scheme, B, R), resident = resident_groups(w, scheme, B);
    wants_item(p, scheme, v, groups);
    if (ten_x && w->t->dev.is_gpu) {
        if (resident > groups)
            wants_item(p, scheme, v, resident);
        wants_item(p, scheme, v, 10u * resident);
    }
}

/* One point of an experiment: the baselines (where asked), then each local variant and,
 * where asked, local-tagged, each at its default group count (or each --groups) and, for
 * the size experiment on a GPU, at the co-resident count and 10 x as many; all of them
 * measured together (measure_point), then the point's `best` row. */
static void point(wf *w, const char *exp, unsigned n, unsigned B, const nw_variant *vs,
                  unsigned n_vs, int baselines, int tagged, int ten_x)
{
    unsigned first = w->t->n, R = (n + B - 1u) / B;
    unsigned per_scheme = w->o->n_groups > 3u ? w->o->n_groups : 3u;
    wf_point p = {NULL, 0, 4u + (n_vs + 1u) * per_scheme};
    p.items = calloc(p.cap, sizeof *p.items);
    if (p.items == NULL)
        p.cap = 0; /* no rows: nothing can be measured */
    int gpu = w->t->dev.is_gpu;
    if (baselines) {
        if (wants(w, NW_RELAUNCH))
            wants_item(&p, NW_RELAUNCH, NULL, gpu ? R : resident_groups(w, NW_RELAUNCH, B));
        if (wants(w, NW_RELAUNCH_GRAPH))
            wants_item(&p, NW_RELAUNCH_GRAPH, NULL, R);
        if (wants(w, NW_GLOBAL))
            wants_item(&p, NW_GLOBAL, NULL, default_groups(w, NW_GLOBAL, B, R));
        if (wants(w, NW_CG))
            wants_item(&p, NW_CG, NULL, default_groups(w, NW_CG, B, R));
    }
    for (unsigned i = 0; i < n_vs && wants(w, NW_LOCAL); ++i)
        any_grid(w, &p, n, B, NW_LOCAL, &vs[i], ten_x);
    if (tagged && wants(w, NW_LOCAL_TAGGED))
        any_grid(w, &p, n, B, NW_LOCAL_TAGGED, NULL, ten_x);
    measure_point(w, exp, n, B, &p);
    free(p.items);
    add_best(w->t, first);
}

/* The schemes --schemes names (each checked, and run here), or every one that runs
 * here. Non-zero: a bad or unsupported name, reported. */
static int schemes_of(wf *w)
{
    const cli_options *o = w->o;
    w->schemes = 0;
    for (unsigned s = 0; s < NW_SCHEME_COUNT_ && !o->n_schemes; ++s)
        if (nw_scheme_supported(w->dev, (nw_scheme)s, w->protocol))
            w->schemes |= 1u << s;
    for (unsigned i = 0; i < o->n_schemes; ++i) {
        nw_scheme s;
        if (nw_scheme_parse(o->schemes[i], &s) != 0) {
            fprintf(stderr,
                    "gridsync: --schemes: bad value '%s'; it takes relaunch, relaunch-graph, "
                    "global, cg, local or local-tagged\n",
                    o->schemes[i]);
            return -1;
        }
        if (!nw_scheme_supported(w->dev, s, w->protocol)) {
            fprintf(stderr, "gridsync: --schemes: %s does not run on this device\n", o->schemes[i]);
            return -1;
        }
        w->schemes |= 1u << s;
    }
    return 0;
}

/* --algo, --variants and --groups act on some schemes only: with --schemes leaving those
 * out they would do nothing, and are refused instead. 2 (said on stderr), else 0. */
static int check_schemes(const wf *w)
{
    const cli_options *o = w->o;
    if (!o->n_schemes)
        return 0;
    if (o->n_algos && !wants(w, NW_GLOBAL))
        return cli_refuse_pair(OPT_ALGO, OPT_SCHEMES,
                               "--algo picks the global scheme's protocol, which --schemes leaves "
                               "out");
    if (o->n_variants && !wants(w, NW_LOCAL))
        return cli_refuse_pair(OPT_VARIANTS, OPT_SCHEMES,
                               "--variants are the local scheme's, which --schemes leaves out");
    if (o->n_groups && !wants(w, NW_LOCAL) && !wants(w, NW_LOCAL_TAGGED))
        return cli_refuse_pair(OPT_GROUPS, OPT_SCHEMES,
                               "--groups sets the grids of local and local-tagged, which "
                               "--schemes leaves out");
    return 0;
}

/* The named variants (each checked), or the default list `def`. -1: a bad name. */
static int variants_of(const cli_options *o, const char *const *def, unsigned n_def,
                       nw_variant *out, unsigned *n)
{
    *n = 0;
    for (unsigned i = 0; i < (o->n_variants ? o->n_variants : n_def); ++i) {
        const char *name = o->n_variants ? o->variants[i] : def[i];
        if (nw_variant_parse(name, &out[(*n)++]) != 0) {
            fprintf(stderr,
                    "gridsync: --variants: bad value '%s'; it takes tile, row, kK, rows or "
                    "rows-kK with K from 1 to %u\n",
                    name, NW_MAX_K);
            return -1;
        }
    }
    return 0;
}

int bench_wavefront(gs_device *dev, const cli_options *o, bench_table *t)
{
    static const unsigned gpu_sizes[] = {2048, 4096, 8192, 16384, 32768}, quick[] = {4096, 16384};
    static const unsigned host_sizes[] = {64, 100}, tiles[] = {16, 32, 64};
    static const char *const granularity[] = {"tile", "k4", "k16", "row"};
    static const char *const schedule[] = {"tile", "rows", "rows-k4"};
    int gpu = t->dev.is_gpu;
    wf w = {dev, o, t, 0, GS_ALGO_AUTO, 0, NULL};
    if (o->n_algos > 1 ||
        (o->n_algos == 1 && !nw_scheme_supported(dev, NW_GLOBAL, (gs_algo)o->algos[0]))) {
        fprintf(stderr, "gridsync: --algo: bench wavefront takes one protocol for its global "
                        "scheme that runs here (gridsync info lists them)\n");
        return 2;
    }
    if (o->n_algos == 1)
        w.protocol = (gs_algo)o->algos[0];
    if (schemes_of(&w) != 0 || check_schemes(&w) != 0)
        return 2;
    for (unsigned i = 0; i < o->n_tiles; ++i)
        if (o->tiles[i] != 16 && o->tiles[i] != 32 && o->tiles[i] != 64) {
            fprintf(stderr, "gridsync: --tile: bench wavefront takes 16, 32 or 64, not %u\n",
                    o->tiles[i]);
            return 2;
        }
    nw_variant vs[CLI_MAX_LIST], gran[4], sched[3];
    unsigned n_vs = 0, n_gran = 0, n_sched = 0;
    /* The size and tile experiments run the default list's first variant (a flag per
     * tile) also where --variants names the others' (it ran uninitialised ones). */
    cli_options defaults = *o;
    defaults.n_variants = 0;
    if ((o->n_variants && variants_of(o, granularity, 4, vs, &n_vs)) ||
        variants_of(&defaults, granularity, 4, gran, &n_gran) ||
        variants_of(&defaults, schedule, 3, sched, &n_sched))
        return 2;
    const unsigned *sizes = o->n_matrix ? o->matrix
                            : gpu       ? (o->quick ? quick : gpu_sizes)
                                        : host_sizes;
    unsigned n_sizes = o->n_matrix ? o->n_matrix : gpu ? (o->quick ? 2u : 5u) : o->quick ? 1u : 2u;
    const unsigned *tl = o->n_tiles ? o->tiles : tiles;
    unsigned n_tl = o->n_tiles ? o->n_tiles : gpu ? 3u : 2u, B0 = tl[0];
    /* The other experiments' size: 16384 on a GPU (--quick: 4096), the larger host size,
     * or the first --matrix. */
    unsigned mid = o->n_matrix ? o->matrix[0] : gpu ? (o->quick ? 4096u : 16384u) : 100u;

    for (unsigned i = 0; i < n_sizes; ++i)
        point(&w, "size", sizes[i], B0, gran, 1, 1, 1, 1);
    for (unsigned i = 0; i < n_tl; ++i)
        point(&w, "tile", mid, tl[i], gran, 1, 1, 1, 0);
    /* The other experiments are the local scheme's variants. */
    if (wants(&w, NW_LOCAL) && o->n_variants) {
        point(&w, "variants", mid, B0, vs, n_vs, 0, 0, 0);
    } else if (wants(&w, NW_LOCAL)) {
        point(&w, "granularity", mid, B0, gran, n_gran, 0, 0, 0);
        point(&w, "schedule", mid, B0, sched, n_sched, 0, 0, 0);
    }
    free(w.reference);
    return 0;
}

/* The size experiment's first passing row of `scheme` at size n with more groups than
 * `above` (0: its first, the default count), or NULL. */
static const bench_row *size_row(const bench_table *t, const char *scheme, unsigned n,
                                 unsigned above)
{
    for (unsigned i = 0; i < t->n; ++i) {
        const bench_row *r = &t->rows[i];
        if (r->scheme && !r->any_grid && strcmp(r->scheme, scheme) == 0 &&
            strcmp(r->experiment, "size") == 0 && r->n == n && r->status == GS_OK &&
            r->groups > above)
            return r;
    }
    return NULL;
}

/* The size experiment's row of `scheme` at size n with the most groups (10 x the
 * co-resident count, where it ran), and in *below the row with the most groups under
 * it (the co-resident count), or NULL. */
static const bench_row *most_groups(const bench_table *t, const char *scheme, unsigned n,
                                    const bench_row **below)
{
    const bench_row *most = NULL, *r;
    *below = NULL;
    for (unsigned above = 0; (r = size_row(t, scheme, n, above)) != NULL; above = r->groups) {
        *below = most;
        most = r;
    }
    return most;
}

/* The best rows, then the targets where the rows to judge them ran. */
void bench_wavefront_summary(const bench_table *t, FILE *f)
{
    fprintf(f, "wavefront: the fastest scheme of each point (x_: its speed-up over relaunch / "
               "global)\n");
    for (unsigned i = 0; i < t->n; ++i) {
        const bench_row *r = &t->rows[i];
        if (r->any_grid && r->scheme)
            fprintf(f,
                    "  %-11s %5u^2 B %-2u %-14s %-8s %6u groups %11.3f ms %9.4f GCUPS  x_relnch "
                    "%.3f  x_global %.3f\n",
                    i ? t->rows[i - 1].experiment : "", r->n, r->tile, r->scheme, r->variant,
                    r->groups, r->total_ms, r->gcups, r->x_relaunch, r->x_global);
    }
    fprintf(f, "targets (size experiment): local and local-tagged >= 2.5 x relaunch and >= 1.5 x "
               "global; at 10 x the groups within 5%% of the co-resident count; local-tagged "
               "against local (x_local: local's time over local-tagged's)\n");
    for (unsigned i = 0; i < t->n; ++i) {
        const bench_row *r = &t->rows[i];
        if (!r->scheme || r->any_grid || strcmp(r->experiment, "size") != 0 || r->status != GS_OK)
            continue;
        int tagged = strcmp(r->scheme, "local-tagged") == 0;
        if (!tagged && strcmp(r->scheme, "local") != 0)
            continue;
        const bench_row *first = size_row(t, r->scheme, r->n, 0);
        if (first != r) /* one line a scheme and size: its first row, the default count */
            continue;
        const bench_row *resident = NULL, *more = most_groups(t, r->scheme, r->n, &resident);
        fprintf(f, "  %5u^2 %-12s: x_relnch %.3f (%s)  x_global %.3f (%s)", r->n, r->scheme,
                r->x_relaunch, r->x_relaunch >= 2.5 ? "met" : "not met", r->x_global,
                r->x_global >= 1.5 ? "met" : "not met");
        if (more && resident)
            fprintf(f, "  %u groups / %u: %.3f (%s)", more->groups, resident->groups,
                    more->total_ms / resident->total_ms,
                    more->total_ms <= 1.05 * resident->total_ms ? "met" : "not met");
        const bench_row *local = tagged ? size_row(t, "local", r->n, 0) : NULL;
        if (local && r->total_ms > 0) /* each at its default count */
            fprintf(f, "  x_local %.3f", local->total_ms / r->total_ms);
        fputc('\n', f);
    }
}
