/* The built-in kernel for the cluster protocol: see kernel_algo.cuh. */
#define GS_KERNEL_ALGO GS_ALGO_ID_CLUSTER
#define GS_KERNEL_NAME gs_work_kernel_cluster
#define GS_KERNEL_ACCESSOR gs_cuda_kernel_cluster
#include "kernel_algo.cuh"
