/* The Jacobi app (apps/jacobi) on the back end under test (GS_TEST_BACKEND): every
 * method it runs there computes exactly the sequential reference, on grids that do not
 * divide evenly, with one group and several, an odd and an even number of iterations;
 * a wrong result is caught and not timed; bad input is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "jacobi.h"
#include "test_support.h"

static gs_device *dev;
static gs_device_info info;

/* Work-items per group: small teams on cpu, PoCL's 16 elsewhere. */
static unsigned group_size(void) { return info.backend == GS_BACKEND_CPU ? 4u : 16u; }

/* Every method the app runs on this device: the protocols, auto, the baselines. */
static unsigned methods(gs_algo *out)
{
    unsigned n = 0;
    for (unsigned a = 0; a < GS_ALGO_COUNT_; ++a)
        if (gsj_method_supported(dev, (gs_algo)a))
            out[n++] = (gs_algo)a;
    if ((unsigned)GS_ALGO_AUTO >= GS_ALGO_COUNT_ && gsj_method_supported(dev, GS_ALGO_AUTO))
        out[n++] = GS_ALGO_AUTO;
    return n;
}

static void reference_is_the_update(void **state)
{
    enum { N = 5 };
    float start[N * N], after1[N * N], after2[N * N];
    gsj_initial(N, 7, start);
    assert_int_equal(gsj_reference(N, 1, 7, after1), GS_OK);
    assert_int_equal(gsj_reference(N, 2, 7, after2), GS_OK);
    for (unsigned i = 0; i < N; ++i)
        for (unsigned j = 0; j < N; ++j) {
            unsigned c = i * N + j;
            if (i == 0 || j == 0 || i == N - 1 || j == N - 1) { /* edges keep their values */
                assert_true(after1[c] == start[c] && after2[c] == start[c]);
                continue;
            }
            float want = 0.25f * ((start[c - 1] + start[c + 1]) + (start[c - N] + start[c + N]));
            assert_true(after1[c] == want);
            want = 0.25f * ((after1[c - 1] + after1[c + 1]) + (after1[c - N] + after1[c + N]));
            assert_true(after2[c] == want);
        }
    /* not zeros, and another seed makes another grid */
    float other[N * N];
    gsj_initial(N, 8, other);
    assert_true(gsj_compare(start, other, N * N, NULL) > N * N / 2);
    assert_true(start[0] != 0.0f || start[1] != 0.0f);
}

/* One configuration of one method, checked (and timed once, checked again). */
static void expect_exact(gs_algo method, unsigned n, unsigned iters, unsigned groups)
{
    unsigned bound = 0;
    assert_int_equal(gsj_max_groups(dev, method, group_size(), &bound), GS_OK);
    if (groups > bound)
        groups = bound;
    gsj_config cfg = {.n = n,
                      .iters = iters,
                      .seed = n * 31u + iters,
                      .method = method,
                      .groups = groups,
                      .group_size = group_size(),
                      .repeats = 1};
    gsj_result r;
    gs_status s = gsj_run(dev, &cfg, &r);
    printf("  %-15s %3u^2 x %-3u %u x %u: %s, %llu cells differ, %.3f ms%s%s\n",
           gs_algo_name(method), n, iters, groups, cfg.group_size, gs_status_string(s),
           (unsigned long long)r.mismatches, r.ms_median, r.error[0] ? ": " : "", r.error);
    assert_int_equal(s, GS_OK);
    assert_int_equal(r.mismatches, 0);
    assert_true(r.ms_median > 0.0);
    if (method == GS_ALGO_AUTO)
        assert_true(r.algo == GS_ALGO_FLIP || r.algo == GS_ALGO_TREE);
}

static void every_method_is_exact(void **state)
{
    gs_algo ms[GS_ALGO_COUNT_ + 1];
    unsigned n_ms = methods(ms), groups = info.backend == GS_BACKEND_CPU ? 4u : info.compute_units;
    /* the six shared protocols, auto and relaunch at least */
    assert_true(n_ms >= 8);
    for (unsigned m = 0; m < n_ms; ++m) {
        expect_exact(ms[m], 37, 1, 1); /* one group, one iteration */
        expect_exact(ms[m], 37, 7, 2); /* odd T: the result is in the second buffer */
        expect_exact(ms[m], 37, 8,
                     groups);         /* even T, 35^2 cells over a grid that does not divide them */
        expect_exact(ms[m], 3, 5, 2); /* one interior cell: every work-item but one idles */
        expect_exact(ms[m], 64, 50, groups);
    }
}

/* A reference that differs in one cell: the check says FAIL, counts it, times nothing. */
static void a_wrong_result_fails(void **state)
{
    enum { N = 20, T = 6 };
    float ref[N * N];
    assert_int_equal(gsj_reference(N, T, 3, ref), GS_OK);
    ref[5 * N + 7] += 1.0f;
    gsj_config cfg = {.n = N,
                      .iters = T,
                      .seed = 3,
                      .method = GS_ALGO_RELAUNCH,
                      .groups = 1,
                      .group_size = group_size(),
                      .repeats = 3,
                      .reference = ref};
    gsj_result r;
    assert_int_equal(gsj_run(dev, &cfg, &r), GS_ERR_CHECK_FAILED);
    assert_int_equal(r.mismatches, 1);
    assert_true(r.max_abs_diff > 0.5);
    assert_true(r.ms_median == 0.0);
    assert_non_null(strstr(r.error, "differ"));
}

static void bad_input(void **state)
{
    gsj_result r;
    gsj_config ok = {
        .n = 16, .iters = 2, .method = GS_ALGO_FLIP, .groups = 1, .group_size = group_size()};
    gsj_config c = ok;
    c.n = 2;
    assert_int_equal(gsj_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c = ok;
    c.iters = 0;
    assert_int_equal(gsj_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c = ok;
    c.groups = 0;
    assert_int_equal(gsj_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsj_run(dev, NULL, &r), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsj_run(dev, &ok, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsj_run(NULL, &ok, &r), GS_ERR_UNSUPPORTED);
    assert_int_equal(gsj_reference(2, 1, 0, (float[4]){0}), GS_ERR_INVALID_ARGUMENT);
    if (info.backend != GS_BACKEND_CUDA) { /* CUDA-only baselines */
        c = ok;
        c.method = GS_ALGO_CG;
        assert_false(gsj_method_supported(dev, GS_ALGO_CG));
        assert_int_equal(gsj_run(dev, &c, &r), GS_ERR_UNSUPPORTED);
        assert_false(gsj_method_supported(dev, GS_ALGO_RELAUNCH_GRAPH));
    }
    unsigned bound;
    assert_int_equal(gsj_max_groups(dev, GS_ALGO_FLIP, 0, &bound), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsj_max_groups(dev, GS_ALGO_FLIP, 4, NULL), GS_ERR_INVALID_ARGUMENT);
}

int main(void)
{
    dev = test_open_or_skip();
    gs_device_get_info(dev, &info);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reference_is_the_update),
        cmocka_unit_test(bad_input),
        cmocka_unit_test(a_wrong_result_fails),
        cmocka_unit_test(every_method_is_exact),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    gs_device_close(dev);
    return rc;
}
