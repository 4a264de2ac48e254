/* The subcommands, what each takes, and gridsync help. An option a subcommand does not
 * use is refused rather than silently ignored, so each takes only what it honours. */
#include <string.h>

#include "cli.h"

/* What every experiment takes (memory times nothing, so none of the timing options). */
#define BENCH_OUT (OPT_BACKEND | OPT_DEVICE | OPT_ALGO | OPT_CSV | OPT_JSON | OPT_PLOT)
#define BENCH_TIMED                                                                   \
    (BENCH_OUT | OPT_BLOCK | OPT_REPEATS | OPT_TIMEOUT | OPT_QUICK | OPT_MAX_SPREAD | \
     OPT_ALLOW_REFUSED)

static const cli_command commands[] = {
    {"info", "[--backend B] [--device N]",
     "Lists every device of every back end built in (or the one named), its co-residency\n"
     "bound for common group sizes and the protocols that run on it.",
     OPT_BACKEND | OPT_DEVICE, cmd_info, NULL, NULL, NULL, 0, 0},
    {"check", "[options]",
     "Self-test of every protocol on one device: test_sync, a stencil against the host's\n"
     "reference, message passing under random delays and memory stress (also in split\n"
     "phase), and two provoked faults that must end in a timeout by the barrier's own\n"
     "300 ms deadline (--timeout-ms sets the other runs' deadline).",
     OPT_BACKEND | OPT_DEVICE | OPT_ALGO | OPT_GROUPS | OPT_ONE_GROUPS | OPT_BLOCK | OPT_ITERS |
         OPT_QUICK | OPT_TIMEOUT,
     cmd_check, NULL, NULL, NULL, 0, 0},
};

