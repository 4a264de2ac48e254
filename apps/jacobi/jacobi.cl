/* apps/jacobi/jacobi.cl - the app's OpenCL kernels. The program the app builds is
 * gs_opencl_device_source() (gridsync's shim and protocols), then jacobi_step.h
 * (gsj_sweep, and the split form's tiles), then jacobi_local.h (the local form's loop),
 * jacobi_resident.h (the resident form's phases) and jacobi_halo.h (the halo form's
 * loop), then this file: cmake/embed_text.cmake joins the last five at build time, so there is no #include here (the run-time compiler has no
 * include path). Launches are 1-D: a work-item's place is its global id (sync form), or
 * its group's tile and its local id (split form). */

/* The persistent kernel of protocol p: every iteration in one launch, a barrier
 * between two (none after the last: the kernel's end orders it). */
#define GSJ_CL_PERSISTENT(p)                                                     \
    __kernel void gsj_persistent_##p(__global gs_word *state, __global float *a, \
                                     __global float *b, uint n, uint iters)      \
    {                                                                            \
        gs_grid g = gs_grid_begin_##p(state);                                    \
        for (uint t = 0u;; ++t) {                                                \
            gsj_sweep(t % 2u ? b : a, t % 2u ? a : b, n, (uint)get_global_id(0), \
                      (uint)get_global_size(0));                                 \
            if (t + 1u == iters || gs_sync_##p(&g) != 0u)                        \
                return; /* done, or a wait gave up: the launch reports it */     \
        }                                                                        \
    }

/* The split form's kernel of protocol p (jacobi_step.h: the tiles, and why this order
 * is race-free): the group's perimeter, the arrival, its inner cells, the wait. T
 * barriers: the arrival and the wait unconditional, the loop in the plain form of the
 * sync kernel above, which PoCL 3.1 (work-items run one after another between
 * barriers) compiles right. */
#define GSJ_CL_SPLIT(p)                                                                         \
    __kernel void gsj_split_##p(__global gs_word *state, __global float *a, __global float *b,  \
                                uint n, uint iters, uint gx, uint gy)                           \
    {                                                                                           \
        gs_grid g = gs_grid_begin_##p(state);                                                   \
        for (uint t = 0u;; ++t) {                                                               \
            gsj_perimeter(t % 2u ? b : a, t % 2u ? a : b, n,                                    \
                          gsj_tile_of(n, gx, gy, (uint)get_group_id(0)), (uint)get_local_id(0), \
                          (uint)get_local_size(0));                                             \
            gs_token token = gs_arrive_##p(&g);                                                 \
            gsj_inner(t % 2u ? b : a, t % 2u ? a : b, n,                                        \
                      gsj_tile_of(n, gx, gy, (uint)get_group_id(0)), (uint)get_local_id(0),     \
                      (uint)get_local_size(0));                                                 \
            if (gs_wait_token_##p(&g, token) != 0u || t + 1u == iters)                          \
                return; /* a wait gave up (the launch reports it), or done */                   \
        }                                                                                       \
    }

/* The resident form's kernel of protocol p (jacobi_resident.h): the group's tile in local
 * memory (the host sizes m: gsj_resident_bytes) for the whole run, the loop in the plain
 * form of the sync kernel. */
#define GSJ_CL_RESIDENT(p)                                                                        \
    __kernel void gsj_resident_##p(__global gs_word *state, __global float *a, __global float *b, \
                                   uint n, uint iters, uint gx, uint gy, __local float *m)        \
    {                                                                                             \
        gs_grid g = gs_grid_begin_##p(state);                                                     \
        gsj_tile t = gsj_tile_of(n, gx, gy, (uint)get_group_id(0));                               \
        __local float *s = m, *d = m + (t.rows + 2u) * (t.cols + 2u);                             \
        uint me = (uint)get_local_id(0), all = (uint)get_local_size(0);                           \
        gsj_resident_load(a, n, t, s, d, me, all);                                                \
        barrier(CLK_LOCAL_MEM_FENCE);                                                             \
        for (uint k = 0u;; ++k) {                                                                 \
            gsj_resident_cells(s, d, t, me, all);                                                 \
            barrier(CLK_LOCAL_MEM_FENCE);                                                         \
            gsj_resident_out(d, k % 2u ? a : b, n, t, k + 1u == iters, me, all);                  \
            if (k + 1u == iters || gs_sync_##p(&g) != 0u)                                         \
                return; /* done, or a wait gave up: the launch reports it */                      \
            gsj_resident_halo(k % 2u ? a : b, d, n, t, me, all);                                  \
            barrier(CLK_LOCAL_MEM_FENCE);                                                         \
            __local float *x = s;                                                                 \
            s = d;                                                                                \
            d = x;                                                                                \
        }                                                                                         \
    }

/* One of each per protocol of gridsync's list (gridsync/protocols.h, in the device
 * source), and auto; the host names them gsj_persistent_<name>, gsj_split_<name> and
 * gsj_resident_<name>. */
#define GSJ_CL_PERSISTENT_X(ID, name, value, text, desc) \
    GSJ_CL_PERSISTENT(name)                              \
    GSJ_CL_SPLIT(name)                                   \
    GSJ_CL_RESIDENT(name)
GS_PROTOCOLS_SHARED(GSJ_CL_PERSISTENT_X)
GSJ_CL_PERSISTENT(auto)
GSJ_CL_SPLIT(auto)
GSJ_CL_RESIDENT(auto)

/* The local form (jacobi_local.h): no barrier; tickets, each band after the bands next to
 * it, any grid. Enqueued the ordinary way, after gs_local_prepare. */
__kernel void gsj_local(__global gs_word *state, __global float *a, __global float *b, uint n,
                        uint iters, uint bands)
{
    GS_GROUP_SCRATCH(scratch);
    gs_local L = gs_local_begin(state, scratch);
    gsj_local_run(&L, a, b, n, iters, bands);
}

/* The halo form (jacobi_halo.h): the resident form's tiles in local memory (the host
 * sizes m: gsj_resident_bytes), the halo in tagged words, no barrier; enqueued after
 * gs_local_prepare with no more groups than the device holds at once. Only where the
 * device has 64-bit atomics. */
#if defined(GS_HAVE_WORD64)
__kernel void gsj_halo(__global gs_word *state, __global float *a, __global float *b, uint n,
                       uint iters, uint gx, uint gy, uint stride, __local float *m)
{
    GS_GROUP_SCRATCH(scratch);
    gs_local L = gs_local_begin(state, scratch);
    gsj_halo_run(&L, a, b, n, iters, gx, gy, stride, m, (uint)get_local_id(0),
                 (uint)get_local_size(0));
}
#endif

/* The relaunch baseline: one iteration per launch. */
__kernel void gsj_step(__global const float *a, __global float *b, uint n)
{
    gsj_sweep(a, b, n, (uint)get_global_id(0), (uint)get_global_size(0));
}
