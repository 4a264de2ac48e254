#!/usr/bin/env bash
# Installs what gridsync builds and tests with on Debian 12 (as root, or through sudo).
# nvcc is not a Debian package here: where /usr/local/cuda exists the CUDA back end is
# built too, and its tests skip without a GPU.
set -euo pipefail
packages=(cmake make gcc pkg-config libcmocka-dev ocl-icd-opencl-dev opencl-c-headers
          pocl-opencl-icd clinfo spin gnuplot-nox clang-format)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
