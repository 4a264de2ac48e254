/* bench/micro/libsync_kernel.cuh - gs_libsync's one loop, `for (...) if (gs_sync(&g)) return;`,
 * written once. A translation unit defines LIBSYNC_KERNEL (the kernel's name) and
 * LIBSYNC_ACCESSOR (a host function returning it), and GS_ONLY_ALGO if the kernel is
 * for one protocol only, as a user kernel may (gridsync/cuda.cuh). */
#include "gridsync/cuda.cuh"

__global__ void __launch_bounds__(1024) LIBSYNC_KERNEL(gs_word *state, int iters)
{
    gs_grid g = gs_grid_begin(state);
    for (int i = 0; i < iters; ++i)
        if (gs_sync(&g) != GS_ABORT_NONE)
            return;
}

const void *LIBSYNC_ACCESSOR(void)
{
    return (const void *)LIBSYNC_KERNEL;
}
