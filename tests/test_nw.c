/* The Needleman-Wunsch app (apps/nw) on the back end under test (GS_TEST_BACKEND):
 * every scheme and local variant it runs there computes the sequential reference cell
 * for cell, on sizes that are not multiples of the tile, with one group, with more tiles
 * than groups and (local, local-tagged) with more groups than tiles; a tile whose owner
 * never signals (never puts its tagged words) ends in GS_ERR_TIMEOUT naming it; a wrong
 * result is caught and not timed; bad input is refused.
 *
 * With GS_TEST_EXPECT_WRONG=1 (test_nw_weak: the app built with GS_WEAKEN_TAG, whose
 * tagged gets take a word one seq early) only local-tagged runs, on several groups, and
 * must come out wrong at least once: the cell-for-cell check can fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "nw.h"
#include "test_support.h"

static gs_device *dev;
static gs_device_info info;

static const char *const variants[] = {"tile", "k3", "row", "rows", "rows-k2"};
#define N_VARIANTS (sizeof variants / sizeof *variants)

static nw_config config(nw_scheme scheme, unsigned n, unsigned B, unsigned groups)
{
    nw_config c = {.n = n,
                   .tile = B,
                   .seed = n * 7u + B,
                   .scheme = scheme,
                   .protocol = GS_ALGO_AUTO,
                   .variant = {NW_FLAG_TILE, 1},
                   .groups = groups,
                   .group_size = B,
                   .repeats = 1,
                   .check_all = 1,
                   .timeout_ms = 20000};
    return c;
}

/* One configuration, checked on its warm-up and its timed run. */
static void expect_exact(const nw_config *c)
{
    nw_result r;
    char v[32];
    gs_status s = nw_run(dev, c, &r);
    printf("  %-14s %-8s %-5s %4u^2 B %2u %3u groups: %s, %llu cells differ, %.3f ms, %.4f GCUPS"
           "%s%s\n",
           nw_scheme_name(c->scheme), c->scheme == NW_GLOBAL ? gs_algo_name(c->protocol) : "",
           c->scheme == NW_LOCAL ? nw_variant_name(c->variant, v, sizeof v) : "", c->n, c->tile,
           c->groups, gs_status_string(s), (unsigned long long)r.mismatches, r.ms_median, r.gcups,
           r.error[0] ? ": " : "", r.error);
    assert_int_equal(s, GS_OK);
    assert_int_equal(r.mismatches, 0);
    assert_true(r.ms_median > 0.0 && r.gcups > 0.0);
    assert_true(r.launches >= 1);
}

static void reference_is_the_recurrence(void **unused)
{
    (void)unused;
    enum { N = 9 };
    int32_t m[(N + 1) * (N + 1)];
    unsigned char s1[N + 1], s2[N + 1], t1[N + 1], t2[N + 1];
    assert_int_equal(nw_reference(N, 5, m), GS_OK);
    nw_sequences(N, 5, s1, s2);
    nw_sequences(N, 6, t1, t2);
    unsigned same = 0;
    for (unsigned i = 1; i <= N; ++i) {
        assert_true(s1[i] >= 1 && s1[i] <= 10 && s2[i] >= 1 && s2[i] <= 10);
        same += s1[i] == t1[i];
    }
    assert_true(same < N); /* another seed, other sequences */
    for (unsigned i = 0; i <= N; ++i)
        for (unsigned j = 0; j <= N; ++j) {
            int32_t want;
            if (i == 0 || j == 0) {
                want = -10 * (int32_t)(i + j);
            } else {
                int32_t d = m[(i - 1) * (N + 1) + j - 1] + nw_blosum62[s1[i] * NW_SYMBOLS + s2[j]];
                int32_t l = m[i * (N + 1) + j - 1] - 10, u = m[(i - 1) * (N + 1) + j] - 10;
                want = d > l ? (d > u ? d : u) : (l > u ? l : u);
            }
            assert_int_equal(m[i * (N + 1) + j], want);
        }
    for (unsigned a = 0; a < NW_SYMBOLS; ++a) /* symmetric; amino acids match positively */
        for (unsigned b = 0; b < NW_SYMBOLS; ++b) {
            assert_int_equal(nw_blosum62[a * NW_SYMBOLS + b], nw_blosum62[b * NW_SYMBOLS + a]);
            if (a == b && a < 20)
                assert_true(nw_blosum62[a * NW_SYMBOLS + a] >= 4);
        }
    assert_int_equal(nw_blosum62[17 * NW_SYMBOLS + 17], 11); /* W/W */
    assert_int_equal(nw_blosum62[4 * NW_SYMBOLS + 4], 9);    /* C/C */
}

