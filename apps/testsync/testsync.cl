/* apps/testsync/testsync.cl - the blog's two kernels, after gs_opencl_device_source()
 * and testsync_body.h (joined at build time: no #include). */
__kernel void gst_test_sync(__global gs_word *state, __global gs_word *scratch, __global int *tmp,
                            __global int *out)
{
    gs_grid g = gs_grid_begin_auto(state);
    gst_body(&g, scratch, tmp, out);
}

__kernel void gst_test_nosync(__global gs_word *scratch, __global int *tmp, __global int *out)
{
    gst_body(0, scratch, tmp, out);
}
