/* The run-time half of the version check (gridsync.h). */
#include "gridsync.h"

unsigned gs_version(void) { return GRIDSYNC_VERSION; }
