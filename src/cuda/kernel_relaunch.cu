/* The built-in kernels of the relaunch baselines (no barrier: one phase a launch). */
#define GS_KERNEL_PROTOCOL relaunch
#define GS_WORK_NO_BARRIER 1
#include "kernel_algo.cuh"
