#!/bin/sh
# cli_sor.sh GRIDSYNC BACKEND DIR: `gridsync bench sor` on a host device. First bad
# input: exit 2 before anything runs, with a message naming the option. Then the
# defaults (local, global with auto, relaunch) and --algo local,flip over two grids:
# every row checked bit for bit against the reference and timed, a best row per scheme,
# the summary with local's speed-ups, CSV and JSON.
set -u
cli=$1 backend=$2 dir=$3
mkdir -p "$dir"
failed=0

# refuse OPTION ARGS...: exit 2 and OPTION named on stderr.
refuse() {
    opt=$1; shift
    timeout 60 "$cli" bench sor --backend "$backend" "$@" >"$dir/out" 2>"$dir/err"
    got=$?
    if [ "$got" -ne 2 ] || ! grep -q -- "$opt" "$dir/err"; then
        echo "FAIL: gridsync bench sor $* exited $got without naming $opt" >&2
        sed 's/^/  stderr: /' "$dir/err" >&2
        failed=1
    else
        echo "ok: bench sor $* -> 2, names $opt"
    fi
}
for bad in 1 33 0 x ""; do refuse --tile --tile "$bad"; done
for bad in 64 2:5 40000:1 64:0 64:16777216 x:5; do refuse --sizes --sizes "$bad"; done
refuse --algo --algo nosuch
refuse --n --n 64 # not an option of bench sor
timeout 60 "$cli" bench groups --backend "$backend" --algo local >"$dir/out" 2>"$dir/err"
[ $? -eq 2 ] || { echo "FAIL: bench groups --algo local ran" >&2; failed=1; }

"$cli" bench sor --backend "$backend" --repeats 3 --csv "$dir/sor.csv" --json "$dir/sor.json" \
    >"$dir/sor.txt" || failed=1
cat "$dir/sor.txt"
rows=$(grep -c '^sor,' "$dir/sor.csv")
best=$(grep -c '^best,' "$dir/sor.csv")
passed=$(grep -c ',pass$' "$dir/sor.csv")
# the algo column, counted after the quoted device and platform are taken out
schemes=$(grep '^best,' "$dir/sor.csv" | sed 's/"[^"]*"//g' | cut -d, -f5 | sort -u | tr '\n' ' ')
echo "rows=$rows best=$best passed=$passed schemes=$schemes"
[ "$schemes" = "auto local relaunch " ] && [ "$best" -eq 3 ] && [ "$rows" -ge 3 ] &&
    [ "$passed" -eq $((rows + best)) ] || failed=1
grep -q "local's speed-up: *over global" "$dir/sor.txt" && grep -q '"algo": "local"' "$dir/sor.json" ||
    failed=1
# the schemes of a grid run in rounds: a paired_cg column before check (blank without cg,
# which runs on CUDA alone; there every row of a grid is paired, cg's own at 1)
grep -q ',compute,paired_cg,check$' "$dir/sor.csv" && grep -q 'x_cg_pair' "$dir/sor.txt" &&
    grep -q '"paired_cg": ' "$dir/sor.json" || { echo "FAIL: no paired_cg column" >&2; failed=1; }
if [ "$backend" = cuda ]; then
    [ "$(grep -c '^sor,.*,cg,.*,1\.0000,pass$' "$dir/sor.csv")" -ge 1 ] ||
        { echo "FAIL: cg not paired with itself" >&2; failed=1; }
else
    [ "$(grep -c '^sor,.*,,pass$' "$dir/sor.csv")" -eq "$rows" ] ||
        { echo "FAIL: a paired_cg without cg" >&2; failed=1; }
fi

"$cli" bench sor --backend "$backend" --algo local,flip --sizes 35:4,20:7 --tile 5 --groups 1,2 \
    --repeats 1 --csv "$dir/sor2.csv" >"$dir/sor2.txt" || failed=1
[ "$(grep -c '^sor,.*,pass$' "$dir/sor2.csv")" -eq 8 ] || { echo "FAIL: --algo local,flip" >&2; failed=1; }
exit $failed
