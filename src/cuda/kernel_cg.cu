/* The built-in kernel for the cg protocol: see kernel_algo.cuh. */
#define GS_KERNEL_ALGO GS_ALGO_ID_CG
#define GS_KERNEL_NAME gs_work_kernel_cg
#define GS_KERNEL_ACCESSOR gs_cuda_kernel_cg
#include "kernel_algo.cuh"
