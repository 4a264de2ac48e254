/* tests/test_multi.c - the barrier across devices (gridsync/multi.h, host_multi.h) on the
 * cpu back end's emulated devices: message passing across devices (every work-item of
 * every group of every device writes its value of phase k, and after the barrier reads
 * every other one's of phase k) on 1, 2 and 4 devices, one and several groups each,
 * with gs_multi_sync and in split phase, the ranks launched together or one by one in
 * any order, the state reused across launches; faults (a device whose kernel skips a
 * barrier, a group of one that never arrives, a device never launched): every other
 * device ends with GS_ERR_TIMEOUT within the bound, the diagnosis names the missing
 * device and, where there is one, its group, the next launch needs a reset and then
 * works; a state that is not the barrier's; the host API's argument checks. With
 * GS_TEST_CROWDED=1, only four devices at the back end's thread bound together.
 *
 * With GS_TEST_EXPECT_WRONG=1 (built with the weakened barrier, which waits for one
 * device fewer) message passing must see wrong values: the check can fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "gridsync.h"
#include "gridsync/cpu.h"
#include "gridsync/host_cpu.h"
#include "gridsync/host_multi.h"

#define MAX_DEV 4u
#define ALL_GROUPS 0xffffffffu
#define NO_FAULT 0xffffffffu

static gs_device *handles[2];

static int expect_wrong(void)
{
    const char *e = getenv("GS_TEST_EXPECT_WRONG");
    return e && e[0] == '1';
}

/* What every rank's kernel shares, and what each has of its own. */
typedef struct mp_shared {
    unsigned ranks, groups, size, episodes;
    int split;
    int next_only; /* check only the next rank's next group (a crowded grid) */
    uint32_t *buf; /* [2][ranks][groups][size]: phase k in half k % 2 */
    atomic_uint wrong, checked;
    unsigned fault_rank, fault_group, fault_episode; /* who returns instead of arriving */
    atomic_uint why[MAX_DEV];                        /* the first non-zero gs_multi_sync per rank */
} mp_shared;

typedef struct mp_arg {
    mp_shared *sh;
    gs_word *state;
    unsigned rank;
} mp_arg;

static uint32_t value(unsigned rank, unsigned group, unsigned item, unsigned k)
{
    return (rank * 7919u + group * 131u + item * 17u + k * 2654435761u) | 1u;
}

static size_t at(const mp_shared *sh, unsigned half, unsigned rank, unsigned group, unsigned item)
{
    return (((size_t)half * sh->ranks + rank) * sh->groups + group) * sh->size + item;
}

static void mp_kernel(void *p)
{
    mp_arg *a = p;
    mp_shared *sh = a->sh;
    unsigned g = gs_group_id(), l = gs_local_id();
    gs_multi_grid m = gs_multi_begin(a->state);
    for (unsigned k = 0; k < sh->episodes; ++k) {
        if (a->rank == sh->fault_rank && k == sh->fault_episode &&
            (sh->fault_group == ALL_GROUPS || sh->fault_group == g))
            return;
        sh->buf[at(sh, k % 2u, a->rank, g, l)] = value(a->rank, g, l, k);
        if ((value(a->rank, g, l, k) >> 7) % 5u == 0u)
            sched_yield(); /* let the scheduler interleave the devices */
        gs_u32 why;
        if (sh->split) {
            gs_token t = gs_multi_arrive(&m);
            sched_yield(); /* the independent work */
            why = gs_multi_wait_token(&m, t);
        } else {
            why = gs_multi_sync(&m);
        }
        if (why != 0u) {
            unsigned none = 0;
            atomic_compare_exchange_strong(&sh->why[a->rank], &none, why);
            return;
        }
        unsigned wrong = 0;
        for (unsigned r = 0; r < sh->ranks; ++r)
            for (unsigned gg = 0; gg < sh->groups; ++gg)
                for (unsigned ll = 0; ll < sh->size; ++ll)
                    if (!sh->next_only ||
                        (r == (a->rank + 1u) % sh->ranks && gg == (g + 1u) % sh->groups))
                        wrong += sh->buf[at(sh, k % 2u, r, gg, ll)] != value(r, gg, ll, k);
        atomic_fetch_add(&sh->wrong, wrong);
        atomic_fetch_add(&sh->checked, 1u);
    }
}

