/* bench split: what the split-phase barrier (gs_arrive ... gs_wait_token) hides. At one
 * grid (a group per compute unit unless --groups says otherwise), every protocol runs
 * each amount of independent work (--compute: dependent multiply-adds per work-item per
 * barrier, at least 1) twice: the work then gs_sync ("sync" rows), and gs_arrive, the
 * work, gs_wait_token ("split" rows), both through the same phase loop of the built-in
 * program. The gain is the difference at equal work; it cannot exceed the smaller of
 * the work's time and the barrier's. (With no work at all the barrier-only program
 * would run a leaner loop than the split form can; bench groups times that.) */
#include <string.h>

#include "bench_defaults.h"

int bench_split(gs_device *dev, const cli_options *o, bench_table *t)
{
    static const unsigned full[] = {64, 256, 1024, 4096}, quick[] = {256, 4096};
    gs_algo algos[GS_ALGO_COUNT_];
    unsigned n_algos = cli_algos(o, dev, algos);
    unsigned block = o->block ? o->block : bench_default_block(&t->dev);
    unsigned iters = bench_default_iters(&t->dev, o);
    unsigned bound;
    if (bench_bound(dev, block, &bound) != 0)
        return 2;
    unsigned one_per_unit = t->dev.compute_units < bound ? t->dev.compute_units : bound;
    unsigned n_groups = o->n_groups ? o->n_groups : 1;
    const unsigned *computes = o->n_compute ? o->compute_list : o->quick ? quick : full;
    unsigned n_compute = o->n_compute ? o->n_compute : o->quick ? 2 : 4;
    for (unsigned gi = 0; gi < n_groups; ++gi)
        for (unsigned w = 0; w < n_compute; ++w)
            for (unsigned a = 0; a < n_algos; ++a)
                for (int split = 0; split < 2; ++split) {
                    unsigned groups = o->n_groups ? o->groups[gi] : one_per_unit;
                    unsigned compute = computes[w];
                    cli_progress(
                        "split: %s, %s form, %u multiply-adds, %u groups of %u, %u barriers",
                        gs_algo_name(algos[a]), split ? "split" : "sync", compute, groups, block,
                        iters);
                    bench_row *r = table_add(t);
                    if (!r)
                        return 2;
                    r->experiment = split ? "split" : "sync";
                    gs_run_config cfg = {.workload = GS_WORKLOAD_EMPTY,
                                         .groups = groups,
                                         .group_size = block,
                                         .iterations = iters,
                                         .compute = compute,
                                         .split = split};
                    bench_measure(dev, o, algos[a], &cfg, r);
                    table_show(t, stdout);
                }
    return 0;
}

/* The sync row that goes with a split row. */
static const bench_row *sync_of(const bench_table *t, const bench_row *s)
{
    for (unsigned i = 0; i < t->n; ++i) {
        const bench_row *r = &t->rows[i];
        if (strcmp(r->experiment, "sync") == 0 && r->algo == s->algo && r->groups == s->groups &&
            r->block == s->block && r->iters == s->iters && r->compute == s->compute)
            return r;
    }
    return NULL;
}

void bench_split_summary(const bench_table *t, FILE *f)
{
    fprintf(f, "split phase: ns per barrier with the work, sync form -> split form (change)\n");
    for (unsigned i = 0; i < t->n; ++i) {
        const bench_row *s = &t->rows[i], *y;
        if (strcmp(s->experiment, "split") != 0 || !(y = sync_of(t, s)))
            continue;
        if (s->status != GS_OK || y->status != GS_OK) {
            fprintf(f, "  %-15s %6u groups, compute %7u: %s / %s\n", gs_algo_name(s->algo),
                    s->groups, s->compute, y->check, s->check);
            continue;
        }
        fprintf(f, "  %-15s %6u groups, compute %7u: %10.1f -> %10.1f (%+.1f ns, %+.0f%%)\n",
                gs_algo_name(s->algo), s->groups, s->compute, y->ns_per_barrier, s->ns_per_barrier,
                s->ns_per_barrier - y->ns_per_barrier,
                y->ns_per_barrier > 0 ? 100.0 * (s->ns_per_barrier / y->ns_per_barrier - 1.0)
                                      : 0.0);
    }
}
