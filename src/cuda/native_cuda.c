/* src/cuda/native_cuda.c - CUDA errors as gridsync statuses and native texts: the
 * bottom layer of the back end, which every other file uses. */
#include <stdio.h>

#include "cuda_internal.h"

gs_status gs_cuda_fail(gs_device *dev, cudaError_t e, const char *what)
{
    (void)cudaGetLastError(); /* clears the error unless it is sticky */
    gs_status s = gs_native_fail(dev, (int)e, what);
    snprintf(dev->native_text, sizeof dev->native_text, "%s: %s (%d): %s", what,
             cudaGetErrorName(e), (int)e, cudaGetErrorString(e));
    switch (e) {
    case cudaErrorCooperativeLaunchTooLarge: return GS_ERR_TOO_MANY_GROUPS;
    case cudaErrorMemoryAllocation: return GS_ERR_OUT_OF_MEMORY;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver: return GS_ERR_NO_DEVICE;
    default: return s;
    }
}