static void names_parse_back(void **unused)
{
    (void)unused;
    char buf[32];
    for (unsigned i = 0; i < N_VARIANTS; ++i) {
        nw_variant v;
        assert_int_equal(nw_variant_parse(variants[i], &v), 0);
        assert_string_equal(nw_variant_name(v, buf, sizeof buf), variants[i]);
    }
    static const char *const bad[] = {"", "k0", "k", "k1025", "rows-", "rows-k0", "tiles", "k2x"};
    for (unsigned i = 0; i < sizeof bad / sizeof *bad; ++i) {
        nw_variant v;
        assert_int_equal(nw_variant_parse(bad[i], &v), -1);
    }
    for (unsigned s = 0; s < NW_SCHEME_COUNT_; ++s) {
        nw_scheme back;
        assert_int_equal(nw_scheme_parse(nw_scheme_name((nw_scheme)s), &back), 0);
        assert_int_equal(back, s);
    }
    nw_scheme tagged;
    assert_int_equal(nw_scheme_parse("local-tagged", &tagged), 0);
    assert_int_equal(tagged, NW_LOCAL_TAGGED);
    static const char *const bad_schemes[] = {"",          "tagged",       "local-",
                                              "local-tag", "Local-tagged", "local-tagged "};
    for (unsigned i = 0; i < sizeof bad_schemes / sizeof *bad_schemes; ++i)
        assert_int_equal(nw_scheme_parse(bad_schemes[i], &tagged), -1);
    assert_null(nw_scheme_name(NW_SCHEME_COUNT_));
}

/* Groups that fit at once for the persistent schemes on this device. */
static unsigned resident(nw_scheme scheme, unsigned B)
{
    unsigned bound = 0;
    assert_int_equal(nw_max_groups(dev, scheme, GS_ALGO_AUTO, B, B, &bound), GS_OK);
    assert_true(bound >= 1);
    return bound;
}

static void baselines_and_global_exact(void **unused)
{
    (void)unused;
    for (unsigned s = 0; s < NW_SCHEME_COUNT_; ++s) {
        if (s == NW_LOCAL || s == NW_LOCAL_TAGGED ||
            !nw_scheme_supported(dev, (nw_scheme)s, GS_ALGO_AUTO))
            continue;
        nw_config c = config((nw_scheme)s, 37, 16, 1); /* 3 x 3 tiles, the last ones short */
        expect_exact(&c);
        unsigned most = resident((nw_scheme)s, 16);
        c = config((nw_scheme)s, 100, 16, most < 3 ? most : 3); /* 7 x 7 tiles */
        expect_exact(&c);
        most = resident((nw_scheme)s, 32);
        c = config((nw_scheme)s, 70, 32, most < 2 ? most : 2);
        expect_exact(&c);
        most = resident((nw_scheme)s, 64);
        c = config((nw_scheme)s, 130, 64, most < 8 ? most : 8); /* 3 x 3 tiles */
        expect_exact(&c);
    }
    gs_algo every[] = {GS_ALGO_CENTRAL, GS_ALGO_LOCKFREE, GS_ALGO_NAIVE,
                       GS_ALGO_FLIP,    GS_ALGO_TREE,     GS_ALGO_SHARDED};
    for (unsigned a = 0; a < sizeof every / sizeof *every; ++a) {
        if (!nw_scheme_supported(dev, NW_GLOBAL, every[a]))
            continue;
        nw_config c = config(NW_GLOBAL, 50, 16, 2);
        c.protocol = every[a];
        expect_exact(&c);
    }
}

