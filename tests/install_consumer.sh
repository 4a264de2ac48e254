#!/bin/sh
# install_consumer.sh SOURCE BUILD WORK: installs the build into WORK/prefix, then builds
# the examples against it through find_package(gridsync) and through pkg-config, each
# against the shared and the static libraries, and runs them (an example exits 77
# where its device is missing). Fails when an example fails, when the cpu example links
# a CUDA, OpenCL or C++ runtime, or when a shared library exports a symbol that no
# installed header declares with GS_API.
set -eu
src=$1 build=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(dirname "$(find "$prefix" -name gridsync.pc | head -1)")/..
cmdir=$(dirname "$(find "$prefix" -name gridsyncConfig.cmake | head -1)")
has() { [ -f "$cmdir/gridsync_$1_targets.cmake" ]; }
nvcc=$(sed -n 's/^CMAKE_CUDA_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
cudart=$(sed -n 's/^CUDA_cudart_LIBRARY:[A-Z]*=//p' "$build/CMakeCache.txt")
export LD_LIBRARY_PATH="$libdir${cudart:+:$(dirname "$cudart")}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# run PROGRAM: passes when it succeeds or finds no device (77).
run() {
    rc=0
    "$@" || rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 77 ] || { echo "$* exited $rc" >&2; exit 1; }
}
# cpu_only PROGRAM: the cpu example must not load a GPU vendor's runtime.
cpu_only() {
    if readelf -d "$1" | grep -E 'NEEDED.*(cudart|libcuda|OpenCL|stdc\+\+)'; then
        echo "$1 links a GPU runtime" >&2
        exit 1
    fi
}

# ---- find_package(gridsync) ----
for link in shared static; do
    opts="-DCMAKE_PREFIX_PATH=$prefix"
    [ $link = static ] && opts="$opts -DCONSUMER_STATIC=ON"
    has opencl && opts="$opts -DCONSUMER_OPENCL=ON"
    has cuda && [ -n "$nvcc" ] && opts="$opts -DCONSUMER_CUDA=ON -DCMAKE_CUDA_COMPILER=$nvcc"
    out=$work/cmake_$link
    cmake -S "$src/tests/consumer" -B "$out" $opts >/dev/null
    cmake --build "$out" >/dev/null
    cpu_only "$out/cpu_hello"
    run "$out/cpu_hello"
    [ ! -x "$out/opencl_ring" ] || run "$out/opencl_ring"
    [ ! -x "$out/cuda_ring" ] || run "$out/cuda_ring"
done
readelf -d "$work/cmake_shared/cpu_hello" | grep -q 'NEEDED.*libgridsync\.so\.[0-9]'

# ---- pkg-config, as the README says; static: the archive in place of -l ----
export PKG_CONFIG_PATH="$libdir/pkgconfig"
archive() { sed "s|-l\(gridsync[-a-z]*\)|$libdir/lib\1.a|"; }
flags() { # flags PACKAGE shared|static
    if [ "$2" = shared ]; then pkg-config --cflags --libs "$1"; else
        echo "$(pkg-config --cflags "$1") $(pkg-config --static --libs "$1" | archive)"; fi
}
for link in shared static; do
    cc -std=c11 "$src/examples/cpu_hello.c" $(flags gridsync $link) -o "$work/pc_cpu_$link"
    cpu_only "$work/pc_cpu_$link"
    run "$work/pc_cpu_$link"
    if has opencl; then
        cc -std=c11 "$src/examples/opencl_ring.c" $(flags gridsync-opencl $link) -o "$work/pc_opencl_$link"
        run "$work/pc_opencl_$link"
    fi
    if has cuda && [ -n "$nvcc" ]; then
        "$nvcc" -arch=sm_90 --cudart shared "$src/examples/cuda_ring.cu" $(flags gridsync-cuda $link) \
            -o "$work/pc_cuda_$link"
        run "$work/pc_cuda_$link"
    fi
done

# ---- the shared libraries export the API alone ----
for lib in "$libdir"/libgridsync*.so; do
    nm -D --defined-only "$lib" | awk '$2 ~ /^[A-Z]$/ {print $3}' | sort > "$work/exports"
    while read -r sym; do
        if ! grep -rqE "GS_API .*\\b$sym\\b" "$prefix/include"; then
            echo "$lib exports $sym, which no header declares with GS_API" >&2
            exit 1
        fi
    done < "$work/exports"
    echo "$(basename "$lib"): $(wc -l < "$work/exports") exported symbols"
done
