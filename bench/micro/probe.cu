/* bench/micro/probe.cu - one tiny kernel per protocol, for reading the barrier's hot
 * path in SASS (cuobjdump -sass) without the built-in kernel's workloads around it:
 * each begins the state by the protocol's name and syncs n times, as a user's kernel
 * does; auto, the run-time choice (gs_sync) and flip's split phase beside them.
 * Not linked anywhere: scripts/gpu.sh (stage sass) compiles it with -cubin and
 * disassembles it.
 *     nvcc -arch=sm_90 -cubin -Iinclude bench/micro/probe.cu -o probe.cubin
 *     cuobjdump -sass probe.cubin */
#include "gridsync/cuda.cuh"

#define GS_PROBE_(ID, name, value, text, desc)                                                     \
    extern "C" __global__ void __launch_bounds__(1024) gs_probe_##name(gs_word *state, unsigned n) \
    {                                                                                              \
        gs_grid g = gs_grid_begin_##name(state);                                                   \
        for (unsigned i = 0; i < n; ++i)                                                           \
            if (gs_sync_##name(&g))                                                                \
                return;                                                                            \
    }

GS_DEVICE_PROTOCOLS(GS_PROBE_)

extern "C" __global__ void __launch_bounds__(1024) gs_probe_auto(gs_word *state, unsigned n)
{
    gs_grid g = gs_grid_begin_auto(state);
    for (unsigned i = 0; i < n; ++i)
        if (gs_sync_auto(&g))
            return;
}

extern "C" __global__ void __launch_bounds__(1024) gs_probe_dispatch(gs_word *state, unsigned n)
{
    gs_grid g = gs_grid_begin(state);
    for (unsigned i = 0; i < n; ++i)
        if (gs_sync(&g))
            return;
}

extern "C" __global__ void __launch_bounds__(1024) gs_probe_split_flip(gs_word *state, unsigned n)
{
    gs_grid g = gs_grid_begin_flip(state);
    for (unsigned i = 0; i < n; ++i) {
        gs_token t = gs_arrive_flip(&g);
        if (gs_wait_token_flip(&g, t))
            return;
    }
}
