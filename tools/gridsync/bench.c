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

int bench_bound(gs_device *dev, unsigned block, unsigned *bound)
{
    gs_status s = gs_device_max_groups(dev, block, bound);
    if (s != GS_OK)
        cli_progress("no co-residency bound for blocks of %u: %s", block, gs_status_string(s));
    return s == GS_OK ? 0 : -1;
}

/* A run can take minutes on a GPU: an output file it could not write at the end would
 * lose it, so each one is tried before anything runs (an existing file is not touched,
 * a new one is not left behind). */
static int writable(const char *path)
{
    FILE *f;
    int existed;
    if (path == NULL)
        return 1;
    f = fopen(path, "r");
    existed = f != NULL;
    if (f)
        fclose(f);
    f = fopen(path, "a");
    if (f == NULL) {
        fprintf(stderr, "gridsync: cannot write %s\n", path);
        return 0;
    }
    fclose(f);
    if (!existed)
        remove(path);
    return 1;
}

static const struct {
    const char *name;
    int (*run)(gs_device *, const cli_options *, bench_table *);
    const char *xlabel;
    void (*summary)(const bench_table *, FILE *); /* after the table, where there is one */
    int takes_auto; /* runs auto beside the protocols it chooses from */
} experiments[] = {
    {"groups", bench_groups, "groups", NULL, 0},
    {"iters", bench_iters, "iters", NULL, 0},
    {"memory", bench_memory, "groups", NULL, 0},
    {"wgsize", bench_wgsize, "groups", NULL, 0},
    {"split", bench_split, "compute", bench_split_summary, 0},
#ifdef GRIDSYNC_CLI_JACOBI /* the CLIs of the weakened libraries are built without the app */
    {"jacobi", bench_jacobi, "groups", bench_jacobi_summary, 1},
#endif
};

int cmd_bench(const char *experiment, const cli_options *options)
{
    for (unsigned i = 0; i < sizeof experiments / sizeof *experiments; ++i) {
        if (strcmp(experiment, experiments[i].name) != 0)
            continue;
        cli_options with = *options;
        const cli_options *o = &with;
        with.takes_auto = experiments[i].takes_auto;
        gs_device *dev;
        bench_table t = {0};
        if (!writable(o->csv) || !writable(o->json) || !writable(o->plot))
            return 2;
        if (cli_open(o, &dev, &t.dev) != 0)
            return 2;
        int rc = experiments[i].run(dev, o, &t);
        table_print(&t, stdout);
        if (experiments[i].summary)
            experiments[i].summary(&t, stdout);
        if (table_write(&t, o, experiments[i].xlabel) != 0)
            rc = rc ? rc : 2;
        for (unsigned r = 0; r < t.n; ++r)
            if (strcmp(t.rows[r].check, "FAIL") == 0 || strcmp(t.rows[r].check, "timeout") == 0 ||
                strcmp(t.rows[r].check, "error") == 0)
                rc = rc ? rc : 1;
        table_free(&t);
        gs_device_close(dev);
        return rc;
    }
    fprintf(stderr, "gridsync: unknown experiment '%s' (groups, iters, memory, wgsize, split, jacobi)\n",
            experiment);
    return 2;
}
