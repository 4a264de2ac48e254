/* gridsync: the command-line tool. */
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gridsync info  [--backend B]\n"
            "       gridsync check [--backend B] [--device N] [--algo LIST|all] [--quick]\n"
            "       gridsync bench groups|iters|memory|wgsize|split|jacobi [options]\n"
            "options:\n"
            "  --backend auto|cpu|opencl|cuda   --device N (index within the back end)\n"
            "  --algo LIST|all   central,lockfree,naive,flip,tree,sharded,cluster,cg,relaunch,\n"
            "                    relaunch-graph\n"
            "  --groups LIST     --block N      --iters N      --iters-list LIST\n"
            "  --compute LIST    (split: multiply-adds per work-item per barrier, >= 1)\n"
            "  --sizes N:T,...   (jacobi: N x N grid, T iterations; --iters T: default N's)\n"
            "  --repeats N (median of N, default 5)   --timeout-ms N   --quick\n"
            "  --csv FILE  --json FILE  --plot FILE.png\n"
            "A table goes to stdout, progress to stderr. Exit status: 0 all passed, 1 a check\n"
            "failed or timed out, 2 bad usage, no device, no named protocol that runs on it, or\n"
            "an output file that cannot be written.\n");
}

int cmd_check(const cli_options *o);

int main(int argc, char **argv)
{
    cli_options o;
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "bench") == 0) {
        if (argc < 3 || argv[2][0] == '-') {
            usage(stderr);
            return 2;
        }
        if (cli_parse(argc, argv, 3, &o) != 0)
            return 2;
        return cmd_bench(argv[2], &o);
    }
    if (cli_parse(argc, argv, 2, &o) != 0) {
        usage(stderr);
        return 2;
    }
    if (strcmp(cmd, "info") == 0)
        return cmd_info(&o);
    if (strcmp(cmd, "check") == 0)
        return cmd_check(&o);
    fprintf(stderr, "gridsync: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
