/* apps/pi/pi_step.h - the Pi kernel's body, once, in the common subset of C11, CUDA C++
 * and OpenCL C over gridsync's device shim (gs_group_id, gs_group_barrier, atomics),
 * which each back end includes first. */
#ifndef GSP_PI_STEP_H
#define GSP_PI_STEP_H

#if defined(__OPENCL_VERSION__)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define GSP_FN inline
#define GSP_GLOBAL __global
typedef ulong gsp_u64;
#elif defined(__CUDACC__)
#define GSP_FN static __device__ __forceinline__
#define GSP_GLOBAL
typedef unsigned long long gsp_u64;
#else
#define GSP_FN static inline
#define GSP_GLOBAL
typedef unsigned long long gsp_u64;
#endif

enum { GSP_WAY_HOST = 0, GSP_WAY_BARRIER = 1, GSP_WAY_TICKET = 2 };

/* The group's sum of every work-item's v, valid on work-item 0. CUDA: shuffles within
 * each warp, the warps' sums through shared memory, shuffles again; elsewhere a tree
 * over the group's slots in scratch (the cpu back end has no group-local memory). */
#if defined(__CUDACC__)
GSP_FN double gsp_group_sum(GSP_GLOBAL double *mine, double v)
{
    __shared__ double warps[32];
    unsigned lid = gs_local_id(), size = gs_local_size();
    unsigned width = size < 32u ? size : 32u;
    unsigned lanes = width == 32u ? 0xffffffffu : (1u << width) - 1u;
    (void)mine;
    for (unsigned o = width / 2u; o > 0u; o /= 2u)
        v += __shfl_down_sync(lanes, v, o, width);
    if (size <= 32u)
        return v;
    gs_group_barrier(); /* an earlier call's reads of warps[] are done */
    if (lid % 32u == 0u)
        warps[lid / 32u] = v;
    gs_group_barrier();
    if (lid < 32u) {
        v = lid < size / 32u ? warps[lid] : 0.0;
        for (unsigned o = 16u; o > 0u; o /= 2u)
            v += __shfl_down_sync(0xffffffffu, v, o);
    }
    return v;
}
#else
GSP_FN double gsp_group_sum(GSP_GLOBAL double *mine, double v)
{
    unsigned lid = gs_local_id(), size = gs_local_size();
    gs_group_barrier(); /* an earlier call's reads of the slots are done */
    mine[lid] = v;
    for (unsigned span = size / 2u; span > 0u; span /= 2u) {
        gs_group_barrier();
        if (lid < span)
            mine[lid] += mine[lid + span];
    }
    return mine[0];
}
#endif

/* This work-item's steps, then the group's sum; work-item 0 stores the group's
 * partial. */
GSP_FN void gsp_partial(GSP_GLOBAL double *scratch, GSP_GLOBAL double *partials, gsp_u64 steps)
{
    unsigned lid = gs_local_id(), size = gs_local_size(), group = gs_group_id();
    gsp_u64 stride = (gsp_u64)gs_num_groups() * size;
    double h = 1.0 / (double)steps, sum = 0.0;
    for (gsp_u64 i = (gsp_u64)group * size + lid; i < steps; i += stride) {
        double x = ((double)i + 0.5) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    sum = gsp_group_sum(scratch + (gsp_u64)group * size, sum);
    if (lid == 0u)
        partials[group] = sum * h;
}

/* The partials summed by the whole finishing group: work-item k adds partials k, k +
 * size, ... then the group's sum. One work-item alone took the partials' loads one
 * after another: at 1056 groups that was most of the barrier and ticket ways' time at
 * 10^6 steps on an H100 (0.137 and 0.089 ms against the host's 0.028). Each work-item
 * issues GSP_TOTAL_LOADS loads before its first add: in a loop of one load and one add
 * a warp waited for each load before it issued the next (five L2 round trips in a row
 * at 1056 groups of 256). Another order than the host's: the ways agree to 1e-12
 * relative, not bit for bit. */
#define GSP_TOTAL_LOADS 8u
GSP_FN void gsp_total(GSP_GLOBAL double *scratch, GSP_GLOBAL const double *partials,
                      GSP_GLOBAL double *result)
{
    unsigned lid = gs_local_id(), size = gs_local_size(), groups = gs_num_groups();
    double sum = 0.0;
    for (unsigned g = lid; g < groups; g += GSP_TOTAL_LOADS * size) {
        double v[GSP_TOTAL_LOADS];
        for (unsigned k = 0u; k < GSP_TOTAL_LOADS; ++k)
            v[k] = g + k * size < groups ? partials[g + k * size] : 0.0;
        for (unsigned k = 0u; k < GSP_TOTAL_LOADS; ++k)
            sum += v[k];
    }
    sum = gsp_group_sum(scratch + (gsp_u64)gs_group_id() * size, sum);
    if (lid == 0u)
        *result = sum;
}

/* The whole kernel; `g` is begun on the state by the caller where there is one. Non-zero
 * where the barrier gave up (the launch reports it). */
GSP_FN unsigned gsp_kernel(gs_grid *g, GSP_GLOBAL gs_word *ticket, GSP_GLOBAL double *scratch,
                           GSP_GLOBAL double *partials, GSP_GLOBAL double *result, gsp_u64 steps,
                           unsigned way)
{
    gsp_partial(scratch, partials, steps);
    if (way == GSP_WAY_BARRIER) {
        /* Only one group reads after the barrier, so nobody waits: every group arrives,
         * and the one whose arrival completed the episode sums (gs_arrive_last). Where
         * every group waited, the ones that finished first polled beside groups still
         * computing (at 10^9 steps on an H200 the partials ended 427 to 1124 us into the
         * kernel) and slowed them; where one fixed group waited (the last, among the
         * last to arrive), its kernel still ended 2.4 us after the last partial
         * against the ticket's 1.4 (bench/micro/pi_finish.cu, "arrive"). */
        if (gs_arrive_last_flip(g))
            gsp_total(scratch, partials, result);
    } else if (way == GSP_WAY_TICKET) {
        /* acq_rel: this group's partial is released with its ticket; the last group
         * acquires every earlier one's, and its group barrier passes that on to all its
         * work-items. The verdict goes through the group's first scratch slot (the cpu
         * back end has no group-local memory), read by all before the sum reuses it. */
        GSP_GLOBAL double *mine = scratch + (gsp_u64)gs_group_id() * gs_local_size();
        gs_group_barrier(); /* gsp_partial's last read of mine[0] is done */
        if (gs_local_id() == 0u)
            mine[0] = gs_fetch_add_acq_rel(ticket, 1u) + 1u == gs_num_groups() ? 1.0 : 0.0;
        gs_group_barrier();
        int last = mine[0] != 0.0;
        if (last) {
            gsp_total(scratch, partials, result);
            if (gs_local_id() == 0u)
                gs_store_relaxed(ticket, 0u); /* ready for the next launch */
        }
    }
    return 0u;
}

#endif
