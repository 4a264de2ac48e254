#!/bin/bash
# bench/micro/app_sweep_loops.sh [CUOBJDUMP]: the sweep loops of apps/jacobi's own kernels
# (sync, split and resident forms) for grid.sync() and every gridsync protocol, as
# sweep_loop.awk reads them: instructions and the fixed stall cycles ptxas wrote into
# them. No GPU needed; cuobjdump is (on the GPU machine, or carried from it). The user's
# loop is the same PTX in every kernel; what ptxas makes of it depends on the rest of the
# kernel, the barrier included (docs/performance.md, eighteenth round). GS_INCLUDE: another
# include/ to build against (an experiment's headers).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CUOBJDUMP=${1:-cuobjdump}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
for p in cg flip tree auto central lockfree naive sharded cluster; do
    "${NVCC:-nvcc}" -cubin -arch=sm_90 -O3 --fmad=false -x cu -I"${GS_INCLUDE:-$ROOT/include}" -I"$ROOT/apps/jacobi" \
        -DGSJ_CUBIN=gsj_$p "$ROOT/apps/jacobi/jacobi_kernels.cuh" -o "$WORK/$p.cubin"
    "$CUOBJDUMP" -sass "$WORK/$p.cubin" | awk -f "$ROOT/bench/micro/sweep_loop.awk" |
        awk -v p=$p '$1 ~ /persistent|split|resident/ {
            form = $1 ~ /persistent/ ? "sync" : ($1 ~ /split/ ? "split" : "resident")
            printf "%-9s %-8s %s insts %s stall_cycles %s\n", p, form, $3, $5, $7 }'
done
