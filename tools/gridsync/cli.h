/* tools/gridsync/cli.h - what the subcommands of the gridsync CLI share. */
#ifndef GRIDSYNC_CLI_H
#define GRIDSYNC_CLI_H

#include <stdio.h>

#include "appkit.h" /* gsa_is_baseline: the baselines the apps write themselves */
#include "gridsync.h"
#include "gridsync/run.h"

#define CLI_MAX_LIST 64
#define CLI_MAX_TIMEOUT_MS 3600000u    /* gs_barrier_set_timeout's range, and the environment's */
#define CLI_MAX_ITERS (1u << 30)       /* gs_run's */
#define CLI_MAX_STEPS 1000000000000ull /* bench pi: 10^12 steps, minutes on a GPU */
#define CLI_DEFAULT_MAX_SPREAD 0.5     /* a row whose repeats spread wider is flagged */

/* --algo local: local synchronization (gridsync/local.h), a scheme no barrier protocol
 * names, in a row's algo like a protocol (bench sor). cli_algo_name says "local". */
#define CLI_ALGO_LOCAL ((gs_algo)GS_ALGO_COUNT_)
const char *cli_algo_name(gs_algo a);

/* The options, one bit each: what a command line gave, and what a subcommand takes
 * (an option a subcommand would ignore is refused instead). */
enum {
    OPT_BACKEND = 1u << 0,
    OPT_DEVICE = 1u << 1,
    OPT_ALGO = 1u << 2,
    OPT_GROUPS = 1u << 3,
    OPT_BLOCK = 1u << 4,
    OPT_ITERS = 1u << 5,
    OPT_ITERS_LIST = 1u << 6,
    OPT_COMPUTE = 1u << 7,
    OPT_REPEATS = 1u << 8,
    OPT_TIMEOUT = 1u << 9,
    OPT_QUICK = 1u << 10,
    OPT_CSV = 1u << 11,
    OPT_JSON = 1u << 12,
    OPT_PLOT = 1u << 13,
    OPT_SIZES = 1u << 14,
    OPT_MAX_SPREAD = 1u << 15,
    OPT_ALLOW_REFUSED = 1u << 16,
    OPT_N = 1u << 17,
    OPT_STEPS = 1u << 18,
    OPT_APPENDIX = 1u << 19,
    OPT_MATRIX = 1u << 20,
    OPT_TILE = 1u << 21,
    OPT_VARIANTS = 1u << 22,
    OPT_DEVICES = 1u << 23,
    OPT_FORM = 1u << 24,
    OPT_SCHEMES = 1u << 25,
    OPT_ONE_GROUPS = 1u << 30 /* in a subcommand's set: it runs one grid, --groups N */
};

