/* bench_measure_sets and bench_cg_first (cli.h): an application's methods at one grid, in
 * the sets that run together in interleaved rounds, and their order in a set. Apart from
 * bench.c so that tests/test_bench_sets.c builds them alone. */
#include "cli.h"

int bench_measure_sets(const gs_algo *todo, const unsigned *groups, unsigned n,
                       bench_measure_set measure, void *ctx)
{
    unsigned taken[GS_ALGO_COUNT_ + 2] = {0};
    if (n > GS_ALGO_COUNT_ + 2u)
        return 2;
    for (unsigned i = 0; i < n; ++i) {
        if (taken[i])
            continue;
        gs_algo same[GS_ALGO_COUNT_ + 2];
        unsigned k = 0;
        int cluster = 0, cg = 0;
        for (unsigned j = i; j < n; ++j)
            if (!taken[j] && groups[j] == groups[i]) {
                taken[j] = 1;
                cg |= todo[j] == GS_ALGO_CG;
                if (todo[j] == GS_ALGO_CLUSTER)
                    cluster = 1;
                else
                    same[k++] = todo[j];
            }
        int rc = k ? measure(ctx, same, k, 0, groups[i]) : 0;
        if (rc == 0 && cluster)
            rc = measure(ctx, (const gs_algo[]){GS_ALGO_CLUSTER}, 1, cg, groups[i]);
        if (rc != 0)
            return rc;
    }
    return 0;
}

unsigned bench_cg_first(const gs_algo *ms, unsigned k, int cg_base, gs_algo *order, unsigned *at,
                        int *cg)
{
    unsigned n = 0;
    *cg = cg_base;
    for (unsigned m = 0; m < k; ++m)
        *cg |= ms[m] == GS_ALGO_CG;
    if (*cg)
        order[n++] = GS_ALGO_CG;
    for (unsigned m = 0; m < k; ++m) {
        at[m] = ms[m] == GS_ALGO_CG ? 0u : n;
        if (ms[m] != GS_ALGO_CG)
            order[n++] = ms[m];
    }
    return n;
}
