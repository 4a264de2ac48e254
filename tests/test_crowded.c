/* A grid at the cpu back end's bound: as many groups of one work-item as
 * gs_device_max_groups allows (4096 threads), on however few cores the machine has, at
 * the default timeout. A correct barrier must not time out there: with every waiter
 * yielding its core, Linux's scheduler let thousands of them run before a group that had
 * still to arrive, and message passing at 4096 groups of 1 on 2 cores timed out in every
 * run (gridsync bench groups --groups 4096 --block 1, flip and central); a long wait in so
 * crowded a grid now sleeps (gs_cpu_pause, gridsync/prims_cpu.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "test_support.h"

static gs_device *dev;

static void message_passing_at_the_bound(gs_algo algo)
{
    unsigned most = 0;
    gs_barrier *b;
    gs_run_result r;
    assert_int_equal(gs_device_max_groups(dev, 1, &most), GS_OK);
    assert_true(most >= 1024u); /* crowded: far more groups than cores */
    assert_int_equal(gs_barrier_create(dev, algo, most, &b), GS_OK);
    /* The bench's check: random delays and memory stress before every barrier. */
    gs_run_config mp = {.workload = GS_WORKLOAD_MP,
                        .groups = most,
                        .group_size = 1,
                        .iterations = test_env_uint("GS_TEST_CROWDED_ITERS", 300),
                        .seed = 0x5eed0000u + most,
                        .delay = 64,
                        .stress = 8};
    gs_status s = gs_run(b, &mp, &r);
    if (s != GS_OK)
        fprintf(stderr, "%s at %u groups of 1: %s\n", gs_algo_name(algo), most,
                gs_status_string(s));
    assert_int_equal(s, GS_OK);
    assert_int_equal(r.mismatches, 0);
    gs_barrier_destroy(b);
}

static void flip_at_the_bound(void **state)
{
    (void)state;
    message_passing_at_the_bound(GS_ALGO_FLIP);
}

static void central_at_the_bound(void **state)
{
    (void)state;
    message_passing_at_the_bound(GS_ALGO_CENTRAL);
}

int main(void)
{
    dev = test_open_or_skip();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(flip_at_the_bound),
        cmocka_unit_test(central_at_the_bound),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    gs_device_close(dev);
    return failed;
}
