/* apps/sor/sor.cl - the app's OpenCL kernels. The program the app builds is
 * gs_opencl_device_source() (gridsync's shim, protocols and local.h), then sor_step.h,
 * sor_tile.h and this file, joined at build time by cmake/embed_text.cmake (the
 * run-time compiler has no include path). Launches are 1-D, groups of `tile`
 * work-items (one per column of a tile). */

/* The persistent kernel of protocol p: every wavefront step in one launch, a barrier
 * between two (none after the last: the kernel's end orders it). */
#define GSR_CL_PERSISTENT(p)                                                                 \
    __kernel void gsr_persistent_##p(__global gs_word *state, __global float *u, uint n,     \
                                     uint tile, uint sweeps, float a, float b)               \
    {                                                                                        \
        gsr_shape g = gsr_shape_of(n, tile, sweeps);                                         \
        gs_grid grid = gs_grid_begin_##p(state);                                             \
        for (uint step = 0u;; ++step) {                                                      \
            gsr_step(u, &g, step, (uint)get_group_id(0), (uint)get_num_groups(0), a, b);     \
            if (step + 1u == g.steps || gs_sync_##p(&grid) != 0u)                            \
                return; /* done, or a wait gave up: the launch reports it */                 \
        }                                                                                    \
    }

/* One per protocol of gridsync's list, and auto; the host names them gsr_persistent_<name>. */
#define GSR_CL_PERSISTENT_X(ID, name, value, text, desc) GSR_CL_PERSISTENT(name)
GS_PROTOCOLS_SHARED(GSR_CL_PERSISTENT_X)
GSR_CL_PERSISTENT(auto)

/* The local scheme: an ordinary launch of any number of groups (sor_tile.h). */
__kernel void gsr_local(__global gs_word *state, __global float *u, uint n, uint tile, uint sweeps,
                        float a, float b, uint mutant)
{
    GS_GROUP_SCRATCH(scratch);
    gsr_shape g = gsr_shape_of(n, tile, sweeps);
    gs_local L = gs_local_begin(state, scratch);
    gsr_local_run(&L, u, &g, a, b, mutant);
}

/* The relaunch baseline: one wavefront step per launch. */
__kernel void gsr_relaunch(__global float *u, uint n, uint tile, uint sweeps, float a, float b,
                           uint step)
{
    gsr_shape g = gsr_shape_of(n, tile, sweeps);
    gsr_step(u, &g, step, (uint)get_group_id(0), (uint)get_num_groups(0), a, b);
}