static void local_variants_exact(void **unused)
{
    (void)unused;
    unsigned most = resident(NW_LOCAL, 16);
    for (unsigned i = 0; i < N_VARIANTS; ++i) {
        nw_config c = config(NW_LOCAL, 100, 16, 1); /* one group: every ticket in turn */
        assert_int_equal(nw_variant_parse(variants[i], &c.variant), 0);
        expect_exact(&c);
        c.n = 131; /* 9 x 9 tiles, more than groups */
        c.groups = most < 3 ? most : 3;
        expect_exact(&c);
        c.n = 40; /* 3 x 3 tiles, fewer than groups: most of them find no ticket */
        c.groups = most < 12 ? most : 12;
        expect_exact(&c);
        if (info.is_gpu) { /* 10 x the co-resident groups: the rest queue, tickets in order */
            c.n = 1000;
            c.groups = 10 * most;
            expect_exact(&c);
        }
        c.n = 97;
        c.tile = c.group_size = i % 2 ? 32 : 64;
        c.groups = 2;
        expect_exact(&c);
    }
}

/* local-tagged: a tile's boundary in tagged words, reused down each column and along
 * each row, on the same shapes as the local variants: one group (every ticket in turn),
 * more tiles than groups, more groups than tiles, sizes that are no multiple of the tile
 * (the last tiles short), every tile side, and on a GPU 10 x the co-resident groups.
 * Three runs of one configuration share the state: a launch must not take the last
 * one's words (the epoch) for its own. */
static void tagged_exact(void **unused)
{
    (void)unused;
    if (!nw_scheme_supported(dev, NW_LOCAL_TAGGED, GS_ALGO_AUTO)) {
        printf("  local-tagged does not run here (no 64-bit atomics): skipped\n");
        return;
    }
    unsigned most = resident(NW_LOCAL_TAGGED, 16);
    nw_config c = config(NW_LOCAL_TAGGED, 100, 16, 1); /* 7 x 7 tiles, one group */
    expect_exact(&c);
    c.n = 131; /* 9 x 9 tiles, more than groups */
    c.groups = most < 3 ? most : 3;
    c.repeats = 2;
    expect_exact(&c);
    c.repeats = 1;
    c.n = 40; /* 3 x 3 tiles, fewer than groups */
    c.groups = most < 12 ? most : 12;
    expect_exact(&c);
    c.n = 1; /* one tile, one cell: nothing to wait for, nothing to put */
    c.groups = most < 2 ? most : 2;
    expect_exact(&c);
    c.n = 17; /* 2 x 2 tiles, the second ones one cell wide */
    expect_exact(&c);
    for (unsigned B = 32; B <= 64; B *= 2) {
        c = config(NW_LOCAL_TAGGED, B == 32 ? 97 : 130, B, 2);
        expect_exact(&c);
        c.groups = 1;
        expect_exact(&c);
    }
    if (info.is_gpu) { /* 10 x the co-resident groups: the rest queue, tickets in order */
        c = config(NW_LOCAL_TAGGED, 1000, 16, 10 * most);
        expect_exact(&c);
    }
}

/* The weakened build's tagged gets may take the value before the one awaited: run
 * local-tagged on several groups until one run goes wrong (it must, within 40 runs):
 * GS_ERR_CHECK_FAILED with the wrong cells counted, or GS_ERR_TIMEOUT, where the early
 * tile's put overtook its producer's and the producer's late put then took the word
 * back a seq, below what the tile after waited for. */