typedef struct run {
    mp_shared sh;
    mp_arg args[MAX_DEV];
    void *argp[MAX_DEV];
    gs_status st[MAX_DEV];
} run;

static void run_init(run *x, gs_multi *m, unsigned size, unsigned episodes, int split)
{
    unsigned ranks = 0, groups = 0;
    assert_int_equal(gs_multi_get_shape(m, &ranks, &groups), GS_OK);
    memset(x, 0, sizeof *x);
    x->sh.ranks = ranks;
    x->sh.groups = groups;
    x->sh.size = size;
    x->sh.episodes = episodes;
    x->sh.split = split;
    x->sh.fault_rank = x->sh.fault_group = x->sh.fault_episode = NO_FAULT;
    x->sh.buf = calloc(2u * ranks * groups * size, sizeof *x->sh.buf);
    assert_non_null(x->sh.buf);
    for (unsigned r = 0; r < ranks; ++r) {
        void *state = NULL;
        assert_int_equal(gs_multi_native(m, r, &state), GS_OK);
        x->args[r] = (mp_arg){&x->sh, state, r};
        x->argp[r] = &x->args[r];
    }
}

static gs_status run_all(run *x, gs_multi *m)
{
    return gs_cpu_multi_launch(m, GS_DIM3_1D(x->sh.groups), GS_DIM3_1D(x->sh.size), mp_kernel,
                               x->argp, x->st);
}

static gs_multi *make(unsigned ranks, unsigned groups)
{
    gs_device *devs[MAX_DEV];
    gs_multi *m = NULL;
    for (unsigned r = 0; r < ranks; ++r)
        devs[r] = handles[r % 2u]; /* a device listed twice, and distinct handles */
    assert_int_equal(gs_multi_create(devs, ranks, groups, &m), GS_OK);
    return m;
}

