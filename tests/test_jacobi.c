/* The Jacobi app (apps/jacobi) on the back end under test (GS_TEST_BACKEND): every
 * method it runs there computes exactly the sequential reference, in every form, on
 * grids that do not divide evenly, with one group and several, an odd and an even
 * number of iterations; the split form's tiles partition the interior as its proof
 * needs, and it stays exact with one group, a prime count (bands), tiles without inner
 * cells, one cell wide, empty, or smaller than the group (the resident form keeps the
 * same tiles in group memory); the local form with one band, more groups than bands,
 * bands of one row; the halo form on the same shapes of tiles; a wrong result is caught and not timed; bad input is refused.
 *
 * Built with GSJ_WEAKEN_SPLIT (test weak_split_jacobi_cpu, against a library built the
 * same way: the perimeter computed after gs_arrive publishes it) it runs only
 * weakened_split_is_caught: the split form's check must catch that race; with
 * GSJ_WEAKEN_LOCAL (weak_local_jacobi_cpu: a band does not wait for the band above it)
 * only weakened_local_is_caught; with GSJ_WEAKEN_HALO (weak_halo_jacobi_cpu: a tile does
 * not wait for the row above it) only weakened_halo_is_caught. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "gridsync/host_local.h" /* GS_LOCAL_MAX_TAGGED */
#include "jacobi.h"
#include "jacobi_step.h"
#include "test_support.h"

static gs_device *dev;
static gs_device_info info;

/* One configuration of one method in one form with groups of `size`, run once and
 * checked: its status, with the mismatches and the error in *r. */
static gs_status run_one(gs_algo method, gsj_form form, unsigned n, unsigned iters, unsigned groups,
                         unsigned size, unsigned repeats, gsj_result *r)
{
    gsj_config cfg = {.n = n,
                      .iters = iters,
                      .seed = n * 31u + iters,
                      .method = method,
                      .form = form,
                      .groups = groups,
                      .group_size = size,
                      .repeats = repeats};
    gs_status s = gsj_run(dev, &cfg, r);
    printf("  %-15s %-5s %3u^2 x %-3u %u x %u: %s, %llu cells differ, %.3f ms%s%s\n",
           gs_algo_name(method), gsj_form_name(form), n, iters, groups, size, gs_status_string(s),
           (unsigned long long)r->mismatches, r->ms_median, r->error[0] ? ": " : "", r->error);
    return s;
}

#if !defined(GSJ_WEAKEN_SPLIT) && !defined(GSJ_WEAKEN_LOCAL) && !defined(GSJ_WEAKEN_HALO)
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

/* One configuration, checked (and timed once, checked again); groups capped at the
 * method's bound. */
static void expect_exact_sized(gs_algo method, gsj_form form, unsigned n, unsigned iters,
                               unsigned groups, unsigned size)
{
    unsigned bound = 0;
    assert_int_equal(gsj_max_groups(dev, method, form, size, &bound), GS_OK);
    if (groups > bound)
        groups = bound;
    gsj_result r;
    assert_int_equal(run_one(method, form, n, iters, groups, size, 1, &r), GS_OK);
    assert_int_equal(r.mismatches, 0);
    assert_true(r.ms_median > 0.0);
    if (method == GS_ALGO_AUTO) /* the local form has no protocol to resolve */
        assert_true(form == GSJ_FORM_LOCAL || form == GSJ_FORM_HALO
                        ? r.algo == GS_ALGO_AUTO
                        : r.algo == GS_ALGO_FLIP || r.algo == GS_ALGO_TREE);
}

static void expect_exact(gs_algo method, gsj_form form, unsigned n, unsigned iters, unsigned groups)
{
    expect_exact_sized(method, form, n, iters, groups, group_size());
}

