/* bench multi: ns per barrier across devices (gridsync/multi.h) against ending the
 * kernel on every device, waiting for every device on the host and launching again.
 * For each list of devices (--devices: indices within the back end, one a rank, the
 * same index again for two ranks on one device; default: cpu 1, 2, 4 emulated devices,
 * CUDA 1, 2, 4, 8 GPUs as present) and each count of groups per device (default: GPU
 * one and eight blocks per SM within what fits beside the other ranks of the GPU; cpu 1
 * and 2), the barrier first passes a message-passing check on that grid, then is timed:
 * (T(iters barriers) - T(no barrier)) / iters, each T the median of --repeats launches
 * of every rank, host clock from the first launch to the end of the collect; the
 * baseline is T(iters relaunches) / iters. Rows of its own (a list of devices is not a
 * protocol) on stdout, --csv, --json. A barrier row of 0 ns: the launches' noise was
 * larger than the barriers (the cpu back end on a loaded host); no speed-up is given. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_multi.h"
#include "cli.h"
#include "gridsync/cpu.h"
#include "gridsync/host_multi.h"

#define BM_MAX_CONFIGS 8u

typedef struct bm_row {
    char devices[96]; /* the ranks' device indices, "0,0" */
    unsigned ranks, groups, block, iters;
    const char *method; /* "relaunch" or "multi" */
    double ns;          /* per barrier (multi) or per relaunch of every device */
    double x_relaunch;  /* the relaunch row's ns over this row's */
    const char *check;
    gs_status status;
} bm_row;

/* ---- the cpu back end's part ---------------------------------------------------------- */

typedef struct bm_arg {
    gs_word *state;
    unsigned rank, ranks, groups, iters;
    int check;
    uint32_t *buf; /* [2][ranks][groups]: phase i in half i % 2 */
    atomic_uint *wrong;
} bm_arg;

static uint32_t bm_value(unsigned i, unsigned rank, unsigned group)
{
    return (i * 2654435761u) ^ (rank << 20) ^ group;
}

