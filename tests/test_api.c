/* The host API on bad input: every call answers a documented status, promptly, and
 * never crashes. Runs on the back end under test (GS_TEST_BACKEND). */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "test_support.h"
#include "gridsync/host_local.h"

static gs_device *dev;

/* The library a program runs with is the one its headers describe. */
static void version_matches_headers(void **unused)
{
    (void)unused;
    assert_int_equal(gs_version(), GRIDSYNC_VERSION);
    assert_int_equal(GRIDSYNC_VERSION / 10000, GRIDSYNC_VERSION_MAJOR);
}

static void names_round_trip(void **state)
{
    for (unsigned a = 0; a < GS_ALGO_COUNT_; ++a) {
        gs_algo back;
        assert_non_null(gs_algo_name((gs_algo)a));
        assert_int_equal(gs_algo_from_name(gs_algo_name((gs_algo)a), &back), GS_OK);
        assert_int_equal(back, a);
    }
    assert_null(gs_algo_name(GS_ALGO_COUNT_));
    gs_algo a;
    assert_int_equal(gs_algo_from_name("bogus", &a), GS_ERR_UNKNOWN_ALGO);
    assert_int_equal(gs_algo_from_name(NULL, &a), GS_ERR_INVALID_ARGUMENT);
    gs_backend b;
    assert_int_equal(gs_backend_from_name("opencl", &b), GS_OK);
    assert_int_equal(b, GS_BACKEND_OPENCL);
    assert_int_equal(gs_backend_from_name("vulkan", &b), GS_ERR_INVALID_ARGUMENT);
    for (unsigned k = GS_BACKEND_AUTO; k <= GS_BACKEND_CUDA; ++k) {
        assert_int_equal(gs_backend_from_name(gs_backend_name((gs_backend)k), &b), GS_OK);
        assert_int_equal(b, k);
    }
    assert_null(gs_backend_name((gs_backend)99));
    assert_true(gs_backend_built(GS_BACKEND_CPU));
    assert_true(gs_backend_built(GS_BACKEND_AUTO));
    assert_false(gs_backend_built((gs_backend)99));
    for (int s = 0; s <= GS_ERR_SMALL_BUFFER; ++s)
        assert_non_null(strstr(gs_status_string((gs_status)s), "GS_"));
    assert_string_equal(gs_status_string((gs_status)999), "unknown gs_status");
}

