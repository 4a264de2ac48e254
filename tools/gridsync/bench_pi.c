/* bench pi: the lecture's Pi program (apps/pi) at each step count, every way to finish
 * the sum (host, barrier, ticket; CUDA: cub). "paired us": the median over the rounds of a
 * way's time minus the first way's (host) in the same round, the comparison the device's
 * drift cancels in. Its rows are its own (steps pass 2^32, and
 * a way is not a protocol), written to stdout, --csv and --json. Every way must agree
 * with every other to 1e-12 relative at a step count; one that does not, or fails to
 * run, is a failure row and the exit status 1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "pi.h"

#define PI_AGREE 1e-12

typedef struct pi_row {
    unsigned long long steps;
    gsp_way way;
    gsp_result res;    /* its status too */
    const char *check; /* pass, DISAGREE, or bench_verdict's */
} pi_row;

static unsigned steps_of(const gs_device_info *d, const cli_options *o, unsigned long long *out)
{
    static const unsigned long long gpu[] = {1000000ull, 100000000ull, 1000000000ull,
                                             10000000000ull};
    static const unsigned long long host[] = {10000ull, 1000000ull, 10000000ull};
    const unsigned long long *l = d->is_gpu ? gpu : host;
    unsigned n = o->n_steps ? o->n_steps : d->is_gpu ? (o->quick ? 2u : 4u) : (o->quick ? 2u : 3u);
    for (unsigned i = 0; i < n; ++i)
        out[i] = o->n_steps ? o->steps[i] : l[i];
    return n;
}

/* GPU blocks of 256, cpu teams of 4, PoCL work-groups of 64; as many groups as run at once
 * (the barrier way needs every one resident, the others take the same grid). */
static int grid_of(gs_device *dev, const gs_device_info *d, const cli_options *o, unsigned *groups,
                   unsigned *block)
{
    *block = o->block ? o->block : d->is_gpu ? 256u : d->backend == GS_BACKEND_CPU ? 4u : 64u;
    if (*block & (*block - 1u)) {
        cli_progress(
            "--block: bad value '%u'; pi takes a power of two (the reduction halves the group)",
            *block);
        return -1;
    }
    unsigned bound = 0;
    if (gsp_max_groups(dev, *block, &bound) != GS_OK || bound == 0) {
        cli_progress("pi: no co-residency bound for groups of %u", *block);
        return -1;
    }
    *groups = o->n_groups ? o->groups[0] : d->backend == GS_BACKEND_CPU && bound > 2u ? 2u : bound;
    return 0;
}

/* --csv and --json; non-zero where one could not be written (said on stderr). */
static int write_files(const cli_options *o, const gs_device_info *d, const pi_row *rows,
                       unsigned n, unsigned groups, unsigned block)
{
    FILE *c = o->csv ? cli_output_open(o->csv) : NULL;
    FILE *j = o->json ? cli_output_open(o->json) : NULL;
    if (c)
        fprintf(c, "experiment,device,backend,way,groups,block,steps,pi,abs_error,ms,paired_us,"
                   "steps_per_s,check\n");
    if (j)
        fprintf(j,
                "{\n  \"device\": \"%s\", \"backend\": \"%s\", \"groups\": %u, \"block\": %u,\n  "
                "\"rows\": [\n",
                d->name, gs_backend_name(d->backend), groups, block);
    for (unsigned i = 0; i < n; ++i) {
        const pi_row *r = &rows[i];
        double err = fabs(r->res.pi - M_PI),
               rate = r->res.ms > 0 ? r->steps / (r->res.ms / 1e3) : 0;
        if (c)
            fprintf(c, "pi,\"%s\",%s,%s,%u,%u,%llu,%.17g,%.3e,%.4f,%.2f,%.4e,%s\n", d->name,
                    gs_backend_name(d->backend), gsp_way_name(r->way), groups, block, r->steps,
                    r->res.pi, err, r->res.ms, r->res.paired_ms * 1e3, rate, r->check);
        if (j)
            fprintf(j,
                    "    {\"way\": \"%s\", \"steps\": %llu, \"pi\": %.17g, \"abs_error\": %.3e, "
                    "\"ms\": %.4f, \"paired_us\": %.2f, "
                    "\"steps_per_s\": %.4e, \"check\": \"%s\"}%s\n",
                    gsp_way_name(r->way), r->steps, r->res.pi, err, r->res.ms,
                    r->res.paired_ms * 1e3, rate, r->check, i + 1 < n ? "," : "");
    }
    if (j)
        fprintf(j, "  ]\n}\n");
    return cli_output_close(c, o->csv) | cli_output_close(j, o->json); /* both closed */
}

