/* The blog's stencil (apps/stencil) on the back end under test (GS_TEST_BACKEND): every
 * method computes exactly the sequential reference, from the blog's all-ones start and
 * from random values, with one element per work-item (the register path) and many (the
 * memory path); a wrong result is caught and not timed; bad input is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "stencil.h"
#include "test_support.h"

static gs_device *dev;
static gs_device_info info;

static unsigned group_size(void) { return info.backend == GS_BACKEND_CPU ? 4u : 16u; }

static void reference_is_the_update(void **state)
{
    enum { N = 7 };
    uint32_t a[N], one[N], two[N];
    gss_initial(N, 5, a);
    assert_int_equal(gss_reference(N, 1, 5, one), GS_OK);
    assert_int_equal(gss_reference(N, 2, 5, two), GS_OK);
    for (unsigned i = 0; i < N; ++i) {
        assert_true(one[i] == (uint32_t)(a[i] + a[(i + 1) % N] + a[(i + 2) % N]));
        assert_true(two[i] == (uint32_t)(one[i] + one[(i + 1) % N] + one[(i + 2) % N]));
    }
    /* the blog's start: all ones, then 3^t, wrapping at 2^32 */
    uint32_t blog[N], want = 1;
    assert_int_equal(gss_reference(N, 30, 0, blog), GS_OK);
    for (unsigned t = 0; t < 30; ++t)
        want *= 3u;
    for (unsigned i = 0; i < N; ++i)
        assert_true(blog[i] == want);
    /* n = 2: (i + 2) mod 2 is i */
    uint32_t pair[2];
    assert_int_equal(gss_reference(2, 1, 0, pair), GS_OK);
    assert_true(pair[0] == 3u && pair[1] == 3u);
}

static void expect_exact(gs_algo method, unsigned n, unsigned iters, unsigned seed, unsigned groups)
{
    unsigned bound = 0;
    assert_int_equal(gss_max_groups(dev, method, group_size(), &bound), GS_OK);
    if (groups > bound)
        groups = bound;
    gss_config cfg = {.n = n,
                      .iters = iters,
                      .seed = seed,
                      .method = method,
                      .groups = groups,
                      .group_size = group_size(),
                      .repeats = 1};
    gss_result r;
    gs_status s = gss_run(dev, &cfg, &r);
    printf("  %-15s n %-6u x %-3u seed %u, %u x %u: %s, %llu differ%s%s\n", gs_algo_name(method), n,
           iters, seed, groups, cfg.group_size, gs_status_string(s),
           (unsigned long long)r.mismatches, r.error[0] ? ": " : "", r.error);
    assert_int_equal(s, GS_OK);
    assert_int_equal(r.mismatches, 0);
    assert_int_equal(r.unequal, 0);
    assert_true(r.ms_median > 0.0);
}

static void every_method_is_exact(void **state)
{
    unsigned groups = info.backend == GS_BACKEND_CPU ? 4u : info.compute_units, n_ms = 0;
    for (unsigned a = 0; a <= GS_ALGO_COUNT_; ++a) {
        gs_algo m = a == GS_ALGO_COUNT_ ? GS_ALGO_AUTO : (gs_algo)a;
        if ((a == GS_ALGO_COUNT_ && (unsigned)GS_ALGO_AUTO < GS_ALGO_COUNT_) ||
            !gss_method_supported(dev, m))
            continue;
        ++n_ms;
        unsigned items = groups * group_size();
        expect_exact(m, items, 9, 0, groups);     /* one element each: the register path */
        expect_exact(m, items - 3, 9, 7, groups); /* some work-items idle */
        expect_exact(m, 1000, 6, 3, groups);      /* many each, through memory */
        expect_exact(m, 2, 5, 1, 1);              /* the smallest ring */
    }
    assert_true(n_ms >= 8); /* the six shared protocols, auto and relaunch at least */
}

/* A reference that differs in one element: FAIL, counted, not timed. */
static void a_wrong_result_fails(void **state)
{
    enum { N = 64, T = 4 };
    uint32_t ref[N];
    assert_int_equal(gss_reference(N, T, 0, ref), GS_OK);
    ref[17] += 1u;
    gss_config cfg = {.n = N,
                      .iters = T,
                      .method = GS_ALGO_FLIP,
                      .groups = 2,
                      .group_size = group_size(),
                      .repeats = 3,
                      .reference = ref};
    gss_result r;
    assert_int_equal(gss_run(dev, &cfg, &r), GS_ERR_CHECK_FAILED);
    assert_int_equal(r.mismatches, 1);
    assert_int_equal(r.unequal, 0); /* the device's result is right: all equal */
    assert_true(r.ms_median == 0.0);
    assert_non_null(strstr(r.error, "differ"));
}

/* The methods of one problem in interleaved rounds (gss_run_methods): each passes with its
 * statistics and its pairing with the first; one that fails its check drops out alone;
 * configurations of different problems are refused, all of them. */
