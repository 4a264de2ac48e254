/* The built-in kernel for the tree protocol: see kernel_algo.cuh. */
#define GS_KERNEL_ALGO GS_ALGO_ID_TREE
#define GS_KERNEL_NAME gs_work_kernel_tree
#define GS_KERNEL_ACCESSOR gs_cuda_kernel_tree
#include "kernel_algo.cuh"
