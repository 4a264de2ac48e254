#!/bin/sh
# tests/thesis_loop.sh NVCC ROOT - the thesis's computation is really computed: compiles
# tests/thesis_loop.cu to PTX for sm_90 (no GPU needed) and requires that the built-in
# kernels' form of it (gs_compute, GS_COMPUTE_AVERAGE: kernel thesis_ours) keeps a loop
# (a backward branch) whose body halves (shr.u32), and that Figure 4-3 as printed (kernel
# thesis_printed, loop-invariant) has no loop left: the control, which shows the check
# tells the two apart, and why gridsync chains the averages. Exits 77 without nvcc.
set -u
NVCC=${1:-nvcc}
ROOT=$2
command -v "$NVCC" >/dev/null 2>&1 || [ -x "$NVCC" ] || { echo "no nvcc: skipped"; exit 77; }
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
"$NVCC" -arch=sm_90 -O3 -ptx -I"$ROOT/include" -I"$ROOT/src" "$ROOT/tests/thesis_loop.cu" -o "$OUT" || exit 1
# loops FUNCTION: how many backward branches of FUNCTION jump over a shr.u32 (a label
# seen before the branch, with a halving between them).
loops() {
    awk -v fn="$1" '
    /\.entry/ { inside = index($0, fn) > 0; split("", at); n = 0; next }
    !inside { next }
    /^\$L__/ { sub(/:.*/, ""); at[$1] = n; next }
    /shr\.u32/ { ++n; next }
    /bra/ { t = $NF; sub(/;$/, "", t); if ((t in at) && n > at[t]) ++loops }
    END { print loops + 0 }' "$OUT"
}
ours=$(loops thesis_ours)
printed=$(loops thesis_printed)
echo "thesis_ours: $ours loop(s) that halve; thesis_printed (Figure 4-3 as printed): $printed"
[ "$ours" -ge 1 ] || { echo "FAIL: gs_compute's thesis loop was optimised away"; grep -v '^\s*//' "$OUT"; exit 1; }
[ "$printed" -eq 0 ] || { echo "FAIL: the control kept its loop: the check cannot tell"; exit 1; }
echo "thesis_loop: ok"