static void null_handles(void **state)
{
    gs_barrier *b;
    gs_device_info info;
    size_t bytes;
    unsigned u;
    gs_run_config cfg = {GS_WORKLOAD_TESTSYNC, 1, 1, 0, 0, 0, 0, 0};
    gs_run_result r;
    gs_abort_info ai;
    void *p;
    assert_int_equal(gs_device_open(GS_BACKEND_CPU, 0, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_device_close(NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_device_get_info(NULL, &info), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_device_max_groups(NULL, 64, &u), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_barrier_create(NULL, GS_ALGO_FLIP, 1, &b), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_FLIP, 1, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_barrier_destroy(NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_barrier_state_bytes(NULL, &bytes), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_barrier_set_timeout(NULL, 10), GS_ERR_INVALID_ARGUMENT);
    unsigned ms;
    assert_int_equal(gs_barrier_get_timeout(NULL, &ms), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_barrier_reset(NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_barrier_abort_info(NULL, &ai), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_barrier_native(NULL, &p), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_run(NULL, &cfg, &r), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_device_native_error(NULL, NULL, NULL), GS_ERR_INVALID_ARGUMENT);
}

static void bad_counts(void **state)
{
    gs_barrier *b;
    gs_run_result r;
    unsigned u;
    assert_int_equal(gs_device_open((gs_backend)42, 0, &(gs_device *){0}), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_device_open(GS_BACKEND_CPU, -1, &(gs_device *){0}),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_device_open(GS_BACKEND_CPU, 7, &(gs_device *){0}), GS_ERR_NO_DEVICE);
    assert_int_equal(gs_device_max_groups(dev, 0, &u), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_device_max_groups(dev, 1u << 20, &u), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_FLIP, 0, &b), GS_ERR_INVALID_ARGUMENT);
    assert_null(b);
    assert_int_equal(gs_barrier_create(dev, (gs_algo)99, 4, &b), GS_ERR_UNKNOWN_ALGO);
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_FLIP, 2, &b), GS_OK);
    unsigned ms = 0;
    assert_int_equal(gs_barrier_get_timeout(b, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_barrier_get_timeout(b, &ms), GS_OK);
    assert_true(ms >= 1u && ms <= 3600000u);
    assert_int_equal(gs_barrier_set_timeout(b, 0), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_barrier_set_timeout(b, 3600001u), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_barrier_get_timeout(b, &ms), GS_OK); /* a refused value changes nothing */
    assert_true(ms >= 1u && ms <= 3600000u);
    assert_int_equal(gs_barrier_set_timeout(b, 1234u), GS_OK);
    assert_int_equal(gs_barrier_get_timeout(b, &ms), GS_OK);
    assert_int_equal(ms, 1234u);
    gs_run_config zero_size = {GS_WORKLOAD_TESTSYNC, 2, 0, 0, 0, 0, 0, 0};
    gs_run_config zero_groups = {GS_WORKLOAD_TESTSYNC, 0, 4, 0, 0, 0, 0, 0};
    gs_run_config wrong_groups = {GS_WORKLOAD_TESTSYNC, 3, 4, 0, 0, 0, 0, 0};
    gs_run_config bad_work = {(gs_workload)77, 2, 4, 0, 0, 0, 0, 0};
    gs_run_config fewer_logical = {GS_WORKLOAD_TESTSYNC, 2, 4, 0, 0, 0, 1, 0};
    gs_run_config no_steps = {GS_WORKLOAD_STENCIL, 2, 4, 0, 0, 0, 0, 0};
    gs_run_config huge_block = {GS_WORKLOAD_TESTSYNC, 2, 1u << 20, 0, 0, 0, 0, 0};
    gs_run_config bad_split = {
        .workload = GS_WORKLOAD_MP, .groups = 2, .group_size = 4, .iterations = 4, .split = 2};
    gs_run_config huge_compute = {.workload = GS_WORKLOAD_MP,
                                  .groups = 2,
                                  .group_size = 4,
                                  .iterations = 4,
                                  .compute = GS_MAX_COMPUTE + 1u};
    assert_int_equal(gs_run(b, &zero_size, &r), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_run(b, &zero_groups, &r), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_run(b, &wrong_groups, &r), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_run(b, &bad_work, &r), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_run(b, &fewer_logical, &r), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_run(b, &no_steps, &r), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_run(b, &huge_block, &r), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_run(b, &bad_split, &r), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_run(b, &huge_compute, &r), GS_ERR_INVALID_ARGUMENT);
    huge_compute.compute = GS_MAX_COMPUTE; /* the largest allowed amount is taken */
    huge_compute.iterations = 1;
    assert_int_equal(gs_run(b, &huge_compute, &r), GS_OK);
    gs_barrier_destroy(b);
}

/* A failed open leaves *out NULL, whatever the failure: a caller that closes what it
 * got back, or tests it against NULL, must not meet its own stale pointer. */
static void failed_open_clears_out(void **state)
{
    gs_device *stale = (gs_device *)&stale;
    gs_device *out = stale;
    assert_int_equal(gs_device_open(GS_BACKEND_CPU, -1, &out), GS_ERR_INVALID_ARGUMENT);
    assert_null(out);
    out = stale;
    assert_int_equal(gs_device_open(GS_BACKEND_AUTO, -5, &out), GS_ERR_INVALID_ARGUMENT);
    assert_null(out);
    out = stale;
    assert_int_equal(gs_device_open((gs_backend)42, 0, &out), GS_ERR_INVALID_ARGUMENT);
    assert_null(out);
    out = stale;
    assert_int_equal(gs_device_open(GS_BACKEND_CPU, 7, &out), GS_ERR_NO_DEVICE);
    assert_null(out);
}

/* Message passing's idling and stress are bounded per work-item (GS_MAX_DELAY,
 * GS_MAX_STRESS, GS_MAX_LATE), so one phase's work stays a small part of a timeout:
 * above a bound, GS_ERR_INVALID_ARGUMENT before anything runs. (delay UINT_MAX made
 * the kernel divide by delay + 1 = 0: SIGFPE; stress 2^26 ran 2.8 s past a 200 ms
 * timeout.) The bounds themselves run. */
static void run_ranges(void **state)
{
    gs_barrier *b;
    gs_run_result r;
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_FLIP, 2, &b), GS_OK);
    assert_int_equal(gs_barrier_set_timeout(b, 2000), GS_OK);
    const gs_run_config mp = {
        .workload = GS_WORKLOAD_MP, .groups = 2, .group_size = 4, .iterations = 3, .seed = 9};
    gs_run_config c = mp;
    c.delay = UINT_MAX;
    assert_int_equal(gs_run(b, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c.delay = GS_MAX_DELAY + 1u;
    assert_int_equal(gs_run(b, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c = mp;
    c.stress = UINT_MAX;
    assert_int_equal(gs_run(b, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c.stress = GS_MAX_STRESS + 1u;
    assert_int_equal(gs_run(b, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c = mp;
    c.late = UINT_MAX;
    assert_int_equal(gs_run(b, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c.late = GS_MAX_LATE + 1u;
    assert_int_equal(gs_run(b, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c = mp;
    c.delay = GS_MAX_DELAY;
    c.stress = GS_MAX_STRESS;
    c.late = GS_MAX_LATE;
    assert_int_equal(gs_run(b, &c, &r), GS_OK);
    assert_int_equal(r.mismatches, 0);
    gs_barrier_destroy(b);
}

/* Message passing on a virtual grid reads, per group and phase, a word of every
 * logical group for each of its share of them: quadratic in logical_groups. A logical
 * grid of 2^26 groups of 1 on 8 groups ran for hours (found by test_fuzz); past
 * GS_MAX_MP_READS it is refused before anything runs, and the bound itself runs. */
static void mp_virtual_bound(void **state)
{
    gs_barrier *b;
    gs_run_result r;
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_FLIP, 2, &b), GS_OK);
    assert_int_equal(gs_barrier_set_timeout(b, 2000), GS_OK);
    gs_run_config mp = {.workload = GS_WORKLOAD_MP,
                        .groups = 2,
                        .group_size = 1,
                        .iterations = 1,
                        .seed = 3,
                        .logical_groups = 1u << 14};
    assert_int_equal(gs_run(b, &mp, &r), GS_ERR_INVALID_ARGUMENT); /* 2^13 x 2^14 reads */
    mp.logical_groups = 1u << 26;
    assert_int_equal(gs_run(b, &mp, &r), GS_ERR_INVALID_ARGUMENT);
    mp.logical_groups = 2896; /* 1448 x 2896 = 4,193,408 reads: just under 2^22 */
    assert_int_equal(gs_run(b, &mp, &r), GS_OK);
    assert_int_equal(r.mismatches, 0);
    gs_run_config ts = mp; /* the other programs are linear in logical_groups */
    ts.workload = GS_WORKLOAD_TESTSYNC;
    ts.logical_groups = 1u << 14;
    assert_int_equal(gs_run(b, &ts, &r), GS_OK);
    gs_barrier_destroy(b);
}

/* A barrier's grid is its groups; the group size may change from one launch to the
 * next. naive's counter counts work-items, so a state left by 4 work-items per group
 * released a launch of 1 per group early (the stencil read unwritten values:
 * GS_ERR_CHECK_FAILED), and one left by 1 per group never released 4 (GS_ERR_TIMEOUT).
 * Found by test_fuzz. Every protocol, both ways. */
static void other_group_size(void **state)
{
    static const unsigned sizes[][2] = {{4, 1}, {1, 4}, {2, 3}};
    for (unsigned a = 0; a < GS_ALGO_COUNT_; ++a) {
        if (!gs_algo_supported(dev, (gs_algo)a))
            continue;
        for (unsigned k = 0; k < sizeof sizes / sizeof *sizes; ++k) {
            gs_barrier *b;
            gs_run_result r;
            assert_int_equal(gs_barrier_create(dev, (gs_algo)a, 2, &b), GS_OK);
            assert_int_equal(gs_barrier_set_timeout(b, 2000), GS_OK);
            gs_run_config mp = {.workload = GS_WORKLOAD_MP,
                                .groups = 2,
                                .group_size = sizes[k][0],
                                .iterations = 8,
                                .seed = 5};
            gs_run_config st = {.workload = GS_WORKLOAD_STENCIL,
                                .groups = 2,
                                .group_size = sizes[k][1],
                                .iterations = 5,
                                .seed = 7};
            assert_int_equal(gs_run(b, &mp, &r), GS_OK);
            gs_status s = gs_run(b, &st, &r);
            if (s != GS_OK)
                fail_msg("%s: %u work-items per group after %u: %s, %llu mismatches",
                         gs_algo_name((gs_algo)a), sizes[k][1], sizes[k][0], gs_status_string(s),
                         (unsigned long long)r.mismatches);
            gs_barrier_destroy(b);
        }
    }
}

/* Vendor-only protocols are refused where they do not exist. */
static void unsupported(void **state)
{
    gs_barrier *b;
    gs_device_info info;
    gs_device_get_info(dev, &info);
    if (info.backend == GS_BACKEND_CUDA)
        skip();
    assert_false(gs_algo_supported(dev, GS_ALGO_CG));
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_CG, 2, &b), GS_ERR_UNSUPPORTED);
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_CLUSTER, 2, &b), GS_ERR_UNSUPPORTED);
}

/* One group more than can be co-resident is refused before anything runs. */
static void too_many_groups(void **state)
{
    unsigned bound, block = 4;
    gs_barrier *b;
    gs_run_result r;
    assert_int_equal(gs_device_max_groups(dev, block, &bound), GS_OK);
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_CENTRAL, bound + 1, &b), GS_OK);
    gs_run_config cfg = {GS_WORKLOAD_TESTSYNC, bound + 1, block, 0, 0, 0, 0, 0};
    assert_int_equal(gs_run(b, &cfg, &r), GS_ERR_TOO_MANY_GROUPS);
    gs_barrier_destroy(b);
    /* The relaunch baseline needs no co-residency: the same grid runs. */
    if (bound + 1 <= 64) {
        assert_int_equal(gs_barrier_create(dev, GS_ALGO_RELAUNCH, bound + 1, &b), GS_OK);
        assert_int_equal(gs_run(b, &cfg, &r), GS_OK);
        gs_barrier_destroy(b);
    }
}

/* The cpu back end starts a thread per work-item, for the relaunch baseline too (a new
 * grid per phase): one launch is bounded by the same thread budget as every other,
 * though its groups need not be co-resident. (OpenCL's and CUDA's relaunch have no such
 * bound: the device queues the groups.) */
static void relaunch_thread_budget(void **state)
{
    unsigned bound, block = 2;
    gs_barrier *b;
    gs_run_result r;
    gs_device_info info;
    gs_device_get_info(dev, &info);
    if (info.backend != GS_BACKEND_CPU)
        skip();
    assert_int_equal(gs_device_max_groups(dev, block, &bound), GS_OK);
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_RELAUNCH, bound + 1, &b), GS_OK);
    gs_run_config cfg = {GS_WORKLOAD_TESTSYNC, bound + 1, block, 0, 0, 0, 0, 0};
    assert_int_equal(gs_run(b, &cfg, &r), GS_ERR_TOO_MANY_GROUPS);
    gs_barrier_destroy(b);
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_RELAUNCH, bound, &b), GS_OK);
    cfg.groups = bound; /* the budget itself runs */
    assert_int_equal(gs_run(b, &cfg, &r), GS_OK);
    gs_barrier_destroy(b);
}

