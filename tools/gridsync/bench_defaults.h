/* tools/gridsync/bench_defaults.h - sizes an experiment uses when none are given. */
#ifndef GRIDSYNC_BENCH_DEFAULTS_H
#define GRIDSYNC_BENCH_DEFAULTS_H

#include "cli.h"

unsigned bench_default_block(const gs_device_info *d);
unsigned bench_default_iters(const gs_device_info *d, const cli_options *o);
int bench_bound(gs_device *dev, unsigned block, unsigned *bound);

#endif