typedef struct cli_options {
    unsigned given; /* OPT_* bits of the options on the command line */
    gs_backend backend;
    int device;
    int algo_all;
    unsigned algos[GS_ALGO_COUNT_ + 1], n_algos; /* + CLI_ALGO_LOCAL */
    unsigned groups[CLI_MAX_LIST], n_groups;
    unsigned iters_list[CLI_MAX_LIST], n_iters;
    unsigned compute_list[CLI_MAX_LIST], n_compute; /* bench split: work per barrier */
    unsigned sizes_n[CLI_MAX_LIST], sizes_t[CLI_MAX_LIST], n_sizes; /* bench jacobi, stencil: N:T */
    unsigned n;                             /* bench stencil --n: elements; 0 = the default sizes */
    unsigned long long steps[CLI_MAX_LIST]; /* bench pi --steps */
    unsigned n_steps;
    unsigned matrix[CLI_MAX_LIST], n_matrix; /* bench wavefront --matrix: sequence lengths */
    unsigned tiles[CLI_MAX_LIST], n_tiles;   /* bench wavefront --tile: 16, 32, 64 */
    char variants[CLI_MAX_LIST][16];         /* bench wavefront --variants: local variants */
    unsigned n_variants;
    char schemes[CLI_MAX_LIST][16]; /* bench wavefront --schemes: the schemes to run */
    unsigned n_schemes;
    unsigned device_list[CLI_MAX_LIST], n_device_list; /* bench multi --devices: one a rank */
    unsigned block;      /* work-items per group; 0 = the experiment's default */
    unsigned tile;       /* bench sor: a tile's side in cells; 0 = the default */
    unsigned iters;      /* 0 = the experiment's default */
    unsigned repeats;    /* timed repeats, the median is reported */
    unsigned timeout_ms; /* 0 = library default */
    int quick;
    int allow_refused; /* refused rows (more groups than fit) do not fail the run */
    double max_spread; /* rows whose spread is larger are warned about */
    const char *csv, *json, *plot;
    /* set by the experiment: it runs GS_ALGO_AUTO (chosen at barrier creation, so
     * gs_algo_supported does not list it) where flip and tree run */
    int takes_auto;
    unsigned appendix; /* bench thesis --appendix: CLI_APPENDIX_* bits; 0 = all three */
    unsigned forms;    /* bench jacobi --form: CLI_FORM_* bits; 0 = all */
    /* Set by bench thesis for the experiments it runs through bench_groups, bench_iters
     * and bench_memory: */
    const char *experiment; /* the rows' experiment name; NULL: the experiment's own */
    unsigned compute_kind;  /* GS_COMPUTE_KIND_* of --compute's steps */
    int takes_local;        /* set by the experiment: it runs CLI_ALGO_LOCAL */
} cli_options;

#define CLI_APPENDIX_H 1u /* the thesis's time against work-groups */
#define CLI_APPENDIX_I 2u /* time against iterations */
#define CLI_APPENDIX_J 4u /* memory against work-groups */

#define CLI_FORM_SYNC 1u     /* bench jacobi: a barrier between iterations */
#define CLI_FORM_SPLIT 2u    /* bench jacobi: tiles, the barrier split around their inner cells */
#define CLI_FORM_LOCAL 4u    /* bench jacobi: bands waiting for their neighbours, no barrier */
#define CLI_FORM_RESIDENT 8u /* bench jacobi: tiles kept in group memory, halos through global */
#define CLI_FORM_HALO 16u    /* bench jacobi: resident tiles, halos in tagged words, no barrier */

/* One measured configuration: a row of every table. */
typedef struct bench_row {
    const char *experiment;
    gs_algo algo;
    unsigned groups, block, iters;
    unsigned compute;      /* independent multiply-adds per work-item per barrier */
    unsigned n;            /* bench jacobi: the grid's side (0 elsewhere) */
    int any_grid;          /* a `best` row: ratios to the other best rows, whatever
                                 their group count */
    double ns_per_barrier; /* median over repeats */
    double total_ms;       /* median total time of the launch(es) */
    double spread;         /* (max - min) / median of the repeats */
    size_t state_bytes;
    const char *check; /* "pass", "FAIL", "timeout", "refused", "error" */
    gs_status status;
    /* bench wavefront (scheme NULL elsewhere): the scheme, the global protocol or local
     * variant, the tile side, GCUPS, and the speed-ups over relaunch and global at the
     * same size and tile (the base's time over this row's; 0: that base did not pass). */
    const char *scheme;
    char variant[16];
    unsigned tile;
    double gcups, x_relaunch, x_global;
    /* bench jacobi: "sync", "split", "local", "resident" or "halo"; NULL elsewhere, and for a method that has no
     * forms (relaunch), whose rows are then the base of every form's */
    const char *form;
    /* bench jacobi, sor and stencil: the median over the rounds of this row's time over cg's at the
     * same grid in the same round (the methods of a grid run in interleaved rounds); 0
     * where cg did not run there, and in `best` rows */
    double paired_cg;
} bench_row;

typedef struct bench_table {
    bench_row *rows;
    unsigned n, cap;
    unsigned shown;     /* rows printed so far: each is printed once it is measured */
    const char *xlabel; /* the plot's x axis, where the run chose it (bench thesis) */
    double max_spread;
    gs_device_info dev;
    int wavefront; /* rows of bench wavefront: its own columns on stdout */
    int forms;     /* rows of bench jacobi: a form column */
    int paired;    /* rows of bench jacobi, sor and stencil: a paired_cg column */
} bench_table;

