/* tests/test_launch.c - the launch API with user kernels on the cpu and OpenCL back ends
 * (GS_TEST_BACKEND): kernels that name their protocol, for every protocol; a barrier
 * reused with another group size (which gave naive wrong answers or false timeouts);
 * 2-D grids and groups; an asynchronous launch that times out and one that is busy; a
 * kernel handed another barrier's state or none; two host threads launching through one
 * barrier; a last barrier where every group but group 0 arrives and leaves; the last
 * arriver's barrier (gs_arrive_last_<p>), where only the group that completed the
 * episode reads. Each kernel: every work-item writes a value per episode, the barrier,
 * then it reads what a work-item of the next group wrote and counts the wrong ones.
 * With GS_TEST_EXPECT_WRONG=1 (test_launch_weak, built with GS_WEAKEN_COUNT: an episode
 * completes one arrival early) the last arriver's test must see wrong reads. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "test_support.h"
#include "gridsync/cpu.h"
#include "gridsync/host_cpu.h"
#ifdef GRIDSYNC_HAVE_OPENCL
#include "gridsync/host_opencl.h"
#endif

#define EPISODES 40u
#define TIMEOUT_MS 300u
#define MAX_ITEMS 1024u

static gs_device *dev;
static gs_device_info info;
static unsigned bound1; /* groups of one work-item that fit */

static const gs_algo algos[] = {GS_ALGO_CENTRAL, GS_ALGO_LOCKFREE, GS_ALGO_NAIVE, GS_ALGO_FLIP,
                                GS_ALGO_TREE,    GS_ALGO_SHARDED,  GS_ALGO_AUTO};

/* ---- the cpu kernels: one per protocol, as a user writes them ----------------------- */

typedef struct mp_args {
    gs_word *state;
    unsigned episodes, skip; /* skip: the last group leaves at once (a provoked fault) */
    unsigned arrive_only;    /* one barrier: the others arrive and leave, group 0 waits and
                                reads every work-item's value (tagged `episodes`) */
    unsigned data[2 * MAX_ITEMS];
    _Atomic unsigned errors;
    _Atomic unsigned finishers; /* gs_arrive_last: groups that were told they were last */
    unsigned then;              /* gs_arrive_last then, in the same launch, 1: gs_sync_<p>,
                                   2: gs_arrive_last_<p> again (misuse: must be refused) */
} mp_args;

static unsigned value(unsigned e, unsigned item) { return e * 2654435761u + item; }

