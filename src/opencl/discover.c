/* src/opencl/discover.c - OpenCL reports compute units, not how many work-groups of a
 * given size run at once. gs_device_discover_groups measures it with the occupancy
 * discovery protocol (gridsync/discover.h, embedded in gs_cl_device_source): 4 x compute-units work-groups are launched,
 * the ones that ran together count themselves. On PoCL the answer is its worker count. */
#include "opencl_internal.h"

#include <string.h>

#include "gridsync/state.h"

static const char discover_kernel[] =
    "\n__kernel void gs_discover_kernel(__global gs_word *state, ulong settle, ulong timeout)\n"
    "{\n"
    "    gs_grid g = gs_grid_waiter(state, timeout);\n"
    "    if (gs_local_id() == 0u)\n"
    "        (void)gs_discover(&g, settle);\n"
    "}\n";

gs_status gs_cl_discover(gs_device *dev, unsigned group_size, unsigned *out)
{
    gs_cl_device *d = gs_cl(dev);
    const char *sources[2] = {gs_cl_device_source, discover_kernel};
    size_t bytes = GS_DISC_LINES * GS_LINE_BYTES;
    uint32_t zeros[GS_DISC_LINES * GS_LINE_WORDS];
    cl_int err = CL_SUCCESS;
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem buf = NULL;
    gs_status s = GS_OK;
    if (d->build_status != GS_OK)
        return d->build_status;
    prog = clCreateProgramWithSource(d->ctx, 2, sources, NULL, &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(prog, 1, &d->id, d->build_options, NULL, NULL);
    if (err == CL_SUCCESS)
        k = clCreateKernel(prog, "gs_discover_kernel", &err);
    if (err == CL_SUCCESS)
        buf = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    memset(zeros, 0, sizeof zeros);
    if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(d->queue, buf, CL_TRUE, 0, bytes, zeros, 0, NULL, NULL);
    /* 20 ms without a newcomer closes the poll; every wait gives up after 2 s. */
    cl_ulong settle = gs_cl_timeout_units(dev, 20), timeout = gs_cl_timeout_units(dev, 2000);
    size_t local = group_size, global = (size_t)4 * dev->info.compute_units * group_size;
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 0, sizeof buf, &buf);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 1, sizeof settle, &settle);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 2, sizeof timeout, &timeout);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(d->queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(d->queue);
    uint32_t count = 0, reason = 0;
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(d->queue, buf, CL_TRUE, GS_DISC_COUNT * 4u, 4, &count, 0, NULL,
                                  NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(d->queue, buf, CL_TRUE,
                                  GS_WORD(GS_LINE_ABORT, GS_ABORT_REASON) * 4u, 4, &reason, 0, NULL,
                                  NULL);
    if (err != CL_SUCCESS)
        s = err == CL_BUILD_PROGRAM_FAILURE ? GS_ERR_BUILD : gs_cl_fail(dev, err, "discovery");
    else if (reason != GS_ABORT_NONE || count == 0)
        s = GS_ERR_TIMEOUT;
    else
        *out = count;
    if (buf)
        clReleaseMemObject(buf);
    if (k)
        clReleaseKernel(k);
    if (prog)
        clReleaseProgram(prog);
    return s;
}