static void tagged_weakened_is_caught(void **unused)
{
    (void)unused;
    if (!nw_scheme_supported(dev, NW_LOCAL_TAGGED, GS_ALGO_AUTO))
        return;
    unsigned most = resident(NW_LOCAL_TAGGED, 16), caught = 0;
    for (unsigned run = 0; run < 40 && caught == 0; ++run) {
        nw_config c = config(NW_LOCAL_TAGGED, 200, 16, most < 6 ? most : 6); /* 13 x 13 tiles */
        c.repeats = 0;
        c.timeout_ms = 2000;
        nw_result r;
        gs_status s = nw_run(dev, &c, &r);
        printf("  weakened local-tagged run %u: %s, %llu cells differ%s%s\n", run,
               gs_status_string(s), (unsigned long long)r.mismatches, r.error[0] ? ": " : "",
               r.error);
        assert_true(s == GS_OK || s == GS_ERR_CHECK_FAILED || s == GS_ERR_TIMEOUT);
        caught += (s == GS_ERR_CHECK_FAILED && r.mismatches > 0) || s == GS_ERR_TIMEOUT;
    }
    assert_true(caught > 0);
}

/* The owner of tile (1, 1) never signals: the launch ends in GS_ERR_TIMEOUT, the result
 * names the tile (with one group the first wait to give up is on it; with more, on it
 * or on a tile after it), and the next launch of the same configuration is whole. */
static void silent_tile_times_out(void **unused)
{
    (void)unused;
    for (unsigned i = 0; i < N_VARIANTS; ++i)
        for (unsigned groups = 1; groups <= 2; ++groups) {
            nw_config c = config(NW_LOCAL, 64, 16, groups); /* 4 x 4 tiles */
            assert_int_equal(nw_variant_parse(variants[i], &c.variant), 0);
            c.silent_tile = 1 * 4 + 1 + 1;
            c.timeout_ms = 300;
            nw_result r;
            gs_status s = nw_run(dev, &c, &r);
            printf("  %s, %u groups: %s: %s\n", variants[i], groups, gs_status_string(s), r.error);
            assert_int_equal(s, GS_ERR_TIMEOUT);
            assert_non_null(strstr(r.error, "never came"));
            if (groups == 1 && c.variant.flags == NW_FLAG_TILE) {
                assert_int_equal(r.fault_row, 1); /* k3: the ticket of tiles (1, 0..2) */
                assert_int_equal(r.fault_col, c.variant.k > 1 ? 0 : 1);
            } else if (groups == 1) { /* the counter of row 1 stops at tile 1's signal */
                assert_int_equal(r.fault_row, 1);
                assert_int_equal(r.fault_col, 1);
            } else {
                assert_true(r.fault_row >= 1);
            }
        }
}

/* local-tagged: the owner of tile (1, 1) puts nothing. The tiles that read its words,
 * (1, 2) and (2, 1), time out (with one group the first of them in ticket order, (1, 2));
 * the result names the tile from the word and seq awaited: (1, 1) with one group; with
 * two, whose tickets are taken a tile ahead (gs_local_order), a tile downstream of it may
 * start waiting first ((1, 3) for (1, 2), once the other group's (3, 0) is done), and its
 * wait may expire first: a tile at or below and right of (1, 1). The next launch of the
 * same configuration is whole. */
static void tagged_silent_tile_times_out(void **unused)
{
    (void)unused;
    if (!nw_scheme_supported(dev, NW_LOCAL_TAGGED, GS_ALGO_AUTO))
        return;
    for (unsigned groups = 1; groups <= 2; ++groups) {
        nw_config c = config(NW_LOCAL_TAGGED, 64, 16, groups); /* 4 x 4 tiles */
        c.silent_tile = 1 * 4 + 1 + 1;
        c.timeout_ms = 300;
        nw_result r;
        gs_status s = nw_run(dev, &c, &r);
        printf("  local-tagged, %u groups: %s: %s\n", groups, gs_status_string(s), r.error);
        assert_int_equal(s, GS_ERR_TIMEOUT);
        assert_non_null(strstr(r.error, "never came"));
        assert_non_null(strstr(r.error, "tagged word"));
        if (groups == 1) { /* (1, 2) waits on row 1's words for seq 2 */
            assert_int_equal(r.fault_row, 1);
            assert_int_equal(r.fault_col, 1);
            assert_non_null(strstr(r.error, "(row 1) to hold seq 2"));
        } else {
            assert_true(r.fault_row >= 1 && r.fault_col >= 1);
        }
    }
    nw_config ok = config(NW_LOCAL_TAGGED, 64, 16, 2);
    expect_exact(&ok);
}

