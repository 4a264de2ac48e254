/* apps/pi/pi.h - the Pi program of the OpenCL lecture (seed 003), written as a gridsync
 * user writes it, against the public headers only: midpoint integration of 4/(1+x^2)
 * on [0, 1] in double precision, each work-item summing steps first, first + stride,
 * ..., a work-group reduction, then one of the ways to finish the sum of the groups'
 * partial sums:
 *
 *   GSP_HOST     the partials read back and summed on the host (the lecture's way:
 *                "finish the kernel and start another", here the host)
 *   GSP_BARRIER  the same kernel finishes on the device: a grid barrier (gridsync's
 *                flip) that every group arrives at and none waits for; the group whose
 *                arrival completed it (gs_arrive_last_flip) sums the partials
 *   GSP_TICKET   no barrier: each group takes a ticket from a counter after writing its
 *                partial; the last group to arrive sums them (waits for no one)
 *   GSP_CUB      CUDA: the partials summed by cub::DeviceReduce::Sum
 *
 * Time is the host's, from the launch to pi on the host, so every way pays its own
 * finish. */
#ifndef GSP_PI_H
#define GSP_PI_H

#include <stdint.h>

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gsp_way { GSP_HOST, GSP_BARRIER, GSP_TICKET, GSP_CUB, GSP_WAYS } gsp_way;

const char *gsp_way_name(gsp_way way); /* "host", "barrier", "ticket", "cub" */
int gsp_way_supported(gs_device *dev, gsp_way way);

typedef struct gsp_config {
    uint64_t steps; /* >= 1 */
    gsp_way way;
    unsigned groups, group_size; /* group_size a power of two (the reduction's tree) */
    unsigned timeout_ms;         /* the barrier way's wait bound; 0: the library's default */
} gsp_config;

typedef struct gsp_result {
    double pi;
    double ms;        /* the median of the timed runs, launch to pi on the host */
    double paired_ms; /* gsp_run_ways: the median over the rounds of this way's time minus
                         the first configuration's in the same round (0 for the first) */
    gs_status status; /* this way's (gsp_run_ways) */
    char error[160];
} gsp_result;

/* The most groups of `group_size` that run at once (the barrier way needs all of them
 * resident; the others use the same grid so that they compare). */
gs_status gsp_max_groups(gs_device *dev, unsigned group_size, unsigned *out);
gs_status gsp_run(gs_device *dev, const gsp_config *cfg, gsp_result *out);
/* Several ways (or sizes) measured together: each warmed up, then timed in rounds, each
 * round running every way still without a failure once, in an order of its own (a
 * seeded shuffle), so that the device's drift over the run weighs on all alike. out[i] is cfgs[i]'s, its status in out[i].status; the
 * return is the first failure's status, else GS_OK. Every config is checked before any
 * runs: one that cannot (GS_ERR_INVALID_ARGUMENT, GS_ERR_UNSUPPORTED) refuses the call,
 * and that status is every out[i].status. */
gs_status gsp_run_ways(gs_device *dev, const gsp_config *cfgs, unsigned n, gsp_result *out);

#ifdef __cplusplus
}
#endif

#endif