static void every_method_is_exact(void **state)
{
    gs_algo ms[GS_ALGO_COUNT_ + 1];
    unsigned n_ms = methods(ms), groups = info.backend == GS_BACKEND_CPU ? 4u : info.compute_units;
    /* the six shared protocols, auto and relaunch at least */
    assert_true(n_ms >= 8);
    for (unsigned m = 0; m < n_ms; ++m)
        for (gsj_form f = GSJ_FORM_SYNC; f <= GSJ_FORM_RESIDENT; ++f) {
            /* relaunch once (it has no form); the local form is auto's alone */
            if (!gsj_method_in_form(ms[m], f) ||
                (!gsj_method_has_forms(ms[m]) && f != GSJ_FORM_SYNC))
                continue;
            expect_exact(ms[m], f, 37, 1, 1); /* one group, one iteration */
            expect_exact(ms[m], f, 37, 7, 2); /* odd T: the result is in the second buffer */
            /* even T, 35^2 cells over a grid that does not divide them */
            expect_exact(ms[m], f, 37, 8, groups);
            expect_exact(ms[m], f, 3, 5, 2); /* one interior cell: every work-item but one idles */
            expect_exact(ms[m], f, 64, 50, groups);
        }
}

/* The host's choice of tiles: the factor pair nearest a square, gx <= gy. */
static void tiling_is_the_squarest_pair(void **state)
{
    static const unsigned want[][3] = {{1, 1, 1},     {2, 1, 2},     {4, 2, 2},     {7, 1, 7},
                                       {12, 3, 4},    {16, 4, 4},    {132, 11, 12}, {1056, 32, 33},
                                       {264, 12, 22}, {528, 22, 24}, {97, 1, 97}};
    for (size_t i = 0; i < sizeof want / sizeof *want; ++i) {
        unsigned gx = 0, gy = 0;
        gsj_tiling(want[i][0], &gx, &gy);
        assert_int_equal(gx, want[i][1]);
        assert_int_equal(gy, want[i][2]);
    }
}

/* What the split form's proof (jacobi_step.h) needs of the tiles, for grids from one
 * cell to more tiles than rows and columns, group sizes from 1 to more than a tile's
 * cells: every interior cell is computed exactly once per iteration, by the group whose
 * tile holds it, in its perimeter phase or its inner phase; a tile's inner cells read
 * only its own cells and the fixed edges; every cell another group reads is perimeter;
 * tiles differ by at most one row and column. The sweeps run on the host, one work-item
 * at a time, into a buffer of their own each: a cell's count is the work-items that
 * wrote it. */
