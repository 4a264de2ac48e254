#!/usr/bin/env bash
# The main job: set up, build, and run `gridsync bench groups` on the best device
# present (CUDA GPU, else an OpenCL GPU, else PoCL's CPU device). Extra arguments go
# to gridsync, e.g. --quick or --csv groups.csv.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-debian.sh
bash scripts/build.sh >/dev/null
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/build/pocl-cache}
./build/tools/gridsync/gridsync info
./build/tools/gridsync/gridsync bench groups "$@"
