/* apps/pi/pi.cl - the app's OpenCL kernel, after gs_opencl_device_source() and
 * pi_step.h (joined at build time: no #include). The state is read by the barrier way
 * alone; the other ways launch without gridsync and pass none. */
__kernel void gsp_pi(__global gs_word *state, __global gs_word *ticket, __global double *scratch,
                     __global double *partials, __global double *result, ulong steps, uint way)
{
    gs_grid g;
    if (way == GSP_WAY_BARRIER)
        g = gs_grid_begin_flip(state);
    gsp_kernel(&g, ticket, scratch, partials, result, steps, way);
}
