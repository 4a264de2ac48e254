/* tests/opencl_backend.c - what only the OpenCL back end has: the ordering fallback and
 * its override, the build options and log, the user's program build, the poll
 * calibration, and the user-kernel path of gridsync/host_opencl.h (build, launch, bounds,
 * timeout, recovery).
 * Runs on OpenCL device 0 (PoCL's CPU device in CI); exits 77 without one. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gridsync.h"
#include "gridsync/run.h"
#include "gridsync/host_opencl.h"
#include "gridsync/state.h"

#define TIMEOUT_MS 300u
#define EPISODES 50u

static gs_device *dev;
static gs_device_info info;
static unsigned block = 16;

/* Every group writes its episode, syncs, and checks what its neighbour wrote; the last
 * group leaves early when `skip` is set (a provoked fault). */
static const char *user_kernel =
    "__kernel void user(__global gs_word *state, __global uint *data, __global uint *errors,\n"
    "                   uint episodes, uint skip) {\n"
    "    gs_grid g = USER_BEGIN(state);\n"
    "    uint n = gs_num_groups(), me = gs_group_id();\n"
    "    if (skip && me + 1u == n) return;\n"
    "    for (uint e = 0u; e < episodes; ++e) {\n"
    "        if (gs_local_id() == 0u) data[me] = e;\n"
    "        if (USER_SYNC(&g)) return;\n"
    "        if (gs_local_id() == 0u && data[(me + 1u) % n] != e) atomic_inc(errors);\n"
    "        if (USER_SYNC(&g)) return;\n"
    "    }\n"
    "}\n";

typedef struct user_prog {
    cl_context ctx;
    cl_command_queue q;
    cl_program prog;
    cl_kernel k;
    cl_mem data, errors;
} user_prog;

/* The kernel names the barrier's protocol, as a user's does (gs_sync_<name>): a
 * run-time choice of protocol does not compile right on PoCL 3.1. */
