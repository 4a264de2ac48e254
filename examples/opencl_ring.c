/* The OpenCL form of cuda_ring.cu: every work-group hands a value to the next one,
 * STEPS times, with a grid barrier between the steps, in one launch. The program is
 * gridsync's device source followed by this file's kernel (gs_opencl_build_program).
 * Build:
 *     cc opencl_ring.c $(pkg-config --cflags --libs gridsync-opencl)
 * Exits 77 where there is no OpenCL device (what CTest reads as skipped). */
#include <stdio.h>

#include "gridsync.h"
#include "gridsync/host_opencl.h"

enum { STEPS = 200, GROUPS_MAX = 64 };

static const char *kernel_source =
    "__kernel void relay(__global gs_word *state, __global uint *ring, uint steps)\n"
    "{\n"
    "    uint n = get_num_groups(0), me = get_group_id(0);\n"
    "    gs_grid g = gs_grid_begin_flip(state);\n"
    "    for (uint step = 0; step < steps; ++step) {\n"
    "        __global const uint *from = ring + (step % 2) * n;\n"
    "        __global uint *to = ring + ((step + 1) % 2) * n;\n"
    "        if (get_local_id(0) == 0)\n"
    "            to[(me + 1) % n] = from[me] + 1;\n"
    "        if (gs_sync_flip(&g))\n"
    "            return;\n" /* a wait timed out: leave; gs_opencl_launch says why */
    "    }\n"
    "}\n";

static gs_status run(gs_device *dev, unsigned *host, unsigned *groups)
{
    cl_context ctx;
    cl_command_queue q;
    cl_program p;
    cl_int err;
    char log[1024];
    size_t local = 16;
    gs_barrier *bar;
    gs_status s = gs_device_max_groups(dev, (unsigned)local, groups);
    if (s == GS_OK && *groups > GROUPS_MAX)
        *groups = GROUPS_MAX;
    if (s == GS_OK)
        s = gs_opencl_handles(dev, &ctx, &q, NULL);
    if (s == GS_OK)
        s = gs_opencl_build_program(dev, kernel_source, NULL, &p, log, sizeof log);
    if (s != GS_OK) {
        fprintf(stderr, "%s\n", log);
        return s;
    }
    if ((s = gs_barrier_create(dev, GS_ALGO_FLIP, *groups, &bar)) != GS_OK) {
        clReleaseProgram(p);
        return s;
    }
    cl_kernel k = clCreateKernel(p, "relay", &err);
    for (unsigned i = 0; i < *groups; ++i)
        host[i] = i;
    cl_mem ring = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                 2 * GROUPS_MAX * sizeof *host, host, &err);
    void *state;
    gs_barrier_native(bar, &state);
    cl_mem m = (cl_mem)state;
    cl_uint steps = STEPS;
    clSetKernelArg(k, 0, sizeof m, &m);
    clSetKernelArg(k, 1, sizeof ring, &ring);
    clSetKernelArg(k, 2, sizeof steps, &steps);
    size_t ngroups = *groups;
    s = gs_opencl_launch(bar, k, 1, &ngroups, &local, NULL);
    if (s == GS_OK)
        clEnqueueReadBuffer(q, ring, CL_TRUE, (STEPS % 2) * *groups * sizeof *host,
                            *groups * sizeof *host, host, 0, NULL, NULL);
    clReleaseMemObject(ring);
    clReleaseKernel(k);
    clReleaseProgram(p);
    gs_barrier_destroy(bar);
    return s;
}

int main(void)
{
    gs_device *dev;
    unsigned groups, host[2 * GROUPS_MAX];
    gs_status s = gs_device_open(GS_BACKEND_OPENCL, 0, &dev);
    if (s == GS_ERR_NO_DEVICE) {
        printf("no OpenCL device\n");
        return 77;
    }
    if (s == GS_OK)
        s = run(dev, host, &groups);
    if (s != GS_OK) {
        fprintf(stderr, "gridsync: %s\n", gs_status_string(s));
        return 1;
    }
    for (unsigned g = 0; g < groups; ++g) {
        unsigned want = (g + groups - STEPS % groups) % groups + STEPS;
        if (host[g] != want) {
            fprintf(stderr, "group %u holds %u, expected %u\n", g, host[g], want);
            return 1;
        }
    }
    printf("%u work-groups passed a value around the ring %u times in one launch\n", groups, STEPS);
    gs_device_close(dev);
    return 0;
}
