#!/bin/bash
# bench/micro/ab_headers.sh OLD_INCLUDE BUILD OUT_CSV [PAIRS]: an A/B of gridsync's device
# headers in the user's Jacobi kernels. bench/micro/jacobi_order.cu is built twice, against
# OLD_INCLUDE (e.g. `git archive REV include | tar -x -C build-ab/old`) and against this
# tree's include/, both linked with BUILD's libraries, and the two binaries run one after
# the other PAIRS times (default 3), the first alternating, so that both see the same
# machine. Each run's rows go to OUT_CSV with a first column "headers" (old / new); the
# JO_* variables choose sizes, grids, rounds and variants (jacobi_order.cu). A ratio to
# cg is comparable between the two builds: cg's kernel does not include the headers'
# barrier code.
set -euo pipefail
OLD=$1 BUILD=$2 CSV=$3 PAIRS=${4:-3}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
for side in old new; do
    inc=$ROOT/include
    [ "$side" = old ] && inc=$OLD
    bash "$ROOT/bench/micro/build_jacobi_order.sh" "$BUILD" "$WORK/jo_$side" "$inc"
done
: >"$CSV"
for ((p = 0; p < PAIRS; ++p)); do
    order="old new"
    ((p % 2)) && order="new old"
    for side in $order; do
        "$WORK/jo_$side" >"$WORK/run.csv"
        [ -s "$CSV" ] || sed -n '1s/^/headers,/p' "$WORK/run.csv" >>"$CSV"
        sed -n "2,\$s/^/$side,/p" "$WORK/run.csv" >>"$CSV"
    done
done
# every run's ratio to cg, per size, grid, variant and side (mawk has no sort to take a
# median with: the runs are printed in order, the reader takes it)
awk -F, 'NR > 1 { k = sprintf("%5s %5s %-16s %s", $2, $4, $5, $1); v[k] = v[k] " " $9 }
    END { for (k in v) print k ":" v[k] }' "$CSV" | sort -k1,1n -k2,2n -k3,3 -k4,4
