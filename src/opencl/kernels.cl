/* src/opencl/kernels.cl - the built-in kernel's entry point in OpenCL C. */
__kernel void gs_work_kernel(__global gs_word *state, __global uint *a, __global uint *b,
                             __global gs_word *c, gs_work_params prm)
{
    gs_work_kernel_body(state, a, b, c, prm, GS_FORM_ALL);
}
