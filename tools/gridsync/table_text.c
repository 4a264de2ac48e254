/* The table on stdout, printed as it is measured: a long run shows its rows as they
 * come instead of nothing until the end. Then the best protocol of each grid and a
 * legend of the columns. */
#include <string.h>

#include "cli.h"

void table_print_head(const bench_table *t, FILE *f)
{
    fprintf(f, "device: %s (%s, %s)\n", t->dev.name, gs_backend_name(t->dev.backend),
            t->dev.platform);
    if (t->wavefront) {
        fprintf(f, "%-11s %-14s %-8s %6s %3s %7s %11s %9s %7s %9s %9s  %s\n", "exp", "scheme",
                "variant", "n", "B", "groups", "ms", "GCUPS", "spread", "x_relnch", "x_global",
                "check");
        fflush(f);
        return;
    }
    fprintf(f, "%-9s %-15s ", "exp", "algo");
    if (t->forms)
        fprintf(f, "%-5s ", "form");
    fprintf(f, "%7s %6s %7s %12s %11s %7s %9s %9s %9s ", "groups", "block", "iters", "ns/barrier",
            "total_ms", "spread", "x_relnch", "x_graph", "x_cg");
    if (t->paired)
        fprintf(f, "%9s ", "x_cg_pair");
    fprintf(f, "%9s %6s %8s  %s\n", "bytes", "n", "compute", "check");
    fflush(f);
}

/* A ratio cell: blank where the baseline did not run or pass. */
static void ratio_cell(FILE *f, double x)
{
    if (x > 0)
        fprintf(f, " %9.3f", x);
    else
        fprintf(f, " %9s", "");
}

static int noisy(const bench_table *t, const bench_row *r)
{
    return r->status == GS_OK && r->total_ms > 0 && r->spread > t->max_spread;
}

void table_show(bench_table *t, FILE *f)
{
    for (; t->shown < t->n; ++t->shown) {
        const bench_row *r = &t->rows[t->shown];
        if (r->scheme) {
            fprintf(f, "%-11s %-14s %-8s %6u %3u %7u %11.3f %9.4f %7.2f", r->experiment, r->scheme,
                    r->variant, r->n, r->tile, r->groups, r->total_ms, r->gcups, r->spread);
            ratio_cell(f, r->x_relaunch);
            ratio_cell(f, r->x_global);
            fprintf(f, "  %s\n", r->check);
            continue;
        }
        fprintf(f, "%-9s %-15s ", r->experiment, table_algo_name(r));
        if (t->forms)
            fprintf(f, "%-5s ", r->form ? r->form : "-");
        fprintf(f, "%7u %6u %7u %12.1f %11.3f %7.2f", r->groups, r->block, r->iters,
                r->ns_per_barrier, r->total_ms, r->spread);
        ratio_cell(f, table_ratio(t, r, GS_ALGO_RELAUNCH));
        ratio_cell(f, table_ratio(t, r, GS_ALGO_RELAUNCH_GRAPH));
        ratio_cell(f, table_ratio(t, r, GS_ALGO_CG));
        if (t->paired)
            ratio_cell(f, r->paired_cg);
        fprintf(f, " %9zu %6u %8u  %s\n", r->state_bytes, r->n, r->compute, r->check);
        if (noisy(t, r))
            cli_progress(
                "warning: %s at %u groups of %u: spread %.0f%% of the median (over %.0f%%): "
                "not reliable",
                table_algo_name(r), r->groups, r->block, 100 * r->spread, 100 * t->max_spread);
    }
    fflush(f);
}

static int same_grid(const bench_row *a, const bench_row *b)
{
    return strcmp(a->experiment, b->experiment) == 0 && a->groups == b->groups &&
           a->block == b->block && a->iters == b->iters && a->compute == b->compute &&
           a->n == b->n && a->any_grid == b->any_grid && table_same_form(a, b);
}

