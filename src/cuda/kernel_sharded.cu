/* The built-in kernel for the sharded protocol: see kernel_algo.cuh. */
#define GS_KERNEL_ALGO GS_ALGO_ID_SHARDED
#define GS_KERNEL_NAME gs_work_kernel_sharded
#define GS_KERNEL_ACCESSOR gs_cuda_kernel_sharded
#include "kernel_algo.cuh"
