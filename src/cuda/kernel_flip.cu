/* The built-in kernel for the flip protocol: see kernel_algo.cuh. */
#define GS_KERNEL_ALGO GS_ALGO_ID_FLIP
#define GS_KERNEL_NAME gs_work_kernel_flip
#define GS_KERNEL_ACCESSOR gs_cuda_kernel_flip
#include "kernel_algo.cuh"
