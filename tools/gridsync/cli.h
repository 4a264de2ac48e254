/* tools/gridsync/cli.h - what the subcommands of the gridsync CLI share. */
#ifndef GRIDSYNC_CLI_H
#define GRIDSYNC_CLI_H

#include <stdio.h>

#include "gridsync.h"
#include "gridsync/run.h"

#define CLI_MAX_LIST 64

typedef struct cli_options {
    gs_backend backend;
    int device;
    int algo_all;
    unsigned algos[GS_ALGO_COUNT_], n_algos;
    unsigned groups[CLI_MAX_LIST], n_groups;
    unsigned iters_list[CLI_MAX_LIST], n_iters;
    unsigned compute_list[CLI_MAX_LIST], n_compute; /* bench split: work per barrier */
    unsigned sizes_n[CLI_MAX_LIST], sizes_t[CLI_MAX_LIST], n_sizes; /* bench jacobi: N:T */
    unsigned block;       /* work-items per group; 0 = the experiment's default */
    unsigned iters;       /* 0 = the experiment's default */
    unsigned repeats;     /* timed repeats, the median is reported */
    unsigned timeout_ms;  /* 0 = library default */
    int quick;
    const char *csv, *json, *plot;
    int takes_auto;       /* set by the experiment: it runs GS_ALGO_AUTO (chosen at barrier
                             creation, so gs_algo_supported does not list it) where flip
                             and tree run */
} cli_options;

/* One measured configuration: a row of every table. */
typedef struct bench_row {
    const char *experiment;
    gs_algo algo;
    unsigned groups, block, iters;
    unsigned compute;         /* independent multiply-adds per work-item per barrier */
    unsigned n;               /* bench jacobi: the grid's side (0 elsewhere) */
    int any_grid;             /* a `best` row: ratios to the other best rows, whatever
                                 their group count */
    double ns_per_barrier;    /* median over repeats */
    double total_ms;          /* median total time of the launch(es) */
    double spread;            /* (max - min) / median of the repeats */
    size_t state_bytes;
    const char *check;        /* "pass", "FAIL", "timeout", "refused", "error" */
    gs_status status;
} bench_row;

typedef struct bench_table {
    bench_row *rows;
    unsigned n, cap;
    gs_device_info dev;
} bench_table;

int cli_parse(int argc, char **argv, int first, cli_options *o);
int cli_open(const cli_options *o, gs_device **dev, gs_device_info *info);
/* The protocols the options name that run on this device (all: every supported one). */
unsigned cli_algos(const cli_options *o, gs_device *dev, gs_algo *out);
void cli_progress(const char *fmt, ...);

/* Times `timed` through a fresh barrier of `algo` (one warm-up, then the median of
 * o->repeats runs) after the message-passing check on the same grid, with the same
 * barrier form and independent work; fills row. */
void bench_measure(gs_device *dev, const cli_options *o, gs_algo algo, const gs_run_config *timed,
                   bench_row *row);

/* "pass", "FAIL", "timeout", "refused" or "error" for a measurement's status. */
const char *bench_verdict(gs_status s);

bench_row *table_add(bench_table *t);
/* Row r's total time over that of `base` in the same configuration (0: none passed). */
double table_ratio(const bench_table *t, const bench_row *r, gs_algo base);
void table_print(const bench_table *t, FILE *f);
int table_write(const bench_table *t, const cli_options *o, const char *xlabel);
void table_free(bench_table *t);

int cmd_info(const cli_options *o);
int cmd_bench(const char *experiment, const cli_options *o);
int bench_groups(gs_device *dev, const cli_options *o, bench_table *t);
int bench_iters(gs_device *dev, const cli_options *o, bench_table *t);
int bench_memory(gs_device *dev, const cli_options *o, bench_table *t);
int bench_wgsize(gs_device *dev, const cli_options *o, bench_table *t);
int bench_split(gs_device *dev, const cli_options *o, bench_table *t);
void bench_split_summary(const bench_table *t, FILE *f);
int bench_jacobi(gs_device *dev, const cli_options *o, bench_table *t);
void bench_jacobi_summary(const bench_table *t, FILE *f);

#endif
