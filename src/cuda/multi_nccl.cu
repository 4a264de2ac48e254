/* src/cuda/multi_nccl.cu - what the NCCL barrier across GPUs (multi_nccl.c) needs from
 * NCCL's C++ device API: the LSA team's size, and the address at which this GPU
 * reaches every rank's part of a symmetric window (device code only in NCCL 2.28). */
#include <nccl.h>
#include <nccl_device.h>

static __global__ void peer_table(ncclWindow_t window, int ranks, unsigned long long *out)
{
    int r = (int)threadIdx.x;
    if (r < ranks)
        out[r] = (unsigned long long)ncclGetPeerPointer(window, 0, r);
}

/* The ranks that reach each other's memory by loads and stores, this one's team. */
extern "C" int gs_nccl_lsa_ranks(void *comm) { return ncclTeamLsa((ncclComm_t)comm).nRanks; }

/* Enqueues the table of `ranks` addresses into `out` (device memory) on `stream`; the
 * cudaError_t of the launch. */
extern "C" int gs_nccl_peer_table_enqueue(void *window, int ranks, void *out, void *stream)
{
    peer_table<<<1, 32, 0, (cudaStream_t)stream>>>((ncclWindow_t)window, ranks,
                                                   (unsigned long long *)out);
    return (int)cudaGetLastError();
}
