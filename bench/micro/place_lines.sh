#!/bin/bash
# bench/micro/place_lines.sh: does the placement probe (src/cuda/place_cuda.c) find the line
# where flip runs the user's Jacobi fastest? The app (cg and flip, sync form, 512^2 x 20000
# and 1024^2 x 5000, 132 and 264 blocks) once with flip's state forced to each of the 8
# candidate lines (GS_PLACE_FORCE, an experiment's build with GS_PLACE_TRACE, which also
# prints every probe's cycles and the line it would have chosen); one process per line:
# a fresh process on an idle GPU gets the same allocations, which the probes' cycles show.
# Then bench/micro/pi_tail.cu. Run from the repository root on the GPU machine; CSVs and
# logs in $OUT/place_lines.tar.gz.
set -u
B=build-trace # build_trace.sh's
D="$OUT/place_lines"
mkdir -p "$D"
CLI=$(bash bench/micro/build_trace.sh "$D") || exit 1
for k in 0 1 2 3 4 5 6 7; do
    GS_PLACE_FORCE=$k timeout 120 "$CLI" bench jacobi --backend cuda --form sync --algo cg,flip --groups 132,264 \
        --sizes 512:20000,1024:5000 --repeats 5 --csv "$D/line$k.csv" >/dev/null 2>"$D/line$k.log"
    echo "== line $k rc=$?"
done
python3 - "$D" <<'PY'
import csv, re, sys
d = sys.argv[1]
print("size groups line: flip ms (x cg), probe cycles (min of passes); * the probe's choice")
for n in ("512", "1024"):
    for g in ("132", "264"):
        for k in range(8):
            ms = {}
            for r in csv.DictReader(open("%s/line%d.csv" % (d, k))):
                if r["n"] == n and r["groups"] == g and r["algo"] not in ms and r["total_ms"]:
                    ms[r["algo"]] = float(r["total_ms"])
            # the probes of this (size, grid)'s flip barrier: the order of creation is
            # 512/132, 512/264, 1024/132, 1024/264 (cg makes none)
            idx = ("512", "1024").index(n) * 2 + ("132", "264").index(g)
            blocks, cur = [], {}
            for line in open("%s/line%d.log" % (d, k)):
                m = re.match(r"gs_place: groups (\d+) pass (\d+) line (\d+) (\d+) cycles", line)
                if m:
                    l, c = int(m.group(3)), int(m.group(4))
                    cur[l] = min(cur.get(l, c), c)
                m = re.match(r"gs_place: groups \d+ chose line (\d+)", line)
                if m:
                    blocks.append(cur); cur = {}
            cyc = blocks[idx] if idx < len(blocks) else {}
            choice = min(cyc, key=cyc.get) if cyc else -1
            print("%s %s %d: %.2f (%.4f) %s%s" % (n, g, k, ms.get("flip", 0), ms.get("flip", 0) / ms.get("cg", 1),
                  " ".join("%d" % cyc[l] for l in sorted(cyc)), " *" if choice == k else ""))
PY
nvcc -arch=sm_90 -O3 -std=c++17 -Iinclude -Iapps/pi bench/micro/pi_tail.cu "$B/src/libgridsync-cuda.a" \
    "$B/src/libgridsync.a" -lcuda -o "$D/pi_tail" && timeout 60 "$D/pi_tail" | tee "$D/pi_tail.csv"
rm -f "$D/pi_tail"
tar -czf "$OUT/place_lines.tar.gz" -C "$OUT" place_lines && rm -rf "$D"
