/* The SOR wavefront app (apps/sor) on the back end under test (GS_TEST_BACKEND): the
 * schedule hands every tile of every sweep out once, after its four dependencies; every
 * scheme computes exactly the sequential lexicographic reference on grids whose tiles
 * do not divide them, with one group, more tiles than groups and (local) more groups
 * than fit at once; the local scheme with any one of its four waits left out comes out
 * wrong (the check can fail), and with a tile that never signals times out naming that
 * tile's word; bad input is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "sor.h"
#include "test_support.h"

static gs_device *dev;
static gs_device_info info;

#define OMEGA 1.5f

/* Every scheme the app runs on this device: local, the protocols, auto, the baselines. */
static unsigned methods(gs_algo *out)
{
    unsigned n = 0;
    for (unsigned a = 0; a <= GS_ALGO_COUNT_; ++a) /* GSR_LOCAL is GS_ALGO_COUNT_ */
        if (gsr_method_supported(dev, (gs_algo)a))
            out[n++] = (gs_algo)a;
    return n;
}

/* ---- the schedule ----------------------------------------------------------------------- */

/* Every (sweep, tile) exactly once, and each dependency at a smaller ticket in an
 * earlier step: the deadlock-freedom argument's premise, for shapes with odd and even
 * tile counts, one tile, and more sweeps than tiles. */
static void schedule_orders_dependencies(void **unused)
{
    (void)unused;
    static const unsigned shapes[][3] = {{3, 2, 1},  {4, 2, 5},  {12, 4, 3}, {13, 4, 7},
                                         {37, 4, 4}, {37, 8, 9}, {66, 8, 2}, {20, 3, 20}};
    for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; ++c) {
        gsr_shape g = gsr_shape_of(shapes[c][0], shapes[c][1], shapes[c][2]);
        unsigned tiles = g.rows * g.cols, S = g.sweeps;
        unsigned *ticket_of = calloc((size_t)tiles * S, sizeof *ticket_of);
        assert_non_null(ticket_of);
        assert_int_equal(g.steps, 2 * (S - 1) + g.rows + g.cols - 1);
        unsigned seen = 0;
        for (unsigned t = 0; t < g.tickets; ++t) {
            gsr_tile x;
            if (!gsr_tile_at(&g, t / g.slots, t % g.slots, &x))
                continue;
            assert_true(x.s < S && x.ti < g.rows && x.tj < g.cols);
            assert_int_equal(x.word, x.ti * g.cols + x.tj);
            assert_int_equal(x.ti + x.tj + 2 * x.s, t / g.slots); /* its step */
            assert_true(x.h >= 1 && x.h <= g.tile && x.i0 + x.h <= g.n - 1);
            assert_true(x.w >= 1 && x.w <= g.tile && x.j0 + x.w <= g.n - 1);
            unsigned *mine = &ticket_of[(size_t)x.s * tiles + x.word];
            assert_int_equal(*mine, 0); /* once */
            *mine = t + 1;
            ++seen;
            /* up, left of this sweep; down, right of the last one: all handed out before */
            if (x.ti > 0)
                assert_true(ticket_of[(size_t)x.s * tiles + x.word - g.cols] != 0);
            if (x.tj > 0)
                assert_true(ticket_of[(size_t)x.s * tiles + x.word - 1] != 0);
            if (x.s > 0 && x.ti + 1 < g.rows)
                assert_true(ticket_of[(size_t)(x.s - 1) * tiles + x.word + g.cols] != 0);
            if (x.s > 0 && x.tj + 1 < g.cols)
                assert_true(ticket_of[(size_t)(x.s - 1) * tiles + x.word + 1] != 0);
        }
        assert_int_equal(seen, tiles * S); /* and none is missing */
        free(ticket_of);
    }
}

/* The reference is the lexicographic update: cell (1,1) from the initial grid only,
 * cell (1,2) from (1,1)'s new value, and a second sweep from the first one's values. */
static void reference_is_the_update(void **unused)
{
    (void)unused;
    enum { N = 5 };
    float u0[N * N], u1[N * N], u2[N * N];
    const float a = 1.0f - OMEGA, b = OMEGA * 0.25f;
    gsr_initial(N, 7, u0);
    assert_int_equal(gsr_reference(N, 1, OMEGA, 7, u1), GS_OK);
    assert_int_equal(gsr_reference(N, 2, OMEGA, 7, u2), GS_OK);
    float want = a * u0[6] + b * ((u0[1] + u0[5]) + (u0[11] + u0[7]));
    assert_true(u1[6] == want);
    want = a * u0[7] + b * ((u0[2] + u1[6]) + (u0[12] + u0[8]));
    assert_true(u1[7] == want);
    want = a * u1[18] + b * ((u2[13] + u2[17]) + (u1[23] + u1[19]));
    assert_true(u2[18] == want);
    assert_true(u1[0] == u0[0] && u2[24] == u0[24]);    /* the edges stay */
    assert_true(gsr_compare(u1, u0, N * N, NULL) == 9); /* every interior cell moved */
}

