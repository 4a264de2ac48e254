/* gridsync/cpu.h - include this in code that runs on gridsync's cpu back end. */
#ifndef GRIDSYNC_CPU_H
#define GRIDSYNC_CPU_H
#include "gridsync/prims_cpu.h"
#include "gridsync/barrier.h"
#include "gridsync/local.h"
#include "gridsync/multi.h"
#endif
