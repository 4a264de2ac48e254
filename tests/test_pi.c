/* The Pi program (apps/pi) on the back end under test (GS_TEST_BACKEND): every way gives
 * the same sum to 1e-12 relative and pi to the midpoint rule's accuracy, with one group
 * and several, with more work-items than steps; bad input is refused. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "appkit.h"
#include "pi.h"
#include "test_support.h"

#define GSP_TEST_PI 3.14159265358979323846

static gs_device *dev;
static gs_device_info info;

static unsigned group_size(void) { return info.backend == GS_BACKEND_CPU ? 4u : 16u; }

static double run(gsp_way way, uint64_t steps, unsigned groups)
{
    gsp_config cfg = {.steps = steps, .way = way, .groups = groups, .group_size = group_size()};
    gsp_result r;
    gs_status s = gsp_run(dev, &cfg, &r);
    printf("  %-8s %10llu steps, %u x %u: %s, pi %.15f%s%s\n", gsp_way_name(way),
           (unsigned long long)steps, groups, cfg.group_size, gs_status_string(s), r.pi,
           r.error[0] ? ": " : "", r.error);
    assert_int_equal(s, GS_OK);
    assert_true(r.ms > 0.0);
    return r.pi;
}

static void every_way_agrees(void **state)
{
    unsigned bound = 0;
    assert_int_equal(gsp_max_groups(dev, group_size(), &bound), GS_OK);
    unsigned many = bound < 4u ? bound : 4u;
    static const uint64_t steps[] = {1, 7, 1000, 1000003};
    for (unsigned k = 0; k < 4; ++k)
        for (unsigned groups = 1; groups <= many; groups += many > 1 ? many - 1 : 1) {
            double first = run(GSP_HOST, steps[k], groups);
            for (unsigned w = 1; w < GSP_WAYS; ++w)
                if (gsp_way_supported(dev, (gsp_way)w))
                    assert_true(fabs(run((gsp_way)w, steps[k], groups) - first) <= 1e-12 * first);
            /* the midpoint rule: one step is 4/(1 + 1/4) = 3.2; its error falls as 1/steps^2 */
            if (steps[k] == 1)
                assert_true(fabs(first - 3.2) < 1e-15);
            if (steps[k] == 1000003)
                assert_true(fabs(first - GSP_TEST_PI) < 1e-11);
        }
}

static void bad_input(void **state)
{
    gsp_result r;
    gsp_config ok = {.steps = 100, .way = GSP_HOST, .groups = 1, .group_size = group_size()};
    gsp_config c = ok;
    c.steps = 0;
    assert_int_equal(gsp_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c = ok;
    c.group_size = 3; /* not a power of two */
    assert_int_equal(gsp_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c = ok;
    c.groups = 0;
    assert_int_equal(gsp_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c = ok;
    c.way = GSP_WAYS;
    assert_int_equal(gsp_run(dev, &c, &r), GS_ERR_UNSUPPORTED);
    assert_int_equal(gsp_run(NULL, &ok, &r), GS_ERR_UNSUPPORTED);
    assert_int_equal(gsp_way_supported(dev, GSP_CUB), info.backend == GS_BACKEND_CUDA);
}

/* gsp_run_ways: every way in the same rounds, each with its own result and status; a bad
 * configuration among good ones refuses the whole call before anything runs. */
static void ways_in_rounds(void **state)
{
    gsp_config cfgs[GSP_WAYS];
    gsp_result res[GSP_WAYS];
    unsigned n = 0;
    for (unsigned w = 0; w < GSP_WAYS; ++w)
        if (gsp_way_supported(dev, (gsp_way)w))
            cfgs[n++] = (gsp_config){
                .steps = 100003, .way = (gsp_way)w, .groups = 2, .group_size = group_size()};
    assert_true(n >= 3);
    assert_int_equal(gsp_run_ways(dev, cfgs, n, res), GS_OK);
    for (unsigned i = 0; i < n; ++i) {
        assert_int_equal(res[i].status, GS_OK);
        assert_true(res[i].ms > 0.0);
        assert_true(fabs(res[i].pi - res[0].pi) <= 1e-12 * res[0].pi);
    }
    assert_true(fabs(res[0].pi - GSP_TEST_PI) < 1e-9);
    cfgs[n - 1].group_size = 6; /* not a power of two */
    assert_int_equal(gsp_run_ways(dev, cfgs, n, res), GS_ERR_INVALID_ARGUMENT);
    for (unsigned i = 0; i < n; ++i) /* nothing ran; the refusal is every way's */
        assert_true(res[i].ms == 0.0 && res[i].status == GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsp_run_ways(dev, cfgs, 0, res), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsp_run_ways(dev, NULL, 1, res), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsp_run_ways(dev, cfgs, 1, NULL), GS_ERR_INVALID_ARGUMENT);
}

/* paired_ms: each round's time minus the first configuration's in that round, their
 * median. A thousand times the steps takes longer in every round, and less than itself. */
static void paired_with_the_first(void **state)
{
    (void)state;
    gsp_config cfgs[2];
    gsp_result res[2];
    for (unsigned i = 0; i < 2; ++i)
        cfgs[i] = (gsp_config){.steps = i ? 10000000ull : 10000ull,
                               .way = GSP_HOST,
                               .groups = 2,
                               .group_size = group_size()};
    assert_int_equal(gsp_run_ways(dev, cfgs, 2, res), GS_OK);
    assert_true(res[0].paired_ms == 0.0);
    assert_true(res[1].paired_ms > 0.0);
    assert_true(res[1].paired_ms < res[1].ms);
}

/* appkit's round order, which the ways' rounds (and bench jacobi's) take: a permutation
 * every time, and not the same one every round. */
static void rounds_are_shuffled(void **state)
{
    (void)state;
    enum { N = 6, ROUNDS = 40 };
    unsigned seed = 0x9e3779b9u, order[N], first[N], differ = 0, firsts[N] = {0};
    for (unsigned r = 0; r < ROUNDS; ++r) {
        gsa_shuffle(order, N, &seed);
        unsigned seen = 0;
        for (unsigned i = 0; i < N; ++i) {
            assert_true(order[i] < N);
            seen |= 1u << order[i];
        }
        assert_int_equal(seen, (1u << N) - 1u);
        if (r == 0)
            memcpy(first, order, sizeof first);
        differ += memcmp(first, order, sizeof first) != 0;
        firsts[order[0]]++;
    }
    assert_true(differ > ROUNDS / 2);
    for (unsigned i = 0; i < N; ++i) /* every configuration is first now and then */
        assert_true(firsts[i] > 0);
    double v[] = {5.0, 1.0, 3.0};
    assert_true(gsa_median(v, 3) == 3.0);
    assert_true(gsa_median(v, 0) == 0.0);
}

int main(void)
{
    dev = test_open_or_skip();
    gs_device_get_info(dev, &info);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_input),           cmocka_unit_test(every_way_agrees),
        cmocka_unit_test(ways_in_rounds),      cmocka_unit_test(paired_with_the_first),
        cmocka_unit_test(rounds_are_shuffled),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    gs_device_close(dev);
    return failed;
}
