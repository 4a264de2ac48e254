/* bench iters: total time against the number of barriers at a fixed grid (thesis
 * Appendix I: 70 groups, 10..3000 iterations). bench thesis runs it too, with the
 * thesis's computation (--compute) at every barrier. */
#include "bench_defaults.h"

int bench_iters(gs_device *dev, const cli_options *o, bench_table *t)
{
    static const unsigned thesis[] = {10, 500, 1000, 1500, 2000, 2500, 3000, 10000, 30000};
    gs_algo algos[GS_ALGO_COUNT_];
    unsigned n_algos = cli_algos(o, dev, algos);
    unsigned block = o->block ? o->block : bench_default_block(&t->dev);
    unsigned bound;
    if (bench_bound(dev, block, &bound) != 0)
        return 2;
    unsigned groups = o->n_groups ? o->groups[0] : (bound < 70 ? bound : 70);
    unsigned list[CLI_MAX_LIST], n = 0;
    if (o->n_iters) {
        for (; n < o->n_iters; ++n)
            list[n] = o->iters_list[n];
    } else {
        unsigned last = o->quick ? 3 : t->dev.is_gpu ? 9 : 7;
        for (; n < last; ++n)
            list[n] = thesis[n];
    }
    for (unsigned i = 0; i < n; ++i)
        for (unsigned a = 0; a < n_algos; ++a) {
            cli_progress("iters: %s, %u groups of %u, %u barriers", gs_algo_name(algos[a]), groups,
                         block, list[i]);
            bench_row *r = table_add(t);
            if (!r)
                return 2;
            r->experiment = o->experiment ? o->experiment : "iters";
            gs_run_config cfg = {.workload = GS_WORKLOAD_EMPTY,
                                 .groups = groups,
                                 .group_size = block,
                                 .iterations = list[i],
                                 .compute = o->n_compute ? o->compute_list[0] : 0,
                                 .compute_kind = o->compute_kind};
            bench_measure(dev, o, algos[a], &cfg, r);
            table_show(t, stdout);
        }
    return 0;
}
