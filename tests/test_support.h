/* tests/test_support.h - what the gridsync tests share: the back end under test
 * (GS_TEST_BACKEND, default cpu) and opening its device or skipping. */
#ifndef GRIDSYNC_TEST_SUPPORT_H
#define GRIDSYNC_TEST_SUPPORT_H

#include <stdlib.h>
#include <string.h>

#include "gridsync.h"
#include "gridsync/run.h"

#define SKIP_CODE 77

static inline gs_backend test_backend(void)
{
    gs_backend b = GS_BACKEND_CPU;
    const char *env = getenv("GS_TEST_BACKEND");
    if (env && gs_backend_from_name(env, &b) != GS_OK)
        b = GS_BACKEND_CPU;
    return b;
}

/* Opens device 0 of the back end under test; exits 77 (CTest: skipped) without one. */
static inline gs_device *test_open_or_skip(void)
{
    gs_device *dev = NULL;
    gs_status s = gs_device_open(test_backend(), 0, &dev);
    if (s == GS_ERR_NO_DEVICE || s == GS_ERR_BACKEND_UNAVAILABLE) {
        fprintf(stderr, "no %s device: skipped\n", gs_backend_name(test_backend()));
        exit(SKIP_CODE);
    }
    if (s != GS_OK) {
        fprintf(stderr, "cannot open the %s device: %s\n", gs_backend_name(test_backend()),
                gs_status_string(s));
        exit(1);
    }
    return dev;
}

static inline unsigned test_env_uint(const char *name, unsigned fallback)
{
    const char *env = getenv(name);
    return env && *env ? (unsigned)strtoul(env, NULL, 10) : fallback;
}

#endif