/* The fastest gridsync protocol of each grid that timed one, with its ratios. */
static void print_best(const bench_table *t, FILE *f)
{
    int header = 0;
    for (unsigned i = 0; i < t->n; ++i) {
        const bench_row *best = NULL;
        int first = 1;
        for (unsigned j = 0; j < i && first; ++j)
            first = !same_grid(&t->rows[j], &t->rows[i]);
        for (unsigned j = i; j < t->n && first; ++j) {
            const bench_row *r = &t->rows[j];
            if (same_grid(r, &t->rows[i]) && r->status == GS_OK && r->total_ms > 0 &&
                !gsa_is_baseline(r->algo) && (!best || r->total_ms < best->total_ms))
                best = r;
        }
        if (!best || best->any_grid || best->scheme) /* wavefront: its own summary */
            continue;
        if (!header)
            fprintf(f, "best per grid (the fastest protocol; x_: its time over the baseline's):\n");
        header = 1;
        fprintf(f, "  %s %u x %u, %u iters", best->experiment, best->groups, best->block,
                best->iters);
        if (best->compute)
            fprintf(f, ", compute %u", best->compute);
        if (best->n)
            fprintf(f, ", n %u", best->n);
        if (best->form)
            fprintf(f, ", %s form", best->form);
        fprintf(f, ": %s %.1f ns/barrier", cli_algo_name(best->algo), best->ns_per_barrier);
        static const gs_algo bases[] = {GS_ALGO_RELAUNCH, GS_ALGO_RELAUNCH_GRAPH, GS_ALGO_CG};
        static const char *const names[] = {"x_relnch", "x_graph", "x_cg"};
        for (unsigned b = 0; b < 3; ++b) {
            double x = table_ratio(t, best, bases[b]);
            if (x > 0)
                fprintf(f, "  %s %.3f", names[b], x);
        }
        fprintf(f, "%s\n", noisy(t, best) ? "  (spread too large: not reliable)" : "");
    }
}

void table_print_tail(const bench_table *t, FILE *f)
{
    unsigned n_noisy = 0;
    for (unsigned i = 0; i < t->n; ++i)
        n_noisy += noisy(t, &t->rows[i]) != 0;
    print_best(t, f);
    if (t->wavefront)
        fprintf(f, "columns: ms, the median of the timed runs (CUDA events, OpenCL profiling, the "
                   "host's clock on cpu);\n  GCUPS, n^2 cells per ns of it; x_relnch, x_global, "
                   "the time of relaunch and of global\n  at the same size and tile over this "
                   "row's (> 1: faster), blank where the base did not pass;\n  check: the matrix "
                   "against the host's reference cell for cell before the timing.\n");
    else
        fprintf(
            f,
            "columns: ns/barrier and total_ms, the median of the timed runs (jacobi: ns per "
            "iteration);\n"
            "  spread, (slowest - fastest) / median of those runs; x_relnch, x_graph, x_cg, total "
            "time\n"
            "  over that of relaunch (a kernel launch per barrier), relaunch-graph (those launches "
            "in "
            "a\n"
            "  CUDA graph) and cg (CUDA's grid.sync()) on the same grid, blank where that baseline "
            "did\n"
            "  not run or pass; bytes, the barrier's state in device memory; n, jacobi's grid "
            "side;\n"
            "  compute, multiply-adds (bench thesis: the thesis's averages) per work-item per\n"
            "  barrier; check, the message-passing check run before the timing: pass, FAIL,\n"
            "  timeout, refused (more groups than can be co-resident) or error (the reason is on\n"
            "  stderr).\n");
    if (t->forms)
        fprintf(f, "  form (jacobi): sync, a barrier between iterations; split, a tile per group, "
                   "the barrier\n  split around its inner cells (cg: grid.barrier_arrive / "
                   "barrier_wait); local, bands that wait\n  for their neighbour bands only "
                   "(no barrier: auto alone); resident, the tiles kept in group\n  memory; "
                   "halo, resident tiles whose halos travel in tagged words (no barrier: auto "
                   "alone);\n  the ratios compare rows of one form (local, halo: with the sync "
                   "form's cg); - : relaunch,\n  which has no form (every form's base).\n");
    if (t->paired)
        fprintf(f, "  x_cg_pair: the methods of a grid run in rounds, each round in a shuffled "
                   "order: the\n  median over the rounds of a row's time over cg's in the same "
                   "round.\n");
    if (n_noisy)
        fprintf(f,
                "warning: %u row%s spread more than %.0f%%: their times are not reliable (a busy "
                "machine, "
                "or more threads than cores)\n",
                n_noisy, n_noisy == 1 ? "" : "s", 100 * t->max_spread);
}
