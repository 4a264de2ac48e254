/* tests/cuda_check.h - the CUDA test programs' one check: counts passes and failures and
 * prints each failure with its place and condition (the programs end with the counts). */
#ifndef GRIDSYNC_TESTS_CUDA_CHECK_H
#define GRIDSYNC_TESTS_CUDA_CHECK_H

#include <cstdio>

static int g_pass, g_fail;

#define CHECK(cond, ...) CHECK_THAT((cond), #cond, __VA_ARGS__)
/* CHECK of a truth already evaluated, `text` the condition it came from. */
#define CHECK_THAT(ok, text, ...)                                 \
    do {                                                          \
        if (ok) {                                                 \
            ++g_pass;                                             \
        } else {                                                  \
            ++g_fail;                                             \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, text); \
            printf(__VA_ARGS__);                                  \
            printf("\n");                                         \
            fflush(stdout);                                       \
        }                                                         \
    } while (0)

#endif
