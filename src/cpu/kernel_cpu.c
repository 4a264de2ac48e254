/* The built-in kernel, compiled for the cpu back end from the shared text. */
#include "cpu.h"

#include "gridsync/prims_cpu.h"
#include "kernels/workloads.h"

void gs_cpu_work_kernel(void *arg)
{
    const gs_cpu_work_args *w = arg;
    gs_work_kernel_body(w->state, w->a, w->b, w->c, w->params, GS_FORM_ALL);
}