/* A subcommand: `info`, `check`, or an experiment of `bench`. */
typedef struct cli_command {
    const char *name;                /* "info", "check", "groups", ... */
    const char *usage;               /* its arguments, for help */
    const char *help;                /* what it does, for help */
    unsigned takes;                  /* OPT_* it honours; every other option is refused */
    int (*cmd)(const cli_options *); /* info, check */
    int (*run)(gs_device *, const cli_options *, bench_table *); /* an experiment */
    const char *xlabel;                                          /* its plot's x axis */
    void (*summary)(const bench_table *, FILE *); /* after the table, where there is one */
    int takes_auto;  /* runs auto beside the protocols it chooses from */
    int takes_local; /* runs CLI_ALGO_LOCAL (--algo local) */
} cli_command;

#define CLI_DEMO 2 /* cli_command_find's third list: gridsync demo NAME */
/* The subcommand of that name (bench: the experiment's; CLI_DEMO: the demo's), or NULL. */
const cli_command *cli_command_find(const char *name, int bench);
/* gridsync help [bench] [NAME]: 0, or 2 for an unknown name. */
int cli_help(int argc, char **argv, int first);
void cli_usage(FILE *f);

int cli_parse(int argc, char **argv, int first, cli_options *o);
/* 0 when every option given is one that `c` takes; else names the first that is not. */
int cli_check_takes(const cli_command *c, const cli_options *o);
/* Lists the options in `takes`, with their ranges. */
void cli_options_help(unsigned takes, FILE *f);
/* 0 when the environment variables gridsync reads hold values it accepts; else names one. */
int cli_check_env(void);
/* Opens the device the options name; on failure says why on stderr and returns -1. */
int cli_open(const cli_options *o, gs_device **dev, gs_device_info *info);
/* Where `backend` found no device: how an OpenCL driver without its ICD file is reached. */
void cli_hint_no_device(gs_backend backend, gs_status s);
/* 1 where every output file the options name (--csv, --json, --plot) can be written and
 * no two name the same file; else 0, having said which (the command then exits 2 before
 * anything runs, as the README says). */
int cli_outputs_ok(const cli_options *o);
/* An output file the options name, opened for writing; NULL having said on stderr that
 * it cannot be written. */
FILE *cli_output_open(const char *path);
/* Every writer of an output file ends with this: flushes and closes f, which
 * cli_output_open(path) gave, and says on stderr which file could not be written where a
 * write failed (a full disk). 0 where every write reached the file, or where path is NULL
 * (no such output asked for); -1 otherwise, and where f is NULL (the open failed and said
 * so). The command then exits 1: the rows were measured, not refused before the run. */
int cli_output_close(FILE *f, const char *path);
/* Where option a (an OPT_* bit) would do nothing beside option b's value, it is refused
 * rather than dropped: says "--a and --b: " then why (printf's format and arguments) on
 * stderr, and returns 2, the exit status. */
int cli_refuse_pair(unsigned a, unsigned b, const char *why, ...);
/* The option's name, without its --, for its OPT_* bit. */
const char *cli_option_name(unsigned bit);
/* The protocols the options name that run on this device (all: every supported one). */
unsigned cli_algos(const cli_options *o, gs_device *dev, gs_algo *out);
void cli_progress(const char *fmt, ...);

/* Times `timed` through a fresh barrier of `algo` (one warm-up, then the median of
 * o->repeats runs) after the message-passing check on the same grid, with the same
 * barrier form and independent work; fills row. */
void bench_measure(gs_device *dev, const cli_options *o, gs_algo algo, const gs_run_config *timed,
                   bench_row *row);

/* A `best` row per method of ms[]: its fastest passing row among rows first.. (an app's
 * rows at one size, every grid); -1 when the table cannot grow. */
int table_add_best(bench_table *t, unsigned first, const gs_algo *ms, unsigned n_ms);

