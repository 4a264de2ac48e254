/* gs_libsync's loop compiled for flip alone (gs_sync_flip): no run-time dispatch. */
#define LIBSYNC_PROTOCOL flip
#define LIBSYNC_KERNEL k_sync_only_flip
#define LIBSYNC_ACCESSOR libsync_only_flip
#include "libsync_kernel.cuh"