static const cli_command experiments[] = {
    {"groups", "[options]",
     "Time per barrier against the number of groups (thesis Appendix H). Default grids: on\n"
     "a GPU 1, 10, ... 70 and 1, 2, 4 ... 32 blocks per SM up to the co-residency bound;\n"
     "elsewhere 1, 2, 4 ... up to twice the compute units.",
     BENCH_TIMED | OPT_GROUPS | OPT_ITERS, NULL, bench_groups, "groups", NULL, 0, 0},
    {"iters", "[options]",
     "Total time against the number of barriers at one grid (thesis Appendix I).",
     BENCH_TIMED | OPT_GROUPS | OPT_ONE_GROUPS | OPT_ITERS_LIST, NULL, bench_iters, "iters", NULL,
     0, 0},
    {"memory", "[options]",
     "Bytes of barrier state against the number of groups (thesis Appendix J); runs nothing.\n"
     "A state for more groups than can be co-resident is refused, not made (check: refused).",
     BENCH_OUT | OPT_GROUPS | OPT_ALLOW_REFUSED, NULL, bench_memory, "groups", NULL, 0, 0},
    {"thesis", "[--appendix H|I|J] [options]",
     "The 2013 thesis's experiments (seed 000): its CB, DCB and CPU Sync (central, lockfree,\n"
     "relaunch) in work-groups of 128, its computation avg = (a + b) / 2 20000 times per\n"
     "work-item before every barrier (--compute sets the count). H: time against 1, 10 ...\n"
     "70 groups, one barrier; I: time against 10, 500 ... 3000 barriers at 70 groups (the\n"
     "first groups of --groups); J: state bytes at 10 ... 70 groups. Grids past the\n"
     "co-residency bound (on a CPU, past twice its cores) are left out; the median of 10\n"
     "runs (the thesis averaged 10).",
     BENCH_TIMED | OPT_GROUPS | OPT_ITERS | OPT_ITERS_LIST | OPT_COMPUTE | OPT_APPENDIX, NULL,
     bench_thesis, "groups", NULL, 0, 0},
    {"wgsize", "[options]",
     "The blog's stencil: 2048 work-items in groups of 1024, 64 and 32 (or --block).",
     BENCH_TIMED | OPT_ITERS, NULL, bench_wgsize, "groups", NULL, 0, 0},
    {"split", "[options]",
     "What the split-phase barrier hides: each protocol with --compute multiply-adds per\n"
     "work-item at every barrier, before gs_sync (rows sync) and between gs_arrive and\n"
     "gs_wait_token (rows split).",
     BENCH_TIMED | OPT_GROUPS | OPT_COMPUTE | OPT_ITERS, NULL, bench_split, "compute",
     bench_split_summary, 0, 0},
#ifdef GRIDSYNC_CLI_JACOBI /* the CLIs of the weakened libraries are built without the app */
    {"jacobi", "[options]",
     "apps/jacobi, a 5-point Jacobi solver, with every method at every grid, in each form\n"
     "(--form): sync, a barrier between iterations; split, a tile per group whose inner\n"
     "cells hide the barrier (cg: its barrier_arrive / barrier_wait); local, bands of rows\n"
     "that wait only for their neighbour bands (gridsync's local synchronization, no\n"
     "barrier: method auto alone, compared with the sync form's baselines); resident, the\n"
     "split form's tiles kept in group memory; halo, resident tiles whose halos travel in\n"
     "gridsync's tagged words, no barrier (auto alone, a cooperative launch on CUDA); each result\n"
     "must equal the host's bit for bit before it is timed. The methods of a grid run in\n"
     "rounds (--repeats), each round in a shuffled order; x_cg_pair (CSV and JSON paired_cg)\n"
     "is the median over the rounds of a method's time over cg's in the same round.",
     BENCH_TIMED | OPT_SIZES | OPT_GROUPS | OPT_ITERS | OPT_FORM, NULL, bench_jacobi, "groups",
     bench_jacobi_summary, 1, 0},
    {"sor", "[options]",
     "apps/sor, S lexicographic Gauss-Seidel/SOR sweeps of an N x N float grid in tiles\n"
     "(--tile) as a wavefront, every scheme: local (tickets, a progress word per tile, one\n"
     "ordinary launch of any grid), global (a persistent kernel, a barrier per wavefront\n"
     "step: auto, or the protocols --algo names), cg, relaunch, relaunch-graph. Default\n"
     "sizes (--sizes N:S) 512:4000 .. 8192:100 on a GPU, 66:20 elsewhere; each result must\n"
     "equal the host's bit for bit before it is timed; the summary gives local's speed-ups.\n"
     "The schemes of a grid run in rounds (--repeats), each round in a shuffled order;\n"
     "x_cg_pair (CSV and JSON paired_cg) is the median over the rounds of a scheme's time\n"
     "over cg's in the same round.",
     BENCH_TIMED | OPT_SIZES | OPT_GROUPS | OPT_ITERS | OPT_TILE, NULL, bench_sor, "groups",
     bench_sor_summary, 1, 1},
    {"stencil", "[options]",
     "apps/stencil, the blog's benchmark: a[i] += a[i+1] + a[i+2] (mod n), two barriers per\n"
     "iteration, 2048 work-items in groups of 1024, 64 and 32 (--block), every method;\n"
     "sizes 2048 x 500000 iterations and 2^20 elements x 1000 on a GPU, 2048 x 100 and\n"
     "2^20 x 2 elsewhere (--n N, --iters T, --sizes N:T,...). Each result must equal the\n"
     "host's element by element, and all elements each other, before it is timed; the\n"
     "blog's times are printed beside ours. The methods of a block size run in rounds\n"
     "(--repeats), each round in a shuffled order; x_cg_pair (CSV and JSON paired_cg) is the\n"
     "median over the rounds of a method's time over cg's in the same round.",
     BENCH_TIMED | OPT_SIZES | OPT_N | OPT_ITERS, NULL, bench_stencil, "groups",
     bench_stencil_summary, 1, 0},
    {"wavefront", "[options]",
     "apps/nw, Needleman-Wunsch (Rodinia's nw) in tiles of B x B, PeerWave's experiments:\n"
     "(size) the matrix from 2048 to 32768 (--matrix) at B = 16, (tile) B = 16/32/64 (--tile)\n"
     "at 16384 (the first --matrix), (granularity) the local scheme's flag per tile, per k\n"
     "tiles, per tile row, (schedule) anti-diagonal tickets against PeerWave's row\n"
     "allocation (--variants replaces both by one list). Schemes (--schemes: some of them):\n"
     "relaunch (a launch per anti-diagonal; CUDA: relaunch-graph), global (a grid barrier\n"
     "per diagonal, --algo, default auto; CUDA: cg), local (tickets and progress words),\n"
     "local-tagged (the same tickets, each tile's boundary in tagged words its neighbours\n"
     "poll directly; in the size and tile experiments). A persistent scheme runs as many\n"
     "groups as the longest diagonal has tiles, at most the co-resident count; in the size\n"
     "experiment on a GPU also the co-resident count and 10 x that (--groups sets them).\n"
     "On cpu and PoCL the sizes are 64 and 100. Each\n"
     "matrix must equal the host's cell for cell before it is timed. The configurations of\n"
     "a point (size and tile) run in rounds (--repeats), each round in a shuffled order,\n"
     "every one's matrix on the device at once.",
     BENCH_TIMED | OPT_MATRIX | OPT_TILE | OPT_VARIANTS | OPT_SCHEMES | OPT_GROUPS, NULL,
     bench_wavefront, "groups", bench_wavefront_summary, 1, 0},
    {"pi", "[options]",
     "apps/pi, the lecture's Pi program: midpoint integration of 4/(1+x^2) in double\n"
     "precision, a work-group reduction, then the groups' sums finished on the host, after\n"
     "a grid barrier, by the last group to take a ticket, and (CUDA) by CUB DeviceReduce.\n"
     "Steps 10^6 to 10^10 on a GPU, 10^4 to 10^7 elsewhere (--steps); every way must agree\n"
     "to 1e-12 relative; ms is the median of 15 to 201 runs (250 ms of them a way where they\n"
     "are short) after a warm-up, launch to pi on the host, the ways taking turns in rounds\n"
     "of a shuffled order; paired us is the median over the rounds of a way's time minus the\n"
     "host way's in the same round. One grid: every group resident (--groups N, --block a\n"
     "power of 2).",
     OPT_BACKEND | OPT_DEVICE | OPT_CSV | OPT_JSON | OPT_BLOCK | OPT_GROUPS | OPT_ONE_GROUPS |
         OPT_STEPS | OPT_TIMEOUT | OPT_QUICK,
     cmd_pi, NULL, NULL, NULL, 0, 0},
    {"multi", "[--devices LIST] [options]",
     "A grid barrier across devices (gridsync/multi.h): ns per barrier against ending the\n"
     "kernel on every device and waiting for all on the host. --devices lists the ranks'\n"
     "device indices (cuda: GPU ordinals, the same one twice for two ranks on a GPU;\n"
     "cpu: 0 as often as devices to emulate); default 1, 2, 4, 8 GPUs as present, or 1, 2\n"
     "and 4 emulated devices. --groups per device, default one and eight per SM within\n"
     "what fits beside the GPU's other ranks (cpu: 1 and 2). Each grid passes a\n"
     "message-passing check before it is timed; the median of --repeats launches.",
     OPT_BACKEND | OPT_DEVICES | OPT_GROUPS | OPT_BLOCK | OPT_ITERS | OPT_REPEATS | OPT_TIMEOUT |
         OPT_QUICK | OPT_CSV | OPT_JSON,
     cmd_multi, NULL, NULL, NULL, 0, 0},
#endif
};