/* An application's methods at one grid, measured in sets whose methods run together in
 * interleaved rounds (bench jacobi, sor, stencil): todo[i] runs at groups[i]; the methods
 * of one group count in one set, in the order given; cluster in a set of its own after
 * them, with cg_base set where cg runs at that count (cg then runs in its rounds as the
 * base it is paired with, its own row being the first set's): cluster's launches change
 * how fast every later kernel runs (options.c, cli_algos), so it must not take turns with
 * the others. Stops at the first `measure` that returns non-zero and returns that. */
typedef int (*bench_measure_set)(void *ctx, const gs_algo *ms, unsigned k, int cg_base,
                                 unsigned groups);
int bench_measure_sets(const gs_algo *todo, const unsigned *groups, unsigned n,
                       bench_measure_set measure, void *ctx);

/* The order in which one set's configurations run in rounds: cg first where it runs (in
 * ms[0..k), or as the base where cg_base), so that every other is paired with it, then
 * the others in the order given. order[0..n) receives the methods to configure (n
 * returned, at most k + 1), at[m] the index of ms[m] among them, *cg whether cg is one. */
unsigned bench_cg_first(const gs_algo *ms, unsigned k, int cg_base, gs_algo *order, unsigned *at,
                        int *cg);

/* A row measured in rounds: its status, check and state bytes and, where it passed, its
 * median (ms), its spread over the fastest and slowest run, and its pairing with cg
 * (`paired`, kept where `cg` ran in its rounds). */
void bench_row_times(bench_row *r, gs_status status, size_t state_bytes, double median_ms,
                     double min_ms, double max_ms, double paired, int cg);

/* "pass", "FAIL", "timeout", "refused" or "error" for a measurement's status. */
const char *bench_verdict(gs_status s);

bench_row *table_add(bench_table *t);
/* Row r's total time over that of `base` in the same configuration (0: none passed). */
double table_ratio(const bench_table *t, const bench_row *r, gs_algo base);
/* Whether two rows have one form (bench jacobi: "sync", "split"; NULL elsewhere). */
int table_same_form(const bench_row *a, const bench_row *b);
/* The algo column: the protocol, or a wavefront row's scheme where it has none. */
const char *table_algo_name(const bench_row *r);
/* The table, as it is measured: the device and the column names, then each row as soon
 * as it is complete (table_show prints the rows not printed yet), then the best per grid
 * and the legend. */
void table_print_head(const bench_table *t, FILE *f);
void table_show(bench_table *t, FILE *f);
void table_print_tail(const bench_table *t, FILE *f);
int table_write(const bench_table *t, const cli_options *o, const char *xlabel);
void table_free(bench_table *t);

int cmd_info(const cli_options *o);
int cmd_check(const cli_options *o);
int cmd_bench(const cli_command *experiment, const cli_options *o);
int bench_groups(gs_device *dev, const cli_options *o, bench_table *t);
int bench_iters(gs_device *dev, const cli_options *o, bench_table *t);
int bench_memory(gs_device *dev, const cli_options *o, bench_table *t);
int bench_wgsize(gs_device *dev, const cli_options *o, bench_table *t);
int bench_split(gs_device *dev, const cli_options *o, bench_table *t);
void bench_split_summary(const bench_table *t, FILE *f);
int bench_jacobi(gs_device *dev, const cli_options *o, bench_table *t);
void bench_jacobi_summary(const bench_table *t, FILE *f);
int bench_thesis(gs_device *dev, const cli_options *o, bench_table *t);
int bench_sor(gs_device *dev, const cli_options *o, bench_table *t);
void bench_sor_summary(const bench_table *t, FILE *f);
int bench_stencil(gs_device *dev, const cli_options *o, bench_table *t);
void bench_stencil_summary(const bench_table *t, FILE *f);
int bench_wavefront(gs_device *dev, const cli_options *o, bench_table *t);
void bench_wavefront_summary(const bench_table *t, FILE *f);
int cmd_pi(const cli_options *o);
int cmd_multi(const cli_options *o);
int cmd_testsync(const cli_options *o);

#endif
