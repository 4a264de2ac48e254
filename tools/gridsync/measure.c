/* One measured configuration: the correctness check first, then the timing. A
 * protocol that fails the check is reported as failed, never timed. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char *bench_verdict(gs_status s)
{
    switch (s) {
    case GS_OK: return "pass";
    case GS_ERR_CHECK_FAILED: return "FAIL";
    case GS_ERR_TIMEOUT: return "timeout";
    case GS_ERR_TOO_MANY_GROUPS: return "refused";
    default: return "error";
    }
}

static int is_relaunch(gs_algo a) { return a == GS_ALGO_RELAUNCH || a == GS_ALGO_RELAUNCH_GRAPH; }

/* A row that did not pass says why, on stderr beside the progress (the table's check
 * column has room for a word only). */
static void explain(const bench_row *row, gs_status s)
{
    if (s != GS_OK)
        cli_progress("%s at %u groups of %u: %s: %s", gs_algo_name(row->algo), row->groups,
                     row->block, row->check, gs_status_string(s));
}

void bench_measure(gs_device *dev, const cli_options *o, gs_algo algo, const gs_run_config *timed,
                   bench_row *row)
{
    gs_barrier *b = NULL;
    row->algo = algo;
    row->groups = timed->groups;
    row->block = timed->group_size;
    row->iters = timed->iterations;
    row->compute = timed->compute;
    gs_status s = gs_barrier_create(dev, algo, timed->groups, &b);
    if (s == GS_OK && o->timeout_ms)
        s = gs_barrier_set_timeout(b, o->timeout_ms);
    if (s == GS_OK)
        gs_barrier_state_bytes(b, &row->state_bytes);

    /* Message passing with random delays on the very grid, barrier form and work that
     * are timed. */
    gs_run_config mp = {.workload = GS_WORKLOAD_MP,
                        .groups = timed->groups,
                        .group_size = timed->group_size,
                        .iterations = is_relaunch(algo) ? 50 : (o->quick ? 200 : 1000),
                        .seed = 0x5eed0000u + timed->groups,
                        .delay = 64,
                        .stress = 8,
                        .compute = timed->compute,
                        .split = timed->split};
    gs_run_result r;
    if (s == GS_OK)
        s = gs_run(b, &mp, &r);
    row->status = s;
    row->check = bench_verdict(s);
    if (s != GS_OK) {
        explain(row, s);
        if (b)
            gs_barrier_destroy(b);
        return;
    }

    double *t = calloc(o->repeats, sizeof *t);
    s = t ? gs_run(b, timed, &r) : GS_ERR_OUT_OF_MEMORY; /* warm-up */
    for (unsigned i = 0; s == GS_OK && i < o->repeats; ++i) {
        s = gs_run(b, timed, &r);
        t[i] = r.elapsed_ns;
    }
    if (s == GS_OK) {
        gsa_sort(t, o->repeats);
        double median = t[o->repeats / 2];
        row->total_ms = median / 1e6;
        row->ns_per_barrier = r.barriers ? median / r.barriers : 0;
        row->spread = median > 0 ? (t[o->repeats - 1] - t[0]) / median : 0;
    } else {
        row->status = s;
        row->check = bench_verdict(s);
        explain(row, s);
    }
    free(t);
    gs_barrier_destroy(b);
}