/* ---- every scheme ----------------------------------------------------------------------- */

/* Capped at what runs at once, except the local scheme with `any` set: it needs no
 * co-residency, so more groups than fit must work too (within the cpu thread budget). */
static unsigned fit(gs_algo m, unsigned tile, unsigned groups, int any)
{
    unsigned bound = 0;
    assert_int_equal(gsr_max_groups(dev, m, tile, &bound), GS_OK);
    if (m == GSR_LOCAL && any && info.backend != GS_BACKEND_CPU)
        return groups;
    return groups > bound ? bound : groups;
}

static gs_status run_one(gs_algo m, unsigned n, unsigned tile, unsigned sweeps, unsigned groups,
                         unsigned mutant, gsr_result *r)
{
    gsr_config cfg = {.n = n,
                      .sweeps = sweeps,
                      .tile = tile,
                      .omega = OMEGA,
                      .seed = n * 31u + sweeps,
                      .method = m,
                      .groups = groups,
                      .repeats = mutant ? 0 : 1,
                      .timeout_ms = mutant & GSR_MUTE_FIRST ? 300 : 0,
                      .mutant = mutant};
    gs_status s = gsr_run(dev, &cfg, r);
    printf("  %-15s %3u^2 x %-3u tile %-2u %3u groups%s: %s, %llu cells differ%s%s\n",
           gsr_method_name(m), n, sweeps, tile, groups, mutant ? " (mutant)" : "",
           gs_status_string(s), (unsigned long long)r->mismatches, r->error[0] ? ": " : "",
           r->error);
    return s;
}

static void expect_exact(gs_algo m, unsigned n, unsigned tile, unsigned sweeps, unsigned groups)
{
    gsr_result r;
    assert_int_equal(run_one(m, n, tile, sweeps, groups, 0, &r), GS_OK);
    assert_int_equal(r.mismatches, 0);
    assert_true(r.ms_median > 0.0 && r.updates_per_s > 0.0);
    if (m == GS_ALGO_AUTO)
        assert_true(r.algo == GS_ALGO_FLIP || r.algo == GS_ALGO_TREE);
}

static void every_scheme_is_exact(void **unused)
{
    (void)unused;
    gs_algo ms[GS_ALGO_COUNT_ + 1];
    unsigned n_ms = methods(ms), many = info.backend == GS_BACKEND_CPU ? 6u : info.compute_units;
    assert_true(n_ms >= 9); /* local, the six shared protocols, auto, relaunch at least */
    for (unsigned i = 0; i < n_ms; ++i) {
        gs_algo m = ms[i];
        expect_exact(m, 37, 4, 5, fit(m, 4, many, 0)); /* 35 cells: a partial tile edge */
        expect_exact(m, 30, 4, 6, 1);                  /* one group takes every tile */
        expect_exact(m, 3, 2, 3, fit(m, 2, 2, 0));     /* one cell, one tile */
        expect_exact(m, 26, 8, 4, fit(m, 8, 3, 0));    /* 3 x 3 tiles: an odd count */
        expect_exact(m, 40, 5, 9, fit(m, 5, 12, 1));   /* local: more groups than fit */
    }
}

/* The local scheme with one wait left out: some run must come out wrong. Two tiles by
 * two, so the tile a dropped wait should have waited for is one to three tickets back
 * (down: 1, left and right: 2, up: 3) and often still running. Each attempt is a fresh
 * launch. On the cpu back end (more threads than cores, a yield at every group barrier)
 * each of the four must show; on PoCL, whose workers run a work-group's items one after
 * another, they are reported, not required: even `down` (the ticket just before) was
 * never wrong in 40 launches once, in a CI run on a loaded 2-core machine. */
static void each_wait_is_needed(void **unused)
{
    (void)unused;
    static const unsigned drops[] = {GSR_DROP_DOWN, GSR_DROP_UP, GSR_DROP_LEFT, GSR_DROP_RIGHT};
    static const char *const names[] = {"down", "up", "left", "right"};
    int cpu = info.backend == GS_BACKEND_CPU;
    unsigned groups = cpu ? 4u : info.compute_units;
    for (unsigned d = 0; d < 4; ++d) {
        unsigned wrong = 0, attempt = 0;
        for (; attempt < 40 && !wrong; ++attempt) {
            gsr_result r;
            gs_status s = run_one(GSR_LOCAL, 18, 8, 12, groups, drops[d], &r);
            assert_true(s == GS_OK || s == GS_ERR_CHECK_FAILED);
            wrong = s == GS_ERR_CHECK_FAILED && r.mismatches > 0;
        }
        printf("  without the %s wait: %s after %u launches\n", names[d],
               wrong ? "wrong" : "never wrong", attempt);
        if (cpu)
            assert_true(wrong);
    }
}