static void tiles_partition_the_interior(void **state)
{
    static const unsigned sides[] = {3, 4, 5, 6, 7, 9, 12, 37};
    static const unsigned grids[] = {1, 2, 3, 4, 5, 6, 7, 11, 12, 20, 132};
    static const unsigned sizes[] = {1, 3, 16};
    for (size_t si = 0; si < sizeof sides / sizeof *sides; ++si)
        for (size_t gi = 0; gi < sizeof grids / sizeof *grids; ++gi)
            for (size_t zi = 0; zi < sizeof sizes / sizeof *sizes; ++zi) {
                unsigned n = sides[si], groups = grids[gi], size = sizes[zi], gx, gy;
                size_t cells = (size_t)n * n;
                gsj_tiling(groups, &gx, &gy);
                float *ones = malloc(cells * sizeof *ones), *out = malloc(cells * sizeof *out);
                unsigned *owner = malloc(cells * sizeof *owner),
                         *count = calloc(cells, sizeof *count);
                unsigned char *inner = calloc(cells, 1);
                assert_true(ones && out && owner && count && inner);
                for (size_t c = 0; c < cells; ++c) {
                    ones[c] = 1.0f;
                    owner[c] = ~0u; /* the fixed edges: no group's */
                }
                unsigned min_rows = ~0u, max_rows = 0, min_cols = ~0u, max_cols = 0;
                for (unsigned g = 0; g < groups; ++g) {
                    gsj_tile t = gsj_tile_of(n, gx, gy, g);
                    if (g % gx == 0) { /* each row of tiles once, each column once */
                        min_rows = t.rows < min_rows ? t.rows : min_rows;
                        max_rows = t.rows > max_rows ? t.rows : max_rows;
                    }
                    if (g < gx) {
                        min_cols = t.cols < min_cols ? t.cols : min_cols;
                        max_cols = t.cols > max_cols ? t.cols : max_cols;
                    }
                    for (unsigned i = t.row; i < t.row + t.rows; ++i)
                        for (unsigned j = t.col; j < t.col + t.cols; ++j) {
                            assert_int_equal(owner[i * n + j], ~0u); /* one tile per cell */
                            owner[i * n + j] = g;
                        }
                    for (int phase = 0; phase < 2; ++phase)
                        for (unsigned first = 0; first < size; ++first) {
                            memset(out, 0, cells * sizeof *out);
                            if (phase == 0)
                                gsj_perimeter(ones, out, n, t, first, size);
                            else
                                gsj_inner(ones, out, n, t, first, size);
                            for (size_t c = 0; c < cells; ++c)
                                if (out[c] != 0.0f) {
                                    count[c]++;
                                    inner[c] = (unsigned char)phase;
                                    assert_int_equal(owner[c], g); /* its own tile's cells */
                                }
                        }
                }
                assert_true(max_rows - min_rows <= 1 && max_cols - min_cols <= 1);
                for (unsigned i = 0; i < n; ++i)
                    for (unsigned j = 0; j < n; ++j) {
                        size_t c = (size_t)i * n + j;
                        int edge = i == 0 || j == 0 || i == n - 1 || j == n - 1;
                        assert_int_equal(count[c], edge ? 0u : 1u);
                        if (edge)
                            continue;
                        size_t near[4] = {c - 1, c + 1, c - n, c + n};
                        for (int k = 0; k < 4; ++k) {
                            unsigned o = owner[near[k]];
                            if (o == ~0u || o == owner[c])
                                continue;
                            assert_false(inner[c]); /* read by another group: perimeter */
                        }
                    }
                free(ones);
                free(out);
                free(owner);
                free(count);
                free(inner);
            }
}

/* The split and resident forms on the shapes their tiles find hardest, with the protocols
 * and cg (CUDA):
 * one group (no perimeter at all), a prime count (bands of whole rows), tiles with no
 * inner cells, one cell wide or empty (n small), tiles with fewer cells than the group
 * has work-items, and grids whose tiles have all three parts. A device that holds fewer
 * groups runs a shape with as many as it holds (printed; PoCL in CI: 2, its compute
 * units), so the shapes of 2 groups carry those cases there too: 2 is prime, and n = 3
 * and 4 give it an empty tile, a tile of one cell and tiles without inner cells. */
static void tiled_forms_are_exact(void **state)
{
    gs_algo ms[GS_ALGO_COUNT_ + 1];
    unsigned n_ms = methods(ms), many = info.backend == GS_BACKEND_CPU ? 6u : 8u;
    unsigned size = group_size();
    for (unsigned m = 0; m < n_ms; ++m)
        for (gsj_form f = GSJ_FORM_SPLIT; f <= GSJ_FORM_RESIDENT;
             f += GSJ_FORM_RESIDENT - GSJ_FORM_SPLIT) {
            if (!gsj_method_has_forms(ms[m]))
                continue;
            expect_exact(ms[m], f, 64, 9, 1); /* one tile, all inner */
            expect_exact(ms[m], f, 3, 5, 2);  /* tiles of 0 and 1 cell */
            expect_exact(ms[m], f, 4, 6, 2);  /* two 1-row tiles, no inner cells */
            expect_exact(ms[m], f, 37, 9, 7); /* 7 bands of 5 rows */
            expect_exact(ms[m], f, 40, 10, 5);
            /* 4 x 4 interior over 4 x 5 tiles: one cell wide, one row or none, no inner */
            expect_exact(ms[m], f, 6, 7, 20);
            /* 3 x 3 interior over 2 x 2 tiles of 1 to 4 cells, fewer than the work-items */
            expect_exact_sized(ms[m], f, 5, 6, 4, size * 2u);
            expect_exact(ms[m], f, 4, 6, 7);      /* 2 rows in 7 bands: 5 empty */
            expect_exact(ms[m], f, 50, 20, many); /* perimeter, inner, both sides */
            /* the shape the weakened build must fail on (weakened_split_is_caught); the
             * resident form's tiles of 512^2 would not fit a device's group memory */
            if (f == GSJ_FORM_SPLIT)
                expect_exact_sized(ms[m], f, 1026, 4, 4, 1);
        }
}

