/* gridsync/api.h - GS_API marks what the shared libraries export. They are built with
 * hidden visibility, so a function without GS_API (the back ends' tables, the built-in
 * kernels, the helpers the library's files share) stays inside the library and no
 * program can come to depend on it. */
#ifndef GRIDSYNC_API_H
#define GRIDSYNC_API_H

#if defined(__GNUC__) || defined(__clang__)
#define GS_API __attribute__((visibility("default")))
#else
#define GS_API
#endif

#endif
