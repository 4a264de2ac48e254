/* demo testsync: the blog's test_sync / test_nosync (apps/testsync). Prints each
 * kernel's out[] a row per group, as the blog does, and counts the elements that are not
 * the mirrored group's number. With the barrier that count must be 0 (else exit 1);
 * without it, it is reported and never judged: nothing orders the groups then, and a
 * device may happen to run them in an order that hides it. */
#include <stdlib.h>

#include "cli.h"
#include "testsync.h"

#define SHOW_MAX 64 /* rows and columns printed; larger grids are counted only */

typedef struct ts_row {
    unsigned groups, block;
    int sync;
    gs_status status;
    unsigned long wrong;
} ts_row;

static void show(const int *out, unsigned groups, unsigned block)
{
    for (unsigned g = 0; g < groups; ++g) {
        for (unsigned i = 0; i < block; ++i)
            printf("%d ", out[(size_t)g * block + i]);
        putchar('\n');
    }
}

static int run_one(gs_device *dev, const cli_options *o, unsigned groups, unsigned block, int sync,
                   ts_row *r)
{
    int *out = malloc((size_t)groups * block * sizeof *out);
    char error[160];
    gst_config cfg = {groups, block, sync, o->timeout_ms};
    unsigned long wrong = 0;
    gs_status st = out ? gst_run(dev, &cfg, out, &wrong, error) : GS_ERR_OUT_OF_MEMORY;
    *r = (ts_row){groups, block, sync, st, wrong};
    printf("\n%s, %u groups of %u:\n", sync ? "test_sync" : "test_nosync", groups, block);
    if (r->status != GS_OK) {
        printf("error: %s%s%s\n", gs_status_string(r->status), out ? ": " : "", out ? error : "");
    } else {
        if (groups <= SHOW_MAX && block <= SHOW_MAX)
            show(out, groups, block);
        printf("wrong: %lu of %zu elements%s\n", r->wrong, (size_t)groups * block,
               sync ? "" : " (no barrier: reported, not judged)");
    }
    free(out);
    return r->status != GS_OK || (sync && r->wrong != 0);
}

int cmd_testsync(const cli_options *o)
{
    gs_device *dev;
    gs_device_info d;
    if (!cli_outputs_ok(o) || cli_open(o, &dev, &d) != 0)
        return 2;
    /* The blog's 10 groups of 16, within the co-residency bound; on a GPU also every
     * resident block of 256, where stale reads are likelier. */
    unsigned block = o->block ? o->block : 16u, bound = 0, big_bound = 0;
    if (gs_device_max_groups(dev, block, &bound) != GS_OK || bound == 0) {
        cli_progress("testsync: no co-residency bound for groups of %u", block);
        gs_device_close(dev);
        return 2;
    }
    unsigned groups = o->n_groups ? o->groups[0] : bound < 10u ? bound : 10u;
    ts_row rows[4];
    unsigned n = 0;
    int failed = 0;
    printf("test_sync / test_nosync on %s (%s): out[id] = tmp[N - 1 - id], tmp[id] = its group "
           "(-1: stale)\n",
           d.name, gs_backend_name(d.backend));
    for (int sync = 1; sync >= 0; --sync)
        failed |= run_one(dev, o, groups, block, sync, &rows[n++]);
    if (d.is_gpu && !o->n_groups && !o->block &&
        gs_device_max_groups(dev, 256, &big_bound) == GS_OK)
        for (int sync = 1; sync >= 0; --sync)
            failed |= run_one(dev, o, big_bound, 256, sync, &rows[n++]);
    FILE *f = o->csv ? cli_output_open(o->csv) : NULL;
    if (f) {
        fprintf(f, "experiment,device,backend,kernel,groups,block,elements,wrong,check\n");
        for (unsigned i = 0; i < n; ++i)
            fprintf(f, "testsync,\"%s\",%s,%s,%u,%u,%u,%lu,%s\n", d.name,
                    gs_backend_name(d.backend), rows[i].sync ? "test_sync" : "test_nosync",
                    rows[i].groups, rows[i].block, rows[i].groups * rows[i].block, rows[i].wrong,
                    rows[i].status != GS_OK ? bench_verdict(rows[i].status)
                    : rows[i].sync          ? (rows[i].wrong ? "FAIL" : "pass")
                                            : "n/a");
    }
    /* after the run: 1, as for a wrong element (2 is for what is found before it) */
    int unwritten = cli_output_close(f, o->csv) != 0;
    gs_device_close(dev);
    if (failed)
        cli_progress("test_sync read a wrong element or did not run: exit status 1");
    return failed || unwritten ? 1 : 0;
}
