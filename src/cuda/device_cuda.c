/* src/cuda/device_cuda.c - the CUDA back end's gs_backend_ops: the top layer, over
 * the files cuda_internal.h lists. */
#include "cuda_internal.h"

/* The device clock is %globaltimer: nanoseconds. */
static uint64_t cuda_timeout_units(gs_device *dev, unsigned ms) { return (uint64_t)ms * 1000000u; }

static unsigned cuda_spinners(const gs_device *dev) { return 0; }

const gs_backend_ops gs_cuda_ops = {
    .id = GS_BACKEND_CUDA,
    .count = gs_cuda_count,
    .open = gs_cuda_open,
    .close = gs_cuda_close,
    .max_groups = gs_cuda_builtin_max_groups,
    .algo_supported = gs_cuda_algo_supported,
    .timeout_units = cuda_timeout_units,
    .spinners = cuda_spinners,
    .mem_alloc = gs_cuda_mem_alloc,
    .mem_free = gs_cuda_mem_free,
    .mem_write = gs_cuda_mem_write,
    .mem_read = gs_cuda_mem_read,
    .mem_native = gs_cuda_mem_native,
    .launch = gs_cuda_builtin_launch,
    .collect = gs_cuda_collect,
    .barrier_release = gs_cuda_barrier_release,
    .stream_sync = gs_cuda_stream_sync,
    .local_prepare = gs_cuda_local_prepare,
    .peer_access = gs_cuda_peer_access,
    .place_counter = gs_cuda_place_counter,
};
