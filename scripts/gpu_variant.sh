#!/usr/bin/env bash
# scripts/gpu_variant.sh - the CLI built again with extra CUDA defines, so that a
# compile-time choice (GS_PASS_LOADS, GS_NO_DEADLINE, ...) can be measured beside the
# library's own build in one run on one machine.
#
#     scripts/gpu_variant.sh NAME "-DGS_X=1 ..." bench groups --backend cuda ...
#
# builds build-variant-NAME (Release, sm_90 unless GS_CUDA_ARCH says otherwise, no
# OpenCL, no tests; kept, so a second call only rebuilds what changed) and runs its
# gridsync with the remaining arguments. GS_VARIANT_SRC=dir builds another source tree
# (say, an older commit's `git archive`) in place of this one.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 NAME CUDA_FLAGS gridsync-arguments..." >&2; exit 2; }
name=$1 flags=$2
shift 2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B="$ROOT/build-variant-$name"
cmake -S "${GS_VARIANT_SRC:-$ROOT}" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES="${GS_CUDA_ARCH:-90}" -DGRIDSYNC_OPENCL=OFF -DBUILD_TESTING=OFF \
    -DCMAKE_CUDA_FLAGS="$flags" >/dev/null
cmake --build "$B" --target gridsync_cli >/dev/null
exec "$B/tools/gridsync/gridsync" "$@"
