/* The built-in kernel for the naive protocol: see kernel_algo.cuh. */
#define GS_KERNEL_ALGO GS_ALGO_ID_NAIVE
#define GS_KERNEL_NAME gs_work_kernel_naive
#define GS_KERNEL_ACCESSOR gs_cuda_kernel_naive
#include "kernel_algo.cuh"
