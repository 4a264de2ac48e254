/* gridsync/cuda.cuh - include this in a CUDA kernel that synchronizes through gridsync.
 *
 * The CUDA shim (prims_cuda.cuh), every shared protocol, the two CUDA-only ones
 * (barrier_cluster.cuh; barrier_cg.cuh, the vendor's grid.sync(), which cannot time
 * out) and the device API of gridsync/barrier.h for all of them:
 *
 *     #include "gridsync/cuda.cuh"
 *     __global__ void __launch_bounds__(256, 8) k(gs_word *state, ...) {
 *         gs_grid g = gs_grid_begin_flip(state);        // or _tree, _auto, ... ; gs_grid_begin
 *         for (...) { work(); if (gs_sync_flip(&g)) return; }
 *     }
 * launched with gs_cuda_launch or gs_cuda_launch_async (gridsync/host_cuda.h), on a 1-,
 * 2- or 3-D grid of 1-, 2- or 3-D blocks; groups and work-items are numbered linearly
 * (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z), likewise threads).
 * Every thread of every block calls the barrier the same number of times, like
 * __syncthreads. docs/using.md is the guide.
 *
 * Compile such a kernel whole-program (no -rdc / -dc) where 2048 threads per SM matter:
 * relocatable device code made the same tree loop take 34 registers instead of 32. */
#ifndef GRIDSYNC_CUDA_CUH
#define GRIDSYNC_CUDA_CUH

#if defined(GRIDSYNC_BARRIER_H)
#error "include gridsync/cuda.cuh before (instead of) gridsync/barrier.h: it adds cg and cluster"
#endif

#include "gridsync/prims_cuda.cuh"
#include "gridsync/grid.h"
#include "gridsync/barrier_cg.cuh"
#include "gridsync/barrier_cluster.cuh"

#define GS_DEVICE_PROTOCOLS(X) GS_PROTOCOLS_SHARED(X) GS_PROTOCOLS_CUDA(X)
#include "gridsync/barrier.h"
#include "gridsync/local.h"
#include "gridsync/multi.h"

#endif