#define MP_KERNEL(name)                                                   \
    static void mp_##name(void *p)                                        \
    {                                                                     \
        mp_args *a = p;                                                   \
        gs_grid g = gs_grid_begin_##name(a->state);                       \
        unsigned n = gs_num_groups() * gs_local_size();                   \
        unsigned me = gs_group_id() * gs_local_size() + gs_local_id();    \
        if (a->skip && gs_group_id() + 1u == gs_num_groups())             \
            return;                                                       \
        if (a->arrive_only) {                                             \
            a->data[me] = value(a->episodes, me);                         \
            gs_token t = gs_arrive_##name(&g);                            \
            if (gs_group_id() != 0u)                                      \
                return;                                                   \
            if (gs_wait_token_##name(&g, t))                              \
                return;                                                   \
            for (unsigned k = gs_local_id(); k < n; k += gs_local_size()) \
                if (a->data[k] != value(a->episodes, k))                  \
                    atomic_fetch_add(&a->errors, 1u);                     \
            return;                                                       \
        }                                                                 \
        for (unsigned e = 0; e < a->episodes; ++e) {                      \
            a->data[(e & 1u) * n + me] = value(e, me);                    \
            if (gs_sync_##name(&g))                                       \
                return;                                                   \
            unsigned other = (me + gs_local_size()) % n;                  \
            if (a->data[(e & 1u) * n + other] != value(e, other))         \
                atomic_fetch_add(&a->errors, 1u);                         \
        }                                                                 \
    }
#define MP_KERNEL_OF(ID, name, value, text, desc) MP_KERNEL(name)
GS_PROTOCOLS_SHARED(MP_KERNEL_OF)
MP_KERNEL(auto)

/* The last arriver's barrier: the last group writes 2 ms late, so it arrives last and an
 * episode that completed one arrival early would be read before its write. */
#define LAST_KERNEL(name)                                              \
    static void last_##name(void *p)                                   \
    {                                                                  \
        mp_args *a = p;                                                \
        gs_grid g = gs_grid_begin_##name(a->state);                    \
        unsigned n = gs_num_groups() * gs_local_size();                \
        unsigned me = gs_group_id() * gs_local_size() + gs_local_id(); \
        if (gs_group_id() + 1u == gs_num_groups()) {                   \
            struct timespec late = {0, 2000000};                       \
            nanosleep(&late, NULL);                                    \
        }                                                              \
        a->data[me] = value(a->episodes, me);                          \
        int last = gs_arrive_last_##name(&g);                          \
        if (a->then == 1u)                                             \
            (void)gs_sync_##name(&g);                                  \
        if (a->then == 2u)                                             \
            last += gs_arrive_last_##name(&g);                         \
        if (!last)                                                     \
            return;                                                    \
        if (gs_local_id() == 0u)                                       \
            atomic_fetch_add(&a->finishers, 1u);                       \
        for (unsigned k = gs_local_id(); k < n; k += gs_local_size())  \
            if (a->data[k] != value(a->episodes, k))                   \
                atomic_fetch_add(&a->errors, 1u);                      \
    }
LAST_KERNEL(flip)
LAST_KERNEL(tree)
LAST_KERNEL(auto)

/* The protocols with gs_arrive_last_<p>, and their kernels. */
static int has_last(gs_algo a)
{
    return a == GS_ALGO_FLIP || a == GS_ALGO_TREE || a == GS_ALGO_AUTO;
}
static void (*last_kernel(gs_algo a))(void *)
{
    return a == GS_ALGO_FLIP ? last_flip : a == GS_ALGO_TREE ? last_tree : last_auto;
}

static void (*cpu_kernel(gs_algo a))(void *)
{
    switch (a) {
#define MP_CASE(ID, name, value, text, desc) \
    case GS_ALGO_##ID: return mp_##name;
        GS_PROTOCOLS_SHARED(MP_CASE)
#undef MP_CASE
    case GS_ALGO_AUTO: return mp_auto;
    default: return NULL;
    }
}

/* A kernel that never touches its state. */
static void idle_kernel(void *p) { (void)p; }

/* ---- the OpenCL kernels: the same text, built once per protocol --------------------- */

#ifdef GRIDSYNC_HAVE_OPENCL
static const char *cl_source =
    "__kernel void mp(__global gs_word *state, __global uint *data, __global uint *errors,\n"
    "                 uint episodes, uint skip) {\n"
    "    gs_grid g = USER_BEGIN(state);\n"
    "    uint n = gs_num_groups() * gs_local_size();\n"
    "    uint me = gs_group_id() * gs_local_size() + gs_local_id();\n"
    "    if (skip && gs_group_id() + 1u == gs_num_groups()) return;\n"
    "    for (uint e = 0u; e < episodes; ++e) {\n"
    "        data[(e & 1u) * n + me] = e * 2654435761u + me;\n"
    "        if (USER_SYNC(&g)) return;\n"
    "        uint other = (me + gs_local_size()) % n;\n"
    "        if (data[(e & 1u) * n + other] != e * 2654435761u + other) atomic_inc(errors);\n"
    "    }\n"
    "}\n"
    "__kernel void ao(__global gs_word *state, __global uint *data, __global uint *errors,\n"
    "                 uint tag) {\n"
    "    gs_grid g = USER_BEGIN(state);\n"
    "    uint n = gs_num_groups() * gs_local_size();\n"
    "    uint me = gs_group_id() * gs_local_size() + gs_local_id();\n"
    "    data[me] = tag * 2654435761u + me;\n"
    "    gs_token t = USER_ARRIVE(&g);\n"
    "    if (gs_group_id() != 0u) return;\n"
    "    if (USER_WAIT(&g, t)) return;\n"
    "    for (uint k = gs_local_id(); k < n; k += gs_local_size())\n"
    "        if (data[k] != tag * 2654435761u + k) atomic_inc(errors);\n"
    "}\n"
    "__kernel void idle(__global gs_word *state) { }\n"
    "#ifdef USER_LAST\n"
    "__kernel void last(__global gs_word *state, __global uint *data, __global uint *errors,\n"
    "                   uint tag, uint then) {\n"
    "    gs_grid g = USER_BEGIN(state);\n"
    "    uint n = gs_num_groups() * gs_local_size();\n"
    "    uint me = gs_group_id() * gs_local_size() + gs_local_id();\n"
    "    if (gs_group_id() + 1u == gs_num_groups())\n"
    "        for (uint k = 0u; k < 200000u; ++k) atomic_add(&errors[2], 0u);\n"
    "    data[me] = tag * 2654435761u + me;\n"
    "    int last = USER_LAST(&g);\n"
    "    if (then == 1u) (void)USER_SYNC(&g);\n"
    "    if (then == 2u) last += USER_LAST(&g);\n"
    "    if (!last) return;\n"
    "    if (gs_local_id() == 0u) atomic_inc(&errors[1]);\n"
    "    for (uint k = gs_local_id(); k < n; k += gs_local_size())\n"
    "        if (data[k] != tag * 2654435761u + k) atomic_inc(errors);\n"
    "}\n"
    "#endif\n";

typedef struct cl_user {
    cl_context ctx;
    cl_command_queue q;
    cl_program prog;
    cl_kernel mp, idle, ao, last; /* last: flip, tree and auto only */
    cl_mem data, errors;
} cl_user;

static cl_user cl_users[GS_ALGO_COUNT_];

static cl_user *cl_for(gs_algo a)
{
    cl_user *u = &cl_users[a];
    if (u->mp)
        return u;
    char options[512];
    static char log[16384];
    cl_int err;
    assert_int_equal(gs_opencl_handles(dev, &u->ctx, &u->q, NULL), GS_OK);
    snprintf(options, sizeof options,
             "-DUSER_BEGIN=gs_grid_begin_%s -DUSER_SYNC=gs_sync_%s -DUSER_ARRIVE=gs_arrive_%s "
             "-DUSER_WAIT=gs_wait_token_%s%s%s",
             gs_algo_name(a), gs_algo_name(a), gs_algo_name(a), gs_algo_name(a),
             has_last(a) ? " -DUSER_LAST=gs_arrive_last_" : "", has_last(a) ? gs_algo_name(a) : "");
    if (gs_opencl_build_program(dev, cl_source, options, &u->prog, log, sizeof log) != GS_OK)
        fail_msg("the test's OpenCL program (%s) did not build:\n%s", gs_algo_name(a), log);
    u->mp = clCreateKernel(u->prog, "mp", &err);
    assert_int_equal(err, CL_SUCCESS);
    u->idle = clCreateKernel(u->prog, "idle", &err);
    assert_int_equal(err, CL_SUCCESS);
    u->ao = clCreateKernel(u->prog, "ao", &err);
    assert_int_equal(err, CL_SUCCESS);
    if (has_last(a)) {
        u->last = clCreateKernel(u->prog, "last", &err);
        assert_int_equal(err, CL_SUCCESS);
    }
    u->data = clCreateBuffer(u->ctx, CL_MEM_READ_WRITE, 2 * MAX_ITEMS * 4, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    u->errors = clCreateBuffer(u->ctx, CL_MEM_READ_WRITE, 12, NULL, &err); /* errors, finishers */
    assert_int_equal(err, CL_SUCCESS);
    return u;
}
#endif

/* ---- one launch, either back end ------------------------------------------------------- */

typedef struct launch {
    gs_barrier *b;
    gs_algo algo;
    gs_dim3 grid, group;
    unsigned skip;
    void *state; /* the state the kernel is handed: NULL for the barrier's own */
    int idle;    /* a kernel that never uses its state */
    int async;
    mp_args *cpu;         /* the cpu kernel's arguments (kept alive by the caller for async) */
    unsigned arrive_only; /* 0, or the tag of a one-barrier launch (mp_args.arrive_only) */
    unsigned last;        /* 0, or the tag of a gs_arrive_last launch (arrive_only 0) */
    unsigned then;        /* with last: mp_args.then */
} launch;

/* Starts the launch; with !async, also collects it. */
static gs_status start(launch *l)
{
    void *state = l->state;
    if (!state)
        assert_int_equal(gs_barrier_native(l->b, &state), GS_OK);
    if (info.backend == GS_BACKEND_CPU) {
        memset(l->cpu, 0, sizeof *l->cpu);
        l->cpu->state = state;
        l->cpu->episodes = l->last ? l->last : l->arrive_only ? l->arrive_only : EPISODES;
        l->cpu->skip = l->skip;
        l->cpu->arrive_only = l->arrive_only != 0u;
        l->cpu->then = l->then;
        void (*k)(void *) = l->idle   ? idle_kernel
                            : l->last ? last_kernel(l->algo)
                                      : cpu_kernel(l->algo);
        return l->async ? gs_cpu_launch_async(l->b, l->grid, l->group, k, l->cpu)
                        : gs_cpu_launch(l->b, l->grid, l->group, k, l->cpu);
    }
#ifdef GRIDSYNC_HAVE_OPENCL
    cl_user *u = cl_for(l->algo);
    cl_mem m = (cl_mem)state;
    cl_uint zero[3] = {0, 0, 0}, ep = EPISODES, sk = l->skip;
    cl_kernel k = l->idle ? u->idle : l->last ? u->last : l->arrive_only ? u->ao : u->mp;
    assert_int_equal(
        clEnqueueWriteBuffer(u->q, u->errors, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL),
        CL_SUCCESS);
    clSetKernelArg(k, 0, sizeof m, &m);
    if (l->arrive_only || l->last) {
        unsigned tag = l->last ? l->last : l->arrive_only;
        clSetKernelArg(k, 1, sizeof u->data, &u->data);
        clSetKernelArg(k, 2, sizeof u->errors, &u->errors);
        clSetKernelArg(k, 3, sizeof tag, &tag);
        if (l->last)
            clSetKernelArg(k, 4, sizeof l->then, &l->then);
    } else if (!l->idle) {
        clSetKernelArg(k, 1, sizeof u->data, &u->data);
        clSetKernelArg(k, 2, sizeof u->errors, &u->errors);
        clSetKernelArg(k, 3, sizeof ep, &ep);
        clSetKernelArg(k, 4, sizeof sk, &sk);
    }
    size_t groups[3] = {l->grid.x, l->grid.y, l->grid.z};
    size_t sizes[3] = {l->group.x, l->group.y, l->group.z};
    cl_uint dims = l->grid.z > 1 || l->group.z > 1 ? 3 : l->grid.y > 1 || l->group.y > 1 ? 2 : 1;
    return l->async ? gs_opencl_launch_async(l->b, k, NULL, dims, groups, sizes)
                    : gs_opencl_launch(l->b, k, dims, groups, sizes, NULL);
#else
    return GS_ERR_BACKEND_UNAVAILABLE;
#endif
}

/* The wrong reads the last launch's kernel counted. */
static unsigned errors_of(launch *l)
{
    if (info.backend == GS_BACKEND_CPU)
        return atomic_load(&l->cpu->errors);
#ifdef GRIDSYNC_HAVE_OPENCL
    cl_user *u = cl_for(l->algo);
    unsigned e = ~0u;
    assert_int_equal(clEnqueueReadBuffer(u->q, u->errors, CL_TRUE, 0, 4, &e, 0, NULL, NULL),
                     CL_SUCCESS);
    return e;
#else
    return ~0u;
#endif
}

/* How many groups the last gs_arrive_last launch told they were last. */
static unsigned finishers_of(launch *l)
{
    if (info.backend == GS_BACKEND_CPU)
        return atomic_load(&l->cpu->finishers);
#ifdef GRIDSYNC_HAVE_OPENCL
    cl_user *u = cl_for(l->algo);
    unsigned f = ~0u;
    assert_int_equal(clEnqueueReadBuffer(u->q, u->errors, CL_TRUE, 4, 4, &f, 0, NULL, NULL),
                     CL_SUCCESS);
    return f;
#else
    return ~0u;
#endif
}

static unsigned dim_count(gs_dim3 d) { return d.x * d.y * d.z; }

/* The group sizes a barrier is launched with in turn, and the groups: as many as fit. */
static unsigned groups_for(unsigned size)
{
    unsigned bound = 0;
    assert_int_equal(gs_device_max_groups(dev, size, &bound), GS_OK);
    bound = bound < 4 ? bound : 4;
    while (bound * size > MAX_ITEMS)
        --bound;
    return bound;
}

/* A barrier reused with another group size, for every protocol: each launch right, never
 * a false timeout (96 then 1000 work-items gave naive GS_ERR_TIMEOUT; 1000 then 96 GS_OK
 * with millions of wrong reads, on both H100 and H200). */
static void group_size_changes(void **state)
{
    static mp_args args;
    const unsigned sizes[] = {8, 2, 8, 1, 4};
    unsigned n = groups_for(8);
    for (unsigned i = 0; i < sizeof algos / sizeof *algos; ++i) {
        gs_barrier *b;
        assert_int_equal(gs_barrier_create(dev, algos[i], n, &b), GS_OK);
        for (unsigned k = 0; k < sizeof sizes / sizeof *sizes; ++k) {
            launch l = {b, algos[i], GS_DIM3_1D(n), GS_DIM3_1D(sizes[k]), 0, NULL, 0, 0, &args};
            gs_status s = start(&l);
            if (s != GS_OK || errors_of(&l) != 0)
                fail_msg("%s, %u groups of %u after %u: %s, %u wrong reads", gs_algo_name(algos[i]),
                         n, sizes[k], k ? sizes[k - 1] : 0, gs_status_string(s), errors_of(&l));
            gs_dim3 grid, group;
            assert_int_equal(gs_barrier_get_shape(b, &grid, &group), GS_OK);
            assert_int_equal(dim_count(group), sizes[k]);
        }
        gs_barrier_destroy(b);
    }
}

/* The launch's last barrier with only group 0 waiting (docs/using.md: every group but 0
 * calls gs_arrive_<p> and returns, the way apps/pi's barrier way ends): group 0 reads
 * every work-item's value, for every protocol, launch after launch on one state; then a
 * kernel that waits everywhere still runs right on that state (the episode counts the
 * leavers left behind agree). */
static void arrive_only_last_barrier(void **state)
{
    static mp_args args;
    unsigned n = groups_for(8);
    for (unsigned i = 0; i < sizeof algos / sizeof *algos; ++i) {
        gs_barrier *b;
        assert_int_equal(gs_barrier_create(dev, algos[i], n, &b), GS_OK);
        assert_int_equal(gs_barrier_set_timeout(b, 2000), GS_OK);
        for (unsigned k = 1; k <= 6; ++k) {
            launch l = {b, algos[i], GS_DIM3_1D(n), GS_DIM3_1D(8), 0, NULL, 0, 0, &args, k};
            gs_status s = start(&l);
            if (s != GS_OK || errors_of(&l) != 0)
                fail_msg("%s, %u groups, arrive-only launch %u: %s, %u wrong reads",
                         gs_algo_name(algos[i]), n, k, gs_status_string(s), errors_of(&l));
        }
        launch l = {b, algos[i], GS_DIM3_1D(n), GS_DIM3_1D(8), 0, NULL, 0, 0, &args, 0};
        gs_status s = start(&l);
        if (s != GS_OK || errors_of(&l) != 0)
            fail_msg("%s, %u groups, every group waiting after arrive-only launches: %s, %u wrong "
                     "reads",
                     gs_algo_name(algos[i]), n, gs_status_string(s), errors_of(&l));
        gs_barrier_destroy(b);
    }
}

/* The last arriver's barrier (gs_arrive_last_<p>: flip, tree, auto; flip and tree with
 * release lines too): in each of 12 launches on one state exactly one group is told it
 * was last, and it reads every work-item's value; then a kernel that waits everywhere
 * still runs right on that state. The last group writes late (LAST_KERNEL), so a build
 * whose episodes complete one arrival early (GS_TEST_EXPECT_WRONG=1) must read wrong. */
static void arrive_last_barrier(void **state)
{
    static mp_args args;
    const char *weak = getenv("GS_TEST_EXPECT_WRONG");
    int expect_wrong = weak && strcmp(weak, "1") == 0;
    unsigned n = groups_for(8), wrong = 0, bad_finishers = 0;
    const gs_algo algos_last[] = {GS_ALGO_FLIP, GS_ALGO_TREE, GS_ALGO_AUTO, GS_ALGO_FLIP,
                                  GS_ALGO_TREE};
    for (unsigned i = 0; i < sizeof algos_last / sizeof *algos_last; ++i) {
        gs_algo a = algos_last[i];
        gs_barrier_options o;
        gs_barrier_options_init(&o);
        if (i >= 3) {
            o.release = GS_BARRIER_RELEASE_LINES;
            o.release_lines = 2;
            o.tree_fanout = 2;
        }
        gs_barrier *b;
        assert_int_equal(gs_barrier_create_with(dev, a, n, &o, &b), GS_OK);
        assert_int_equal(gs_barrier_set_timeout(b, 2000), GS_OK);
        for (unsigned k = 1; k <= 12; ++k) {
            launch l = {b, a, GS_DIM3_1D(n), GS_DIM3_1D(8), 0, NULL, 0, 0, &args, 0, k};
            gs_status s = start(&l);
            assert_int_equal(s, GS_OK);
            unsigned w = errors_of(&l), f = finishers_of(&l);
            wrong += w;
            bad_finishers += f != 1u;
            if (!expect_wrong && (w != 0 || f != 1))
                fail_msg("%s%s, %u groups, gs_arrive_last launch %u: %u groups told last, %u wrong "
                         "reads",
                         gs_algo_name(a), i >= 3 ? " (lines)" : "", n, k, f, w);
        }
        if (!expect_wrong) {
            launch l = {b, a, GS_DIM3_1D(n), GS_DIM3_1D(8), 0, NULL, 0, 0, &args, 0, 0};
            gs_status s = start(&l);
            if (s != GS_OK || errors_of(&l) != 0)
                fail_msg("%s, %u groups, every group waiting after gs_arrive_last launches: %s, %u "
                         "wrong reads",
                         gs_algo_name(a), n, gs_status_string(s), errors_of(&l));
        }
        gs_barrier_destroy(b);
    }
    if (expect_wrong) {
        if (n < 2)
            skip();
        if (wrong == 0 && bad_finishers == 0)
            fail_msg("the weakened build's last arriver read no wrong value in 60 launches");
        printf("weakened: %u wrong reads, %u launches with a wrong count of last groups\n", wrong,
               bad_finishers);
    }
}

/* gs_arrive_last_<p> is a group's last episode of its launch: a gs_sync_<p> or a second
 * gs_arrive_last_<p> after it in the same launch ends the launch in GS_ERR_BAD_STATE,
 * reason GS_ABORT_REASON_AFTER_LAST, naming a group and the episode after the last
 * arriver's (1 on a new state), and the barrier needs a reset; then it runs right again.
 * Before the check a group's second arrival completed the episode early: on the cpu 170
 * of 200 launches of 2 groups with a gs_sync_flip after it had no last group, GS_OK. */
static void arrive_last_then_more_refused(void **state)
{
    static mp_args args;
    unsigned n = groups_for(8);
    const gs_algo algos_last[] = {GS_ALGO_FLIP, GS_ALGO_TREE, GS_ALGO_AUTO};
    for (unsigned i = 0; i < sizeof algos_last / sizeof *algos_last; ++i)
        for (unsigned then = 1; then <= 2; ++then) {
            gs_algo a = algos_last[i];
            gs_barrier *b;
            gs_abort_info ai;
            assert_int_equal(gs_barrier_create(dev, a, n, &b), GS_OK);
            assert_int_equal(gs_barrier_set_timeout(b, 2000), GS_OK);
            launch l = {b, a, GS_DIM3_1D(n), GS_DIM3_1D(8), 0, NULL, 0, 0, &args, 0, 1, then};
            gs_status s = start(&l);
            assert_int_equal(gs_barrier_abort_info(b, &ai), GS_OK);
            if (s != GS_ERR_BAD_STATE || ai.reason != GS_ABORT_REASON_AFTER_LAST || ai.group >= n ||
                ai.episode != 1u)
                fail_msg("%s, %u groups, gs_arrive_last then %s: %s, reason %d, group %u, "
                         "episode %u",
                         gs_algo_name(a), n, then == 1 ? "gs_sync" : "gs_arrive_last",
                         gs_status_string(s), (int)ai.reason, ai.group, ai.episode);
            launch again = {b, a, GS_DIM3_1D(n), GS_DIM3_1D(8), 0, NULL, 0, 0, &args};
            assert_int_equal(start(&again), GS_ERR_NEEDS_RESET);
            assert_int_equal(gs_barrier_reset(b), GS_OK);
            s = start(&again);
            if (s != GS_OK || errors_of(&again) != 0)
                fail_msg("%s, %u groups, after the reset: %s, %u wrong reads", gs_algo_name(a), n,
                         gs_status_string(s), errors_of(&again));
            gs_barrier_destroy(b);
        }
}

/* Arrive-only launches (gs_barrier_set_arrive_only): the setting's own failures; where
 * the back end has a co-residency bound (OpenCL), a grid past it refused until the
 * barrier is arrive-only, then gs_arrive_last launches of that grid right, launch after
 * launch (groups run in turns, nobody waits); the setting refused while a launch is in
 * flight. */
static void arrive_only_launches(void **state)
{
    static mp_args args;
    int on = -1;
    gs_barrier *b;
    assert_int_equal(gs_barrier_set_arrive_only(NULL, 1), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_barrier_get_arrive_only(NULL, &on), GS_ERR_INVALID_ARGUMENT);
    unsigned bound = 0, n = groups_for(8);
    assert_int_equal(gs_device_max_groups(dev, 8, &bound), GS_OK);
    if (info.backend == GS_BACKEND_OPENCL && (bound + 3u) * 8u <= MAX_ITEMS)
        n = bound + 3u; /* past the bound: only an arrive-only launch runs it */
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_FLIP, n, &b), GS_OK);
    assert_int_equal(gs_barrier_get_arrive_only(b, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_barrier_get_arrive_only(b, &on), GS_OK);
    assert_int_equal(on, 0);
    assert_int_equal(gs_barrier_set_timeout(b, 2000), GS_OK);
    if (n > bound) {
        launch l = {b, GS_ALGO_FLIP, GS_DIM3_1D(n), GS_DIM3_1D(8), 0, NULL, 0, 0, &args, 0, 1};
        assert_int_equal(start(&l), GS_ERR_TOO_MANY_GROUPS);
    }
    assert_int_equal(gs_barrier_set_arrive_only(b, 7), GS_OK);
    assert_int_equal(gs_barrier_get_arrive_only(b, &on), GS_OK);
    assert_int_equal(on, 1);
    for (unsigned k = 1; k <= 12; ++k) {
        launch l = {b, GS_ALGO_FLIP, GS_DIM3_1D(n), GS_DIM3_1D(8), 0, NULL, 0, 0, &args, 0, k};
        gs_status s = start(&l);
        if (s != GS_OK || errors_of(&l) != 0 || finishers_of(&l) != 1)
            fail_msg("arrive-only flip, %u groups (bound %u), launch %u: %s, %u groups told last, "
                     "%u wrong reads",
                     n, bound, k, gs_status_string(s), finishers_of(&l), errors_of(&l));
    }
    launch l = {b, GS_ALGO_FLIP, GS_DIM3_1D(n), GS_DIM3_1D(8), 0, NULL, 0, 1, &args, 0, 13};
    assert_int_equal(start(&l), GS_OK); /* async: in flight until collected */
    assert_int_equal(gs_barrier_set_arrive_only(b, 0), GS_ERR_BUSY);
    assert_int_equal(gs_barrier_collect(b), GS_OK);
    assert_int_equal(gs_barrier_set_arrive_only(b, 0), GS_OK);
    gs_barrier_destroy(b);
}

/* 2-D and 3-D grids and groups: the group count is the product; numbering is linear. */
static void shapes(void **state)
{
    static mp_args args;
    const gs_dim3 grids[] = {{2, 2, 1}, {1, 2, 2}, {4, 1, 1}};
    const gs_dim3 groups[] = {{2, 2, 1}, {2, 1, 2}, {1, 2, 2}};
    if (groups_for(4) < 4)
        skip();
    for (unsigned i = 0; i < 3; ++i) {
        gs_barrier *b;
        assert_int_equal(gs_barrier_create(dev, GS_ALGO_FLIP, 4, &b), GS_OK);
        launch l = {b, GS_ALGO_FLIP, grids[i], groups[i], 0, NULL, 0, 0, &args};
        assert_int_equal(start(&l), GS_OK);
        assert_int_equal(errors_of(&l), 0);
        gs_barrier_destroy(b);
    }
    /* a grid whose group count is not the barrier's */
    gs_barrier *b;
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_FLIP, 4, &b), GS_OK);
    launch l = {b, GS_ALGO_FLIP, {2, 1, 1}, {2, 2, 1}, 0, NULL, 0, 0, &args};
    assert_int_equal(start(&l), GS_ERR_INVALID_ARGUMENT);
    gs_barrier_destroy(b);
}