/* A device is not closed under a barrier or a local state made on it (GS_ERR_BUSY), where
 * closing it freed what the barrier's destroy then used (heap use after free). */
static void close_refused_while_held(void **state)
{
    gs_device *d;
    gs_barrier *b;
    gs_local *L;
    gs_device_info info;
    assert_int_equal(gs_device_get_info(dev, &info), GS_OK);
    assert_int_equal(gs_device_open(info.backend, 0, &d), GS_OK);
    assert_int_equal(gs_barrier_create(d, GS_ALGO_FLIP, 2, &b), GS_OK);
    assert_int_equal(gs_local_create(d, 4, &L), GS_OK);
    assert_int_equal(gs_device_close(d), GS_ERR_BUSY);
    assert_int_equal(gs_barrier_destroy(b), GS_OK);
    assert_int_equal(gs_device_close(d), GS_ERR_BUSY);
    assert_int_equal(gs_local_destroy(L), GS_OK);
    assert_int_equal(gs_device_close(d), GS_OK);
}

/* A collect with no launch since the barrier was made or reset has nothing to read: GS_OK,
 * and the next launch runs (it gave GS_ERR_BAD_STATE and made the launch after it
 * GS_ERR_NEEDS_RESET). */
static void collect_before_any_launch(void **state)
{
    gs_barrier *b;
    gs_run_result r;
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_CENTRAL, 2, &b), GS_OK);
    assert_int_equal(gs_barrier_collect(b), GS_OK);
    assert_int_equal(gs_barrier_collect(b), GS_OK);
    gs_run_config cfg = {GS_WORKLOAD_TESTSYNC, 2, 2, 0, 0, 0, 0, 0};
    assert_int_equal(gs_run(b, &cfg, &r), GS_OK);
    assert_int_equal(gs_barrier_reset(b), GS_OK);
    assert_int_equal(gs_barrier_collect(b), GS_OK);
    assert_int_equal(gs_run(b, &cfg, &r), GS_OK);
    gs_barrier_destroy(b);
}

