/* gridsync bench EXPERIMENT: dispatch and the defaults every experiment shares. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "bench_defaults.h"

unsigned bench_default_block(const gs_device_info *d)
{
    return d->is_gpu ? 256 : d->backend == GS_BACKEND_CPU ? 4 : 64;
}

unsigned bench_default_iters(const gs_device_info *d, const cli_options *o)
{
    unsigned n = o->iters ? o->iters : d->is_gpu ? 2000 : 100;
    return o->quick && !o->iters ? (n / 4 ? n / 4 : 1) : n;
}

unsigned bench_default_groups(const gs_device_info *d, const cli_options *o, unsigned most,
                              unsigned quick_a, unsigned quick_b, unsigned *out)
{
    unsigned n = 0;
    if (d->is_gpu) {
        for (unsigned k = 1; k <= most && n < CLI_MAX_LIST; k *= 2)
            if (!o->quick || k == quick_a || k == quick_b)
                out[n++] = k * d->compute_units;
    } else if (d->backend == GS_BACKEND_CPU) {
        out[n++] = 2;
        out[n++] = 4;
    } else {
        for (unsigned g = 1; g <= d->compute_units && n < CLI_MAX_LIST; g *= 2)
            out[n++] = g;
    }
    return n;
}

void bench_row_times(bench_row *r, gs_status status, size_t state_bytes, double median_ms,
                     double min_ms, double max_ms, double paired, int cg)
{
    r->status = status;
    r->check = bench_verdict(status);
    r->state_bytes = state_bytes;
    if (status != GS_OK)
        return;
    r->total_ms = median_ms;
    r->spread = median_ms > 0 ? (max_ms - min_ms) / median_ms : 0;
    r->paired_cg = cg ? paired : 0.0;
}

int bench_bound(gs_device *dev, unsigned block, unsigned *bound)
{
    gs_status s = gs_device_max_groups(dev, block, bound);
    if (s != GS_OK)
        cli_progress("no co-residency bound for blocks of %u: %s", block, gs_status_string(s));
    return s == GS_OK ? 0 : -1;
}

/* Whether row r makes the exit status 1: it did not pass (memory's rows, timing nothing,
 * say n/a), unless it was refused and the user said refusals are expected. */
static int row_fails(const cli_options *o, const bench_row *r)
{
    if (strcmp(r->check, "pass") == 0 || strcmp(r->check, "n/a") == 0)
        return 0;
    return !(o->allow_refused && strcmp(r->check, "refused") == 0);
}

int cmd_bench(const cli_command *e, const cli_options *options)
{
    cli_options with = *options;
    const cli_options *o = &with;
    with.takes_auto = e->takes_auto;
    with.takes_local = e->takes_local;
    gs_device *dev;
    bench_table t = {0};
    t.max_spread = o->max_spread;
    if (!cli_outputs_ok(o))
        return 2;
    if (cli_open(o, &dev, &t.dev) != 0)
        return 2;
    t.wavefront = strcmp(e->name, "wavefront") == 0;
    t.forms = strcmp(e->name, "jacobi") == 0;
    t.paired = t.forms || strcmp(e->name, "sor") == 0 || strcmp(e->name, "stencil") == 0;
    table_print_head(&t, stdout);
    int rc = e->run(dev, o, &t);
    table_show(&t, stdout);
    table_print_tail(&t, stdout);
    if (e->summary)
        e->summary(&t, stdout);
    /* No row (the options refused, or nothing left to run: exit 2) leaves the output
     * files as they were: a header alone replaced them. Rows that cannot be written exit
     * 1, as a failed row does: 2 is for what is found before the run. */
    int unwritten = t.n > 0 && table_write(&t, o, t.xlabel ? t.xlabel : e->xlabel) != 0;
    if (t.n == 0 && rc == 0) { /* a run that measured and checked nothing is no pass */
        fprintf(stderr,
                "gridsync: bench %s: these options left nothing to run (see the "
                "lines above; gridsync help bench %s)\n",
                e->name, e->name);
        rc = 2;
    }
    unsigned failing = 0;
    for (unsigned r = 0; r < t.n; ++r)
        failing += row_fails(o, &t.rows[r]) != 0;
    if (failing) {
        cli_progress("%u row%s did not pass: exit status 1%s", failing, failing == 1 ? "" : "s",
                     o->allow_refused ? "" : " (--allow-refused: refused rows do not count)");
        rc = rc ? rc : 1;
    }
    if (unwritten)
        rc = rc ? rc : 1;
    table_free(&t);
    gs_device_close(dev);
    return rc;
}