/* Asynchronous: GS_OK once started; a second launch before the collect is busy; the
 * collect of a provoked fault is the timeout, with its diagnosis; then a reset. */
static void async_timeout(void **state)
{
    static mp_args args;
    unsigned n = groups_for(2);
    if (n < 2)
        skip();
    gs_barrier *b;
    gs_abort_info ai;
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_CENTRAL, n, &b), GS_OK);
    assert_int_equal(gs_barrier_set_timeout(b, TIMEOUT_MS), GS_OK);
    launch l = {b, GS_ALGO_CENTRAL, GS_DIM3_1D(n), GS_DIM3_1D(2), 1, NULL, 0, 1, &args};
    assert_int_equal(start(&l), GS_OK);
    static mp_args other;
    launch l2 = {b, GS_ALGO_CENTRAL, GS_DIM3_1D(n), GS_DIM3_1D(2), 0, NULL, 0, 1, &other};
    assert_int_equal(start(&l2), GS_ERR_BUSY);
    assert_int_equal(gs_barrier_reset(b), GS_ERR_BUSY);
    assert_int_equal(gs_barrier_destroy(b), GS_ERR_BUSY);
    assert_int_equal(gs_barrier_collect(b), GS_ERR_TIMEOUT);
    assert_int_equal(gs_barrier_abort_info(b, &ai), GS_OK);
    assert_int_equal(ai.missing, 1);
    assert_int_equal(ai.first_missing[0], n - 1);
    l.skip = 0;
    assert_int_equal(start(&l), GS_ERR_NEEDS_RESET);
    assert_int_equal(gs_barrier_reset(b), GS_OK);
    assert_int_equal(start(&l), GS_OK);
    assert_int_equal(gs_barrier_collect(b), GS_OK);
    assert_int_equal(errors_of(&l), 0);
    gs_barrier_destroy(b);
}

