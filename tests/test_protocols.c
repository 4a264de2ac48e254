/* Every protocol of the back end under test (GS_TEST_BACKEND) runs the seeds'
 * programs and must reproduce the sequential reference exactly:
 *   test_sync (the blog's mirrored read), the stencil (element by element, and the
 *   blog's all-equal check), message passing with random delays and memory stress
 *   (with gs_sync, and in split phase with work between gs_arrive and gs_wait_token),
 *   and all three again on a logical grid 10 times larger than the device (virtual
 *   groups). Sizes come from the environment so CTest can run the same binary for
 *   cpu, tsan and OpenCL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "test_support.h"

static gs_device *dev;
static unsigned groups, block, mp_groups, mp_block, mp_episodes, stencil_steps;

static const gs_algo algos[] = {GS_ALGO_CENTRAL, GS_ALGO_LOCKFREE, GS_ALGO_NAIVE,  GS_ALGO_FLIP,
                                GS_ALGO_TREE,    GS_ALGO_RELAUNCH, GS_ALGO_SHARDED};

static void run_expect_ok(gs_algo algo, gs_run_config cfg, gs_run_result *r)
{
    gs_barrier *b = NULL;
    gs_status s = gs_barrier_create(dev, algo, cfg.groups, &b);
    assert_int_equal(s, GS_OK);
    s = gs_run(b, &cfg, r);
    if (s != GS_OK)
        fail_msg("%s, workload %d, %u groups of %u (%u logical): %s, %llu mismatches",
                 gs_algo_name(algo), (int)cfg.workload, cfg.groups, cfg.group_size,
                 cfg.logical_groups, gs_status_string(s), (unsigned long long)r->mismatches);
    assert_int_equal(r->mismatches, 0);
    gs_barrier_destroy(b);
}

static gs_algo algo_of(void **state)
{
    gs_algo a = *(const gs_algo *)*state;
    if (!gs_algo_supported(dev, a))
        skip();
    return a;
}

static void testsync(void **state)
{
    gs_run_result r;
    gs_run_config cfg = {GS_WORKLOAD_TESTSYNC, groups, block, 0, 0, 0, 0, 0};
    run_expect_ok(algo_of(state), cfg, &r);
    assert_true(r.reference_checked);
    assert_int_equal(r.barriers, 1);
}

static void stencil(void **state)
{
    gs_run_result r;
    gs_run_config ones = {GS_WORKLOAD_STENCIL, groups, block, stencil_steps, 0, 0, 0, 0};
    gs_run_config random = ones;
    random.seed = 0x5714c11u;
    run_expect_ok(algo_of(state), ones, &r);
    assert_true(r.all_equal);
    assert_true(r.reference_checked);
    run_expect_ok(algo_of(state), random, &r);
    assert_true(r.reference_checked);
    assert_int_equal(r.barriers, 2 * stencil_steps - 1);
}

static void message_passing(void **state)
{
    gs_algo a = algo_of(state);
    gs_run_result r;
    unsigned episodes = a == GS_ALGO_RELAUNCH ? 200 : mp_episodes;
    gs_run_config cfg = {GS_WORKLOAD_MP, mp_groups, mp_block, episodes, 0xabcdu, 32, 0, 4};
    run_expect_ok(a, cfg, &r);
    assert_int_equal(r.barriers, episodes);
    print_message("%s: %u episodes, %u groups of %u: %.1f us per barrier\n", gs_algo_name(a),
                  episodes, mp_groups, mp_block, r.elapsed_ns / 1e3 / episodes);
}

/* The split-phase form: independent work between gs_arrive and gs_wait_token must not
 * let any group read another's data before that group arrived. (PoCL 3.1 without a
 * group barrier ending gs_arrive: central and sharded failed this, flip and tree hung.) */
static void message_passing_split(void **state)
{
    gs_algo a = algo_of(state);
    gs_run_result r;
    unsigned episodes = a == GS_ALGO_RELAUNCH ? 200 : mp_episodes / 4;
    gs_run_config cfg = {.workload = GS_WORKLOAD_MP,
                         .groups = mp_groups,
                         .group_size = mp_block,
                         .iterations = episodes,
                         .seed = 0x5eedu,
                         .delay = 32,
                         .stress = 4,
                         .compute = 64,
                         .split = 1};
    run_expect_ok(a, cfg, &r);
    assert_int_equal(r.barriers, episodes);
}

/* Logical grids 10x the launched one: a barrier means every logical group finished. */
static void virtual_groups(void **state)
{
    gs_algo a = algo_of(state);
    gs_run_result r;
    gs_run_config ts = {GS_WORKLOAD_TESTSYNC, groups, block, 0, 0, 0, 10 * groups, 0};
    gs_run_config st = {GS_WORKLOAD_STENCIL, groups, block, 20, 99, 0, 10 * groups, 0};
    gs_run_config mp = {GS_WORKLOAD_MP, groups, block, 300, 3, 16, 10 * groups, 2};
    run_expect_ok(a, ts, &r);
    run_expect_ok(a, st, &r);
    run_expect_ok(a, mp, &r);
}

static int setup(void **state)
{
    dev = test_open_or_skip();
    unsigned bound = 0;
    gs_device_info info;
    gs_device_get_info(dev, &info);
    block = test_env_uint("GS_TEST_BLOCK", info.backend == GS_BACKEND_CPU ? 4 : 16);
    if (gs_device_max_groups(dev, block, &bound) != GS_OK)
        return -1;
    groups = test_env_uint("GS_TEST_GROUPS", bound < 8 ? bound : 8);
    mp_groups = test_env_uint("GS_TEST_MP_GROUPS", groups < 4 ? groups : 4);
    mp_block = test_env_uint("GS_TEST_MP_BLOCK", 1);
    mp_episodes = test_env_uint("GS_TEST_MP_EPISODES", 100000);
    stencil_steps = test_env_uint("GS_TEST_STENCIL_STEPS", 64);
    print_message(
        "%s device %s: %u groups of %u (bound %u); message passing %u x %u, %u episodes\n",
        gs_backend_name(info.backend), info.name, groups, block, bound, mp_groups, mp_block,
        mp_episodes);
    return 0;
}

static int teardown(void **state)
{
    gs_device_close(dev);
    return 0;
}

#define T(fn, i, name)                                  \
    {                                                   \
#fn "/" name, fn, NULL, NULL, (void *)&algos[i] \
    }
#define PER_ALGO(fn)                                                                \
    T(fn, 0, "central"), T(fn, 1, "lockfree"), T(fn, 2, "naive"), T(fn, 3, "flip"), \
        T(fn, 4, "tree"), T(fn, 5, "relaunch"), T(fn, 6, "sharded")

int main(void)
{
    const struct CMUnitTest tests[] = {PER_ALGO(testsync), PER_ALGO(stencil),
                                       PER_ALGO(message_passing), PER_ALGO(message_passing_split),
                                       PER_ALGO(virtual_groups)};
    return cmocka_run_group_tests_name(gs_backend_name(test_backend()), tests, setup, teardown);
}