/* The local form (auto alone): one band, two, bands of one row, more groups than bands
 * (groups without a band only take tickets), more tickets than groups, odd and even T. */
static void local_form_is_exact(void **state)
{
    unsigned many = info.backend == GS_BACKEND_CPU ? 6u : 8u;
    expect_exact(GS_ALGO_AUTO, GSJ_FORM_LOCAL, 37, 9, 1);  /* one band, every ticket */
    expect_exact(GS_ALGO_AUTO, GSJ_FORM_LOCAL, 3, 5, 2);   /* one interior cell, 1 band */
    expect_exact(GS_ALGO_AUTO, GSJ_FORM_LOCAL, 4, 6, 5);   /* 2 bands of a row, 5 groups */
    expect_exact(GS_ALGO_AUTO, GSJ_FORM_LOCAL, 37, 10, 7); /* 7 bands of 5 rows */
    expect_exact(GS_ALGO_AUTO, GSJ_FORM_LOCAL, 64, 50, many);
    /* the shape the weakened build must fail on (weakened_local_is_caught) */
    expect_exact_sized(GS_ALGO_AUTO, GSJ_FORM_LOCAL, 1026, 16, 4, 1);
}

/* The halo form (auto alone; where the device has 64-bit atomics): one group (no
 * neighbour), two side by side and two above each other (2 x 1 and 1 x 2 tilings are
 * 1 x 2: bands), tiles of one row and one cell with empty tiles past them (more groups
 * than rows), a prime count (bands), more pieces than the group has work-items (each then
 * takes several: the planned first and the rest), odd and even T. */
static void halo_form_is_exact(void **state)
{
    if (!info.has_word64) {
        gsj_result r;
        assert_int_equal(run_one(GS_ALGO_AUTO, GSJ_FORM_HALO, 37, 9, 2, group_size(), 0, &r),
                         GS_ERR_UNSUPPORTED);
        skip();
    }
    unsigned many = info.backend == GS_BACKEND_CPU ? 6u : 8u;
    expect_exact(GS_ALGO_AUTO, GSJ_FORM_HALO, 37, 9, 1);  /* one tile, nothing exchanged */
    expect_exact(GS_ALGO_AUTO, GSJ_FORM_HALO, 37, 10, 2); /* two bands */
    expect_exact(GS_ALGO_AUTO, GSJ_FORM_HALO, 37, 2, 2);  /* weakened_halo_is_caught's */
    expect_exact(GS_ALGO_AUTO, GSJ_FORM_HALO, 4, 6, 5);   /* 2 rows in 5 bands: 3 empty */
    expect_exact(GS_ALGO_AUTO, GSJ_FORM_HALO, 5, 7, 4);   /* 2 x 2 tiles of 1..2 cells */
    expect_exact(GS_ALGO_AUTO, GSJ_FORM_HALO, 3, 5, 4);   /* one cell, 3 empty tiles */
    expect_exact(GS_ALGO_AUTO, GSJ_FORM_HALO, 37, 9, 7);  /* a prime: bands of 5 rows */
    expect_exact(GS_ALGO_AUTO, GSJ_FORM_HALO, 64, 50, many);
    expect_exact(GS_ALGO_AUTO, GSJ_FORM_HALO, 200, 11, 6); /* 2 x 3 tiles, 400 pieces */
}

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
                      .form = GSJ_FORM_SPLIT, /* ignored by relaunch */
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

/* gsj_run_methods: the configurations of one problem in interleaved rounds. Each is
 * checked and timed as gsj_run would; the first is every ratio's base; a configuration
 * that fails drops out with its own status while the others go on; configurations of
 * different problems are refused, all of them. */
