/* Names of statuses, back ends and protocols. */
#include <string.h>

#include "internal.h"

const char *gs_status_string(gs_status status)
{
    switch (status) {
    case GS_OK: return "GS_OK: success";
    case GS_ERR_INVALID_ARGUMENT:
        return "GS_ERR_INVALID_ARGUMENT: a null handle or pointer, or a count out of range";
    case GS_ERR_UNKNOWN_ALGO: return "GS_ERR_UNKNOWN_ALGO: no barrier protocol of that name";
    case GS_ERR_UNSUPPORTED: return "GS_ERR_UNSUPPORTED: not available on this back end";
    case GS_ERR_NO_DEVICE: return "GS_ERR_NO_DEVICE: no such device";
    case GS_ERR_BACKEND_UNAVAILABLE:
        return "GS_ERR_BACKEND_UNAVAILABLE: back end not built into this library";
    case GS_ERR_OUT_OF_MEMORY: return "GS_ERR_OUT_OF_MEMORY: out of host or device memory";
    case GS_ERR_TOO_MANY_GROUPS:
        return "GS_ERR_TOO_MANY_GROUPS: the grid cannot be co-resident on this device";
    case GS_ERR_TIMEOUT:
        return "GS_ERR_TIMEOUT: a barrier wait passed its deadline; some group never arrived";
    case GS_ERR_NEEDS_RESET:
        return "GS_ERR_NEEDS_RESET: the barrier aborted; call gs_barrier_reset";
    case GS_ERR_BUILD: return "GS_ERR_BUILD: the OpenCL program did not build";
    case GS_ERR_NATIVE: return "GS_ERR_NATIVE: a CUDA, OpenCL or system call failed";
    case GS_ERR_BAD_STATE:
        return "GS_ERR_BAD_STATE: the kernel found barrier state of another grid or kind, or "
               "used it after its last episode";
    case GS_ERR_CHECK_FAILED:
        return "GS_ERR_CHECK_FAILED: the result differs from the sequential reference";
    case GS_ERR_SMALL_BUFFER: return "GS_ERR_SMALL_BUFFER: the output buffer is too small";
    case GS_ERR_BUSY: return "GS_ERR_BUSY: the barrier has a launch in flight; collect it first";
    }
    return "unknown gs_status";
}

static const char *const backend_names[] = {"auto", "cpu", "opencl", "cuda"};

const char *gs_backend_name(gs_backend backend)
{
    unsigned i = (unsigned)backend;
    return i < sizeof backend_names / sizeof *backend_names ? backend_names[i] : NULL;
}

gs_status gs_backend_from_name(const char *name, gs_backend *out)
{
    if (!name || !out)
        return GS_ERR_INVALID_ARGUMENT;
    for (unsigned i = 0; i < sizeof backend_names / sizeof *backend_names; ++i)
        if (strcmp(name, backend_names[i]) == 0) {
            *out = (gs_backend)i;
            return GS_OK;
        }
    return GS_ERR_INVALID_ARGUMENT;
}

#define GS_ALGO_NAME_(ID, name, value, text, desc) [value] = text,
static const char *const algo_names[GS_ALGO_COUNT_] = {GS_PROTOCOLS_ALL(GS_ALGO_NAME_)};
#undef GS_ALGO_NAME_

const char *gs_algo_name(gs_algo algo)
{
    unsigned i = (unsigned)algo;
    return i < GS_ALGO_COUNT_ ? algo_names[i] : NULL;
}

gs_status gs_algo_from_name(const char *name, gs_algo *out)
{
    if (!name || !out)
        return GS_ERR_INVALID_ARGUMENT;
    for (unsigned i = 0; i < GS_ALGO_COUNT_; ++i)
        if (algo_names[i] && strcmp(name, algo_names[i]) == 0) {
            *out = (gs_algo)i;
            return GS_OK;
        }
    return GS_ERR_UNKNOWN_ALGO;
}
