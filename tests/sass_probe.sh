#!/bin/sh
# tests/sass_probe.sh NVCC ROOT - bench/micro/probe.cu, the kernels scripts/gpu.sh
# disassembles for the barriers' SASS, still compiles against the public headers and
# holds one kernel per protocol of gridsync/protocols.h that a CUDA kernel can name
# (no GPU needed; it had not compiled since gs_grid lost its episode field, and the
# sass stage then read the built-in kernels alone). Exits 77 without nvcc.
set -u
NVCC=${1:-nvcc}
ROOT=$2
command -v "$NVCC" >/dev/null 2>&1 || [ -x "$NVCC" ] || { echo "no nvcc: skipped"; exit 77; }
OUT=$(mktemp)
trap 'rm -f "$OUT" "$OUT.log"' EXIT
"$NVCC" -arch=sm_90 -O3 -cubin -I"$ROOT/include" "$ROOT/bench/micro/probe.cu" -o "$OUT" \
    -Xptxas -v >"$OUT.log" 2>&1 || { cat "$OUT.log"; exit 1; }
want=$(sed -n 's/^ *X(\([A-Z_]*\), *\([a-z_]*\), .*/\2/p' "$ROOT/include/gridsync/protocols.h" |
    grep -v -x -e relaunch -e relaunch_graph)
rc=0
for p in $want dispatch split_flip; do
    if grep -q "entry function 'gs_probe_$p'" "$OUT.log"; then
        echo "gs_probe_$p: compiled"
    else
        echo "FAIL: no kernel gs_probe_$p"
        rc=1
    fi
done
exit $rc