/* Tile (0, 0) never signals: its dependants wait in vain, the launch ends in
 * GS_ERR_TIMEOUT and the abort names word 0 and the value 1 (with one group the first
 * wait to give up is on that word; with more, some wait behind it). */
static void silent_tile_times_out(void **unused)
{
    (void)unused;
    for (unsigned groups = 1; groups <= 3; groups += 2) {
        gsr_result r;
        assert_int_equal(run_one(GSR_LOCAL, 18, 4, 3, groups, GSR_MUTE_FIRST, &r), GS_ERR_TIMEOUT);
        assert_int_equal(r.abort.reason, GS_ABORT_REASON_TIMEOUT);
        assert_true(r.abort.group < groups);
        if (groups == 1) {
            assert_int_equal(r.abort.word, 0);
            assert_int_equal(r.abort.awaited, 1);
            assert_int_equal(r.abort.seen, 0);
            assert_non_null(strstr(r.error, "tile word 0 (tile 0,0) to reach 1"));
        }
    }
}

/* A reference that differs in one cell: the check says FAIL, counts it, times nothing. */
static void a_wrong_result_fails(void **unused)
{
    (void)unused;
    enum { N = 20, S = 6 };
    static float ref[N * N];
    assert_int_equal(gsr_reference(N, S, OMEGA, 3, ref), GS_OK);
    ref[5 * N + 7] += 1.0f;
    gsr_config cfg = {.n = N,
                      .sweeps = S,
                      .tile = 4,
                      .omega = OMEGA,
                      .seed = 3,
                      .method = GSR_LOCAL,
                      .groups = 2,
                      .repeats = 3,
                      .reference = ref};
    gsr_result r;
    assert_int_equal(gsr_run(dev, &cfg, &r), GS_ERR_CHECK_FAILED);
    assert_int_equal(r.mismatches, 1);
    assert_true(r.max_abs_diff > 0.5);
    assert_true(r.ms_median == 0.0);
    assert_non_null(strstr(r.error, "differ"));
}

/* The schemes of one problem in interleaved rounds (gsr_run_methods): each passes with its
 * statistics and its pairing with the first; one that fails its check drops out alone;
 * configurations of different problems are refused, all of them. */
