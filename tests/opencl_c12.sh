#!/bin/sh
# tests/opencl_c12.sh SRC - fails when a file of the OpenCL program gridsync builds (the
# shim, the protocols, local.h, discover.h, the built-in kernels: src/opencl/CMakeLists.txt
# embeds them) defines a variadic macro. OpenCL C 1.2 has none: NVIDIA's compiler refused
# the whole program at -cl-std=CL1.2 (the seeds' ordering, GRIDSYNC_CL_ORDERING=0) while
# grid.h had one, and PoCL, which takes them, could not tell.
set -u
cd "$1" || exit 1
files="include/gridsync/prims_opencl.clh include/gridsync/protocols.h include/gridsync/state.h
include/gridsync/grid.h include/gridsync/barrier.h include/gridsync/local_state.h
include/gridsync/local.h include/gridsync/discover.h src/kernels/work.h
src/kernels/workloads.h src/opencl/kernels.cl $(ls include/gridsync/barrier_*.h)"
found=$(grep -nE '#[[:space:]]*define[[:space:]]+[A-Za-z_][A-Za-z_0-9]*\([^)]*\.\.\.[[:space:]]*\)' $files)
if [ -n "$found" ]; then
    echo "variadic macros in the OpenCL program (OpenCL C 1.2 has none):"
    echo "$found"
    exit 1
fi
echo "ok: no variadic macro in $(echo $files | wc -w) files of the OpenCL program"