static void a_wrong_result_fails(void **unused)
{
    (void)unused;
    enum { N = 20 };
    static int32_t ref[(N + 1) * (N + 1)];
    assert_int_equal(nw_reference(N, 3, ref), GS_OK);
    ref[5 * (N + 1) + 7] += 1;
    nw_config c = config(NW_LOCAL, N, 16, 2);
    c.seed = 3;
    c.repeats = 3;
    c.reference = ref;
    nw_result r;
    assert_int_equal(nw_run(dev, &c, &r), GS_ERR_CHECK_FAILED);
    assert_int_equal(r.mismatches, 1);
    assert_true(r.ms_median == 0.0);
    assert_non_null(strstr(r.error, "m[5][7]"));
}

/* nw_run_methods: the schemes of one problem in rounds, each with its own statistics and
 * its pairing with the first; one that fails its check drops out alone; configurations of
 * different problems are refused, all of them. */
static void schemes_in_rounds(void **unused)
{
    (void)unused;
    enum { N = 40, B = 16, R = 5 };
    static int32_t wrong[(N + 1) * (N + 1)];
    assert_int_equal(nw_reference(N, 3, wrong), GS_OK);
    wrong[9 * (N + 1) + 30] -= 1;
    const nw_scheme ss[3] = {NW_RELAUNCH, NW_LOCAL, NW_GLOBAL};
    nw_config cfgs[3];
    for (unsigned i = 0; i < 3; ++i) {
        cfgs[i] = config(ss[i], N, B, 2);
        cfgs[i].seed = 3;
        cfgs[i].repeats = R;
    }
    nw_result res[3];
    assert_int_equal(nw_run_methods(dev, cfgs, 3, res), GS_OK);
    for (unsigned i = 0; i < 3; ++i) {
        assert_int_equal(res[i].status, GS_OK);
        assert_int_equal(res[i].mismatches, 0);
        assert_true(res[i].ms_min > 0 && res[i].ms_min <= res[i].ms_median &&
                    res[i].ms_median <= res[i].ms_max && res[i].gcups > 0.0);
        assert_true(res[i].launches >= 1);
        /* the median of the rounds' ratios lies between the extremes of the ratio */
        assert_true(res[i].paired_ratio >= res[i].ms_min / res[0].ms_max * 0.999999);
        assert_true(res[i].paired_ratio <= res[i].ms_max / res[0].ms_min * 1.000001);
    }
    assert_true(res[0].paired_ratio == 1.0);
    assert_true(res[2].algo != GS_ALGO_AUTO); /* global's auto, resolved */
    assert_true(res[1].launches == 1 && res[0].launches > 1);

    cfgs[1].reference = wrong; /* local fails its check; relaunch and global go on */
    assert_int_equal(nw_run_methods(dev, cfgs, 3, res), GS_ERR_CHECK_FAILED);
    assert_int_equal(res[1].status, GS_ERR_CHECK_FAILED);
    assert_int_equal(res[1].mismatches, 1);
    assert_true(res[1].ms_median == 0.0 && res[1].paired_ratio == 0.0);
    assert_non_null(strstr(res[1].error, "m[9][30]"));
    assert_int_equal(res[0].status, GS_OK);
    assert_int_equal(res[2].status, GS_OK);
    assert_true(res[2].ms_median > 0.0 && res[2].paired_ratio > 0.0);
    cfgs[1].reference = NULL;

    for (unsigned k = 0; k < 5; ++k) { /* n, tile, seed, repeats, check_all must agree */
        nw_config other[2] = {cfgs[0], cfgs[1]};
        if (k == 0)
            other[1].n = N + 1u;
        else if (k == 1)
            other[1].tile = other[1].group_size = 32;
        else if (k == 2)
            other[1].seed = 4;
        else if (k == 3)
            other[1].repeats = R + 1u;
        else
            other[1].check_all = 0;
        assert_int_equal(nw_run_methods(dev, other, 2, res), GS_ERR_INVALID_ARGUMENT);
        assert_int_equal(res[0].status, GS_ERR_INVALID_ARGUMENT);
        assert_int_equal(res[1].status, GS_ERR_INVALID_ARGUMENT);
    }
    assert_int_equal(nw_run_methods(dev, cfgs, 0, res), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(nw_run_methods(dev, cfgs, 3, NULL), GS_ERR_INVALID_ARGUMENT);
}

static void bad_input(void **unused)
{
    (void)unused;
    nw_result r;
    nw_config ok = config(NW_LOCAL, 40, 16, 1), c = ok;
    c.tile = c.group_size = 24;
    assert_int_equal(nw_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c = ok;
    c.group_size = 32;
    assert_int_equal(nw_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c = ok;
    c.n = 0;
    assert_int_equal(nw_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c = ok;
    c.groups = 0;
    assert_int_equal(nw_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c = ok;
    c.variant.k = NW_MAX_K + 1;
    assert_int_equal(nw_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    c = ok;
    c.scheme = NW_GLOBAL;
    c.silent_tile = 1; /* the fault is the local schemes' */
    assert_int_equal(nw_run(dev, &c, &r), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(nw_run(dev, NULL, &r), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(nw_run(dev, &ok, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(nw_run(NULL, &ok, &r), GS_ERR_UNSUPPORTED);
    assert_int_equal(nw_reference(0, 1, (int32_t[1]){0}), GS_ERR_INVALID_ARGUMENT);
    if (info.backend != GS_BACKEND_CUDA) { /* CUDA-only schemes */
        c = ok;
        c.scheme = NW_CG;
        assert_false(nw_scheme_supported(dev, NW_CG, GS_ALGO_AUTO));
        assert_int_equal(nw_run(dev, &c, &r), GS_ERR_UNSUPPORTED);
        assert_false(nw_scheme_supported(dev, NW_RELAUNCH_GRAPH, GS_ALGO_AUTO));
    }
    unsigned bound;
    assert_int_equal(nw_max_groups(dev, NW_LOCAL, GS_ALGO_AUTO, 16, 8, &bound),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(nw_max_groups(dev, NW_LOCAL, GS_ALGO_AUTO, 16, 16, NULL),
                     GS_ERR_INVALID_ARGUMENT);
}

int main(void)
{
    dev = test_open_or_skip();
    gs_device_get_info(dev, &info);
    const char *weak = getenv("GS_TEST_EXPECT_WRONG");
    if (weak && weak[0] == '1') {
        const struct CMUnitTest caught[] = {cmocka_unit_test(tagged_weakened_is_caught)};
        int rc = cmocka_run_group_tests(caught, NULL, NULL);
        gs_device_close(dev);
        return rc;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reference_is_the_recurrence),
        cmocka_unit_test(names_parse_back),
        cmocka_unit_test(bad_input),
        cmocka_unit_test(a_wrong_result_fails),
        cmocka_unit_test(schemes_in_rounds),
        cmocka_unit_test(baselines_and_global_exact),
        cmocka_unit_test(local_variants_exact),
        cmocka_unit_test(silent_tile_times_out),
        cmocka_unit_test(tagged_exact),
        cmocka_unit_test(tagged_silent_tile_times_out),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    gs_device_close(dev);
    return rc;
}
