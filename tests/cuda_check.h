/* tests/cuda_check.h - the CUDA test programs' one check: counts passes and failures and
 * prints each failure with its place and condition (the programs end with the counts). */
#ifndef GRIDSYNC_TESTS_CUDA_CHECK_H
#define GRIDSYNC_TESTS_CUDA_CHECK_H

#include <cstdio>

static int g_pass, g_fail;

#define CHECK(cond, ...)                                           \
    do {                                                           \
        if (cond) {                                                \
            ++g_pass;                                              \
        } else {                                                   \
            ++g_fail;                                              \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            printf(__VA_ARGS__);                                   \
            printf("\n");                                          \
            fflush(stdout);                                        \
        }                                                          \
    } while (0)

#endif
