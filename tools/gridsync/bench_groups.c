/* bench groups: time per barrier against the number of groups (thesis Appendix H:
 * 1..70 groups; on a GPU also 1, 2, 4, ... 32 blocks per SM up to the bound). bench
 * thesis runs it too, with the thesis's computation (--compute) at every barrier. */
#include "bench_defaults.h"

static unsigned add_unique(unsigned *list, unsigned n, unsigned v)
{
    for (unsigned i = 0; i < n; ++i)
        if (list[i] == v)
            return n;
    unsigned i = n;
    while (i > 0 && list[i - 1] > v) {
        list[i] = list[i - 1];
        --i;
    }
    list[i] = v;
    return n + 1;
}

static unsigned default_groups(const gs_device_info *d, unsigned bound, int quick, unsigned *out)
{
    unsigned n = 0;
    if (d->is_gpu) {
        static const unsigned thesis[] = {1, 10, 20, 30, 40, 50, 60, 70};
        for (unsigned i = 0; i < sizeof thesis / sizeof *thesis && !quick; ++i)
            if (thesis[i] <= bound)
                n = add_unique(out, n, thesis[i]);
        for (unsigned per_sm = 1; per_sm <= 32; per_sm *= 2)
            if (per_sm * d->compute_units <= bound)
                n = add_unique(out, n, per_sm * d->compute_units);
        return add_unique(out, n, bound < 4096 ? bound : 4096);
    }
    /* A CPU (cpu back end, PoCL): each group is threads that take turns on the cores, so
     * a barrier costs a scheduler round and more groups than twice the cores only time
     * the scheduler: the cpu back end's bound, 1024 groups of 4 threads, had not ended
     * after a minute on 2 cores. */
    unsigned cap = 2 * (d->compute_units ? d->compute_units : 1);
    cap = cap < bound ? cap : bound;
    for (unsigned g = 1; g <= cap; g *= 2)
        n = add_unique(out, n, g);
    return quick ? n : add_unique(out, n, cap);
}

int bench_groups(gs_device *dev, const cli_options *o, bench_table *t)
{
    gs_algo algos[GS_ALGO_COUNT_];
    unsigned n_algos = cli_algos(o, dev, algos);
    unsigned block = o->block ? o->block : bench_default_block(&t->dev);
    unsigned iters = bench_default_iters(&t->dev, o);
    unsigned bound, groups[CLI_MAX_LIST + 8], n;
    if (bench_bound(dev, block, &bound) != 0)
        return 2;
    if (o->n_groups) {
        n = o->n_groups;
        for (unsigned i = 0; i < n; ++i)
            groups[i] = o->groups[i];
    } else {
        n = default_groups(&t->dev, bound, o->quick, groups);
    }
    for (unsigned gi = 0; gi < n; ++gi)
        for (unsigned a = 0; a < n_algos; ++a) {
            cli_progress("groups: %s, %u groups of %u, %u barriers", gs_algo_name(algos[a]),
                         groups[gi], block, iters);
            bench_row *r = table_add(t);
            if (!r)
                return 2;
            r->experiment = o->experiment ? o->experiment : "groups";
            gs_run_config cfg = {.workload = GS_WORKLOAD_EMPTY,
                                 .groups = groups[gi],
                                 .group_size = block,
                                 .iterations = iters,
                                 .compute = o->n_compute ? o->compute_list[0] : 0,
                                 .compute_kind = o->compute_kind};
            bench_measure(dev, o, algos[a], &cfg, r);
            table_show(t, stdout);
        }
    return 0;
}
