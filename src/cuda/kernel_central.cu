/* The built-in kernel for the central protocol: see kernel_algo.cuh. */
#define GS_KERNEL_ALGO GS_ALGO_ID_CENTRAL
#define GS_KERNEL_NAME gs_work_kernel_central
#define GS_KERNEL_ACCESSOR gs_cuda_kernel_central
#include "kernel_algo.cuh"
