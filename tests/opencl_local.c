/* tests/opencl_local.c - local synchronization (gridsync/local.h) in a user's OpenCL
 * kernel, with the library's own source prepended (gs_opencl_device_source): a wavefront
 * of tiles checked cell by cell over several launches of one state (more tiles than
 * groups, and one group), and a silent producer whose consumer times out naming the
 * tile's word. Runs on OpenCL device 0 (PoCL's CPU device in CI); exits 77 without one.
 * The apps (apps/nw, apps/sor) cover more; this is the library's own check on OpenCL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gridsync.h"
#include "gridsync/host_local.h"
#include "gridsync/host_opencl.h"

#define ROWS 12u
#define COLS 16u
#define ITEMS 4u /* work-items a group; each writes part of the tile's result */

/* cell (i, j) = cell (i-1, j) + cell (i, j-1) + 1, a tile a cell, written as ITEMS parts
 * (one per work-item) so that the signal must release every work-item's write. */
static const char *kernel_source =
    "__kernel void wave(__global gs_word *state, uint rows, uint cols,\n"
    "                   __global uint *part, uint silent) {\n"
    "    GS_GROUP_SCRATCH(scratch);\n"
    "    gs_local L = gs_local_begin(state, scratch);\n"
    "    uint lid = gs_local_id(), n = gs_local_size();\n"
    "    for (gs_u32 t = gs_local_next(&L); t < rows * cols; t = gs_local_next(&L)) {\n"
    "        gs_u32 i = 0, j = 0;\n"
    "        gs_local_diagonal(t, rows, cols, &i, &j);\n"
    "        gs_u32 why = gs_local_wait2(&L, (i - 1u) * cols + j, i > 0u,\n"
    "                                   i * cols + j - 1u, j > 0u);\n"
    "        uint up = 0u, left = 0u;\n"
    "        for (uint k = 0u; k < n; ++k) {\n"
    "            up += i > 0u ? part[((i - 1u) * cols + j) * n + k] : 0u;\n"
    "            left += j > 0u ? part[(i * cols + j - 1u) * n + k] : 0u;\n"
    "        }\n"
    "        uint v = why ? 0u : up + left + 1u;\n"
    "        part[(i * cols + j) * n + lid] = v / n + (lid < v % n ? 1u : 0u);\n"
    "        gs_local_signal(&L, i * cols + j, t == silent ? 0u : 1u);\n"
    "    }\n"
    "}\n";

static gs_device *dev;
static cl_context ctx;
static cl_command_queue queue;
static cl_kernel kernel;
static cl_program program;

static int setup(void **unused)
{
    (void)unused;
    if (gs_device_open(GS_BACKEND_OPENCL, 0, &dev) != GS_OK)
        return -1;
    if (gs_opencl_handles(dev, &ctx, &queue, NULL) != GS_OK)
        return -1;
    char log[4096];
    cl_int err;
    if (gs_opencl_build_program(dev, kernel_source, NULL, &program, log, sizeof log) != GS_OK) {
        fprintf(stderr, "%s\n", log);
        return -1;
    }
    kernel = clCreateKernel(program, "wave", &err);
    return err == CL_SUCCESS ? 0 : -1;
}

static int teardown(void **unused)
{
    (void)unused;
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    gs_device_close(dev);
    return 0;
}

/* One launch of `groups` groups; the number of wrong cells (a cell is the sum of its
 * parts) against the sequential recurrence, or -1 when the launch failed to enqueue. */
static long run(gs_local *L, size_t groups, unsigned silent, gs_status *verdict)
{
    cl_int err;
    size_t bytes = (size_t)ROWS * COLS * ITEMS * sizeof(cl_uint);
    cl_mem part = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_uint zero = 0, rows = ROWS, cols = COLS;
    assert_int_equal(clEnqueueFillBuffer(queue, part, &zero, sizeof zero, 0, bytes, 0, NULL, NULL),
                     CL_SUCCESS);
    void *state = NULL;
    assert_int_equal(gs_local_native(L, &state), GS_OK);
    cl_mem st = (cl_mem)state;
    clSetKernelArg(kernel, 0, sizeof st, &st);
    clSetKernelArg(kernel, 1, sizeof rows, &rows);
    clSetKernelArg(kernel, 2, sizeof cols, &cols);
    clSetKernelArg(kernel, 3, sizeof part, &part);
    clSetKernelArg(kernel, 4, sizeof silent, &silent);
    size_t size = ITEMS;
    double ns = -1.0;
    *verdict = gs_opencl_launch_local(L, kernel, 1, &groups, &size, &ns);
    err = *verdict == GS_ERR_NATIVE ? CL_INVALID_OPERATION : CL_SUCCESS;
    assert_true(*verdict != GS_OK || ns > 0.0); /* a launch that ran has its device time */
    cl_uint *h = malloc(bytes);
    assert_non_null(h);
    clEnqueueReadBuffer(queue, part, CL_TRUE, 0, bytes, h, 0, NULL, NULL);
    clReleaseMemObject(part);
    long wrong = err == CL_SUCCESS ? 0 : -1;
    unsigned want[ROWS * COLS];
    for (unsigned i = 0; i < ROWS && wrong >= 0; ++i)
        for (unsigned j = 0; j < COLS; ++j) {
            want[i * COLS + j] =
                (i ? want[(i - 1) * COLS + j] : 0u) + (j ? want[i * COLS + j - 1] : 0u) + 1u;
            unsigned got = 0;
            for (unsigned k = 0; k < ITEMS; ++k)
                got += h[(i * COLS + j) * ITEMS + k];
            wrong += got != want[i * COLS + j];
        }
    free(h);
    return wrong;
}