static double now_ms(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* ---- message passing ------------------------------------------------------------------ */

static void message_passing(int split)
{
    static const unsigned ranks[] = {1, 2, 4}, groups[] = {1, 3};
    for (size_t i = 0; i < sizeof ranks / sizeof *ranks; ++i)
        for (size_t j = 0; j < sizeof groups / sizeof *groups; ++j) {
            gs_multi *m = make(ranks[i], groups[j]);
            for (int launch = 0; launch < 2; ++launch) { /* the same states, no reset */
                run x;
                run_init(&x, m, 2, 300, split);
                assert_int_equal(run_all(&x, m), GS_OK);
                for (unsigned r = 0; r < ranks[i]; ++r)
                    assert_int_equal(x.st[r], GS_OK);
                assert_int_equal(atomic_load(&x.sh.wrong), 0);
                assert_int_equal(atomic_load(&x.sh.checked), 300u * ranks[i] * groups[j] * 2u);
                free(x.sh.buf);
            }
            gs_multi_destroy(m);
        }
}
static void message_passing_sync(void **unused)
{
    (void)unused;
    message_passing(0);
}
static void message_passing_split(void **unused)
{
    (void)unused;
    message_passing(1);
}

/* The ranks launched one by one, last first, each with gs_cpu_multi_launch_async. */
static void ranks_launched_one_by_one(void **unused)
{
    (void)unused;
    gs_multi *m = make(4, 2);
    run x;
    run_init(&x, m, 3, 200, 0);
    for (unsigned r = 4; r-- > 0;)
        assert_int_equal(
            gs_cpu_multi_launch_async(m, r, GS_DIM3_1D(2), GS_DIM3_1D(3), mp_kernel, x.argp[r]),
            GS_OK);
    assert_int_equal(gs_multi_collect(m, x.st), GS_OK);
    assert_int_equal(atomic_load(&x.sh.wrong), 0);
    free(x.sh.buf);
    gs_multi_destroy(m);
}

/* Four emulated devices at the back end's bound together (1024 groups of 1 each on
 * however few cores), at the default timeout. Each rank's grid once counted only its own
 * groups per core when it chose between yielding and sleeping (gs_cpu_pause), and 4 ranks
 * of 1024 on 2 cores timed out (2 of 2 runs) where one grid of 4096 passes
 * (tests/test_crowded.c). */
static void crowded_devices(void **unused)
{
    (void)unused;
    unsigned most = 0;
    assert_int_equal(gs_device_max_groups(handles[0], 1, &most), GS_OK);
    gs_multi *m = make(4, most / 4u);
    run x;
    run_init(&x, m, 1, 200, 0);
    x.sh.next_only = 1;
    gs_status s = run_all(&x, m);
    if (s != GS_OK)
        print_message("4 devices of %u groups of 1: %s\n", most / 4u, gs_status_string(s));
    assert_int_equal(s, GS_OK);
    assert_int_equal(atomic_load(&x.sh.wrong), 0);
    assert_int_equal(atomic_load(&x.sh.checked), 200u * most);
    free(x.sh.buf);
    gs_multi_destroy(m);
}

/* The weakened build: rank 0 .. ranks-2 do not wait for the last rank's slot. */
static void weakened_sees_wrong_values(void **unused)
{
    (void)unused;
    unsigned wrong = 0;
    for (int attempt = 0; attempt < 20 && wrong == 0; ++attempt) {
        gs_multi *m = make(2, 2);
        run x;
        run_init(&x, m, 2, 300, attempt % 2);
        (void)run_all(&x, m);
        wrong += atomic_load(&x.sh.wrong);
        free(x.sh.buf);
        gs_multi_destroy(m);
    }
    print_message("weakened barrier: %u wrong values\n", wrong);
    assert_true(wrong > 0);
}

/* ---- faults --------------------------------------------------------------------------- */

#define FAULT_MS 300u

/* A launch with a fault that must end within the bound: every rank's status, checked
 * to be a timeout naming `missing` for every rank listed. */
static void run_fault(gs_multi *m, run *x, unsigned missing)
{
    assert_int_equal(gs_multi_set_timeout(m, FAULT_MS), GS_OK);
    double t0 = now_ms();
    assert_int_equal(run_all(x, m), GS_ERR_TIMEOUT);
    double took = now_ms() - t0;
    /* The default bound (20 s in the fault tests' environment) would take far longer. */
    assert_true(took < 10.0 * FAULT_MS + 2000.0);
    int someone_timed_out = 0;
    for (unsigned r = 0; r < x->sh.ranks; ++r) {
        gs_multi_abort a;
        assert_int_equal(x->st[r], GS_ERR_TIMEOUT);
        assert_int_equal(gs_multi_abort_info(m, r, &a), GS_OK);
        assert_int_equal(a.rank, r);
        assert_true(a.reason == GS_ABORT_REASON_TIMEOUT || a.reason == GS_ABORT_REASON_PEER);
        someone_timed_out |= a.reason == GS_ABORT_REASON_TIMEOUT;
        assert_int_equal(a.missing_ranks, 1u);
        assert_int_equal(a.first_missing_rank[0], missing);
        if (r != missing && a.reason == GS_ABORT_REASON_TIMEOUT)
            assert_int_equal(a.from_rank, r);
        if (a.reason == GS_ABORT_REASON_PEER)
            assert_true(a.from_rank < x->sh.ranks || a.group < x->sh.groups);
    }
    assert_true(someone_timed_out);
}

/* The same barrier after the fault: refused until reset, then whole. */
static void works_after_reset(gs_multi *m)
{
    run y;
    run_init(&y, m, 2, 100, 0);
    assert_int_equal(run_all(&y, m), GS_ERR_NEEDS_RESET);
    assert_int_equal(gs_multi_reset(m), GS_OK);
    assert_int_equal(run_all(&y, m), GS_OK);
    assert_int_equal(atomic_load(&y.sh.wrong), 0);
    gs_multi_abort a;
    assert_int_equal(gs_multi_abort_info(m, 0, &a), GS_OK);
    assert_int_equal(a.reason, GS_ABORT_REASON_NONE);
    free(y.sh.buf);
}

/* Device 1's kernel returns before its 6th barrier: every device times out (or is told
 * to), each names device 1; no group of device 1 arrived, so none is named. */
static void device_skips_barrier(void **unused)
{
    (void)unused;
    gs_multi *m = make(3, 2);
    run x;
    run_init(&x, m, 2, 50, 0);
    x.sh.fault_rank = 1;
    x.sh.fault_group = ALL_GROUPS;
    x.sh.fault_episode = 5;
    run_fault(m, &x, 1);
    for (unsigned r = 0; r < 3; ++r) {
        gs_multi_abort a;
        gs_multi_abort_info(m, r, &a);
        assert_int_equal(a.missing_group, GS_MULTI_NONE);
        if (r != 1) /* its groups were waiting at episode 5 */
            assert_int_equal(a.episode, 5u);
        else /* its kernel had ended: told, no group of its own saw it */
            assert_int_equal(a.group, GS_MULTI_NONE);
    }
    assert_int_equal(atomic_load(&x.sh.why[0]) != 0u, 1);
    free(x.sh.buf);
    works_after_reset(m);
    gs_multi_destroy(m);
}

/* Group 2 of device 1 never arrives at its 4th barrier, so device 1 has no
 * representative: device 0 names device 1 and its group 2 (it can read device 1's
 * state), device 1 names its own group 2. */
static void group_never_arrives(void **unused)
{
    (void)unused;
    gs_multi *m = make(2, 3);
    run x;
    run_init(&x, m, 2, 50, 1);
    x.sh.fault_rank = 1;
    x.sh.fault_group = 2;
    x.sh.fault_episode = 3;
    run_fault(m, &x, 1);
    gs_multi_abort a;
    assert_int_equal(gs_multi_abort_info(m, 0, &a), GS_OK);
    assert_int_equal(a.missing_group, 2u);
    assert_int_equal(a.missing_groups, 0u);
    assert_int_equal(gs_multi_abort_info(m, 1, &a), GS_OK);
    assert_int_equal(a.missing_groups, 1u);
    assert_int_equal(a.first_missing_group[0], 2u);
    assert_int_equal(a.missing_group, 2u);
    free(x.sh.buf);
    works_after_reset(m);
    gs_multi_destroy(m);
}

/* Device 1 is never launched: devices 0 and 2 time out naming it, device 1 says no
 * kernel used its state. */
static void device_never_launched(void **unused)
{
    (void)unused;
    gs_multi *m = make(3, 1);
    run x;
    run_init(&x, m, 2, 20, 0);
    assert_int_equal(gs_multi_set_timeout(m, FAULT_MS), GS_OK);
    for (unsigned r = 0; r < 3; r += 2)
        assert_int_equal(
            gs_cpu_multi_launch_async(m, r, GS_DIM3_1D(1), GS_DIM3_1D(2), mp_kernel, x.argp[r]),
            GS_OK);
    assert_int_equal(gs_multi_collect(m, x.st), GS_ERR_TIMEOUT);
    assert_int_equal(x.st[0], GS_ERR_TIMEOUT);
    assert_int_equal(x.st[1], GS_ERR_BAD_STATE);
    assert_int_equal(x.st[2], GS_ERR_TIMEOUT);
    gs_multi_abort a;
    for (unsigned r = 0; r < 3; r += 2) {
        assert_int_equal(gs_multi_abort_info(m, r, &a), GS_OK);
        assert_int_equal(a.first_missing_rank[0], 1u);
        assert_int_equal(a.missing_ranks, 1u);
        assert_int_equal(a.episode, 0u);
    }
    assert_int_equal(gs_multi_abort_info(m, 1, &a), GS_OK);
    assert_int_equal(a.reason, GS_ABORT_REASON_UNUSED);
    free(x.sh.buf);
    works_after_reset(m);
    gs_multi_destroy(m);
}

/* A barrier's state handed to the kernel instead: it touches nothing (BAD_STATE at the
 * host) and says so to its work-items. */
static void bad_state_reported(void **unused)
{
    (void)unused;
    gs_multi *m = make(1, 2);
    gs_barrier *b = NULL;
    void *bstate = NULL;
    assert_int_equal(gs_barrier_create(handles[0], GS_ALGO_FLIP, 2, &b), GS_OK);
    assert_int_equal(gs_barrier_native(b, &bstate), GS_OK);
    run x;
    run_init(&x, m, 2, 5, 0);
    x.args[0].state = bstate;
    assert_int_equal(run_all(&x, m), GS_ERR_BAD_STATE);
    assert_int_equal(atomic_load(&x.sh.why[0]), GS_ABORT_BAD_STATE);
    gs_multi_abort a;
    assert_int_equal(gs_multi_abort_info(m, 0, &a), GS_OK);
    assert_int_equal(a.reason, GS_ABORT_REASON_UNUSED);
    free(x.sh.buf);
    gs_barrier_destroy(b);
    gs_multi_destroy(m);
}

/* ---- the host API ---------------------------------------------------------------------- */

static void create_refuses_bad_arguments(void **unused)
{
    (void)unused;
    gs_device *devs[GS_MULTI_MAX_DEVICES + 1];
    for (unsigned i = 0; i <= GS_MULTI_MAX_DEVICES; ++i)
        devs[i] = handles[0];
    gs_multi *m = (gs_multi *)&m;
    assert_int_equal(gs_multi_create(devs, 0, 1, &m), GS_ERR_INVALID_ARGUMENT);
    assert_null(m);
    assert_int_equal(gs_multi_create(devs, GS_MULTI_MAX_DEVICES + 1, 1, &m),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_create(devs, 2, 0, &m), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_create(devs, 2, GS_MAX_GROUPS + 1u, &m), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_create(NULL, 2, 1, &m), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_create(devs, 2, 1, NULL), GS_ERR_INVALID_ARGUMENT);
    devs[1] = NULL;
    assert_int_equal(gs_multi_create(devs, 2, 1, &m), GS_ERR_INVALID_ARGUMENT);
    assert_null(m);
    devs[1] = handles[0];
    assert_int_equal(gs_multi_create(devs, GS_MULTI_MAX_DEVICES, 1, &m), GS_OK);
    gs_multi_destroy(m);
#ifdef GRIDSYNC_HAVE_OPENCL
    gs_device *cl = NULL;
    if (gs_device_open(GS_BACKEND_OPENCL, 0, &cl) == GS_OK) {
        devs[1] = cl; /* devices of different back ends */
        assert_int_equal(gs_multi_create(devs, 2, 1, &m), GS_ERR_INVALID_ARGUMENT);
        devs[0] = cl; /* OpenCL: no system scope */
        assert_int_equal(gs_multi_create(devs, 2, 1, &m), GS_ERR_UNSUPPORTED);
        assert_null(m);
        gs_device_close(cl);
    }
#endif
    assert_int_equal(gs_multi_destroy(NULL), GS_ERR_INVALID_ARGUMENT);
}

static void noop_kernel(void *arg) { (void)arg; }

/* Waits once, so that a rank stays in flight until the other comes. */
static void sync_once_kernel(void *arg)
{
    gs_multi_grid m = gs_multi_begin(arg);
    (void)gs_multi_sync(&m);
}

static void launch_refuses_bad_arguments(void **unused)
{
    (void)unused;
    gs_multi *m = make(2, 2);
    void *s0 = NULL, *s1 = NULL;
    size_t bytes = 0;
    unsigned ms = 0, ranks = 0, groups = 0;
    assert_int_equal(gs_multi_native(m, 0, &s0), GS_OK);
    assert_int_equal(gs_multi_native(m, 1, &s1), GS_OK);
    assert_ptr_not_equal(s0, s1);
    assert_int_equal(gs_multi_native(m, 2, &s0), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_native(m, 0, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_state_bytes(m, &bytes), GS_OK);
    assert_true(bytes >= (2u + 5u) * GS_LINE_BYTES);
    assert_int_equal(gs_multi_get_shape(m, &ranks, NULL), GS_OK);
    assert_int_equal(gs_multi_get_shape(m, NULL, &groups), GS_OK);
    assert_int_equal(ranks * 10u + groups, 22u);
    assert_int_equal(gs_multi_get_shape(m, NULL, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_set_timeout(m, 0), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_set_timeout(m, 3600001u), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_set_timeout(m, 4321), GS_OK);
    assert_int_equal(gs_multi_get_timeout(m, &ms), GS_OK);
    assert_int_equal(ms, 4321u);
    gs_multi_abort a;
    assert_int_equal(gs_multi_abort_info(m, 2, &a), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_abort_info(m, 0, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_collect(NULL, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_reset(NULL), GS_ERR_INVALID_ARGUMENT);

    gs_dim3 g2 = GS_DIM3_1D(2), one = GS_DIM3_1D(1);
    assert_int_equal(gs_cpu_multi_launch_async(NULL, 0, g2, one, noop_kernel, NULL),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_cpu_multi_launch_async(m, 2, g2, one, noop_kernel, NULL),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_cpu_multi_launch_async(m, 0, g2, one, NULL, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_cpu_multi_launch_async(m, 0, g2, GS_DIM3_1D(0), noop_kernel, NULL),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_cpu_multi_launch_async(m, 0, g2, GS_DIM3_1D(1025), noop_kernel, NULL),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_cpu_multi_launch_async(m, 0, GS_DIM3_1D(3), one, noop_kernel, NULL),
                     GS_ERR_INVALID_ARGUMENT); /* not the barrier's groups per device */
    /* 2 groups of 1024 on each of 2 devices run at once; on 3, more threads than that */
    gs_multi *m3 = make(3, 2);
    assert_int_equal(gs_cpu_multi_launch_async(m3, 0, g2, GS_DIM3_1D(1024), noop_kernel, NULL),
                     GS_ERR_TOO_MANY_GROUPS);
    assert_int_equal(gs_cpu_multi_launch(m3, g2, GS_DIM3_1D(1024), noop_kernel, NULL, NULL),
                     GS_ERR_TOO_MANY_GROUPS);
    gs_multi_destroy(m3);

    /* rank 0 in flight (waiting for rank 1): everything that needs it idle is refused */
    assert_int_equal(gs_cpu_multi_launch_async(m, 0, g2, one, sync_once_kernel, s0), GS_OK);
    assert_int_equal(gs_cpu_multi_launch_async(m, 0, g2, one, sync_once_kernel, s0), GS_ERR_BUSY);
    assert_int_equal(gs_multi_reset(m), GS_ERR_BUSY);
    assert_int_equal(gs_multi_set_timeout(m, 1000), GS_ERR_BUSY);
    assert_int_equal(gs_multi_destroy(m), GS_ERR_BUSY);
    assert_int_equal(
        gs_cpu_multi_launch_async(m, 1, gs_dim3_make(1, 2, 1) /* 2-D */, one, sync_once_kernel, s1),
        GS_OK);
    gs_status st[2] = {GS_ERR_NATIVE, GS_ERR_NATIVE};
    assert_int_equal(gs_multi_collect(m, st), GS_OK);
    assert_int_equal(st[0], GS_OK);
    assert_int_equal(st[1], GS_OK);
    /* a kernel that never begins with the state: not acknowledged */
    assert_int_equal(gs_cpu_multi_launch(m, g2, one, noop_kernel, NULL, st), GS_ERR_BAD_STATE);
    assert_int_equal(st[1], GS_ERR_BAD_STATE);
    assert_int_equal(gs_multi_abort_info(m, 1, &a), GS_OK);
    assert_int_equal(a.reason, GS_ABORT_REASON_UNUSED);
    assert_int_equal(gs_multi_reset(m), GS_OK);
    assert_int_equal(gs_multi_destroy(m), GS_OK);
}

static int open_devices(void **unused)
{
    (void)unused;
    return gs_device_open(GS_BACKEND_CPU, 0, &handles[0]) == GS_OK &&
                   gs_device_open(GS_BACKEND_CPU, 0, &handles[1]) == GS_OK
               ? 0
               : -1;
}
static int close_devices(void **unused)
{
    (void)unused;
    gs_device_close(handles[0]);
    gs_device_close(handles[1]);
    return 0;
}

int main(void)
{
    const char *crowded = getenv("GS_TEST_CROWDED");
    if (crowded && crowded[0] == '1') {
        const struct CMUnitTest one[] = {cmocka_unit_test(crowded_devices)};
        return cmocka_run_group_tests(one, open_devices, close_devices);
    }
    if (expect_wrong()) {
        const struct CMUnitTest weak[] = {cmocka_unit_test(weakened_sees_wrong_values)};
        return cmocka_run_group_tests(weak, open_devices, close_devices);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(message_passing_sync),
        cmocka_unit_test(message_passing_split),
        cmocka_unit_test(ranks_launched_one_by_one),
        cmocka_unit_test(device_skips_barrier),
        cmocka_unit_test(group_never_arrives),
        cmocka_unit_test(device_never_launched),
        cmocka_unit_test(bad_state_reported),
        cmocka_unit_test(create_refuses_bad_arguments),
        cmocka_unit_test(launch_refuses_bad_arguments),
    };
    return cmocka_run_group_tests(tests, open_devices, close_devices);
}
