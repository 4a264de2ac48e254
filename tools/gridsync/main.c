/* gridsync: the command-line tool. */
#include <string.h>

#include "cli.h"

static int is_help(const char *a) { return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0; }

int main(int argc, char **argv)
{
    cli_options o;
    if (argc < 2) {
        cli_usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "help") == 0 || is_help(cmd))
        return cli_help(argc, argv, 2);
    int bench = strcmp(cmd, "bench") == 0 ? 1 : strcmp(cmd, "demo") == 0 ? CLI_DEMO : 0;
    if (bench && (argc < 3 || argv[2][0] == '-')) {
        if (argc >= 3 && is_help(argv[2]))
            return cli_help(argc, argv, 1);
        cli_usage(stderr);
        return 2;
    }
    const cli_command *c = cli_command_find(bench ? argv[2] : cmd, bench);
    if (c == NULL) {
        fprintf(stderr, "gridsync: unknown %s '%s'\n",
                bench == CLI_DEMO ? "demo"
                : bench           ? "experiment"
                                  : "command",
                bench ? argv[2] : cmd);
        cli_usage(stderr);
        return 2;
    }
    int first = bench ? 3 : 2;
    for (int i = first; i < argc; ++i)
        if (is_help(argv[i]))
            return cli_help(argc, argv, 1);
    if (cli_parse(argc, argv, first, &o) != 0 || cli_check_takes(c, &o) != 0 ||
        cli_check_env() != 0)
        return 2;
    return c->run ? cmd_bench(c, &o) : c->cmd(&o); /* bench pi: rows of its own */
}
