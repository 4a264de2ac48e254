/* src/opencl/platforms.c - which OpenCL platforms gridsync sees, where the user says:
 *
 * GRIDSYNC_OPENCL_ICD=LIB[:LIB...]  the ICD libraries to load instead of the loader's
 *     vendors directory (/etc/OpenCL/vendors). NVIDIA's driver without its .icd file
 *     (a container that mounts the driver's libraries but not /etc/OpenCL) is reachable
 *     this way: GRIDSYNC_OPENCL_ICD=libnvidia-opencl.so.1. Both ICD loaders (ocl-icd,
 *     Debian's; Khronos', CUDA's) read a vendors directory named by OCL_ICD_VENDORS, once,
 *     at the process's first OpenCL call: gridsync writes one .icd file per library into
 *     a private directory, points OCL_ICD_VENDORS there, makes that first call, and
 *     removes the directory. (ocl-icd also takes a library path in OCL_ICD_VENDORS, the
 *     Khronos loader only a directory; OCL_ICD_FILENAMES is the Khronos loader's alone.)
 *     A program that made an OpenCL call before gridsync's first has its loader set up
 *     already: the variable changes nothing there.
 *
 * GRIDSYNC_OPENCL_PLATFORM=TEXT  only the platforms whose name or vendor contains TEXT
 *     (any case): `NVIDIA` makes a run on NVIDIA's OpenCL fail to find a device rather
 *     than go on with PoCL when NVIDIA's platform is not there. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, setenv */
#include "opencl_internal.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/knobs.h"

#define GS_CL_MAX_ICDS 16
#define GS_CL_DIR_MAX 1024 /* the private directory's path */
#define GS_CL_FILE_MAX (GS_CL_DIR_MAX + 32)

static pthread_once_t icd_once = PTHREAD_ONCE_INIT;

/* Writes dir/gridsync-N.icd for each library of `libs`; how many were written. */
static int write_icds(const char *dir, const char *libs, char files[][GS_CL_FILE_MAX])
{
    int n = 0;
    for (const char *p = libs; *p && n < GS_CL_MAX_ICDS;) {
        size_t len = strcspn(p, ":");
        if (len > 0 && len < 4000) {
            FILE *f;
            snprintf(files[n], GS_CL_FILE_MAX, "%s/gridsync-%d.icd", dir, n);
            if ((f = fopen(files[n], "w")) != NULL) {
                fprintf(f, "%.*s\n", (int)len, p);
                if (fclose(f) == 0)
                    ++n;
                else
                    remove(files[n]);
            }
        }
        p += len;
        if (*p == ':')
            ++p;
    }
    return n;
}

static void load_icds(void)
{
    static char files[GS_CL_MAX_ICDS][GS_CL_FILE_MAX];
    const char *libs = gs_knob_text(GS_KNOB_OPENCL_ICD);
    const char *tmp = getenv("TMPDIR");
    char dir[GS_CL_DIR_MAX];
    cl_uint count = 0;
    if (libs == NULL)
        return;
    int len = snprintf(dir, sizeof dir, "%s/gridsync-icd.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (len < 0 || (size_t)len >= sizeof dir || mkdtemp(dir) == NULL)
        return; /* the loader's own vendors directory, then */
    int n = write_icds(dir, libs, files);
    setenv("OCL_ICD_VENDORS", dir, 1);
    clGetPlatformIDs(0, NULL, &count); /* the loader reads the directory now, once */
    for (int i = 0; i < n; ++i)
        remove(files[i]);
    rmdir(dir);
}

void gs_cl_load_icds(void) { pthread_once(&icd_once, load_icds); }

/* Whether `text` contains `want`, ignoring case. */
static int contains(const char *text, const char *want)
{
    size_t n = strlen(want);
    for (; *text; ++text) {
        size_t i = 0;
        while (i < n && text[i] &&
               tolower((unsigned char)text[i]) == tolower((unsigned char)want[i]))
            ++i;
        if (i == n)
            return 1;
    }
    return n == 0;
}

int gs_cl_platform_wanted(cl_platform_id p)
{
    const char *want = gs_knob_text(GS_KNOB_OPENCL_PLATFORM);
    char text[256];
    if (want == NULL)
        return 1;
    static const cl_platform_info what[] = {CL_PLATFORM_NAME, CL_PLATFORM_VENDOR};
    for (unsigned i = 0; i < 2; ++i)
        if (clGetPlatformInfo(p, what[i], sizeof text, text, NULL) == CL_SUCCESS &&
            (text[sizeof text - 1] = '\0', contains(text, want)))
            return 1;
    return 0;
}
