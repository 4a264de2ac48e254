/* apps/testsync/testsync_body.h - the blog's kernel body, once, in the common subset of
 * C11, CUDA C++ and OpenCL C over gridsync's device shim (included first by each back end). */
#ifndef GST_TESTSYNC_BODY_H
#define GST_TESTSYNC_BODY_H

#if defined(__OPENCL_VERSION__)
#define GST_FN inline
#define GST_GLOBAL __global
#elif defined(__CUDACC__)
#define GST_FN static __device__ __forceinline__
#define GST_GLOBAL
#else
#define GST_FN static inline
#define GST_GLOBAL
#endif

/* g: begun on the state for test_sync, NULL for test_nosync. Non-zero where the barrier
 * gave up (the launch reports it). */
GST_FN unsigned gst_body(gs_grid *g, GST_GLOBAL gs_word *scratch, GST_GLOBAL int *tmp,
                         GST_GLOBAL int *out)
{
    unsigned id = gs_group_id() * gs_local_size() + gs_local_id(),
             n = gs_num_groups() * gs_local_size();
    gs_fetch_add_relaxed(scratch, id);
    tmp[id] = (int)gs_group_id();
    if (g != 0 && gs_sync_auto(g) != 0u)
        return 1u;
    out[id] = tmp[n - id - 1u];
    return 0u;
}

#endif
