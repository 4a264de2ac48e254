/* test_sync (apps/testsync) on the back end under test (GS_TEST_BACKEND): with the
 * barrier every element is the mirrored group's number, at the blog's shape and others;
 * without it the kernel runs and its count is only consistent with what it returned;
 * bad input is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "testsync.h"
#include "test_support.h"

static gs_device *dev;

static void expect(unsigned groups, unsigned block, int sync)
{
    unsigned bound = 0;
    assert_int_equal(gs_device_max_groups(dev, block, &bound), GS_OK);
    if (groups > bound)
        groups = bound;
    int *out = malloc((size_t)groups * block * sizeof *out);
    unsigned long wrong = 99, counted = 0;
    char error[160];
    gst_config cfg = {groups, block, sync, 0};
    gs_status s = gst_run(dev, &cfg, out, &wrong, error);
    printf("  %s %u x %u: %s, %lu wrong %s\n", sync ? "sync" : "nosync", groups, block,
           gs_status_string(s), wrong, error);
    assert_int_equal(s, GS_OK);
    for (unsigned g = 0; g < groups; ++g)
        for (unsigned i = 0; i < block; ++i) {
            int v = out[g * block + i];
            counted += v != (int)(groups - 1 - g);
            assert_true(v == -1 || (v >= 0 && v < (int)groups)); /* stale or some group's */
        }
    assert_int_equal(counted, wrong);
    if (sync)
        assert_int_equal(wrong, 0);
    free(out);
}

static void sync_is_exact(void **state)
{
    expect(10, 16, 1); /* the blog's */
    expect(3, 5, 1);
    expect(1, 1, 1);
    expect(10, 16, 0);
}

static void bad_input(void **state)
{
    int out[4];
    unsigned long wrong;
    char error[160];
    gst_config c = {0, 4, 1, 0};
    assert_int_equal(gst_run(dev, &c, out, &wrong, error), GS_ERR_INVALID_ARGUMENT);
    c = (gst_config){1, 4, 1, 0};
    assert_int_equal(gst_run(NULL, &c, out, &wrong, error), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gst_run(dev, &c, NULL, &wrong, error), GS_ERR_INVALID_ARGUMENT);
}

int main(void)
{
    dev = test_open_or_skip();
    const struct CMUnitTest tests[] = {cmocka_unit_test(bad_input),
                                       cmocka_unit_test(sync_is_exact)};
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    gs_device_close(dev);
    return failed;
}
