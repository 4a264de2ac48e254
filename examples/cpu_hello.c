/* The smallest complete gridsync program on the cpu back end: 4 groups of 8 threads
 * each write their group id, meet at a barrier, and read the mirrored element. */
#include <stdio.h>

#include "gridsync.h"
#include "gridsync/cpu.h"
#include "gridsync/host_cpu.h"

enum { GROUPS = 4, SIZE = 8, N = GROUPS * SIZE };

typedef struct args {
    gs_word *state;
    unsigned tmp[N], out[N];
} args;

static void kernel(void *p)
{
    args *a = p;
    gs_grid g = gs_grid_begin_flip(a->state); /* this kernel's protocol: flip */
    unsigned id = gs_group_id() * gs_local_size() + gs_local_id();
    a->tmp[id] = gs_group_id();
    if (gs_sync_flip(&g) != 0)
        return; /* a wait timed out: leave; the host call says why */
    a->out[id] = a->tmp[N - 1 - id];
}

int main(void)
{
    gs_device *dev;
    gs_barrier *bar;
    args a;
    gs_status s = gs_device_open(GS_BACKEND_CPU, 0, &dev);
    if (s == GS_OK)
        s = gs_barrier_create(dev, GS_ALGO_FLIP, GROUPS, &bar);
    if (s == GS_OK) {
        gs_barrier_native(bar, (void **)&a.state);
        s = gs_cpu_launch(bar, GS_DIM3_1D(GROUPS), GS_DIM3_1D(SIZE), kernel, &a);
        gs_barrier_destroy(bar);
    }
    if (s != GS_OK) {
        fprintf(stderr, "gridsync: %s\n", gs_status_string(s));
        return 1;
    }
    for (unsigned i = 0; i < N; ++i)
        if (a.out[i] != (N - 1 - i) / SIZE) {
            fprintf(stderr, "out[%u] = %u, expected %u\n", i, a.out[i], (N - 1 - i) / SIZE);
            return 1;
        }
    printf("every work-item read the group id mirrored across the barrier\n");
    gs_device_close(dev);
    return 0;
}
