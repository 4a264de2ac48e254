/* bench/micro/pi_app_kernel.cuh - the Pi program's kernel as apps/pi/pi_cuda.cu has it (one
 * kernel, the way a run-time argument), for the micro-benchmarks that take its ways
 * apart (pi_finish.cu, pi_tail.cu). */
#ifndef GS_MICRO_PI_APP_KERNEL_CUH
#define GS_MICRO_PI_APP_KERNEL_CUH

#include "gridsync/cuda.cuh"

#include "pi_step.h"

__global__ void __launch_bounds__(1024)
    k_app(gs_word *state, gs_word *ticket, double *scratch, double *partials, double *result,
          unsigned long long steps, unsigned way)
{
    gs_grid g;
    if (way == GSP_WAY_BARRIER)
        g = gs_grid_begin_flip(state); /* as the app's */
    gsp_kernel(&g, ticket, scratch, partials, result, steps, way);
}

#endif