/* More groups than any launch of the back end can have (cpu: one thread per work-item,
 * GS_CPU_MAX_THREADS in all) is refused when the barrier is made, not after gigabytes of
 * state (2^24 groups: 2.3 GB, 20-35 s). */
static void create_past_every_launch(void **state)
{
    gs_device_info info;
    gs_barrier *b = NULL;
    unsigned bound = 0;
    assert_int_equal(gs_device_get_info(dev, &info), GS_OK);
    if (info.backend != GS_BACKEND_CPU)
        skip();
    assert_int_equal(gs_device_max_groups(dev, 1, &bound), GS_OK);
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_FLIP, bound + 1, &b), GS_ERR_TOO_MANY_GROUPS);
    assert_null(b);
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_FLIP, GS_MAX_GROUPS, &b),
                     GS_ERR_TOO_MANY_GROUPS);
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_FLIP, bound, &b), GS_OK);
    gs_barrier_destroy(b);
}

static void state_bytes_grow_with_groups(void **state)
{
    gs_barrier *b;
    size_t small, large;
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_LOCKFREE, 10, &b), GS_OK);
    assert_int_equal(gs_barrier_state_bytes(b, &small), GS_OK);
    gs_barrier_destroy(b);
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_LOCKFREE, 70, &b), GS_OK);
    assert_int_equal(gs_barrier_state_bytes(b, &large), GS_OK);
    gs_barrier_destroy(b);
    assert_true(small >= 10 * 128 && large > small);
}

