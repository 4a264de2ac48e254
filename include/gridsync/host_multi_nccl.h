/* gridsync/host_multi_nccl.h - a barrier across GPUs (gridsync/host_multi.h) with one
 * process per GPU, over an NCCL communicator (NCCL 2.28 or newer; library
 * gridsync_nccl, static, built in the build tree where CMake finds nccl_device.h and
 * libnccl; not installed).
 *
 *     ncclComm_t comm;                                  // one rank per GPU, as usual
 *     ncclCommInitRank(&comm, nranks, id, rank);
 *     gs_device *dev; gs_device_open(GS_BACKEND_CUDA, my_gpu, &dev);
 *     gs_multi *m;
 *     gs_multi_create_nccl(dev, comm, groups, &m);      // collective
 *     void *state; gs_multi_native(m, rank, &state);    // this rank's only
 *     gs_cuda_multi_launch_async(m, rank, kernel, grid, block, 0, args, stream);
 *     gs_status s = gs_multi_collect(m, NULL);          // this rank's status
 *
 * Each rank's state is NCCL symmetric memory (ncclMemAlloc, registered in a window with
 * ncclCommWindowRegister); the addresses at which this GPU reaches every rank's state
 * come from the window (ncclGetPeerPointer, in a one-block kernel at creation). So
 * every rank must reach every other by loads and stores (NCCL's LSA team is the whole
 * communicator: the GPUs of one node over NVLink or PCIe peer access); otherwise
 * GS_ERR_UNSUPPORTED. NCCL is used for setup only: the episodes are gridsync's own
 * flags, whose waits are bounded (NCCL's device-side barrier waits without a bound).
 * Never uses NVLink multicast (no ncclGetLsaMultimemPointer, no cuMulticastCreate); run
 * with NCCL_NVLS_ENABLE=0 so that NCCL itself does not set it up.
 *
 * Collective (every rank calls it, in the same order with the other collective calls of
 * the communicator): gs_multi_create_nccl, gs_multi_reset (each rank after its collect;
 * the ranks meet before any clears its state, so that a word another rank's kernel wrote
 * into it before that kernel ended does not outlive the reset, and again after, so that
 * no rank launches again before every rank has reset), gs_multi_destroy (deregisters the
 * window). gs_multi_collect
 * gives this rank's status (the others': GS_ERR_UNSUPPORTED); a rank whose kernel ended
 * before another rank's timeout told it to leave may report GS_OK where the others
 * report GS_ERR_TIMEOUT (a single process waits for every rank before it reads any). */
#ifndef GRIDSYNC_HOST_MULTI_NCCL_H
#define GRIDSYNC_HOST_MULTI_NCCL_H

#include "gridsync/host_multi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The barrier over the ranks of `nccl_comm` (an ncclComm_t, 1 to GS_MULTI_MAX_DEVICES
 * ranks), this process driving its rank on `dev`, the communicator's CUDA device:
 * GS_ERR_INVALID_ARGUMENT for a null pointer, zero groups, a device that is not the
 * communicator's; GS_ERR_UNSUPPORTED for a device not of CUDA, more ranks than
 * GS_MULTI_MAX_DEVICES, ranks that cannot all reach each other's memory; GS_ERR_NATIVE
 * when NCCL or CUDA fails (gs_device_native_error). */
GS_API gs_status gs_multi_create_nccl(gs_device *dev, void *nccl_comm, unsigned groups_per_device,
                                      gs_multi **out);

#ifdef __cplusplus
}
#endif

#endif
