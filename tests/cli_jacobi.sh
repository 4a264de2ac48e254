#!/bin/sh
# cli_jacobi.sh GRIDSYNC BACKEND DIR: `gridsync bench jacobi` with its defaults on a
# host device: every method at every grid in every form (sync, split, resident; local and
# halo for auto alone) checked against the reference and timed, a best row per method and form,
# the summary; --form split alone; a bad --form refused, naming the option and the
# value. (Bad sizes: cli_usage.sh.)
set -u
cli=$1 backend=$2 dir=$3
mkdir -p "$dir"
"$cli" bench jacobi --backend "$backend" --repeats 3 --csv "$dir/jacobi.csv" \
    --json "$dir/jacobi.json" >"$dir/jacobi.txt" || exit 1
cat "$dir/jacobi.txt"
rows=$(grep -c '^jacobi,' "$dir/jacobi.csv")
best=$(grep -c '^best,' "$dir/jacobi.csv")
passed=$(grep -c ',pass$' "$dir/jacobi.csv")
# the algo column, counted after the quoted device and platform are taken out; the form
# column is the one before paired_cg (empty for relaunch, which has none), and paired_cg
# the one before check (empty without cg, and in best rows)
methods=$(grep '^best,' "$dir/jacobi.csv" | sed 's/"[^"]*"//g' | cut -d, -f5 | sort -u | wc -l)
formless=$(grep -c '^best,.*,,[0-9.]*,pass$' "$dir/jacobi.csv")
sync=$(grep -c '^best,.*,sync,[0-9.]*,pass$' "$dir/jacobi.csv")
split=$(grep -c '^best,.*,split,[0-9.]*,pass$' "$dir/jacobi.csv")
resident=$(grep -c '^best,.*,resident,[0-9.]*,pass$' "$dir/jacobi.csv")
local=$(grep -c '^best,.*,auto,.*,local,[0-9.]*,pass$' "$dir/jacobi.csv")
halo=$(grep -c '^best,.*,auto,.*,halo,[0-9.]*,pass$' "$dir/jacobi.csv")
echo "rows=$rows best=$best methods=$methods formless=$formless sync=$sync split=$split" \
    "resident=$resident local=$local halo=$halo passed=$passed"
[ "$methods" -ge 8 ] && [ "$split" -ge 7 ] && [ "$sync" -eq "$split" ] &&
    [ "$resident" -eq "$split" ] && [ "$local" -eq 1 ] && [ "$halo" -eq 1 ] &&
    [ "$((sync + formless))" -eq "$methods" ] &&
    [ "$best" -eq "$((sync + split + resident + local + halo + formless))" ] &&
    [ "$rows" -ge "$best" ] && [ "$passed" -eq $((rows + best)) ] || exit 1
grep -q 'ms/iter' "$dir/jacobi.txt" && grep -q '"n": 64' "$dir/jacobi.json" &&
    grep -q '"form": "split"' "$dir/jacobi.json" && grep -q '"form": "resident"' "$dir/jacobi.json" &&
    grep -q '"form": "local"' "$dir/jacobi.json" && grep -q '"form": "halo"' "$dir/jacobi.json" &&
    grep -q 'x_sync' "$dir/jacobi.txt" && grep -q ',form,paired_cg,check$' "$dir/jacobi.csv" &&
    grep -q 'x_cg_pair' "$dir/jacobi.txt" || exit 1

# One form: its rows and the relaunch baseline's, no other form's.
"$cli" bench jacobi --backend "$backend" --repeats 1 --sizes 20:5 --groups 2 --form split \
    --csv "$dir/split.csv" >"$dir/split.txt" || exit 1
grep -q ',sync,[0-9.]*,pass$' "$dir/split.csv" && exit 1
grep -q ',split,[0-9.]*,pass$' "$dir/split.csv" &&
    grep -q '^jacobi,.*,relaunch,.*,,[0-9.]*,pass$' "$dir/split.csv" || exit 1

# A bad or repeated form is refused before anything runs, naming --form and the value.
for bad in sync,bogus split,split "" sync, local,local halo,halo; do
    "$cli" bench jacobi --backend "$backend" --form "$bad" >"$dir/out" 2>"$dir/err"
    rc=$?
    if [ "$rc" -ne 2 ] || [ -s "$dir/out" ] ||
        ! grep -q -- "--form: bad value '$bad'" "$dir/err"; then
        echo "FAIL: --form '$bad' exited $rc" >&2
        cat "$dir/err" >&2
        exit 1
    fi
done
echo "ok: bad --form values refused"
