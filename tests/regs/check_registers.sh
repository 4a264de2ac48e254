#!/bin/sh
# tests/regs/check_registers.sh NVCC INCLUDE_DIR SOURCE - the register test: compiles the
# reference user kernels of SOURCE (user_kernels.cu) with `nvcc -Xptxas -v` for sm_90 and
# compares each gridsync kernel with the same kernel written with grid.sync() (the
# `_vendor` one of its shape: for the split shape, the Jacobi app's tiles with gs_arrive /
# gs_wait_token around the inner cells, the same tiles with grid.sync() after them). No
# GPU is needed. Fails when a gridsync kernel spills,
# uses more registers than the vendor's kernel of its shape, or (the message-passing
# shape, whose vendor kernel needs fewer registers than the launch bounds allow) more
# than the full-occupancy budget of its launch bounds (32: 2048 threads per SM), which
# would cost residency. Exits 77 without nvcc. Further arguments go to nvcc (the test's
# control builds the grid into registers, -DGS_GRID_IN_SHARED=0, and expects a failure).
set -u
NVCC=${1:-nvcc}
INC=$2
SRC=$3
shift 3
command -v "$NVCC" >/dev/null 2>&1 || [ -x "$NVCC" ] || { echo "no nvcc: skipped"; exit 77; }
OUT=$(mktemp)
trap 'rm -f "$OUT" "$OUT.cubin"' EXIT
"$NVCC" -arch=sm_90 -O3 -I"$INC" "$@" -cubin -Xptxas -v "$SRC" -o "$OUT.cubin" >"$OUT" 2>&1 || {
    cat "$OUT"
    exit 1
}
awk '
/Compiling entry function/ { match($0, /\047[^\047]+\047/); fn = substr($0, RSTART + 1, RLENGTH - 2); next }
/Function properties for/ { n = split($0, w, " "); props = w[n]; next }
/spill stores/ {
    ss = 0; sl = 0
    for (i = 1; i < NF; i++) {
        if ($(i + 1) == "bytes" && $(i + 2) == "spill" && $(i + 3) == "stores,") ss = $i
        if ($(i + 1) == "bytes" && $(i + 2) == "spill" && $(i + 3) == "loads") sl = $i
    }
    spill[props] = ss + sl; next
}
/Used [0-9]+ registers/ { match($0, /Used [0-9]+/); regs[fn] = substr($0, RSTART + 5, RLENGTH - 5) + 0; order[++k] = fn }
END {
    fail = 0
    for (j = 1; j <= k; j++) {
        fn = order[j]; shape = fn; sub(/_.*/, "", shape); vendor = shape "_vendor"
        if (fn == vendor) continue
        if (!(vendor in regs)) { print "FAIL " fn ": no " vendor; fail = 1; continue }
        budget = regs[vendor] < 32 ? 32 : regs[vendor]
        limit = shape ~ /^mp/ ? budget : regs[vendor]
        bad = spill[fn] > 0 || regs[fn] > limit
        printf "%-4s %-22s %2d registers (grid.sync(): %2d), %3d bytes spilled\n", bad ? "FAIL" : "ok", fn, regs[fn], regs[vendor], spill[fn]
        fail = fail || bad; n++
    }
    if (n == 0) { print "FAIL: no gridsync kernel found"; fail = 1 }
    exit fail
}' "$OUT"
rc=$?

# Where a disassembler is at hand (beside nvcc, or GS_CUOBJDUMP; the GPU machine has
# one, Debian's CI machine not): which gridsync kernels broadcast an atomic's result
# across a warp (SHFL), i.e. where ptxas aggregated a representative's arrival over the
# warp because it could not tell that one lane runs it. Reported, not failed: it once
# cost flip 1212 against 969 ns per barrier at 132 x 256 on an H100, when the note and
# first poll waited for the shuffle; since the representative's test is a kept
# predicate (prims_cuda.cuh), flip and tree aggregate in these kernels, and the form
# that prevents it (a volatile laneid read at each use) measured no faster as a bare
# barrier (bench groups, H200: within 0.5% at 132 to 1056 x 256) and 1-6% slower in the
# Jacobi app's kernels at 528 blocks (bench/results/h200/jacobi_first_forms.csv).
# cg and cluster are built on cooperative groups, whose grid.sync() has its own.
CUOBJDUMP=${GS_CUOBJDUMP:-$(dirname "$(command -v "$NVCC" 2>/dev/null || echo "$NVCC")")/cuobjdump}
[ -x "$CUOBJDUMP" ] || CUOBJDUMP=$(command -v cuobjdump 2>/dev/null || true)
if [ -n "$CUOBJDUMP" ] && [ -x "$CUOBJDUMP" ]; then
    "$CUOBJDUMP" -sass "$OUT.cubin" | awk '
    /Function :/ { fn = $3; if (fn !~ /_(vendor|cg|cluster)$/) seen[fn] = 1; next }
    /SHFL/ { shfl[fn]++ }
    END {
        n = 0
        for (fn in seen) if (shfl[fn] > 0) { printf "note %-22s %d warp shuffles: an arrival aggregated over the warp\n", fn, shfl[fn]; n++ }
        if (!n) print "ok   no arrival aggregated over a warp (SASS of every gridsync kernel)"
    }'
else
    echo "no cuobjdump: the SASS check skipped"
fi
exit $rc
