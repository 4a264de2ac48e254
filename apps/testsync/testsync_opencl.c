/* test_sync on OpenCL: test_sync through gs_opencl_launch, test_nosync enqueued plainly,
 * as the blog's host program does. */
#include <stdlib.h>

#include "gridsync/host_opencl.h"

#include "backend.h"

extern const char gst_cl_source[];

static gs_status fail(char error[160], cl_int err, const char *what)
{
    gsa_note(error, GST_ERROR_BYTES, "%s: OpenCL error %d", what, (int)err);
    return GS_ERR_NATIVE;
}

gs_status gst_opencl_run(gs_device *dev, gs_barrier *bar, const gst_config *c, int *out,
                         char error[160])
{
    cl_context ctx;
    cl_command_queue q;
    cl_program p = NULL;
    char log[160];
    cl_int err = CL_SUCCESS;
    size_t groups = c->groups, size = c->group_size, n = groups * size;
    gs_status st = gs_opencl_handles(dev, &ctx, &q, NULL);
    if (st != GS_OK) {
        gsa_note(error, GST_ERROR_BYTES, "gs_opencl_handles: %s", gs_status_string(st));
        return st;
    }
    if ((st = gs_opencl_build_program(dev, gst_cl_source, NULL, &p, log, sizeof log)) != GS_OK) {
        gsa_note(error, GST_ERROR_BYTES, "gs_opencl_build_program: %s", log);
        return st;
    }
    cl_kernel k = clCreateKernel(p, c->sync ? "gst_test_sync" : "gst_test_nosync", &err);
    cl_uint zero = 0;
    cl_mem scratch = NULL, tmp = NULL, dout = NULL;
    if (err == CL_SUCCESS)
        scratch =
            clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero, &err);
    if (err == CL_SUCCESS)
        tmp = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(int), NULL, &err);
    if (err == CL_SUCCESS)
        dout = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(int), NULL, &err);
    int minus_one = -1; /* not written yet */
    if (err == CL_SUCCESS)
        err = clEnqueueFillBuffer(q, tmp, &minus_one, sizeof minus_one, 0, n * sizeof(int), 0, NULL,
                                  NULL);
    void *state = NULL;
    if (err == CL_SUCCESS && c->sync && (st = gs_barrier_native(bar, &state)) == GS_OK) {
        cl_mem s = (cl_mem)state;
        err = clSetKernelArg(k, 0, sizeof(cl_mem), &s);
    }
    cl_uint first = c->sync ? 1u : 0u;
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, first, sizeof(cl_mem), &scratch);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, first + 1u, sizeof(cl_mem), &tmp);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, first + 2u, sizeof(cl_mem), &dout);
    if (err == CL_SUCCESS && st == GS_OK) {
        if (c->sync) {
            double ns;
            if ((err = clFinish(q)) == CL_SUCCESS &&
                (st = gs_opencl_launch(bar, k, 1, &groups, &size, &ns)) != GS_OK)
                gsa_note(error, GST_ERROR_BYTES, "gs_opencl_launch(%zu x %zu): %s", groups, size,
                         gs_status_string(st));
        } else {
            err = clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &size, 0, NULL, NULL);
        }
    }
    if (err == CL_SUCCESS && st == GS_OK)
        err = clEnqueueReadBuffer(q, dout, CL_TRUE, 0, n * sizeof(int), out, 0, NULL, NULL);
    if (err != CL_SUCCESS && st == GS_OK)
        st = fail(error, err, "running the kernel");
    cl_mem mems[3] = {scratch, tmp, dout};
    for (int i = 0; i < 3; ++i)
        if (mems[i])
            clReleaseMemObject(mems[i]);
    if (k)
        clReleaseKernel(k);
    if (p)
        clReleaseProgram(p);
    return st;
}
