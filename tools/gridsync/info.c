/* gridsync info: every device of every back end built in, with its co-residency
 * bound for common group sizes; a back end without a device says why. */
#include "cli.h"

static void show(gs_device *dev)
{
    static const unsigned sizes[] = {32, 64, 128, 256, 512, 1024};
    gs_device_info d;
    gs_device_get_info(dev, &d);
    printf("%s device: %s\n", gs_backend_name(d.backend), d.name);
    printf("  platform:       %s\n", d.platform);
    printf("  compute units:  %u%s\n", d.compute_units, d.is_gpu ? " (GPU)" : "");
    printf("  max group size: %u\n", d.max_group_size);
    if (d.backend == GS_BACKEND_OPENCL)
        printf("  ordering:       %s\n", d.ordering == 2 ? "C11 builtins, memory_scope_device"
                                         : d.ordering == 1
                                             ? "OpenCL 1.x atomics + device-scope fence"
                                             : "seeds' OpenCL 1.2 idiom (not guaranteed)");
    if (d.cc_major)
        printf("  compute cap.:   %u.%u, L2 %llu bytes, clock %u kHz, memory clock %u kHz\n",
               d.cc_major, d.cc_minor, (unsigned long long)d.l2_bytes, d.clock_khz,
               d.mem_clock_khz);
    printf("  co-resident groups by group size:");
    for (unsigned i = 0; i < sizeof sizes / sizeof *sizes; ++i) {
        unsigned bound;
        if (sizes[i] <= d.max_group_size && gs_device_max_groups(dev, sizes[i], &bound) == GS_OK)
            printf(" %u:%u", sizes[i], bound);
    }
    unsigned found;
    if (gs_device_discover_groups(dev, 64, &found) == GS_OK)
        printf("\n  discovered co-resident groups of 64 (occupancy discovery): %u", found);
    printf("\n  protocols:");
    for (unsigned a = 0; a < GS_ALGO_COUNT_; ++a)
        if (gs_algo_supported(dev, (gs_algo)a))
            printf(" %s", gs_algo_name((gs_algo)a));
    printf("\n");
}

int cmd_info(const cli_options *o)
{
    static const gs_backend all[] = {GS_BACKEND_CUDA, GS_BACKEND_OPENCL, GS_BACKEND_CPU};
    int found = 0;
    for (unsigned b = 0; b < sizeof all / sizeof *all; ++b) {
        if (o->backend != GS_BACKEND_AUTO && o->backend != all[b])
            continue;
        if (!gs_backend_built(all[b])) {
            printf("%s: not built into this library\n", gs_backend_name(all[b]));
            continue;
        }
        /* --device N: that index only, in each back end shown. */
        int only = (o->given & OPT_DEVICE) != 0;
        for (int i = only ? o->device : 0;; ++i) {
            gs_device *dev;
            gs_status s = gs_device_open(all[b], i, &dev);
            if (s != GS_OK) {
                if (i == 0 || only) {
                    printf("%s: no device %d (%s)\n", gs_backend_name(all[b]), i,
                           gs_status_string(s));
                    if (o->backend == all[b]) /* asked for by name: say how to reach one */
                        cli_hint_no_device(all[b], s);
                }
                break;
            }
            show(dev);
            gs_device_close(dev);
            found = 1;
            if (only)
                break;
        }
    }
    gs_device *dev;
    if (o->backend == GS_BACKEND_AUTO &&
        gs_device_open(GS_BACKEND_AUTO, o->device, &dev) == GS_OK) {
        gs_device_info d;
        gs_device_get_info(dev, &d);
        printf("auto picks: %s device %s\n", gs_backend_name(d.backend), d.name);
        gs_device_close(dev);
    }
    if (!found)
        fprintf(stderr, "gridsync: no device%s\n",
                o->given & OPT_DEVICE ? " of that index (--device)" : "");
    return found ? 0 : 2; /* as for every command: 2, no device */
}
