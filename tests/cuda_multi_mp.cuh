/* tests/cuda_multi_mp.cuh - the message passing of the barrier-across-devices tests
 * (cuda_multi.cu over peer access, cuda_multi_nccl.cu over NCCL): every thread of every
 * block of every rank writes its value of phase k into one buffer, and after the barrier
 * every block checks a share of every rank's values of phase k, most of them written
 * from other blocks or GPUs. The rank `fault_rank` returns before barrier fault_episode. */
#ifndef GRIDSYNC_TESTS_CUDA_MULTI_MP_CUH
#define GRIDSYNC_TESTS_CUDA_MULTI_MP_CUH

#include "gridsync/cuda.cuh"

#define THREADS 128u
#define NO_FAULT 0xffffffffu

struct mp_params {
    unsigned rank, ranks, groups, episodes;
    unsigned *buf;   /* [2][ranks][groups][THREADS], on one GPU every rank reaches */
    unsigned *wrong; /* the count of wrong values read */
    unsigned *why;   /* this rank's first non-zero barrier result */
    unsigned fault_rank, fault_episode;
    int split;
};

static inline __host__ __device__ unsigned value(unsigned rank, unsigned group, unsigned item,
                                                 unsigned k)
{
    return (rank * 7919u + group * 131u + item * 17u + k * 2654435761u) | 1u;
}

static inline __host__ __device__ size_t at(const mp_params &p, unsigned side, unsigned rank,
                                            unsigned group, unsigned item)
{
    return (((size_t)side * p.ranks + rank) * p.groups + group) * THREADS + item;
}

static __global__ void __launch_bounds__(THREADS) mp(gs_word *state, mp_params p)
{
    gs_multi_grid m = gs_multi_begin(state);
    unsigned total = p.ranks * p.groups * THREADS;
    for (unsigned k = 0; k < p.episodes; ++k) {
        if (p.rank == p.fault_rank && k == p.fault_episode)
            return;
        p.buf[at(p, k % 2u, p.rank, blockIdx.x, threadIdx.x)] =
            value(p.rank, blockIdx.x, threadIdx.x, k);
        gs_u32 why;
        if (p.split) {
            gs_token t = gs_multi_arrive(&m);
            why = gs_multi_wait_token(&m, t);
        } else {
            why = gs_multi_sync(&m);
        }
        if (why) {
            if (threadIdx.x == 0)
                atomicCAS(p.why, 0u, why);
            return;
        }
        unsigned wrong = 0;
        for (unsigned i = threadIdx.x + blockIdx.x * THREADS; i < total; i += p.groups * THREADS) {
            unsigned r = i / (p.groups * THREADS), g = i / THREADS % p.groups, t = i % THREADS;
            wrong += p.buf[at(p, k % 2u, r, g, t)] != value(r, g, t, k);
        }
        if (wrong)
            atomicAdd(p.wrong, wrong);
    }
}

#endif