/* A kernel handed another barrier's state, or none at all: the launch is an error, not
 * GS_OK (before, GS_OK: the kernel failed in the other state's abort line). */
static void foreign_state(void **state)
{
    static mp_args args;
    unsigned n = groups_for(2);
    gs_barrier *b, *other;
    void *other_state;
    gs_abort_info ai;
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_FLIP, n, &b), GS_OK);
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_FLIP, n, &other), GS_OK);
    assert_int_equal(gs_barrier_native(other, &other_state), GS_OK);
    launch l = {b, GS_ALGO_FLIP, GS_DIM3_1D(n), GS_DIM3_1D(2), 0, other_state, 0, 0, &args};
    assert_int_equal(start(&l), GS_ERR_BAD_STATE);
    assert_int_equal(gs_barrier_abort_info(b, &ai), GS_OK);
    assert_int_equal(ai.reason, GS_ABORT_REASON_UNUSED);
    assert_int_equal(gs_barrier_reset(b), GS_OK);
    launch idle = {b, GS_ALGO_FLIP, GS_DIM3_1D(n), GS_DIM3_1D(2), 0, NULL, 1, 0, &args};
    assert_int_equal(start(&idle), GS_ERR_BAD_STATE);
    assert_int_equal(gs_barrier_reset(b), GS_OK);
    /* a kernel of another protocol than the barrier's */
    launch wrong = {b, GS_ALGO_TREE, GS_DIM3_1D(n), GS_DIM3_1D(2), 0, NULL, 0, 0, &args};
    assert_int_equal(start(&wrong), GS_ERR_BAD_STATE);
    gs_barrier_destroy(b);
    gs_barrier_destroy(other);
}