/* auto is flip up to GS_AUTO_FLIP_PER_CU groups per compute unit and the tree above, as
 * gridsync/protocols.h documents, on every back end. */
static void auto_by_groups_per_unit(void **state)
{
    (void)state;
    gs_device_info info;
    assert_int_equal(gs_device_get_info(dev, &info), GS_OK);
    unsigned cus = info.compute_units ? info.compute_units : 1u,
             flip_most = GS_AUTO_FLIP_PER_CU * cus;
    const struct {
        unsigned groups;
        gs_algo chosen;
    } cases[] = {{1u, GS_ALGO_FLIP}, {flip_most, GS_ALGO_FLIP}, {flip_most + 1u, GS_ALGO_TREE}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        gs_barrier *b = NULL;
        gs_algo algo = GS_ALGO_AUTO;
        assert_int_equal(gs_barrier_create(dev, GS_ALGO_AUTO, cases[i].groups, &b), GS_OK);
        assert_int_equal(gs_barrier_get_algo(b, &algo), GS_OK);
        assert_int_equal(algo, cases[i].chosen);
        assert_int_equal(gs_barrier_destroy(b), GS_OK);
    }
}

/* OpenCL: occupancy discovery finds the groups that run at once (PoCL: its workers,
 * which it also reports as compute units); elsewhere the bound is exact already. */
static void discovery(void **state)
{
    gs_device_info info;
    unsigned found = 0;
    gs_device_get_info(dev, &info);
    assert_int_equal(gs_device_discover_groups(dev, 0, &found), GS_ERR_INVALID_ARGUMENT);
    gs_status s = gs_device_discover_groups(dev, 16, &found);
    if (info.backend != GS_BACKEND_OPENCL) {
        assert_int_equal(s, GS_ERR_UNSUPPORTED);
        return;
    }
    assert_int_equal(s, GS_OK);
    print_message("discovered %u co-resident work-groups (%u compute units)\n", found,
                  info.compute_units);
    if (!info.is_gpu)
        assert_int_equal(found, info.compute_units);
    else
        assert_true(found >= 1);
}

static int setup(void **state)
{
    dev = test_open_or_skip();
    return 0;
}

static int teardown(void **state)
{
    gs_device_close(dev);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(version_matches_headers),
        cmocka_unit_test(names_round_trip),
        cmocka_unit_test(null_handles),
        cmocka_unit_test(bad_counts),
        cmocka_unit_test(unsupported),
        cmocka_unit_test(too_many_groups),
        cmocka_unit_test(state_bytes_grow_with_groups),
        cmocka_unit_test(auto_by_groups_per_unit),
        cmocka_unit_test(discovery),
        cmocka_unit_test(failed_open_clears_out),
        cmocka_unit_test(relaunch_thread_budget),
        cmocka_unit_test(run_ranges),
        cmocka_unit_test(other_group_size),
        cmocka_unit_test(mp_virtual_bound),
        cmocka_unit_test(close_refused_while_held),
        cmocka_unit_test(collect_before_any_launch),
        cmocka_unit_test(create_past_every_launch),
    };
    return cmocka_run_group_tests_name("api", tests, setup, teardown);
}