static void schemes_in_rounds(void **unused)
{
    (void)unused;
    enum { N = 20, S = 6, R = 5 };
    static float wrong[N * N];
    assert_int_equal(gsr_reference(N, S, OMEGA, 3, wrong), GS_OK);
    wrong[4 * N + 6] += 1.0f;
    const gs_algo ms[3] = {GS_ALGO_FLIP, GSR_LOCAL, GS_ALGO_AUTO};
    gsr_config cfgs[3];
    for (unsigned i = 0; i < 3; ++i)
        cfgs[i] = (gsr_config){.n = N,
                               .sweeps = S,
                               .tile = 4,
                               .omega = OMEGA,
                               .seed = 3,
                               .method = ms[i],
                               .groups = 2,
                               .repeats = R};
    gsr_result res[3];
    assert_int_equal(gsr_run_methods(dev, cfgs, 3, res), GS_OK);
    for (unsigned i = 0; i < 3; ++i) {
        assert_int_equal(res[i].status, GS_OK);
        assert_int_equal(res[i].mismatches, 0);
        assert_true(res[i].ms_min > 0 && res[i].ms_min <= res[i].ms_median &&
                    res[i].ms_median <= res[i].ms_max && res[i].updates_per_s > 0.0);
        assert_true(res[i].steps > 0);
        /* the median of the rounds' ratios lies between the extremes of the ratio */
        assert_true(res[i].paired_ratio >= res[i].ms_min / res[0].ms_max * 0.999999);
        assert_true(res[i].paired_ratio <= res[i].ms_max / res[0].ms_min * 1.000001);
    }
    assert_true(res[0].paired_ratio == 1.0);
    assert_true(res[2].algo != GS_ALGO_AUTO); /* auto, resolved */

    cfgs[1].reference = wrong; /* local fails its check; flip and auto go on */
    assert_int_equal(gsr_run_methods(dev, cfgs, 3, res), GS_ERR_CHECK_FAILED);
    assert_int_equal(res[1].status, GS_ERR_CHECK_FAILED);
    assert_int_equal(res[1].mismatches, 1);
    assert_true(res[1].ms_median == 0.0 && res[1].paired_ratio == 0.0);
    assert_non_null(strstr(res[1].error, "differ"));
    assert_int_equal(res[0].status, GS_OK);
    assert_int_equal(res[2].status, GS_OK);
    assert_true(res[2].ms_median > 0.0 && res[2].paired_ratio > 0.0);
    cfgs[1].reference = NULL;

    for (unsigned k = 0; k < 5; ++k) { /* n, sweeps, omega, seed, repeats must agree */
        gsr_config other[2] = {cfgs[0], cfgs[1]};
        if (k == 0)
            other[1].n = N + 2u;
        else if (k == 1)
            other[1].sweeps = S + 1u;
        else if (k == 2)
            other[1].omega = 1.25f;
        else if (k == 3)
            other[1].seed = 4;
        else
            other[1].repeats = R + 1u;
        assert_int_equal(gsr_run_methods(dev, other, 2, res), GS_ERR_INVALID_ARGUMENT);
        assert_int_equal(res[0].status, GS_ERR_INVALID_ARGUMENT);
        assert_int_equal(res[1].status, GS_ERR_INVALID_ARGUMENT);
    }
    gsr_config tiles[2] = {cfgs[0], cfgs[1]}; /* the tile may differ: its own schedule */
    tiles[1].tile = 2;
    assert_int_equal(gsr_run_methods(dev, tiles, 2, res), GS_OK);
    assert_true(res[1].steps > res[0].steps);
    assert_int_equal(gsr_run_methods(dev, cfgs, 0, res), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsr_run_methods(dev, NULL, 2, res), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsr_run_methods(dev, cfgs, 2, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsr_run_methods(NULL, cfgs, 2, res), GS_ERR_UNSUPPORTED);
}

static void bad_input(void **unused)
{
    (void)unused;
    gsr_result r;
    const gsr_config ok = {
        .n = 16, .sweeps = 2, .tile = 4, .omega = OMEGA, .method = GSR_LOCAL, .groups = 1};
    gsr_config c = ok;
    c.n = 2;
    assert_int_equal(gsr_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c = ok;
    c.sweeps = 0;
    assert_int_equal(gsr_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c = ok;
    c.tile = GSR_MIN_TILE - 1;
    assert_int_equal(gsr_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c.tile = GSR_MAX_TILE + 1;
    assert_int_equal(gsr_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c = ok;
    c.groups = 0;
    assert_int_equal(gsr_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c = ok;
    c.omega = 2.0f;
    assert_int_equal(gsr_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c = ok; /* 2^32 tickets and more: the schedule does not fit */
    c.n = GSR_MAX_N;
    c.tile = 2;
    c.sweeps = GSR_MAX_SWEEPS;
    assert_int_equal(gsr_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsr_run(dev, NULL, &r), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsr_run(dev, &ok, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsr_run(NULL, &ok, &r), GS_ERR_UNSUPPORTED);
    assert_int_equal(gsr_reference(2, 1, OMEGA, 0, (float[4]){0}), GS_ERR_INVALID_ARGUMENT);
    if (info.backend != GS_BACKEND_CUDA) { /* CUDA-only baselines */
        c = ok;
        c.method = GS_ALGO_CG;
        assert_false(gsr_method_supported(dev, GS_ALGO_CG));
        assert_int_equal(gsr_run(dev, &c, &r), GS_ERR_UNSUPPORTED);
        assert_false(gsr_method_supported(dev, GS_ALGO_RELAUNCH_GRAPH));
    }
    unsigned bound;
    assert_int_equal(gsr_max_groups(dev, GSR_LOCAL, 1, &bound), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gsr_max_groups(dev, GSR_LOCAL, 4, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_string_equal(gsr_method_name(GSR_LOCAL), "local");
    assert_string_equal(gsr_method_name(GS_ALGO_FLIP), "flip");
}

int main(void)
{
    dev = test_open_or_skip();
    gs_device_get_info(dev, &info);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(schedule_orders_dependencies),
        cmocka_unit_test(reference_is_the_update),
        cmocka_unit_test(bad_input),
        cmocka_unit_test(a_wrong_result_fails),
        cmocka_unit_test(schemes_in_rounds),
        cmocka_unit_test(every_scheme_is_exact),
        cmocka_unit_test(silent_tile_times_out),
        cmocka_unit_test(each_wait_is_needed),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    gs_device_close(dev);
    return rc;
}