/* The relaunch baselines have no device code: a barrier of theirs is made (for gs_run),
 * but a user launch through it is refused, sync or async, and leaves it usable. */
static void relaunch_refused(void **state)
{
    static mp_args args;
    unsigned n = groups_for(2);
    static const gs_algo host_algos[] = {GS_ALGO_RELAUNCH, GS_ALGO_RELAUNCH_GRAPH};
    for (unsigned i = 0; i < 2; ++i) {
        gs_barrier *b;
        if (!gs_algo_supported(dev, host_algos[i]))
            continue;
        assert_int_equal(gs_barrier_create(dev, host_algos[i], n, &b), GS_OK);
        for (int async = 0; async < 2; ++async) {
            launch l = {b, GS_ALGO_FLIP, GS_DIM3_1D(n), GS_DIM3_1D(2), 0, NULL, 0, async, &args};
            assert_int_equal(start(&l), GS_ERR_UNSUPPORTED);
        }
        assert_int_equal(gs_barrier_destroy(b), GS_OK);
    }
}

/* Two host threads launching through one barrier at once: each launch runs alone or is
 * refused (GS_ERR_BUSY); never a wrong read (before: GS_OK with ~21k wrong reads of
 * 25.6k for central, naive and sharded). */
typedef struct racer {
    gs_barrier *b;
    gs_algo algo;
    unsigned n, ok, busy, wrong, other;
    mp_args args;
} racer;