static void methods_in_rounds(void **state)
{
    (void)state;
    enum { N = 64, T = 4, R = 5 };
    uint32_t wrong[N];
    assert_int_equal(gss_reference(N, T, 0, wrong), GS_OK);
    wrong[9] += 1u;
    const gs_algo ms[3] = {GS_ALGO_FLIP, GS_ALGO_RELAUNCH, GS_ALGO_AUTO};
    gss_config cfgs[3];
    for (unsigned i = 0; i < 3; ++i)
        cfgs[i] = (gss_config){.n = N,
                               .iters = T,
                               .method = ms[i],
                               .groups = 2,
                               .group_size = group_size(),
                               .repeats = R};
    gss_result res[3];
    assert_int_equal(gss_run_methods(dev, cfgs, 3, res), GS_OK);
    for (unsigned i = 0; i < 3; ++i) {
        assert_int_equal(res[i].status, GS_OK);
        assert_int_equal(res[i].mismatches, 0);
        assert_true(res[i].ms_min > 0 && res[i].ms_min <= res[i].ms_median &&
                    res[i].ms_median <= res[i].ms_max);
        /* the median of the rounds' ratios lies between the extremes of the ratio */
        assert_true(res[i].paired_ratio >= res[i].ms_min / res[0].ms_max * 0.999999);
        assert_true(res[i].paired_ratio <= res[i].ms_max / res[0].ms_min * 1.000001);
    }
    assert_true(res[0].paired_ratio == 1.0);
    assert_true(res[2].algo == GS_ALGO_FLIP || res[2].algo == GS_ALGO_TREE); /* auto, resolved */

    cfgs[1].reference = wrong; /* relaunch fails its check; flip and auto go on */
    assert_int_equal(gss_run_methods(dev, cfgs, 3, res), GS_ERR_CHECK_FAILED);
    assert_int_equal(res[1].status, GS_ERR_CHECK_FAILED);
    assert_int_equal(res[1].mismatches, 1);
    assert_true(res[1].ms_median == 0.0 && res[1].paired_ratio == 0.0);
    assert_int_equal(res[0].status, GS_OK);
    assert_int_equal(res[2].status, GS_OK);
    assert_true(res[2].ms_median > 0.0 && res[2].paired_ratio > 0.0);
    cfgs[1].reference = NULL;

    for (unsigned k = 0; k < 4; ++k) { /* n, iters, seed, repeats must agree */
        gss_config other[2] = {cfgs[0], cfgs[1]};
        if (k == 0)
            other[1].n = N + 1u;
        else if (k == 1)
            other[1].iters = T + 1u;
        else if (k == 2)
            other[1].seed = 5;
        else
            other[1].repeats = R + 1u;
        assert_int_equal(gss_run_methods(dev, other, 2, res), GS_ERR_INVALID_ARGUMENT);
        assert_int_equal(res[0].status, GS_ERR_INVALID_ARGUMENT);
        assert_int_equal(res[1].status, GS_ERR_INVALID_ARGUMENT);
    }
    assert_int_equal(gss_run_methods(dev, cfgs, 0, res), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gss_run_methods(dev, NULL, 2, res), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gss_run_methods(dev, cfgs, 2, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gss_run_methods(NULL, cfgs, 2, res), GS_ERR_UNSUPPORTED);
}

static void bad_input(void **state)
{
    gss_result r;
    gss_config ok = {
        .n = 16, .iters = 2, .method = GS_ALGO_FLIP, .groups = 1, .group_size = group_size()};
    gss_config c = ok;
    c.n = 1;
    assert_int_equal(gss_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c = ok;
    c.iters = 0;
    assert_int_equal(gss_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c = ok;
    c.groups = 0;
    assert_int_equal(gss_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gss_run(dev, NULL, &r), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gss_run(NULL, &ok, &r), GS_ERR_UNSUPPORTED);
    assert_int_equal(gss_reference(1, 1, 0, (uint32_t[1]){0}), GS_ERR_INVALID_ARGUMENT);
    if (info.backend != GS_BACKEND_CUDA) {
        c = ok;
        c.method = GS_ALGO_CG;
        assert_int_equal(gss_run(dev, &c, &r), GS_ERR_UNSUPPORTED);
        assert_false(gss_method_supported(dev, GS_ALGO_RELAUNCH_GRAPH));
    }
    unsigned bound;
    assert_int_equal(gss_max_groups(dev, GS_ALGO_FLIP, 0, &bound), GS_ERR_INVALID_ARGUMENT);
}

int main(void)
{
    dev = test_open_or_skip();
    gs_device_get_info(dev, &info);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reference_is_the_update), cmocka_unit_test(bad_input),
        cmocka_unit_test(a_wrong_result_fails),    cmocka_unit_test(methods_in_rounds),
        cmocka_unit_test(every_method_is_exact),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    gs_device_close(dev);
    return failed;
}
