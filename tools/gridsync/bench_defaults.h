/* tools/gridsync/bench_defaults.h - sizes an experiment uses when none are given. */
#ifndef GRIDSYNC_BENCH_DEFAULTS_H
#define GRIDSYNC_BENCH_DEFAULTS_H

#include "cli.h"

unsigned bench_default_block(const gs_device_info *d);
unsigned bench_default_iters(const gs_device_info *d, const cli_options *o);
int bench_bound(gs_device *dev, unsigned block, unsigned *bound);
/* The group counts an app's experiment sweeps: on a GPU 1, 2, 4 ... `most` groups per SM
 * (with --quick only quick_a and quick_b per SM); cpu: 2 and 4 teams; an OpenCL CPU
 * device: 1, 2, 4 ... up to its compute units. Each method then caps them at its own
 * kernel's co-residency bound. */
unsigned bench_default_groups(const gs_device_info *d, const cli_options *o, unsigned most,
                              unsigned quick_a, unsigned quick_b, unsigned *out);

#endif
