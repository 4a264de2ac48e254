#!/usr/bin/env bash
# The main job: set up, build, and run `gridsync bench groups` on the best device
# present (CUDA GPU, else an OpenCL GPU, else PoCL's CPU device). Extra arguments go
# to gridsync, e.g. --quick or --csv groups.csv.
#
# It builds only the CLI, in build-main/ (scripts/test.sh builds everything in build/),
# and the CUDA back end only where a GPU is present: nvcc's kernels take minutes on a
# 2-core machine, and without a GPU the main job never runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-debian.sh
cuda=OFF
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  cuda=ON
  command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
fi
cmake -S . -B build-main -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGRIDSYNC_CUDA=$cuda -DBUILD_TESTING=OFF \
  -DGRIDSYNC_TSAN_TESTS=OFF -DGRIDSYNC_WEAK_TESTS=OFF >/dev/null
cmake --build build-main -j"$(nproc)" --target gridsync_cli >/dev/null
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/build-main/pocl-cache}
./build-main/tools/gridsync/gridsync info
./build-main/tools/gridsync/gridsync bench groups "$@"
