/* bench_measure_sets (tools/gridsync/bench_sets.c): the methods of one grid split into the
 * sets that run together in interleaved rounds: one set per group count, in the order
 * given, and cluster in a set of its own after its group count's, with cg as its base
 * where cg runs at that count. bench_cg_first: a set's order, cg first (the one every
 * other is paired with). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"

/* What measure was called with, in order. */
typedef struct call {
    gs_algo ms[8];
    unsigned k, groups;
    int cg_base;
} call;
typedef struct calls {
    call c[8];
    unsigned n, fail_at; /* measure returns 2 at call fail_at (0: never) */
} calls;

static int record(void *ctx, const gs_algo *ms, unsigned k, int cg_base, unsigned groups)
{
    calls *x = ctx;
    assert_true(x->n < 8 && k <= 8);
    call *c = &x->c[x->n++];
    memcpy(c->ms, ms, k * sizeof *ms);
    c->k = k;
    c->groups = groups;
    c->cg_base = cg_base;
    return x->n == x->fail_at ? 2 : 0;
}

static void expect(const call *c, unsigned groups, int cg_base, unsigned k, const gs_algo *ms)
{
    assert_int_equal(c->groups, groups);
    assert_int_equal(c->cg_base, cg_base);
    assert_int_equal(c->k, k);
    for (unsigned i = 0; i < k; ++i)
        assert_int_equal(c->ms[i], ms[i]);
}

/* One group count: one set in the order given, cluster after it beside cg. */
static void one_count(void **unused)
{
    (void)unused;
    const gs_algo todo[] = {GS_ALGO_FLIP, GS_ALGO_CLUSTER, GS_ALGO_CG, GS_ALGO_AUTO};
    const unsigned groups[] = {132, 132, 132, 132};
    calls x = {0};
    assert_int_equal(bench_measure_sets(todo, groups, 4, record, &x), 0);
    assert_int_equal(x.n, 2);
    expect(&x.c[0], 132, 0, 3, (const gs_algo[]){GS_ALGO_FLIP, GS_ALGO_CG, GS_ALGO_AUTO});
    expect(&x.c[1], 132, 1, 1, (const gs_algo[]){GS_ALGO_CLUSTER});
}

/* Methods held at their own bound run with the others at that count; cluster without cg
 * at its count has no base. */
static void several_counts(void **unused)
{
    (void)unused;
    const gs_algo todo[] = {GS_ALGO_RELAUNCH, GS_ALGO_CG, GS_ALGO_FLIP, GS_ALGO_CLUSTER,
                            GS_ALGO_TREE};
    const unsigned groups[] = {528, 264, 528, 100, 264};
    calls x = {0};
    assert_int_equal(bench_measure_sets(todo, groups, 5, record, &x), 0);
    assert_int_equal(x.n, 3);
    expect(&x.c[0], 528, 0, 2, (const gs_algo[]){GS_ALGO_RELAUNCH, GS_ALGO_FLIP});
    expect(&x.c[1], 264, 0, 2, (const gs_algo[]){GS_ALGO_CG, GS_ALGO_TREE});
    expect(&x.c[2], 100, 0, 1, (const gs_algo[]){GS_ALGO_CLUSTER});
}

/* cluster alone at a count where cg runs: a set of cluster only, cg its base. */
static void cluster_alone(void **unused)
{
    (void)unused;
    const gs_algo todo[] = {GS_ALGO_CLUSTER, GS_ALGO_CG};
    const unsigned groups[] = {64, 64};
    calls x = {0};
    assert_int_equal(bench_measure_sets(todo, groups, 2, record, &x), 0);
    assert_int_equal(x.n, 2);
    expect(&x.c[0], 64, 0, 1, (const gs_algo[]){GS_ALGO_CG});
    expect(&x.c[1], 64, 1, 1, (const gs_algo[]){GS_ALGO_CLUSTER});
}

/* The first failing measure ends it with its value; none at all for no methods. */
static void stops_at_a_failure(void **unused)
{
    (void)unused;
    const gs_algo todo[] = {GS_ALGO_FLIP, GS_ALGO_TREE, GS_ALGO_CG};
    const unsigned groups[] = {1, 2, 3};
    calls x = {.fail_at = 2};
    assert_int_equal(bench_measure_sets(todo, groups, 3, record, &x), 2);
    assert_int_equal(x.n, 2);
    calls none = {0};
    assert_int_equal(bench_measure_sets(todo, groups, 0, record, &none), 0);
    assert_int_equal(none.n, 0);
}

/* cg moves to the front wherever it stands; every method keeps its index into the order. */
static void cg_runs_first(void **unused)
{
    (void)unused;
    gs_algo order[8];
    unsigned at[8];
    int cg = -1;
    const gs_algo ms[] = {GS_ALGO_FLIP, GS_ALGO_RELAUNCH, GS_ALGO_CG, GS_ALGO_AUTO};
    assert_int_equal(bench_cg_first(ms, 4, 0, order, at, &cg), 4);
    assert_int_equal(cg, 1);
    const gs_algo want[] = {GS_ALGO_CG, GS_ALGO_FLIP, GS_ALGO_RELAUNCH, GS_ALGO_AUTO};
    for (unsigned i = 0; i < 4; ++i) {
        assert_int_equal(order[i], want[i]);
        assert_int_equal(order[at[i]], ms[i]);
    }
    /* no cg: the order given, nothing paired */
    assert_int_equal(bench_cg_first(ms, 2, 0, order, at, &cg), 2);
    assert_int_equal(cg, 0);
    assert_int_equal(order[0], GS_ALGO_FLIP);
    assert_int_equal(at[1], 1);
    /* cg as the base alone: one configuration more, whose row is none of these */
    const gs_algo cluster[] = {GS_ALGO_CLUSTER};
    assert_int_equal(bench_cg_first(cluster, 1, 1, order, at, &cg), 2);
    assert_int_equal(cg, 1);
    assert_int_equal(order[0], GS_ALGO_CG);
    assert_int_equal(order[1], GS_ALGO_CLUSTER);
    assert_int_equal(at[0], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_count),     cmocka_unit_test(several_counts),
        cmocka_unit_test(cluster_alone), cmocka_unit_test(stops_at_a_failure),
        cmocka_unit_test(cg_runs_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
