/* apps/jacobi/jacobi.cl - the app's OpenCL kernels. The program the app builds is
 * gs_opencl_device_source() (gridsync's shim and protocols), then jacobi_step.h
 * (gsj_sweep), then this file: cmake/embed_text.cmake joins the last two at build
 * time, so there is no #include here (the run-time compiler has no include path).
 * Launches are 1-D: a work-item's place is its global id. */

/* The persistent kernel of protocol p: every iteration in one launch, a barrier
 * between two (none after the last: the kernel's end orders it). */
#define GSJ_CL_PERSISTENT(p)                                                                 \
    __kernel void gsj_persistent_##p(__global gs_word *state, __global float *a,             \
                                     __global float *b, uint n, uint iters)                  \
    {                                                                                        \
        gs_grid g = gs_grid_begin_##p(state);                                                \
        for (uint t = 0u;; ++t) {                                                            \
            gsj_sweep(t % 2u ? b : a, t % 2u ? a : b, n, (uint)get_global_id(0),             \
                      (uint)get_global_size(0));                                             \
            if (t + 1u == iters || gs_sync_##p(&g) != 0u)                                    \
                return; /* done, or a wait gave up: the launch reports it */                 \
        }                                                                                    \
    }

/* One per protocol of gridsync's list (gridsync/protocols.h, in the device source), and
 * auto; the host names them gsj_persistent_<name>. */
#define GSJ_CL_PERSISTENT_X(ID, name, value, text, desc) GSJ_CL_PERSISTENT(name)
GS_PROTOCOLS_SHARED(GSJ_CL_PERSISTENT_X)
GSJ_CL_PERSISTENT(auto)

/* The relaunch baseline: one iteration per launch. */
__kernel void gsj_step(__global const float *a, __global float *b, uint n)
{
    gsj_sweep(a, b, n, (uint)get_global_id(0), (uint)get_global_size(0));
}
