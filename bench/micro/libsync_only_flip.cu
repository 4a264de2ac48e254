/* gs_libsync's loop compiled for flip alone (GS_ONLY_ALGO): no run-time dispatch. */
#define GS_ONLY_ALGO GS_ALGO_ID_FLIP
#define LIBSYNC_KERNEL k_sync_only_flip
#define LIBSYNC_ACCESSOR libsync_only_flip
#include "libsync_kernel.cuh"