static void bm_kernel(void *p)
{
    const bm_arg *a = p;
    unsigned g = gs_group_id(), next = (a->rank + 1u) % a->ranks, h = (g + 1u) % a->groups;
    gs_multi_grid m = gs_multi_begin(a->state);
    for (unsigned i = 0; i < a->iters; ++i) {
        uint32_t *half = a->buf + (size_t)(i % 2u) * a->ranks * a->groups;
        if (a->check && gs_local_first())
            half[a->rank * a->groups + g] = bm_value(i, a->rank, g);
        if (gs_multi_sync(&m))
            return;
        if (a->check && gs_local_first() && half[next * a->groups + h] != bm_value(i, next, h))
            atomic_fetch_add(a->wrong, 1u);
    }
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static gs_status cpu_multi(const bm_run *r, unsigned iters, int check, double *ms, unsigned *wrong)
{
    bm_arg args[GS_MULTI_MAX_DEVICES];
    void *argp[GS_MULTI_MAX_DEVICES];
    atomic_uint bad;
    uint32_t *buf = calloc(2u * r->ranks * r->groups, sizeof *buf);
    if (!buf)
        return GS_ERR_OUT_OF_MEMORY;
    atomic_init(&bad, 0u);
    for (unsigned k = 0; k < r->ranks; ++k) {
        void *state = NULL;
        (void)gs_multi_native(r->m, k, &state);
        args[k] = (bm_arg){state, k, r->ranks, r->groups, iters, check, buf, &bad};
        argp[k] = &args[k];
    }
    double t0 = now_ms();
    gs_status s = gs_cpu_multi_launch(r->m, GS_DIM3_1D(r->groups), GS_DIM3_1D(r->block), bm_kernel,
                                      argp, NULL);
    *ms = now_ms() - t0;
    if (wrong)
        *wrong = atomic_load(&bad);
    free(buf);
    return s;
}

/* A launch with no barrier, on every device, collected: the host's synchronization. */
static gs_status cpu_relaunch(const bm_run *r, unsigned iters, double *ms)
{
    double total = 0;
    for (unsigned i = 0; i < iters; ++i) {
        double one = 0;
        gs_status s = cpu_multi(r, 0, 0, &one, NULL);
        if (s != GS_OK)
            return s;
        total += one;
    }
    *ms = total;
    return GS_OK;
}

#ifndef GRIDSYNC_CLI_CUDA
gs_status bm_cuda_bound(gs_device *dev, unsigned block, unsigned *bound)
{
    return GS_ERR_BACKEND_UNAVAILABLE;
}
gs_status bm_cuda_multi(const bm_run *r, unsigned iters, int check, double *ms, unsigned *wrong)
{
    return GS_ERR_BACKEND_UNAVAILABLE;
}
gs_status bm_cuda_relaunch(const bm_run *r, unsigned iters, double *ms)
{
    return GS_ERR_BACKEND_UNAVAILABLE;
}
#endif

static int on_cuda(const bm_run *r)
{
    gs_device_info d;
    gs_device_get_info(r->devs[0], &d);
    return d.backend == GS_BACKEND_CUDA;
}
static gs_status run_multi(const bm_run *r, unsigned iters, int check, double *ms, unsigned *wrong)
{
    return on_cuda(r) ? bm_cuda_multi(r, iters, check, ms, wrong)
                      : cpu_multi(r, iters, check, ms, wrong);
}
static gs_status run_relaunch(const bm_run *r, unsigned iters, double *ms)
{
    return on_cuda(r) ? bm_cuda_relaunch(r, iters, ms) : cpu_relaunch(r, iters, ms);
}

/* ---- configurations ------------------------------------------------------------------- */

/* The median of `n` launches of `iters` barriers (relaunch: `iters` relaunches). */
static gs_status median_ms(const bm_run *r, int relaunch, unsigned iters, unsigned n, double *out)
{
    double t[1000];
    gs_status s = GS_OK;
    for (unsigned i = 0; i < n && s == GS_OK; ++i) {
        s = relaunch ? run_relaunch(r, iters, &t[i]) : run_multi(r, iters, 0, &t[i], NULL);
        for (unsigned j = i; j > 0 && t[j - 1] > t[j]; --j) {
            double x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    }
    *out = t[n / 2];
    return s;
}

static void list_text(char *out, size_t n, const unsigned *idx, unsigned ranks)
{
    size_t used = 0;
    out[0] = '\0';
    for (unsigned k = 0; k < ranks && used < n; ++k)
        used += (size_t)snprintf(out + used, n - used, "%s%u", k ? "," : "", idx[k]);
}

/* The two rows of one configuration: the baseline, then the barrier. */
static void measure(const bm_run *r, const cli_options *o, unsigned iters, bm_row *rows)
{
    unsigned relaunches = on_cuda(r) ? iters : (iters < 20u ? iters : 20u);
    double t_rel = 0, t_n = 0, t_0 = 0;
    unsigned wrong = 0;
    rows[0].method = "relaunch";
    rows[0].iters = relaunches;
    rows[1].method = "multi";
    rows[1].iters = iters;
    gs_status s = run_multi(r, iters, 1, &t_n, &wrong);
    rows[1].status = s;
    rows[1].check = s == GS_OK && wrong ? "FAIL" : bench_verdict(s);
    if (s == GS_OK && wrong == 0 && (s = median_ms(r, 0, iters, o->repeats, &t_n)) == GS_OK &&
        (s = median_ms(r, 0, 0, o->repeats, &t_0)) == GS_OK)
        rows[1].ns = (t_n > t_0 ? t_n - t_0 : 0) * 1e6 / iters;
    if (s != GS_OK) {
        rows[1].status = s;
        rows[1].check = bench_verdict(s);
        cli_progress("multi on %s, %u groups of %u: %s", rows[1].devices, r->groups, r->block,
                     gs_status_string(s));
    }
    if (rows[1].check[0] == 'F')
        cli_progress("multi on %s, %u groups of %u: %u values read wrong", rows[1].devices,
                     r->groups, r->block, wrong);
    /* a barrier that failed is left aborted; the baseline must not inherit that */
    if (rows[1].status != GS_OK)
        (void)gs_multi_reset(r->m);
    s = median_ms(r, 1, relaunches, o->repeats, &t_rel);
    rows[0].status = s;
    rows[0].check = bench_verdict(s);
    if (s != GS_OK)
        cli_progress("relaunch on %s, %u groups of %u: %s", rows[0].devices, r->groups, r->block,
                     gs_status_string(s));
    rows[0].ns = s == GS_OK ? t_rel * 1e6 / relaunches : 0;
    if (rows[0].ns > 0 && rows[1].ns > 0 && rows[1].status == GS_OK && rows[1].check[0] == 'p')
        rows[1].x_relaunch = rows[0].ns / rows[1].ns;
}

/* The lists of device indices to run: --devices, else the defaults. */
static unsigned device_lists(const cli_options *o, int cuda, unsigned gpus,
                             unsigned lists[BM_MAX_CONFIGS][GS_MULTI_MAX_DEVICES], unsigned *ranks)
{
    static const unsigned sizes[] = {1, 2, 4, 8};
    unsigned n = 0;
    if (o->n_device_list) {
        memcpy(lists[0], o->device_list, o->n_device_list * sizeof *o->device_list);
        ranks[0] = o->n_device_list;
        return 1;
    }
    for (unsigned i = 0; i < sizeof sizes / sizeof *sizes; ++i) {
        unsigned d = sizes[i];
        if ((cuda && d > gpus) || (!cuda && d > (o->quick ? 2u : 4u)))
            break;
        for (unsigned k = 0; k < d; ++k)
            lists[n][k] = cuda ? k : 0u;
        ranks[n++] = d;
    }
    return n;
}

/* The groups per device to run at one list: --groups, else one and eight per compute
 * unit (cpu: 1 and 2), within `fit`. */
static unsigned group_counts(const cli_options *o, const gs_device_info *d, unsigned fit,
                             unsigned *out)
{
    if (o->n_groups) {
        memcpy(out, o->groups, o->n_groups * sizeof *o->groups);
        return o->n_groups;
    }
    unsigned n = 0,
             want[2] = {d->is_gpu ? d->compute_units : 1u, d->is_gpu ? 8u * d->compute_units : 2u};
    for (unsigned i = 0; i < 2; ++i) {
        unsigned g = want[i] < fit ? want[i] : fit;
        if (g > 0 && (n == 0 || out[n - 1] != g))
            out[n++] = g;
    }
    return n;
}

/* The most groups a rank may have at this list and block: the device's bound shared by
 * the ranks on it (cpu: the thread budget over every rank). */
static unsigned fit_of(gs_device *const *devs, unsigned ranks, int cuda, unsigned block)
{
    unsigned most = 0, bound = 0;
    for (unsigned k = 0; k < ranks; ++k) {
        unsigned n = 0;
        for (unsigned j = 0; j < ranks; ++j)
            n += devs[j] == devs[k];
        most = n > most ? n : most;
    }
    if (!cuda)
        return 4096u / (block * ranks);
    if (bm_cuda_bound(devs[0], block, &bound) != GS_OK)
        return 0;
    return bound / most;
}

static void print_row(const bm_row *r)
{
    printf("%-9s %-16s %7u %6u %7u %14.1f ", r->method, r->devices, r->groups, r->block, r->iters,
           r->ns);
    if (r->x_relaunch > 0)
        printf("%10.2f", r->x_relaunch);
    else
        printf("%10s", "");
    printf("  %s\n", r->check);
    fflush(stdout);
}

/* --csv and --json; non-zero where one could not be written (said on stderr). */
static int write_files(const cli_options *o, const gs_device_info *d, const bm_row *rows,
                       unsigned n)
{
    FILE *c = o->csv ? cli_output_open(o->csv) : NULL;
    FILE *j = o->json ? cli_output_open(o->json) : NULL;
    if (c)
        fprintf(c, "experiment,device,backend,method,devices,ranks,groups,block,iters,"
                   "ns_per_barrier,x_relaunch,check\n");
    if (j)
        fprintf(j, "{\n  \"device\": \"%s\", \"backend\": \"%s\",\n  \"rows\": [\n", d->name,
                gs_backend_name(d->backend));
    for (unsigned i = 0; i < n; ++i) {
        const bm_row *r = &rows[i];
        if (c)
            fprintf(c, "multi,\"%s\",%s,%s,\"%s\",%u,%u,%u,%u,%.1f,%.3f,%s\n", d->name,
                    gs_backend_name(d->backend), r->method, r->devices, r->ranks, r->groups,
                    r->block, r->iters, r->ns, r->x_relaunch, r->check);
        if (j)
            fprintf(j,
                    "    {\"method\": \"%s\", \"devices\": \"%s\", \"ranks\": %u, \"groups\": %u, "
                    "\"block\": %u, \"iters\": %u, \"ns_per_barrier\": %.1f, \"x_relaunch\": "
                    "%.3f, \"check\": \"%s\"}%s\n",
                    r->method, r->devices, r->ranks, r->groups, r->block, r->iters, r->ns,
                    r->x_relaunch, r->check, i + 1 < n ? "," : "");
    }
    if (j)
        fprintf(j, "  ]\n}\n");
    return cli_output_close(c, o->csv) | cli_output_close(j, o->json); /* both closed */
}

/* The back end: CUDA where a GPU opens (auto), else cpu; OpenCL has no system scope. */
static int pick_backend(const cli_options *o, gs_backend *out)
{
    gs_device *probe = NULL;
    if (o->backend == GS_BACKEND_OPENCL) {
        fprintf(stderr, "gridsync: bench multi runs on cuda and cpu (OpenCL has no system "
                        "scope for a barrier across devices)\n");
        return -1;
    }
    *out = o->backend;
    if (*out == GS_BACKEND_AUTO)
        *out =
            gs_device_open(GS_BACKEND_CUDA, 0, &probe) == GS_OK ? GS_BACKEND_CUDA : GS_BACKEND_CPU;
    if (probe)
        gs_device_close(probe);
    return 0;
}

/* Opens each index of the lists once; handles[i] for index i (NULL where unused). */
static int open_devices(gs_backend b, unsigned lists[BM_MAX_CONFIGS][GS_MULTI_MAX_DEVICES],
                        const unsigned *ranks, unsigned n, gs_device **handles)
{
    for (unsigned c = 0; c < n; ++c)
        for (unsigned k = 0; k < ranks[c]; ++k) {
            unsigned i = lists[c][k];
            gs_status s = handles[i] ? GS_OK : gs_device_open(b, (int)i, &handles[i]);
            if (s != GS_OK) {
                fprintf(stderr, "gridsync: cannot open %s device %u: %s\n", gs_backend_name(b), i,
                        gs_status_string(s));
                return -1;
            }
        }
    return 0;
}

int cmd_multi(const cli_options *o)
{
    static gs_device *handles[1025];
    unsigned lists[BM_MAX_CONFIGS][GS_MULTI_MAX_DEVICES], ranks[BM_MAX_CONFIGS];
    gs_backend b;
    if (!cli_outputs_ok(o))
        return 2;
    if (o->n_device_list > GS_MULTI_MAX_DEVICES) {
        fprintf(stderr, "gridsync: --devices: at most %u devices\n", GS_MULTI_MAX_DEVICES);
        return 2;
    }
    if (pick_backend(o, &b) != 0)
        return 2;
    int cuda = b == GS_BACKEND_CUDA, rc = 0;
    unsigned gpus = 0;
    while (cuda && gpus < 8u && gs_device_open(b, (int)gpus, &handles[gpus]) == GS_OK)
        ++gpus;
    unsigned n_lists = device_lists(o, cuda, gpus, lists, ranks);
    if (n_lists == 0)
        fprintf(stderr, "gridsync: cannot open %s device 0\n", gs_backend_name(b));
    if (n_lists == 0 || open_devices(b, lists, ranks, n_lists, handles) != 0) {
        rc = 2;
        goto out;
    }
    gs_device_info d;
    gs_device_get_info(handles[lists[0][0]], &d);
    unsigned block = o->block ? o->block : d.is_gpu ? 256u : 2u;
    unsigned iters = o->iters ? o->iters : (d.is_gpu ? 2000u : 200u) / (o->quick ? 4u : 1u);
    if (block > d.max_group_size) {
        fprintf(stderr, "gridsync: --block: bad value '%u'; it takes 1 to %u on this device\n",
                block, d.max_group_size);
        rc = 2;
        goto out;
    }
    bm_row *rows = calloc((size_t)2 * n_lists * CLI_MAX_LIST, sizeof *rows);
    unsigned n = 0, failed = 0;
    printf("multi on %s (%s): ns per barrier across devices; relaunch: ns per kernel ended on "
           "every device and the host's wait for all\n",
           d.name, gs_backend_name(d.backend));
    printf("%-9s %-16s %7s %6s %7s %14s %10s  %s\n", "method", "devices", "groups", "block",
           "iters", "ns/barrier", "x_relaunch", "check");
    for (unsigned c = 0; rows && c < n_lists; ++c) {
        gs_device *devs[GS_MULTI_MAX_DEVICES];
        for (unsigned k = 0; k < ranks[c]; ++k)
            devs[k] = handles[lists[c][k]];
        unsigned counts[CLI_MAX_LIST];
        unsigned n_counts = group_counts(o, &d, fit_of(devs, ranks[c], cuda, block), counts);
        for (unsigned g = 0; g < n_counts; ++g) {
            bm_row *pair = &rows[n];
            bm_run r = {NULL, devs, ranks[c], counts[g], block};
            for (unsigned i = 0; i < 2; ++i) {
                list_text(pair[i].devices, sizeof pair[i].devices, lists[c], ranks[c]);
                pair[i].ranks = ranks[c];
                pair[i].groups = counts[g];
                pair[i].block = block;
            }
            cli_progress("multi: devices %s, %u groups of %u each, %u barriers", pair[0].devices,
                         counts[g], block, iters);
            gs_status s = gs_multi_create(devs, ranks[c], counts[g], &r.m);
            if (s == GS_OK && o->timeout_ms)
                s = gs_multi_set_timeout(r.m, o->timeout_ms);
            if (s == GS_OK) {
                measure(&r, o, iters, pair);
            } else {
                cli_progress("multi on %s: %s", pair[0].devices, gs_status_string(s));
                for (unsigned i = 0; i < 2; ++i) {
                    pair[i].method = i ? "multi" : "relaunch";
                    pair[i].status = s;
                    pair[i].check = bench_verdict(s);
                }
            }
            if (r.m)
                gs_multi_destroy(r.m);
            for (unsigned i = 0; i < 2; ++i) {
                print_row(&pair[i]);
                failed += strcmp(pair[i].check, "pass") != 0;
            }
            n += 2;
        }
    }
    rc = rows ? (failed ? 1 : 0) : 2;
    if (failed)
        cli_progress("%u row%s did not pass: exit status 1", failed, failed == 1 ? "" : "s");
    /* after the run: 1, as for a failed row (2 is for what is found before it) */
    if (rows && write_files(o, &d, rows, n) != 0)
        rc = 1;
    free(rows);
out:
    for (unsigned i = 0; i < sizeof handles / sizeof *handles; ++i)
        if (handles[i])
            gs_device_close(handles[i]);
    return rc;
}
