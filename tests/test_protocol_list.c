/* tests/test_protocol_list.c - the one list of protocols (gridsync/protocols.h) against
 * everything else that names a protocol: the enum and the names (gs_algo_name,
 * gs_algo_from_name), the protocol files and barrier.h's includes, and which back end
 * runs which. Argument: the source tree's root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gridsync.h"

static const char *root;

typedef struct entry {
    gs_algo algo;
    const char *name, *text;
    int shared, cuda_only;
} entry;

#define ENTRY_SHARED(ID, name, value, text, desc) {GS_ALGO_##ID, #name, text, 1, 0},
#define ENTRY_CUDA(ID, name, value, text, desc) {GS_ALGO_##ID, #name, text, 0, 1},
#define ENTRY_HOST(ID, name, value, text, desc) {GS_ALGO_##ID, #name, text, 0, 0},
static const entry entries[] = {GS_PROTOCOLS_SHARED(ENTRY_SHARED) GS_PROTOCOLS_CUDA(ENTRY_CUDA)
                                    GS_PROTOCOLS_HOST(ENTRY_HOST)};
#define N_ENTRIES (sizeof entries / sizeof *entries)

static char *slurp(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = calloc(1, (size_t)n + 1);
    if (text && fread(text, 1, (size_t)n, f) != (size_t)n)
        text[0] = '\0';
    fclose(f);
    return text;
}

static void values_and_names(void **state)
{
    int seen[GS_ALGO_COUNT_] = {0};
    assert_int_equal(N_ENTRIES, GS_ALGO_COUNT_); /* every value has an entry, none twice */
    for (unsigned i = 0; i < N_ENTRIES; ++i) {
        gs_algo back;
        assert_true((unsigned)entries[i].algo < GS_ALGO_COUNT_);
        assert_int_equal(seen[entries[i].algo]++, 0);
        assert_string_equal(gs_algo_name(entries[i].algo), entries[i].text);
        assert_int_equal(gs_algo_from_name(entries[i].text, &back), GS_OK);
        assert_int_equal(back, entries[i].algo);
    }
    assert_null(gs_algo_name(GS_ALGO_COUNT_));
}

static void files_and_includes(void **state)
{
    char *barrier = slurp("include/gridsync/barrier.h");
    char *cuda = slurp("include/gridsync/cuda.cuh");
    assert_non_null(barrier);
    assert_non_null(cuda);
    for (unsigned i = 0; i < N_ENTRIES; ++i) {
        char file[256], include[300];
        if (!entries[i].shared && !entries[i].cuda_only)
            continue;
        snprintf(file, sizeof file, "include/gridsync/barrier_%s.%s", entries[i].name,
                 entries[i].shared ? "h" : "cuh");
        char *text = slurp(file);
        if (!text)
            fail_msg("%s: no %s", entries[i].name, file);
        free(text);
        snprintf(include, sizeof include, "#include \"gridsync/barrier_%s.%s\"", entries[i].name,
                 entries[i].shared ? "h" : "cuh");
        if (!strstr(entries[i].shared ? barrier : cuda, include))
            fail_msg("%s: %s does not include it", entries[i].name,
                     entries[i].shared ? "barrier.h" : "cuda.cuh");
    }
    free(barrier);
    free(cuda);
}

static void which_back_end(void **state)
{
    gs_device *dev;
    assert_int_equal(gs_device_open(GS_BACKEND_CPU, 0, &dev), GS_OK);
    for (unsigned i = 0; i < N_ENTRIES; ++i) {
        int want = entries[i].shared || entries[i].algo == GS_ALGO_RELAUNCH ||
                   entries[i].algo == GS_ALGO_AUTO;
        if (gs_algo_supported(dev, entries[i].algo) != want)
            fail_msg("cpu: %s supported %d", entries[i].text, !want);
    }
    gs_device_close(dev);
}

int main(int argc, char **argv)
{
    root = argc > 1 ? argv[1] : ".";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(values_and_names),
        cmocka_unit_test(files_and_includes),
        cmocka_unit_test(which_back_end),
    };
    return cmocka_run_group_tests_name("protocol list", tests, NULL, NULL);
}
