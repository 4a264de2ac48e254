/* tests/thesis_loop.cu - the thesis's computation as the built-in kernels run it
 * (gs_compute, GS_COMPUTE_AVERAGE), beside Figure 4-3 as printed, for thesis_loop.sh,
 * which reads their SASS: the first must keep a loop, the second shows why it was
 * changed (the printed loop is loop-invariant and compiles to no loop at all). */
#include "gridsync/cuda.cuh"
#include "kernels/workloads.h"

__global__ void thesis_ours(gs_word *c, gs_work_params prm)
{
    gs_compute(&prm, blockIdx.x, threadIdx.x, c);
}

/* Figure 4-3 verbatim, its result kept the same way (a store that practically never
 * happens), a and b from the work-item as above. */
__global__ void thesis_printed(gs_word *c, unsigned n)
{
    unsigned a = threadIdx.x + 1u, b = blockIdx.x * 0x9e3779b9u ^ threadIdx.x, avg = 0u;
    for (unsigned i = 0; i < n; i++)
        avg = (a + b) / 2u;
    if (avg == 0x5eedf00du)
        atomicAdd(&c[GS_C_SCRATCH], 1u);
}
