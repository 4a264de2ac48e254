#!/bin/bash
# bench/micro/build_jacobi_order.sh BUILD OUT [INCLUDE [NVCC_ARGS...]]: builds
# bench/micro/jacobi_order.cu into OUT against INCLUDE (default: this tree's include/) and
# BUILD's libraries; further arguments go to nvcc (e.g. -DGSJ_CUDA_BLOCKS_PER_SM=2). The one
# build line of scripts/gpu.sh's jacobi_order stage, ab_headers.sh and bounds_ab.sh.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$1 OUT=$2 INC=${3:-$ROOT/include}
shift $(($# < 3 ? $# : 3))
"${NVCC:-nvcc}" -arch=sm_90 -O3 -std=c++17 --fmad=false "$@" -I"$INC" -I"$ROOT/apps/jacobi" \
    "$ROOT/bench/micro/jacobi_order.cu" "$ROOT/apps/jacobi/reference.c" "$ROOT/apps/jacobi/tiles.c" \
    "$BUILD/src/libgridsync-cuda.a" "$BUILD/src/libgridsync.a" -lcuda -o "$OUT"