int cmd_pi(const cli_options *o)
{
    gs_device *dev;
    gs_device_info d;
    if (!cli_outputs_ok(o) || cli_open(o, &dev, &d) != 0)
        return 2;
    unsigned long long steps[CLI_MAX_LIST];
    unsigned n_steps = steps_of(&d, o, steps), groups, block;
    if (grid_of(dev, &d, o, &groups, &block) != 0) {
        gs_device_close(dev);
        return 2;
    }
    pi_row *rows = calloc((size_t)n_steps * GSP_WAYS, sizeof *rows);
    unsigned n = 0, failed = 0;
    printf("pi on %s (%s), %u groups of %u, every way must agree to %.0e relative\n", d.name,
           gs_backend_name(d.backend), groups, block, PI_AGREE);
    printf("%-8s %14s %20s %10s %12s %10s %12s  %s\n", "way", "steps", "pi", "|err|", "ms",
           "paired us", "steps/s", "check");
    for (unsigned k = 0; rows && k < n_steps; ++k) {
        unsigned first = n, ways = 0;
        gsp_config cfgs[GSP_WAYS];
        gsp_result res[GSP_WAYS];
        for (unsigned w = 0; w < GSP_WAYS; ++w)
            if (gsp_way_supported(dev, (gsp_way)w))
                cfgs[ways++] = (gsp_config){.steps = steps[k],
                                            .way = (gsp_way)w,
                                            .groups = groups,
                                            .group_size = block,
                                            .timeout_ms = o->timeout_ms};
        /* every way in the same rounds (apps/pi/run.c says why) */
        gsp_run_ways(dev, cfgs, ways, res); /* each way's status is in its result */
        for (unsigned i = 0; i < ways; ++i) {
            pi_row *r = &rows[n++];
            r->steps = steps[k];
            r->way = cfgs[i].way;
            r->res = res[i];
            r->check = bench_verdict(r->res.status);
            if (r->res.status != GS_OK)
                cli_progress("pi %llu steps, %s: %s: %s", steps[k], gsp_way_name(r->way),
                             gs_status_string(r->res.status), r->res.error);
        }
        /* agreement: every way against the first that ran */
        for (unsigned i = first; i < n; ++i) {
            pi_row *r = &rows[i];
            if (r->res.status == GS_OK && rows[first].res.status == GS_OK &&
                !(fabs(r->res.pi - rows[first].res.pi) <= PI_AGREE * fabs(rows[first].res.pi)))
                r->check = "DISAGREE";
            failed += r->res.status != GS_OK || r->check[0] != 'p';
            printf("%-8s %14llu %20.15f %10.3e %12.4f %10.2f %12.4e  %s\n", gsp_way_name(r->way),
                   r->steps, r->res.pi, fabs(r->res.pi - M_PI), r->res.ms, r->res.paired_ms * 1e3,
                   r->res.ms > 0 ? r->steps / (r->res.ms / 1e3) : 0.0, r->check);
        }
        fflush(stdout);
    }
    int rc = rows ? 0 : 2;
    if (failed) {
        cli_progress("%u row%s did not pass: exit status 1", failed, failed == 1 ? "" : "s");
        rc = 1;
    }
    /* after the run: 1, as for a failed row (2 is for what is found before it) */
    if (rows && write_files(o, &d, rows, n, groups, block) != 0)
        rc = 1;
    free(rows);
    gs_device_close(dev);
    return rc;
}
