/* apps/stencil/stencil.cl - the app's OpenCL kernels, after gs_opencl_device_source()
 * and stencil_step.h (joined at build time by cmake/embed_text.cmake: no #include). */

/* The blog's kernel with protocol p: read, barrier, write, barrier (none after the last
 * write: the kernel's end orders it). */
#define GSS_CL_PERSISTENT(p)                                                                 \
    __kernel void gss_persistent_##p(__global gs_word *state, __global uint *a,              \
                                     __global uint *tmp, uint n, uint iters)                 \
    {                                                                                        \
        gs_grid g = gs_grid_begin_##p(state);                                                \
        for (uint t = 0u;; ++t) {                                                            \
            uint held = gss_read(a, tmp, n, (uint)get_global_id(0), (uint)get_global_size(0)); \
            if (gs_sync_##p(&g) != 0u)                                                       \
                return; /* a wait gave up: the launch reports it */                          \
            gss_write(a, tmp, n, (uint)get_global_id(0), (uint)get_global_size(0), held);    \
            if (t + 1u == iters || gs_sync_##p(&g) != 0u)                                    \
                return;                                                                      \
        }                                                                                    \
    }
#define GSS_CL_PERSISTENT_X(ID, name, value, text, desc) GSS_CL_PERSISTENT(name)
GS_PROTOCOLS_SHARED(GSS_CL_PERSISTENT_X)
GSS_CL_PERSISTENT(auto)

/* The relaunch baseline: a launch per phase. */
__kernel void gss_read_phase(__global const uint *a, __global uint *tmp, uint n)
{
    gss_read_all(a, tmp, n, (uint)get_global_id(0), (uint)get_global_size(0));
}

__kernel void gss_write_phase(__global uint *a, __global const uint *tmp, uint n)
{
    gss_write_all(a, tmp, n, (uint)get_global_id(0), (uint)get_global_size(0));
}