static void build_user(gs_barrier *b, user_prog *u)
{
    char options[256], log[8192];
    cl_int err;
    gs_algo algo;
    assert_int_equal(gs_opencl_handles(dev, &u->ctx, &u->q, NULL), GS_OK);
    assert_int_equal(gs_barrier_get_algo(b, &algo), GS_OK);
    snprintf(options, sizeof options, "-DUSER_BEGIN=gs_grid_begin_%s -DUSER_SYNC=gs_sync_%s",
             gs_algo_name(algo), gs_algo_name(algo));
    gs_status s = gs_opencl_build_program(dev, user_kernel, options, &u->prog, log, sizeof log);
    if (s != GS_OK)
        print_error("%s\n", log);
    assert_int_equal(s, GS_OK);
    u->k = clCreateKernel(u->prog, "user", &err);
    assert_int_equal(err, CL_SUCCESS);
    u->data = clCreateBuffer(u->ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    u->errors = clCreateBuffer(u->ctx, CL_MEM_READ_WRITE, 4, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
}

static void set_user_args(gs_barrier *b, user_prog *u, unsigned episodes, unsigned skip)
{
    void *state;
    cl_uint zero = 0, ep = episodes, sk = skip;
    assert_int_equal(gs_barrier_native(b, &state), GS_OK);
    cl_mem st = (cl_mem)state;
    assert_int_equal(clEnqueueWriteBuffer(u->q, u->errors, CL_TRUE, 0, 4, &zero, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clSetKernelArg(u->k, 0, sizeof st, &st), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(u->k, 1, sizeof u->data, &u->data), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(u->k, 2, sizeof u->errors, &u->errors), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(u->k, 3, sizeof ep, &ep), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(u->k, 4, sizeof sk, &sk), CL_SUCCESS);
}

static cl_uint user_errors(user_prog *u)
{
    cl_uint e = ~0u;
    assert_int_equal(clEnqueueReadBuffer(u->q, u->errors, CL_TRUE, 0, 4, &e, 0, NULL, NULL),
                     CL_SUCCESS);
    return e;
}

static void free_user(user_prog *u)
{
    clReleaseMemObject(u->errors);
    clReleaseMemObject(u->data);
    clReleaseKernel(u->k);
    clReleaseProgram(u->prog);
}

static void ordering_and_options(void **state)
{
    (void)state;
    char options[256], want[32];
    const char *log = NULL;
    assert_int_equal(info.backend, GS_BACKEND_OPENCL);
    assert_true(info.ordering <= 2u);
    assert_int_equal(gs_opencl_build_options(dev, options, sizeof options), GS_OK);
    snprintf(want, sizeof want, "-DGS_CL_ORDERING=%u", info.ordering);
    assert_non_null(strstr(options, want));
    assert_int_equal(gs_opencl_build_options(dev, options, 4), GS_ERR_SMALL_BUFFER);
    assert_int_equal(gs_opencl_build_log(dev, &log), GS_OK);
    assert_non_null(log);
    assert_non_null(strstr(log, "built"));
    assert_non_null(gs_opencl_device_source());
    assert_non_null(strstr(gs_opencl_device_source(), "gs_sync"));
}

/* gs_opencl_build_program: gridsync's text and options, then the user's; the user's
 * lines as the compiler numbers them; its failures. */
static const char *optioned_kernel = "#ifndef WANTED\n"
                                     "#error WANTED was not defined\n"
                                     "#endif\n"
                                     "__kernel void k(__global gs_word *state) {\n"
                                     "    gs_grid g = gs_grid_begin_flip(state);\n"
                                     "    (void)gs_sync_flip(&g);\n"
                                     "}\n";
static const char *broken_kernel = "__kernel void k(__global uint *p) {\n"
                                   "    p[0] = 1u;\n"
                                   "    p[1] = no_such_name;\n"
                                   "}\n";

static void build_program(void **state)
{
    (void)state;
    cl_program p = (cl_program)&p;
    char log[4096];
    cl_int err;
    assert_int_equal(
        gs_opencl_build_program(dev, optioned_kernel, "-DWANTED=1", &p, log, sizeof log), GS_OK);
    assert_non_null(p);
    assert_string_equal(log, "");
    cl_kernel k = clCreateKernel(p, "k", &err);
    assert_int_equal(err, CL_SUCCESS);
    clReleaseKernel(k);
    clReleaseProgram(p);
    /* the user's options reach the compiler: without them the #error fires */
    assert_int_equal(gs_opencl_build_program(dev, optioned_kernel, NULL, &p, log, sizeof log),
                     GS_ERR_BUILD);
    assert_null(p);
    assert_non_null(strstr(log, "WANTED was not defined"));
    /* the undeclared name is on the user's line 3, whatever gridsync's text ahead of it */
    assert_int_equal(gs_opencl_build_program(dev, broken_kernel, NULL, &p, log, sizeof log),
                     GS_ERR_BUILD);
    assert_null(p);
    if (strstr(log, ":3:") == NULL)
        print_error("log: %s\n", log);
    assert_non_null(strstr(log, ":3:"));
    /* a log of one byte is terminated; no log at all is allowed */
    log[0] = 'x';
    assert_int_equal(gs_opencl_build_program(dev, broken_kernel, NULL, &p, log, 1), GS_ERR_BUILD);
    assert_int_equal(log[0], '\0');
    assert_int_equal(gs_opencl_build_program(dev, broken_kernel, NULL, &p, NULL, 64), GS_ERR_BUILD);
    /* refusals */
    p = (cl_program)&p;
    assert_int_equal(gs_opencl_build_program(dev, NULL, NULL, &p, log, sizeof log),
                     GS_ERR_INVALID_ARGUMENT);
    assert_null(p);
    assert_int_equal(gs_opencl_build_program(dev, optioned_kernel, NULL, NULL, log, sizeof log),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_opencl_build_program(NULL, optioned_kernel, NULL, &p, log, sizeof log),
                     GS_ERR_INVALID_ARGUMENT);
}

static void forced_orderings(void **state)
{
    (void)state;
    for (unsigned o = 0; o <= 2u; ++o) {
        char value[2] = {(char)('0' + o), '\0'}, options[256], want[32];
        gs_device *d = NULL;
        gs_device_info i;
        setenv("GRIDSYNC_CL_ORDERING", value, 1);
        gs_status s = gs_device_open(GS_BACKEND_OPENCL, 0, &d);
        unsetenv("GRIDSYNC_CL_ORDERING");
        assert_int_equal(s, GS_OK);
        s = gs_opencl_build_options(d, options, sizeof options);
        if (s == GS_ERR_BUILD) { /* this device has no such mode: the log says why */
            const char *log;
            assert_int_equal(gs_opencl_build_log(d, &log), GS_OK);
            print_message("ordering %u does not build here\n", o);
            gs_device_close(d);
            continue;
        }
        assert_int_equal(s, GS_OK);
        assert_int_equal(gs_device_get_info(d, &i), GS_OK);
        assert_int_equal(i.ordering, o);
        snprintf(want, sizeof want, "-DGS_CL_ORDERING=%u", o);
        assert_non_null(strstr(options, want));
        /* the built-in program runs in this mode */
        gs_barrier *b;
        gs_run_config cfg = {GS_WORKLOAD_TESTSYNC, 2, block, 0, 0, 0, 0, 0};
        unsigned bound;
        gs_run_result r;
        assert_int_equal(gs_device_max_groups(d, block, &bound), GS_OK);
        cfg.groups = bound < 2u ? bound : 2u;
        assert_int_equal(gs_barrier_create(d, GS_ALGO_FLIP, cfg.groups, &b), GS_OK);
        assert_int_equal(gs_run(b, &cfg, &r), GS_OK);
        assert_int_equal(r.mismatches, 0);
        gs_barrier_destroy(b);
        gs_device_close(d);
    }
}

/* A 1-D launch of `groups` groups of `size` work-items. */
static gs_status launch_1d(gs_barrier *b, cl_kernel k, size_t groups, size_t size, double *ns)
{
    return gs_opencl_launch(b, k, 1, &groups, &size, ns);
}

static void calibration(void **state)
{
    (void)state;
    uint64_t ppm = 0;
    int measured = 0;
    assert_int_equal(gs_opencl_polls_per_ms(dev, &ppm, &measured), GS_OK);
    print_message("%llu polls per ms (measured: %d)\n", (unsigned long long)ppm, measured);
    assert_true(ppm > 0u);
    assert_true(measured);
}

static void bounds(void **state)
{
    (void)state;
    unsigned bound = 0;
    assert_int_equal(gs_device_max_groups(dev, block, &bound), GS_OK);
    assert_true(bound >= 1u);
    assert_int_equal(gs_device_max_groups(dev, info.max_group_size + 1u, &bound),
                     GS_ERR_INVALID_ARGUMENT);
    assert_true(gs_algo_supported(dev, GS_ALGO_RELAUNCH));
    assert_false(gs_algo_supported(dev, GS_ALGO_CG));
    assert_false(gs_algo_supported(dev, GS_ALGO_CLUSTER));
    assert_false(gs_algo_supported(dev, GS_ALGO_RELAUNCH_GRAPH));
}

static void user_kernel_every_protocol(void **state)
{
    (void)state;
    unsigned bound;
    assert_int_equal(gs_device_max_groups(dev, block, &bound), GS_OK);
    for (int a = GS_ALGO_CENTRAL; a <= GS_ALGO_TREE; ++a) {
        gs_barrier *b;
        user_prog u;
        double ns = 0.0;
        assert_int_equal(gs_barrier_create(dev, (gs_algo)a, bound, &b), GS_OK);
        build_user(b, &u);
        set_user_args(b, &u, EPISODES, 0);
        assert_int_equal(launch_1d(b, u.k, bound, block, &ns), GS_OK);
        assert_int_equal(user_errors(&u), 0);
        assert_true(ns > 0.0);
        print_message("%-8s %u groups: %.2f us per barrier\n", gs_algo_name((gs_algo)a), bound,
                      ns / 1e3 / (2.0 * EPISODES));
        /* the state needs no reset between launches */
        assert_int_equal(launch_1d(b, u.k, bound, block, NULL), GS_OK);
        assert_int_equal(user_errors(&u), 0);
        free_user(&u);
        gs_barrier_destroy(b);
    }
}

static void user_launch_refusals(void **state)
{
    (void)state;
    unsigned bound;
    gs_barrier *b;
    user_prog u;
    size_t wg = 0;
    cl_device_id id;
    assert_int_equal(gs_device_max_groups(dev, block, &bound), GS_OK);
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_FLIP, bound + 1u, &b), GS_OK);
    build_user(b, &u);
    set_user_args(b, &u, 1, 0);
    assert_int_equal(launch_1d(b, u.k, bound + 1u, block, NULL), GS_ERR_TOO_MANY_GROUPS);
    assert_int_equal(gs_opencl_handles(dev, NULL, NULL, &id), GS_OK);
    assert_int_equal(
        clGetKernelWorkGroupInfo(u.k, id, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL),
        CL_SUCCESS);
    assert_int_equal(launch_1d(b, u.k, 1, wg + 1u, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(launch_1d(b, u.k, 0, block, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(launch_1d(NULL, u.k, 1, block, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(launch_1d(b, NULL, 1, block, NULL), GS_ERR_INVALID_ARGUMENT);
    free_user(&u);
    gs_barrier_destroy(b);
}

static void user_timeout_and_recovery(void **state)
{
    (void)state;
    unsigned bound;
    gs_barrier *b;
    user_prog u;
    gs_abort_info ai;
    assert_int_equal(gs_device_max_groups(dev, block, &bound), GS_OK);
    if (bound < 2u)
        skip();
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_CENTRAL, bound, &b), GS_OK);
    assert_int_equal(gs_barrier_set_timeout(b, TIMEOUT_MS), GS_OK);
    build_user(b, &u);
    set_user_args(b, &u, EPISODES, 1);
    assert_int_equal(launch_1d(b, u.k, bound, block, NULL), GS_ERR_TIMEOUT);
    assert_int_equal(gs_barrier_abort_info(b, &ai), GS_OK);
    assert_int_equal(ai.episode, 0);
    assert_int_equal(ai.missing, 1);
    assert_int_equal(ai.first_missing[0], bound - 1u);
    set_user_args(b, &u, EPISODES, 0);
    assert_int_equal(launch_1d(b, u.k, bound, block, NULL), GS_ERR_NEEDS_RESET);
    assert_int_equal(gs_barrier_reset(b), GS_OK);
    assert_int_equal(launch_1d(b, u.k, bound, block, NULL), GS_OK);
    assert_int_equal(user_errors(&u), 0);
    free_user(&u);
    gs_barrier_destroy(b);
}

static void other_backend_refused(void **state)
{
    (void)state;
    gs_device *cpu = NULL;
    char options[256];
    cl_context ctx;
    if (gs_device_open(GS_BACKEND_CPU, 0, &cpu) != GS_OK)
        skip();
    assert_int_equal(gs_opencl_build_options(cpu, options, sizeof options),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_opencl_handles(cpu, &ctx, NULL, NULL), GS_ERR_INVALID_ARGUMENT);
    cl_program p = (cl_program)&ctx;
    assert_int_equal(gs_opencl_build_program(cpu, "__kernel void k(void) {}", NULL, &p, NULL, 0),
                     GS_ERR_INVALID_ARGUMENT);
    assert_null(p);
    gs_device_close(cpu);
}

static void relaunch_is_timed_as_one_span(void **state)
{
    (void)state;
    gs_barrier *b;
    gs_run_result r;
    gs_run_config cfg = {GS_WORKLOAD_STENCIL, 1, block, 20, 0, 0, 0, 0};
    assert_int_equal(gs_barrier_create(dev, GS_ALGO_RELAUNCH, 1, &b), GS_OK);
    assert_int_equal(gs_run(b, &cfg, &r), GS_OK);
    assert_int_equal(r.mismatches, 0);
    assert_true(r.elapsed_ns > 0.0);
    gs_barrier_destroy(b);
}

int main(void)
{
    gs_status s = gs_device_open(GS_BACKEND_OPENCL, 0, &dev);
    if (s == GS_ERR_NO_DEVICE || s == GS_ERR_BACKEND_UNAVAILABLE) {
        fprintf(stderr, "no OpenCL device: skipped\n");
        return 77;
    }
    if (s != GS_OK) {
        fprintf(stderr, "cannot open the OpenCL device: %s\n", gs_status_string(s));
        return 1;
    }
    gs_device_get_info(dev, &info);
    if (info.max_group_size < block)
        block = info.max_group_size;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ordering_and_options),
        cmocka_unit_test(build_program),
        cmocka_unit_test(calibration),
        cmocka_unit_test(bounds),
        cmocka_unit_test(user_kernel_every_protocol),
        cmocka_unit_test(user_launch_refusals),
        cmocka_unit_test(user_timeout_and_recovery),
        cmocka_unit_test(other_backend_refused),
        cmocka_unit_test(relaunch_is_timed_as_one_span),
        cmocka_unit_test(forced_orderings),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    gs_device_close(dev);
    return failed;
}
