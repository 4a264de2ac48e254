#!/bin/bash
# bench/micro/bounds_ab.sh BUILD [PASSES]: bench/micro/jacobi_order.cu built at the app's
# launch bound (-DGSJ_CUDA_BLOCKS_PER_SM=8: 32 registers a thread) and at 2 blocks per SM
# (128), run alternately PASSES times (default 2), JO_* choosing sizes, grids, rounds and
# variants; with SASS_DIR set, the SASS of cg's, flip's and hand-flip's kernels at the
# app's bound goes there, and for every kernel its sweep loop's fixed stall cycles and
# whether a convergence barrier wraps it (sweep_loop.awk, sweep_loop.txt). Whether the library's kernel loses to grid.sync()'s because its
# barrier leaves the sweep fewer registers (bench/results/h200/twelfth/regcap.txt: no).
set -euo pipefail
BUILD=$1 PASSES=${2:-2}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
for bps in 8 2; do
    bash "$ROOT/bench/micro/build_jacobi_order.sh" "$BUILD" "$WORK/jo$bps" "$ROOT/include" \
        -DGSJ_CUDA_BLOCKS_PER_SM=$bps
done
if [ -n "${SASS_DIR:-}" ]; then
    cuobjdump -sass "$WORK/jo8" >"$WORK/all.sass"
    for k in cg:_Z14gsj_persistentI6gsj_cgEvPjPfS2_jj flip:_Z14gsj_persistentI8gsj_flipEvPjPfS2_jj \
        hand_flip:_Z14gsj_persistentI9hand_flipILi0ELi0ELi0ELi0ELi0EEEvPjPfS3_jj; do
        awk -v k="${k#*:}" '$0 ~ "Function : " k "$" { p = 1; print; next } /Function : / { p = 0 } p' \
            "$WORK/all.sass" >"$SASS_DIR/sass_${k%%:*}.txt"
    done
    # every kernel's sweep loop: its stall cycles, and whether a convergence barrier wraps it
    awk -f "$ROOT/bench/micro/sweep_loop.awk" "$WORK/all.sass" | tee "$SASS_DIR/sweep_loop.txt"
fi
for ((p = 1; p <= PASSES; ++p)); do
    for bps in 8 2; do
        echo "== bounds $bps pass $p"
        "$WORK/jo$bps" | cut -d, -f1,3,4,5,8,10
    done
done
