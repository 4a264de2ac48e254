/* The environment variables the library reads. It ignores a bad value and keeps its
 * default (GRIDSYNC_BACKEND=bogus made gs_device_open fail with an invalid-argument
 * status that named no variable); the CLI names the variable and what it takes, from
 * the library's own table (gs_environment_check), before anything runs. */
#include <stdlib.h>

#include "cli.h"

int cli_check_env(void)
{
    const char *variable, *takes;
    if (gs_environment_check(&variable, &takes) == GS_OK)
        return 0;
    fprintf(stderr, "gridsync: environment variable %s='%s': it takes %s\n", variable,
            getenv(variable), takes);
    return -1;
}
