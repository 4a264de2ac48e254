/* apps/testsync/testsync.h - test_sync and test_nosync of the blog "Global
 * synchronisation in OpenCL" (seed 004), written as a gridsync user writes them, against
 * the public headers only. Each work-item adds its id to a counter (the atomics finish
 * at different times), writes its group's number to tmp[id], then (test_sync: after a
 * grid barrier, gridsync's auto protocol; test_nosync: at once) reads the mirrored
 * element: out[id] = tmp[N - 1 - id]. With the barrier every element of group g is
 * groups - 1 - g; without it, the groups that have not yet written show up as stale
 * values (-1 here, the value tmp starts with). */
#ifndef GST_TESTSYNC_H
#define GST_TESTSYNC_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gst_config {
    unsigned groups, group_size;
    int sync;            /* 1: test_sync, 0: test_nosync */
    unsigned timeout_ms; /* 0: the library's default */
} gst_config;

/* Runs one kernel; out receives groups * group_size ints, group by group; *wrong the
 * elements that differ from groups - 1 - their group. error: what failed, if a call did. */
gs_status gst_run(gs_device *dev, const gst_config *cfg, int *out, unsigned long *wrong,
                  char error[160]);

#ifdef __cplusplus
}
#endif

#endif
