/* test_sync on the cpu back end: one gs_cpu_launch of teams of threads. */
#include <stdlib.h>
#include <string.h>

#include "gridsync/cpu.h"
#include "gridsync/host_cpu.h"

#include "backend.h"
#include "testsync_body.h"

typedef struct cpu_job {
    gs_word *state, scratch;
    int *tmp, *out, sync;
} cpu_job;

static void kernel(void *arg)
{
    cpu_job *j = arg;
    gs_grid g =
        gs_grid_begin_auto(j->state); /* test_nosync too: gs_cpu_launch wants its state used */
    gst_body(j->sync ? &g : NULL, &j->scratch, j->tmp, j->out);
}

gs_status gst_cpu_run(gs_device *dev, gs_barrier *bar, const gst_config *c, int *out,
                      char error[160])
{
    (void)dev;
    size_t n = (size_t)c->groups * c->group_size;
    cpu_job j = {NULL, 0, malloc(n * sizeof(int)), out, c->sync};
    void *state = NULL;
    gs_status st = j.tmp ? gs_barrier_native(bar, &state) : GS_ERR_OUT_OF_MEMORY;
    j.state = state;
    if (st == GS_OK) {
        memset(j.tmp, 0xff, n * sizeof(int)); /* -1: not written yet */
        st = gs_cpu_launch(bar, GS_DIM3_1D(c->groups), GS_DIM3_1D(c->group_size), kernel, &j);
    }
    if (st != GS_OK)
        gsa_note(error, GST_ERROR_BYTES, "gs_cpu_launch(%u x %u): %s", c->groups, c->group_size,
                 gs_status_string(st));
    free(j.tmp);
    return st;
}
