#!/usr/bin/env bash
# The test command: set up, build, run every CTest test (cuda tests skip without a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-debian.sh
bash scripts/build.sh
# Serial: the fault tests measure how fast a timeout is reported, and 2 cores shared
# with a ThreadSanitizer run would blur that.
ctest --test-dir build --output-on-failure --timeout 1500
