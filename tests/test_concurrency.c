/* One device, several host threads: each thread creates its own barrier on the shared
 * device and runs message passing through it, all at once. Every run must pass as it
 * does alone. On OpenCL the threads share the device's program builds (made lazily, per
 * protocol, at the first launch), its deadline calibration (at the first barrier) and
 * the cl_kernel objects whose arguments each launch sets: without the device's lock
 * two threads built the same protocol twice (a double free), or one thread's launch
 * ran with the other's buffers (a false GS_ERR_CHECK_FAILED). Runs on the back end under
 * test (GS_TEST_BACKEND); GS_TEST_THREADS and GS_TEST_ROUNDS size it. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "test_support.h"

#define MAX_THREADS 16u

static gs_device *dev;
static unsigned nthreads, rounds, groups, block;

typedef struct worker {
    pthread_t thread;
    pthread_barrier_t *start;
    gs_algo algo;
    unsigned index;
    /* what the main thread checks: cmocka's assertions are not for other threads */
    gs_status status; /* the first failure, or GS_OK */
    unsigned failed_round;
    uint64_t mismatches;
} worker;

static void *worker_main(void *arg)
{
    worker *w = arg;
    gs_barrier *b = NULL;
    /* All at once, so the first barrier (OpenCL: the calibration) and the first launch
     * of a protocol (OpenCL: its build) race. */
    pthread_barrier_wait(w->start);
    w->status = gs_barrier_create(dev, w->algo, groups, &b);
    if (w->status == GS_OK)
        w->status = gs_barrier_set_timeout(b, 5000);
    for (unsigned r = 0; r < rounds && w->status == GS_OK; ++r) {
        gs_run_result res;
        gs_run_config cfg = {.workload = GS_WORKLOAD_MP,
                             .groups = groups,
                             .group_size = block,
                             .iterations = 40,
                             .seed = 1000u * w->index + r,
                             .delay = 8,
                             .stress = 2};
        w->status = gs_run(b, &cfg, &res);
        w->mismatches += res.mismatches;
        w->failed_round = r;
    }
    if (b)
        gs_barrier_destroy(b);
    return NULL;
}

/* Runs nthreads workers, worker i on algos[i % n], and checks every one of them. */
static void run_workers(const gs_algo *algos, unsigned n)
{
    worker w[MAX_THREADS];
    pthread_barrier_t start;
    assert_int_equal(pthread_barrier_init(&start, NULL, nthreads), 0);
    for (unsigned i = 0; i < nthreads; ++i) {
        w[i] = (worker){.start = &start, .algo = algos[i % n], .index = i};
        assert_int_equal(pthread_create(&w[i].thread, NULL, worker_main, &w[i]), 0);
    }
    for (unsigned i = 0; i < nthreads; ++i)
        pthread_join(w[i].thread, NULL);
    pthread_barrier_destroy(&start);
    for (unsigned i = 0; i < nthreads; ++i) {
        if (w[i].status != GS_OK)
            fail_msg("thread %u (%s), round %u: %s, %llu mismatches", i, gs_algo_name(w[i].algo),
                     w[i].failed_round, gs_status_string(w[i].status),
                     (unsigned long long)w[i].mismatches);
        assert_int_equal(w[i].mismatches, 0);
    }
}

/* Every thread the same protocol: the same program, the same cl_kernel. */
static void same_protocol(void **state)
{
    static const gs_algo flip[] = {GS_ALGO_FLIP};
    run_workers(flip, 1);
}

/* A protocol per thread: builds of different programs at once. */
static void mixed_protocols(void **state)
{
    static const gs_algo algos[] = {GS_ALGO_CENTRAL, GS_ALGO_TREE, GS_ALGO_SHARDED,
                                    GS_ALGO_LOCKFREE};
    run_workers(algos, sizeof algos / sizeof *algos);
}

static int setup(void **state)
{
    unsigned bound = 0;
    dev = test_open_or_skip();
    nthreads = test_env_uint("GS_TEST_THREADS", 4);
    nthreads = nthreads < 2 ? 2 : nthreads > MAX_THREADS ? MAX_THREADS : nthreads;
    rounds = test_env_uint("GS_TEST_ROUNDS", 20);
    block = 4;
    if (gs_device_max_groups(dev, block, &bound) != GS_OK || bound < 2)
        return -1; /* a grid of one group has no barrier to share */
    groups = bound < 4 ? bound : 4;
    print_message("%u threads x %u rounds, %u groups of %u each\n", nthreads, rounds, groups,
                  block);
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
        cmocka_unit_test(same_protocol),
        cmocka_unit_test(mixed_protocols),
    };
    return cmocka_run_group_tests_name("concurrency", tests, setup, teardown);
}
