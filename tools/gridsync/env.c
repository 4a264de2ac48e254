/* The environment variables the library reads. It ignores or refuses a bad value in its
 * own way (GRIDSYNC_BACKEND=bogus made gs_device_open fail with an invalid-argument
 * status that named no variable); the CLI names the variable before anything runs. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int bad(const char *name, const char *value, const char *takes)
{
    fprintf(stderr, "gridsync: environment variable %s='%s': it takes %s\n", name, value, takes);
    return -1;
}

/* An integer from min to max. */
static int in_range(const char *s, unsigned long min, unsigned long max)
{
    char *end;
    if (*s < '0' || *s > '9')
        return 0;
    unsigned long long v = strtoull(s, &end, 10);
    return *end == '\0' && v >= min && v <= max;
}

int cli_check_env(void)
{
    const char *v;
    gs_backend b;
    if ((v = getenv("GRIDSYNC_BACKEND")) && *v && gs_backend_from_name(v, &b) != GS_OK)
        return bad("GRIDSYNC_BACKEND", v, "auto, cpu, opencl or cuda");
    if ((v = getenv("GRIDSYNC_TIMEOUT_MS")) && *v && !in_range(v, 1, CLI_MAX_TIMEOUT_MS))
        return bad("GRIDSYNC_TIMEOUT_MS", v, "1 to 3600000 (milliseconds a barrier waits)");
    if ((v = getenv("GRIDSYNC_CL_ORDERING")) && *v && !in_range(v, 0, 2))
        return bad("GRIDSYNC_CL_ORDERING", v, "0, 1 or 2 (the OpenCL ordering forced)");
    if ((v = getenv("GRIDSYNC_RELEASE")) && *v && strcmp(v, "poll") != 0 && strcmp(v, "lines") != 0)
        return bad("GRIDSYNC_RELEASE", v, "poll or lines");
    if ((v = getenv("GRIDSYNC_CLUSTER_SIZE")) && *v && !in_range(v, 1, 16))
        return bad("GRIDSYNC_CLUSTER_SIZE", v, "1 to 16");
    /* The barrier options' variables (docs/using.md): the library ignores a bad one and
     * takes its default; a benchmark run with it would measure something else. */
    static const struct {
        const char *name;
        unsigned long min, max;
        const char *takes;
    } numbers[] = {
        {"GRIDSYNC_RELEASE_LINES", 0, 1024, "0 to 1024 (release lines)"},
        {"GRIDSYNC_TREE_FANOUT", 0, 1048576, "0 to 1048576 (groups a leaf)"},
        {"GRIDSYNC_BACKOFF_NS", 0, 1000000, "0 to 1000000 (ns)"},
        {"GRIDSYNC_BACKOFF_CAP_NS", 0, 1000000, "0 to 1000000 (ns)"},
        {"GRIDSYNC_SHARDS", 1, 1024, "1 to 1024 (counters)"},
    };
    for (unsigned i = 0; i < sizeof numbers / sizeof *numbers; ++i)
        if ((v = getenv(numbers[i].name)) && *v && !in_range(v, numbers[i].min, numbers[i].max))
            return bad(numbers[i].name, v, numbers[i].takes);
    return 0;
}