/* gridsync demo NAME: the seeds' small programs, shown rather than timed. */
static const cli_command demos[] = {
#ifdef GRIDSYNC_CLI_JACOBI
    {"testsync", "[options]",
     "The blog's test_sync and test_nosync (apps/testsync): out[id] = tmp[N-1-id] after\n"
     "and without a grid barrier, printed a row per group, wrong elements counted. With\n"
     "the barrier the count must be 0; without it, it is reported. Default: the blog's\n"
     "10 groups of 16 (fewer where fewer fit); on a GPU also every resident block of 256.",
     OPT_BACKEND | OPT_DEVICE | OPT_GROUPS | OPT_ONE_GROUPS | OPT_BLOCK | OPT_TIMEOUT | OPT_CSV,
     cmd_testsync, NULL, NULL, NULL, 0, 0},
#endif
};

#define COUNT(a) (sizeof a / sizeof *a)

const cli_command *cli_command_find(const char *name, int bench)
{
    const cli_command *list = bench == CLI_DEMO ? demos : bench ? experiments : commands;
    unsigned n = bench == CLI_DEMO ? COUNT(demos) : bench ? COUNT(experiments) : COUNT(commands);
    for (unsigned i = 0; i < n; ++i)
        if (strcmp(list[i].name, name) == 0)
            return &list[i];
    return NULL;
}

