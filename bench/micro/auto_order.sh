#!/bin/bash
# bench/micro/auto_order.sh: why `auto` ran 1.4-4.2% slower than flip (the same kernel, the
# same protocol) at 132 blocks in whole-table runs of `bench jacobi` and level with it in
# runs of cg, auto and flip alone. The app at 512^2 x 20000 and 1024^2 x 5000 (sync form,
# 132 and 264 blocks) with every method, and with subsets of them, in a build whose
# placement prints each probe's time and the line it chose (GS_PLACE_TRACE); then
# `bench pi` at 10^9 and 10^10 steps a few times (the barrier way's lag behind the host
# way at 10^10). Run from the repository root on the GPU machine; CSVs and logs under
# $OUT/auto_order.
set -u

D="$OUT/auto_order"
mkdir -p "$D"
CLI=$(bash bench/micro/build_trace.sh "$D") || exit 1
summary() {
    python3 - "$1" <<'PY'
import csv, sys
seen = {}
for r in csv.DictReader(open(sys.argv[1])):
    k = (r["n"], r["groups"], r["algo"])
    if r["form"] in ("sync", "") and k not in seen and r["total_ms"]:
        seen[k] = float(r["total_ms"])
for n in ("512", "1024"):
    print(n, " ".join("%s:%s" % (g, "/".join("%.2f" % seen.get((n, g, a), 0) for a in ("cg", "auto", "flip")))
                      for g in ("132", "264")))
PY
}
run() { # name, then the algos (empty: every method)
    local name=$1 algos=$2
    timeout 150 "$CLI" bench jacobi --backend cuda --form sync ${algos:+--algo $algos} --groups 132,264 \
        --sizes 512:20000,1024:5000 --repeats 5 --csv "$D/$name.csv" >/dev/null 2>"$D/$name.log"
    echo "== $name (${algos:-every method}) rc=$? cg/auto/flip ms"
    summary "$D/$name.csv"
    grep "chose" "$D/$name.log" | tr '\n' ';'
    echo
}
run whole1 ""
run three1 cg,auto,flip
run relaunches relaunch,relaunch-graph,cg,auto,flip
run graph relaunch-graph,cg,auto,flip
run whole2 ""
run three2 cg,auto,flip
for r in 1 2 3 4 5; do
    timeout 60 "$CLI" bench pi --backend cuda --steps 1000000000,10000000000 --csv "$D/pi_$r.csv" >/dev/null 2>&1
    echo "== pi $r rc=$?"
done
python3 - "$D" <<'PY'
import csv, glob, sys
for f in sorted(glob.glob(sys.argv[1] + "/pi_*.csv")):
    ms = {}
    for r in csv.DictReader(open(f)):
        ms[(r["steps"], r["way"])] = float(r["ms"])
    print(f.split("/")[-1], " ".join("%s: b-a %+.1f us, c-a %+.1f us, b-c %+.1f us" % (
        s, (ms[(s, "barrier")] - ms[(s, "host")]) * 1e3, (ms[(s, "ticket")] - ms[(s, "host")]) * 1e3,
        (ms[(s, "barrier")] - ms[(s, "ticket")]) * 1e3) for s in ("1000000000", "10000000000")))
PY
tar -czf "$OUT/auto_order.tar.gz" -C "$OUT" auto_order && rm -rf "$D"
