#!/bin/sh
# cli_stencil.sh GRIDSYNC BACKEND DIR: `gridsync bench stencil` with its defaults on a
# host device: every method at the blog's 2048 elements and at 2^20, each checked against
# the reference; the blog's times in the summary; bad sizes refused naming the option.
set -u
cli=$1 backend=$2 dir=$3
mkdir -p "$dir"
"$cli" bench stencil --backend "$backend" --repeats 2 --csv "$dir/stencil.csv" \
    --json "$dir/stencil.json" >"$dir/stencil.txt" || exit 1
cat "$dir/stencil.txt"
rows=$(grep -c '^stencil,' "$dir/stencil.csv")
passed=$(grep -c ',pass$' "$dir/stencil.csv")
methods=$(grep '^stencil,' "$dir/stencil.csv" | sed 's/"[^"]*"//g' | cut -d, -f5 | sort -u | wc -l)
big=$(grep -c ',1048576,' "$dir/stencil.csv")
echo "rows=$rows methods=$methods passed=$passed big=$big"
[ "$methods" -ge 8 ] && [ "$passed" -eq "$rows" ] && [ "$big" -ge "$methods" ] || exit 1
grep -q 'globalSync2  *1024: blog    1020 ms' "$dir/stencil.txt" &&
    grep -q 'without a barrier.*220 ms' "$dir/stencil.txt" && grep -q '"n": 2048' "$dir/stencil.json" || exit 1
# the methods of a block size run in rounds: a paired_cg column before check (blank without
# cg, which runs on CUDA alone)
grep -q ',compute,paired_cg,check$' "$dir/stencil.csv" && grep -q 'x_cg_pair' "$dir/stencil.txt" &&
    grep -q '"paired_cg": ' "$dir/stencil.json" || { echo "FAIL: no paired_cg column"; exit 1; }
if [ "$backend" != cuda ] && [ "$(grep -c '^stencil,.*,,pass$' "$dir/stencil.csv")" -ne "$rows" ]; then
    echo "FAIL: a paired_cg without cg"; exit 1
fi
# bad sizes: exit 2 and the option named
for bad in "--n 1" "--n 268435457" "--sizes 1:5" "--sizes 64:0" "--n 64 --sizes 64:2"; do
    # shellcheck disable=SC2086 # the options are words on purpose
    "$cli" bench stencil --backend "$backend" $bad >/dev/null 2>"$dir/err"
    rc=$?
    opt=$(echo "$bad" | sed 's/^--\([a-z]*\).*/\1/')
    if [ $rc -ne 2 ] || ! grep -q -- "--$opt" "$dir/err"; then
        echo "FAIL: bench stencil $bad exited $rc:"; cat "$dir/err"; exit 1
    fi
done
echo "cli_stencil: ok"