static void wavefront_reused_state(void **unused)
{
    (void)unused;
    gs_local *L = NULL;
    assert_int_equal(gs_local_create(dev, ROWS * COLS, &L), GS_OK);
    static const size_t grids[] = {6, 1, 6};
    for (size_t r = 0; r < sizeof grids / sizeof grids[0]; ++r) {
        gs_status verdict = GS_ERR_NATIVE;
        long wrong = run(L, grids[r], ~0u, &verdict);
        assert_int_equal(verdict, GS_OK);
        assert_int_equal(wrong, 0);
    }
    gs_local_destroy(L);
}

/* Ticket 4 (tile (1, 1)) signals nothing: with one group the first wait to give up is
 * the one on that tile's word. */
static void silent_producer_names_its_word(void **unused)
{
    (void)unused;
    gs_local *L = NULL;
    assert_int_equal(gs_local_create(dev, ROWS * COLS, &L), GS_OK);
    assert_int_equal(gs_local_set_timeout(L, 300), GS_OK);
    gs_status verdict = GS_OK;
    (void)run(L, 1, 4, &verdict);
    assert_int_equal(verdict, GS_ERR_TIMEOUT);
    gs_local_abort a;
    assert_int_equal(gs_local_abort_info(L, &a), GS_OK);
    assert_int_equal(a.reason, GS_ABORT_REASON_TIMEOUT);
    assert_int_equal(a.word, 1u * COLS + 1u);
    assert_int_equal(a.awaited, 1u);
    /* and the state serves the next launch */
    assert_int_equal(run(L, 3, ~0u, &verdict), 0);
    assert_int_equal(verdict, GS_OK);
    gs_local_destroy(L);
}

/* gs_opencl_launch_local refuses what it cannot launch, before anything runs. */
static void launch_local_refuses_bad_input(void **unused)
{
    (void)unused;
    gs_local *L = NULL, *on_cpu = NULL;
    gs_device *cpu = NULL;
    assert_int_equal(gs_local_create(dev, ROWS * COLS, &L), GS_OK);
    size_t groups = 2, size = ITEMS, none = 0, huge = (size_t)1 << 40;
    double ns = -1.0;
    assert_int_equal(gs_opencl_launch_local(NULL, kernel, 1, &groups, &size, &ns),
                     GS_ERR_INVALID_ARGUMENT);
    assert_true(ns == 0.0); /* cleared first */
    assert_int_equal(gs_opencl_launch_local(L, NULL, 1, &groups, &size, NULL),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_opencl_launch_local(L, kernel, 0, &groups, &size, NULL),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_opencl_launch_local(L, kernel, 4, &groups, &size, NULL),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_opencl_launch_local(L, kernel, 1, NULL, &size, NULL),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_opencl_launch_local(L, kernel, 1, &none, &size, NULL),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_opencl_launch_local(L, kernel, 1, &groups, &huge, NULL),
                     GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_device_open(GS_BACKEND_CPU, 0, &cpu), GS_OK);
    assert_int_equal(gs_local_create(cpu, 4, &on_cpu), GS_OK);
    assert_int_equal(gs_opencl_launch_local(on_cpu, kernel, 1, &groups, &size, NULL),
                     GS_ERR_INVALID_ARGUMENT); /* another back end's state */
    gs_local_destroy(on_cpu);
    gs_device_close(cpu);
    gs_local_destroy(L);
}

int main(void)
{
    gs_device *probe = NULL;
    if (gs_device_open(GS_BACKEND_OPENCL, 0, &probe) != GS_OK) {
        printf("no OpenCL device: skipped\n");
        return 77;
    }
    gs_device_close(probe);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wavefront_reused_state),
        cmocka_unit_test(silent_producer_names_its_word),
        cmocka_unit_test(launch_local_refuses_bad_input),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
