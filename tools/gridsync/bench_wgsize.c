/* bench wgsize: the Chinese blog's stencil, 2048 work-items in groups of 1024, 64 and
 * 32, two barriers per iteration, checked against the sequential reference (or, when
 * that is too large, by the blog's all-values-equal test). */
#include "bench_defaults.h"

int bench_wgsize(gs_device *dev, const cli_options *o, bench_table *t)
{
    static const unsigned blog_sizes[] = {1024, 64, 32};
    gs_algo algos[GS_ALGO_COUNT_];
    unsigned n_algos = cli_algos(o, dev, algos);
    unsigned iters = o->iters        ? o->iters
                     : t->dev.is_gpu ? (o->quick ? 2000 : 20000)
                                     : (o->quick ? 20 : 100);
    for (unsigned s = 0; s < 3; ++s) {
        unsigned block = o->block ? o->block : blog_sizes[s];
        unsigned groups = 2048 / block;
        if (block > t->dev.max_group_size || groups == 0) {
            cli_progress("wgsize: blocks of %u do not fit this device, skipped", block);
            continue;
        }
        for (unsigned a = 0; a < n_algos; ++a) {
            cli_progress("wgsize: %s, %u groups of %u, %u stencil steps", gs_algo_name(algos[a]),
                         groups, block, iters);
            bench_row *r = table_add(t);
            if (!r)
                return 2;
            r->experiment = "wgsize";
            gs_run_config cfg = {.workload = GS_WORKLOAD_STENCIL,
                                 .groups = groups,
                                 .group_size = block,
                                 .iterations = iters};
            bench_measure(dev, o, algos[a], &cfg, r);
            table_show(t, stdout);
        }
        if (o->block)
            break;
    }
    return 0;
}
