/* bench/micro/libsync_kernel.cuh - gs_libsync's one loop, `for (...) if (gs_sync(&g)) return;`,
 * written once. A translation unit defines LIBSYNC_KERNEL (the kernel's name) and
 * LIBSYNC_ACCESSOR (a host function returning it), and LIBSYNC_PROTOCOL (a protocol's
 * name) if the kernel is for one protocol only, as a user kernel names it
 * (gs_sync_<name>); without it, the run-time dispatch gs_sync. */
#include "gridsync/cuda.cuh"

#define LIBSYNC_CAT_(a, b) a##b
#define LIBSYNC_CAT(a, b) LIBSYNC_CAT_(a, b)
#ifdef LIBSYNC_PROTOCOL
#define libsync_begin LIBSYNC_CAT(gs_grid_begin_, LIBSYNC_PROTOCOL)
#define libsync_sync LIBSYNC_CAT(gs_sync_, LIBSYNC_PROTOCOL)
#else
#define libsync_begin gs_grid_begin
#define libsync_sync gs_sync
#endif

__global__ void __launch_bounds__(1024) LIBSYNC_KERNEL(gs_word *state, int iters)
{
    gs_grid g = libsync_begin(state);
    for (int i = 0; i < iters; ++i)
        if (libsync_sync(&g) != GS_ABORT_NONE)
            return;
}

const void *LIBSYNC_ACCESSOR(void) { return (const void *)LIBSYNC_KERNEL; }
