/* bench memory: bytes of barrier state against the number of groups (thesis
 * Appendix J: 10..70 groups). Nothing runs; the library reports what it allocated. */
#include "bench_defaults.h"

int bench_memory(gs_device *dev, const cli_options *o, bench_table *t)
{
    gs_algo algos[GS_ALGO_COUNT_];
    unsigned n_algos = cli_algos(o, dev, algos);
    unsigned n = o->n_groups ? o->n_groups : 7;
    for (unsigned gi = 0; gi < n; ++gi) {
        unsigned groups = o->n_groups ? o->groups[gi] : 10 * (gi + 1);
        for (unsigned a = 0; a < n_algos; ++a) {
            bench_row *r = table_add(t);
            gs_barrier *b;
            if (!r)
                return 2;
            r->experiment = o->experiment ? o->experiment : "memory";
            r->block = o->block; /* bench thesis: the grid the state is for */
            r->algo = algos[a];
            r->groups = groups;
            r->status = gs_barrier_create(dev, algos[a], groups, &b);
            /* a state no launch could use is refused, not made (cpu: past GS_CPU_MAX_THREADS) */
            r->check = r->status == GS_OK ? "n/a" : bench_verdict(r->status);
            if (r->status == GS_OK) {
                gs_barrier_state_bytes(b, &r->state_bytes);
                gs_barrier_destroy(b);
            }
            table_show(t, stdout);
        }
    }
    return 0;
}