static void *race(void *p)
{
    racer *r = p;
    for (unsigned i = 0; i < 20; ++i) {
        launch l = {r->b, r->algo, GS_DIM3_1D(r->n), GS_DIM3_1D(2), 0, NULL, 0, 0, &r->args};
        gs_status s = start(&l);
        if (s == GS_OK)
            r->ok++, r->wrong += errors_of(&l);
        else if (s == GS_ERR_BUSY)
            r->busy++;
        else
            r->other++;
    }
    return NULL;
}

static void two_threads_one_barrier(void **state)
{
    if (info.backend != GS_BACKEND_CPU)
        skip(); /* the OpenCL kernels' buffers are per protocol, shared by both threads */
    unsigned n = groups_for(2);
    const gs_algo racing[] = {GS_ALGO_CENTRAL, GS_ALGO_NAIVE, GS_ALGO_SHARDED, GS_ALGO_FLIP};
    for (unsigned i = 0; i < 4; ++i) {
        static racer r[2];
        gs_barrier *b;
        pthread_t t[2];
        assert_int_equal(gs_barrier_create(dev, racing[i], n, &b), GS_OK);
        for (int k = 0; k < 2; ++k) {
            memset(&r[k], 0, sizeof r[k]);
            r[k].b = b;
            r[k].algo = racing[i];
            r[k].n = n;
            assert_int_equal(pthread_create(&t[k], NULL, race, &r[k]), 0);
        }
        for (int k = 0; k < 2; ++k)
            pthread_join(t[k], NULL);
        print_message("%s: %u and %u ran, %u and %u refused busy\n", gs_algo_name(racing[i]),
                      r[0].ok, r[1].ok, r[0].busy, r[1].busy);
        for (int k = 0; k < 2; ++k) {
            assert_int_equal(r[k].wrong, 0);
            assert_int_equal(r[k].other, 0);
        }
        assert_true(r[0].ok + r[1].ok > 0);
        gs_barrier_destroy(b);
    }
}