static void methods_in_rounds(void **state)
{
    (void)state;
    enum { N = 24, T = 7, R = 5 };
    float wrong[N * N];
    assert_int_equal(gsj_reference(N, T, 11, wrong), GS_OK);
    wrong[3 * N + 4] += 1.0f;
    gsj_config cfgs[3];
    gs_algo ms[3] = {GS_ALGO_FLIP, GS_ALGO_RELAUNCH, GS_ALGO_AUTO};
    for (unsigned i = 0; i < 3; ++i)
        cfgs[i] = (gsj_config){.n = N,
                               .iters = T,
                               .seed = 11,
                               .method = ms[i],
                               .groups = 2,
                               .group_size = group_size(),
                               .repeats = R};
    gsj_result res[3];
    assert_int_equal(gsj_run_methods(dev, cfgs, 3, res), GS_OK);
    for (unsigned i = 0; i < 3; ++i) {
        assert_int_equal(res[i].status, GS_OK);
        assert_true(res[i].ms_min > 0 && res[i].ms_min <= res[i].ms_median &&
                    res[i].ms_median <= res[i].ms_max);
        /* the median of the rounds' ratios lies between the extremes of the ratio */
        assert_true(res[i].paired_ratio >= res[i].ms_min / res[0].ms_max * 0.999999);
        assert_true(res[i].paired_ratio <= res[i].ms_max / res[0].ms_min * 1.000001);
    }
    assert_true(res[0].paired_ratio == 1.0);
    assert_true(res[2].algo == GS_ALGO_FLIP || res[2].algo == GS_ALGO_TREE); /* auto, resolved */

    cfgs[1].reference = wrong; /* relaunch fails its check; flip and auto go on */
    assert_int_equal(gsj_run_methods(dev, cfgs, 3, res), GS_ERR_CHECK_FAILED);
    assert_int_equal(res[1].status, GS_ERR_CHECK_FAILED);
    assert_int_equal(res[1].mismatches, 1);
    assert_true(res[1].ms_median == 0.0 && res[1].paired_ratio == 0.0);
    assert_non_null(strstr(res[1].error, "differ"));
    assert_int_equal(res[0].status, GS_OK);
    assert_int_equal(res[2].status, GS_OK);
    assert_true(res[2].ms_median > 0.0 && res[2].paired_ratio > 0.0);
    cfgs[1].reference = NULL;

    const unsigned bad_field = 4;
    for (unsigned k = 0; k < bad_field; ++k) { /* n, iters, seed, repeats must agree */
        gsj_config other[2] = {cfgs[0], cfgs[1]};
        if (k == 0)
            other[1].n = N + 1u;
        else if (k == 1)
            other[1].iters = T + 1u;
        else if (k == 2)
            other[1].seed = 12;
        else
            other[1].repeats = R + 1u;
        assert_int_equal(gsj_run_methods(dev, other, 2, res), GS_ERR_INVALID_ARGUMENT);
        assert_int_equal(res[0].status, GS_ERR_INVALID_ARGUMENT);
        assert_int_equal(res[1].status, GS_ERR_INVALID_ARGUMENT);
    }
    assert_int_equal(gsj_run_methods(dev, cfgs, 0, res), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsj_run_methods(dev, NULL, 2, res), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsj_run_methods(dev, cfgs, 2, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsj_run_methods(NULL, cfgs, 2, res), GS_ERR_UNSUPPORTED);
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
    c = ok;
    c.form = (gsj_form)5;
    assert_int_equal(gsj_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    assert_null(gsj_form_name((gsj_form)5));
    assert_string_equal(gsj_form_name(GSJ_FORM_HALO), "halo");
    c = ok; /* the halo form is auto's alone, counts iterations in 24 bits, and its words
             * must fit one state */
    c.form = GSJ_FORM_HALO;
    assert_int_equal(gsj_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    assert_false(gsj_method_in_form(GS_ALGO_FLIP, GSJ_FORM_HALO));
    c.method = GS_ALGO_AUTO;
    c.iters = GSJ_LOCAL_MAX_ITERS + 1u;
    assert_int_equal(gsj_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c.iters = ok.iters;
    c.n = GSJ_MAX_N;
    c.groups = 1u << 20; /* 1024 x 1024 tiles of 32: 2^20 x 8 x 32 words, 2^28 > 2^26 */
    assert_true(gsj_halo_words(c.n, c.groups) > GS_LOCAL_MAX_TAGGED);
    assert_int_equal(gsj_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    /* 62^2 interior on 2 x 2 tiles of 31: a stride of 31, 4 x 8 x 31 words */
    assert_int_equal(gsj_halo_stride(64, 4), 31);
    assert_int_equal(gsj_halo_words(64, 4), 4u * 8u * 31u);
    assert_int_equal(gsj_halo_stride(2, 4), 0);
    assert_string_equal(gsj_form_name(GSJ_FORM_LOCAL), "local");
    assert_string_equal(gsj_form_name(GSJ_FORM_RESIDENT), "resident");
    c = ok; /* the local form is auto's alone, and counts iterations in 24 bits */
    c.form = GSJ_FORM_LOCAL;
    assert_int_equal(gsj_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    assert_false(gsj_method_in_form(GS_ALGO_FLIP, GSJ_FORM_LOCAL));
    assert_true(gsj_method_in_form(GS_ALGO_FLIP, GSJ_FORM_RESIDENT));
    c.method = GS_ALGO_AUTO;
    c.iters = GSJ_LOCAL_MAX_ITERS + 1u;
    assert_int_equal(gsj_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsj_local_bands(64, 4), 4);
    assert_int_equal(gsj_local_bands(64, 100), 62); /* a band at least a row */
    /* 62^2 interior on 2 x 2 tiles of 31^2: twice (31 + 2)^2 floats */
    assert_int_equal(gsj_resident_bytes(64, 4), 2u * 33u * 33u * sizeof(float));
    assert_int_equal(gsj_resident_bytes(2, 4), 0);
    size_t memory = 0;
    assert_int_equal(gsj_group_memory(dev, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsj_group_memory(dev, &memory), GS_OK);
    assert_true(memory >= gsj_resident_bytes(64, 4)); /* every device here runs 64^2 on 4 */
    assert_false(gsj_method_has_forms(GS_ALGO_RELAUNCH));
    assert_true(gsj_method_has_forms(GS_ALGO_FLIP) && gsj_method_has_forms(GS_ALGO_CG));
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
    assert_int_equal(gsj_max_groups(dev, GS_ALGO_FLIP, GSJ_FORM_SYNC, 0, &bound),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsj_max_groups(dev, GS_ALGO_FLIP, GSJ_FORM_SPLIT, 4, NULL),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsj_max_groups(dev, GS_ALGO_FLIP, (gsj_form)5, 4, &bound),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsj_max_groups(dev, GS_ALGO_FLIP, GSJ_FORM_HALO, 4, &bound),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsj_max_groups(dev, GS_ALGO_FLIP, GSJ_FORM_LOCAL, 4, &bound),
                     GS_ERR_INVALID_ARGUMENT);
}

#elif defined(GSJ_WEAKEN_SPLIT)
/* The weakened split form: each group arrives, then computes its whole tile, so a
 * neighbour released by the barrier reads perimeter cells of the iteration before (and
 * overwrites cells of the other buffer still to be read). The check must see it. The
 * race needs a released group to run while a late one is still in its tile, so the
 * tiles are large (512 x 512 cells: at 64 x 64 about one run in ten differed), and the
 * iterations few, leaving an early error no time to fade. Runs stop at the first that
 * differs (on 2 shared cores: the first run in 56 of 100 tries, the fifth at worst).
 * split_form_is_exact runs the same shape with the intact library. */
static void weakened_split_is_caught(void **state)
{
    static const gs_algo algos[] = {GS_ALGO_FLIP, GS_ALGO_TREE, GS_ALGO_CENTRAL};
    unsigned caught = 0, runs = 0;
    for (unsigned k = 0; k < 30 && !caught; ++k) {
        gsj_result r;
        gs_status s = run_one(algos[k % 3], GSJ_FORM_SPLIT, 1026, 4, 4, 1, 0, &r); /* 2 x 2 tiles */
        ++runs;
        if (s == GS_ERR_CHECK_FAILED && r.mismatches > 0)
            ++caught;
        else
            assert_int_equal(s, GS_OK); /* wrong, or right by luck: nothing else */
    }
    printf("  weakened split form: caught in run %u\n", runs);
    assert_true(caught > 0);
}
#elif defined(GSJ_WEAKEN_HALO)
/* The weakened halo form: a tile does not wait for the row above it and computes with
 * what its ring held, the row of an iteration or more before. With T = 2 every word is
 * put once, so nothing but the check can see it, and it must: the second iteration's
 * top rows are wrong. Longer, the tile below may also run two iterations ahead and put
 * a later seq over a word its neighbour has not read yet: the tag then differs and that
 * neighbour's get times out (GS_ERR_TIMEOUT) instead of taking the wrong value; either
 * ending fails the run. halo_form_is_exact runs the same shapes intact. */
static void weakened_halo_is_caught(void **state)
{
    gsj_result r;
    assert_int_equal(run_one(GS_ALGO_AUTO, GSJ_FORM_HALO, 37, 2, 2, 4, 0, &r), GS_ERR_CHECK_FAILED);
    assert_true(r.mismatches > 0);
    gs_status s = run_one(GS_ALGO_AUTO, GSJ_FORM_HALO, 64, 50, 6, 4, 0, &r);
    assert_true((s == GS_ERR_CHECK_FAILED && r.mismatches > 0) || s == GS_ERR_TIMEOUT);
}
#else
/* The weakened local form: a band does not wait for the band above it, so it reads that
 * band's last row, which that band writes last, before it is written: a race a run can
 * lose at each iteration where two neighbour bands end together. Bands of 256 rows on
 * single work-items, 16 iterations: runs stop at the first that differs (on 2 cores busy
 * with other tests: the first run in 21 of 25 tries, the third at worst; with 4
 * iterations the thirtieth run once did not). local_form_is_exact runs the same shape
 * intact. */
static void weakened_local_is_caught(void **state)
{
    unsigned caught = 0, runs = 0;
    for (unsigned k = 0; k < 30 && !caught; ++k) {
        gsj_result r;
        gs_status s = run_one(GS_ALGO_AUTO, GSJ_FORM_LOCAL, 1026, 16, 4, 1, 0, &r);
        ++runs;
        if (s == GS_ERR_CHECK_FAILED && r.mismatches > 0)
            ++caught;
        else
            assert_int_equal(s, GS_OK); /* wrong, or right by luck: nothing else */
    }
    printf("  weakened local form: caught in run %u\n", runs);
    assert_true(caught > 0);
}
#endif

int main(void)
{
    dev = test_open_or_skip();
    gs_device_get_info(dev, &info);
#if defined(GSJ_WEAKEN_SPLIT)
    const struct CMUnitTest tests[] = {cmocka_unit_test(weakened_split_is_caught)};
#elif defined(GSJ_WEAKEN_LOCAL)
    const struct CMUnitTest tests[] = {cmocka_unit_test(weakened_local_is_caught)};
#elif defined(GSJ_WEAKEN_HALO)
    const struct CMUnitTest tests[] = {cmocka_unit_test(weakened_halo_is_caught)};
#else
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reference_is_the_update),
        cmocka_unit_test(bad_input),
        cmocka_unit_test(a_wrong_result_fails),
        cmocka_unit_test(methods_in_rounds),
        cmocka_unit_test(tiling_is_the_squarest_pair),
        cmocka_unit_test(tiles_partition_the_interior),
        cmocka_unit_test(tiled_forms_are_exact),
        cmocka_unit_test(local_form_is_exact),
        cmocka_unit_test(halo_form_is_exact),
        cmocka_unit_test(every_method_is_exact),
    };
#endif
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    gsj_release(); /* the grids the CUDA back end kept, before the device goes */
    gs_device_close(dev);
    return rc;
}
