/* The built-in kernel for the lockfree protocol: see kernel_algo.cuh. */
#define GS_KERNEL_ALGO GS_ALGO_ID_LOCKFREE
#define GS_KERNEL_NAME gs_work_kernel_lockfree
#define GS_KERNEL_ACCESSOR gs_cuda_kernel_lockfree
#include "kernel_algo.cuh"
