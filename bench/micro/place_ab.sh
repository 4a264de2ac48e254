#!/bin/bash
# bench/micro/place_ab.sh: the app's Jacobi at 512^2 and 1024^2 (cg, flip, auto; sync form)
# with flip's state where it was allocated (GRIDSYNC_PLACE_LINES=0) and where the
# creation's probe put its counter (8, the default), alternately, twice; a line of ms
# (cg/flip/auto at 132, 264, 528, 1056 blocks) per run. Run from the repository root on
# the GPU machine after scripts/gpu.sh's build (build-gpu); CSVs under $OUT.
CLI=$(find build-gpu/tools -type f -name gridsync -perm -u+x | head -1)
for r in 1 2; do
    for pl in 0 8; do
        GRIDSYNC_PLACE_LINES=$pl timeout 120 "$CLI" bench jacobi --backend cuda --form sync --algo cg,flip,auto \
            --sizes 512:20000,1024:5000 --repeats 5 --csv "$OUT/place_${pl}_$r.csv" >/dev/null 2>&1
        echo "== GRIDSYNC_PLACE_LINES=$pl run $r rc=$?"
        python3 - "$OUT/place_${pl}_$r.csv" <<'PY'
import csv, sys
seen = {}
for r in csv.DictReader(open(sys.argv[1])):
    k = (r["n"], r["groups"], r["algo"])
    if r["form"] == "sync" and k not in seen:
        seen[k] = float(r["total_ms"])
for n in ("512", "1024"):
    print(n, " ".join("%s:%s" % (g, "/".join("%.2f" % seen.get((n, g, a), 0) for a in ("cg", "flip", "auto")))
                      for g in ("132", "264", "528", "1056")))
PY
    done
done
