/* The built-in kernel for the relaunch protocol: see kernel_algo.cuh. */
#define GS_KERNEL_ALGO GS_ALGO_ID_RELAUNCH
#define GS_KERNEL_NAME gs_work_kernel_relaunch
#define GS_KERNEL_ACCESSOR gs_cuda_kernel_relaunch
#include "kernel_algo.cuh"
