/* src/opencl/native.c - OpenCL error codes as gridsync statuses and texts, a program's
 * build log, and the device time between two profiled events: the bottom layer of the
 * back end. */
#include "cl_device.h"

#include <stdio.h>
#include <stdlib.h>

static const char *cl_error_name(cl_int err)
{
    switch (err) {
#define GS_CL_ERR(x) \
    case x: return #x;
        GS_CL_ERR(CL_DEVICE_NOT_FOUND)
        GS_CL_ERR(CL_DEVICE_NOT_AVAILABLE)
        GS_CL_ERR(CL_COMPILER_NOT_AVAILABLE)
        GS_CL_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
        GS_CL_ERR(CL_OUT_OF_RESOURCES)
        GS_CL_ERR(CL_OUT_OF_HOST_MEMORY)
        GS_CL_ERR(CL_PROFILING_INFO_NOT_AVAILABLE)
        GS_CL_ERR(CL_BUILD_PROGRAM_FAILURE)
        GS_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        GS_CL_ERR(CL_INVALID_VALUE)
        GS_CL_ERR(CL_INVALID_DEVICE)
        GS_CL_ERR(CL_INVALID_CONTEXT)
        GS_CL_ERR(CL_INVALID_COMMAND_QUEUE)
        GS_CL_ERR(CL_INVALID_MEM_OBJECT)
        GS_CL_ERR(CL_INVALID_BUILD_OPTIONS)
        GS_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE)
        GS_CL_ERR(CL_INVALID_KERNEL_NAME)
        GS_CL_ERR(CL_INVALID_KERNEL)
        GS_CL_ERR(CL_INVALID_ARG_INDEX)
        GS_CL_ERR(CL_INVALID_ARG_VALUE)
        GS_CL_ERR(CL_INVALID_ARG_SIZE)
        GS_CL_ERR(CL_INVALID_KERNEL_ARGS)
        GS_CL_ERR(CL_INVALID_WORK_DIMENSION)
        GS_CL_ERR(CL_INVALID_WORK_GROUP_SIZE)
        GS_CL_ERR(CL_INVALID_WORK_ITEM_SIZE)
        GS_CL_ERR(CL_INVALID_GLOBAL_WORK_SIZE)
        GS_CL_ERR(CL_INVALID_EVENT)
        GS_CL_ERR(CL_INVALID_OPERATION)
        GS_CL_ERR(CL_INVALID_BUFFER_SIZE)
#undef GS_CL_ERR
    default: return NULL;
    }
}

gs_status gs_cl_fail(gs_device *dev, cl_int err, const char *what)
{
    char text[160];
    const char *name = cl_error_name(err);
    gs_status s;
    if (name)
        snprintf(text, sizeof text, "%s: %s", what, name);
    else
        snprintf(text, sizeof text, "%s: OpenCL error %d", what, (int)err);
    s = gs_native_fail(dev, (int)err, text);
    if (err == CL_OUT_OF_HOST_MEMORY || err == CL_MEM_OBJECT_ALLOCATION_FAILURE)
        return GS_ERR_OUT_OF_MEMORY;
    return s;
}

gs_status gs_cl_event_span(gs_device *dev, cl_event first, cl_event last, double *ns)
{
    cl_int err = clWaitForEvents(1, &last);
    cl_int exec = CL_COMPLETE;
    cl_ulong start = 0, end = 0;
    if (err == CL_SUCCESS)
        err = clGetEventInfo(last, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof exec, &exec, NULL);
    if (err == CL_SUCCESS && exec < 0)
        err = exec; /* the command ended abnormally: its error code */
    if (err != CL_SUCCESS)
        return gs_cl_fail(dev, err, "clWaitForEvents");
    err = clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    if (err != CL_SUCCESS)
        return gs_cl_fail(dev, err, "clGetEventProfilingInfo");
    if (ns)
        *ns = end > start ? (double)(end - start) : 0.0;
    return GS_OK;
}

char *gs_cl_program_log(cl_device_id id, cl_program program)
{
    size_t bytes = 0;
    char *text;
    if (clGetProgramBuildInfo(program, id, CL_PROGRAM_BUILD_LOG, 0, NULL, &bytes) != CL_SUCCESS ||
        bytes <= 1 || (text = malloc(bytes + 1)) == NULL)
        return NULL;
    if (clGetProgramBuildInfo(program, id, CL_PROGRAM_BUILD_LOG, bytes, text, NULL) != CL_SUCCESS) {
        free(text);
        return NULL;
    }
    text[bytes] = '\0';
    return text;
}
