/* bench/micro/probe.cu - one tiny kernel per protocol, for reading the barrier's hot
 * path in SASS (cuobjdump -sass) without the built-in kernel's workloads around it.
 * Not linked anywhere: scripts/gpu.sh compiles it with -cubin and disassembles it.
 *     nvcc -arch=sm_90 -cubin -Iinclude bench/micro/probe.cu -o probe.cubin
 *     cuobjdump -sass probe.cubin */
#include "gridsync/cuda.cuh"

#define GS_PROBE(name, call)                                                                       \
    extern "C" __global__ void __launch_bounds__(1024) gs_probe_##name(gs_word *state, unsigned n) \
    {                                                                                              \
        gs_grid g = gs_grid_begin(state);                                                          \
        for (unsigned i = 0; i < n; ++i) {                                                         \
            gs_token t = {0u, 0u, 0u};                                                             \
            if (call)                                                                              \
                return;                                                                            \
            ++g.episode;                                                                           \
        }                                                                                          \
    }

GS_PROBE(central, (gs_central_arrive(&g, &t), gs_central_wait(&g, &t)))
GS_PROBE(lockfree, (gs_lockfree_arrive(&g, &t), gs_lockfree_wait(&g, &t)))
GS_PROBE(naive, (gs_naive_arrive(&g, &t), gs_naive_wait(&g, &t)))
GS_PROBE(flip, (gs_flip_arrive_episode(&g, &t), gs_flip_wait(&g, &t)))
GS_PROBE(tree, (gs_tree_arrive(&g, &t), gs_tree_wait(&g, &t)))
GS_PROBE(cluster, (gs_cluster_arrive_episode(&g, &t), gs_cluster_wait_episode(&g, &t)))
GS_PROBE(cg, (gs_cg_arrive(&g, &t), gs_cg_wait(&g, &t)))
GS_PROBE(dispatch, gs_sync(&g))

extern "C" __global__ void gs_probe_split_flip(gs_word *state, unsigned n)
{
    gs_grid g = gs_grid_begin(state);
    for (unsigned i = 0; i < n; ++i) {
        gs_token t = gs_arrive(&g);
        if (gs_wait_token(&g, t))
            return;
    }
}
