#!/bin/bash
# bench/micro/build_trace.sh DIR: the experiments' build (build-trace: Release, sm_90, no
# OpenCL, no tests) with GS_PLACE_TRACE, whose placement prints each probe's cycles and the
# line it chose and takes GS_PLACE_FORCE (src/cuda/place_cuda.c); logs in DIR, the CLI's path
# on stdout. Run from the repository root on the GPU machine; used by auto_order.sh and
# place_lines.sh.
set -u
D=$1
cmake -S . -B build-trace -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DGRIDSYNC_OPENCL=OFF -DBUILD_TESTING=OFF -DCMAKE_C_FLAGS=-DGS_PLACE_TRACE=1 >"$D/configure.log" 2>&1 &&
    cmake --build build-trace -j "$(nproc)" >"$D/build.log" 2>&1 || {
    tail -20 "$D/build.log" >&2
    exit 1
}
find build-trace/tools -type f -name gridsync -perm -u+x | head -1