static int setup(void **state)
{
    dev = test_open_or_skip();
    gs_device_get_info(dev, &info);
    if (info.backend != GS_BACKEND_CPU && info.backend != GS_BACKEND_OPENCL) {
        fprintf(stderr, "test_launch: cpu and OpenCL only (CUDA: cuda_user_api)\n");
        exit(SKIP_CODE);
    }
    return gs_device_max_groups(dev, 1, &bound1) == GS_OK ? 0 : -1;
}

static int teardown(void **state)
{
#ifdef GRIDSYNC_HAVE_OPENCL
    for (unsigned a = 0; a < GS_ALGO_COUNT_; ++a)
        if (cl_users[a].mp) {
            clReleaseKernel(cl_users[a].mp);
            clReleaseKernel(cl_users[a].idle);
            clReleaseProgram(cl_users[a].prog);
            clReleaseMemObject(cl_users[a].data);
            clReleaseMemObject(cl_users[a].errors);
        }
#endif
    gs_device_close(dev);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(group_size_changes),
        cmocka_unit_test(shapes),
        cmocka_unit_test(async_timeout),
        cmocka_unit_test(foreign_state),
        cmocka_unit_test(relaunch_refused),
        cmocka_unit_test(two_threads_one_barrier),
        cmocka_unit_test(arrive_only_last_barrier),
        cmocka_unit_test(arrive_last_barrier),
        cmocka_unit_test(arrive_last_then_more_refused),
        cmocka_unit_test(arrive_only_launches),
    };
    const char *only = getenv("GS_TEST_ONLY"); /* the weakened build runs one test */
    if (only)
        cmocka_set_test_filter(only);
    return cmocka_run_group_tests_name("launch", tests, setup, teardown);
}