void cli_usage(FILE *f)
{
    fprintf(f, "usage: gridsync help [info|check|bench|bench EXPERIMENT|algos]\n");
    for (unsigned i = 0; i < COUNT(commands); ++i)
        fprintf(f, "       gridsync %s %s\n", commands[i].name, commands[i].usage);
    fprintf(f, "       gridsync bench ");
    for (unsigned i = 0; i < COUNT(experiments); ++i)
        fprintf(f, "%s%s", i ? "|" : "", experiments[i].name);
    fprintf(f, " [options]\n       gridsync demo ");
    for (unsigned i = 0; i < COUNT(demos); ++i)
        fprintf(f, "%s%s", i ? "|" : "", demos[i].name);
    fprintf(f, " [options]\n"
               "A table goes to stdout, a row as soon as it is measured, progress to stderr.\n"
               "Exit status: 0 every row passed; 1 a row failed its check, timed out, was refused\n"
               "(more groups than fit; --allow-refused: not counted) or ended in an error, or an\n"
               "output file could not be written after the run (a full disk); 2 bad usage (an\n"
               "option another one makes do nothing among them), no device, no named protocol\n"
               "that runs on it, or an output file that cannot be written, all found before\n"
               "anything runs.\n");
}

static void help_one(const cli_command *c, int bench, FILE *f)
{
    fprintf(f, "usage: gridsync %s%s %s\n%s\noptions:\n",
            bench == CLI_DEMO ? "demo "
            : bench           ? "bench "
                              : "",
            c->name, c->usage, c->help);
    cli_options_help(c->takes, f);
    if (c->takes & OPT_ONE_GROUPS)
        fprintf(f, "  (--groups: one value here)\n");
}

static void help_algos(FILE *f)
{
#define GS_HELP_ALGO_(ID, name, value, text, desc) fprintf(f, "  %-15s %s\n", text, desc);
    fprintf(f, "protocols (--algo; gridsync info lists those each device runs):\n");
    GS_PROTOCOLS_ALL(GS_HELP_ALGO_)
#undef GS_HELP_ALGO_
}

int cli_help(int argc, char **argv, int first)
{
    const char *name = first < argc ? argv[first] : NULL;
    int bench = name && strcmp(name, "bench") == 0;
    if (bench || (name && strcmp(name, "demo") == 0))
        name = first + 1 < argc ? argv[first + 1] : NULL;
    /* `bench --help`, `demo -h`, `help help`: the list, as for no name */
    if (name &&
        (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0))
        name = NULL;
    if (name == NULL) {
        cli_usage(stdout);
        if (bench)
            for (unsigned i = 0; i < COUNT(experiments); ++i)
                fprintf(stdout, "\nbench %s: %s\n", experiments[i].name, experiments[i].help);
        return 0;
    }
    if (!bench && strcmp(name, "algos") == 0) {
        help_algos(stdout);
        return 0;
    }
    /* `help groups` as well as `help bench groups`: the names do not collide. */
    const cli_command *c = bench ? NULL : cli_command_find(name, 0);
    if (c == NULL && (c = cli_command_find(name, 1)) != NULL)
        bench = 1;
    if (c == NULL && (c = cli_command_find(name, CLI_DEMO)) != NULL)
        bench = CLI_DEMO;
    if (c == NULL) {
        fprintf(stderr, "gridsync: no help for '%s'\n", name);
        cli_usage(stderr);
        return 2;
    }
    help_one(c, bench, stdout);
    return 0;
}
