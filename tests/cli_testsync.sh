#!/bin/sh
# cli_testsync.sh GRIDSYNC BACKEND DIR: `gridsync demo testsync` prints the blog's grid
# with the barrier (row g all groups - 1 - g), counts 0 wrong there, reports the count
# without it; a bad option is refused by name.
set -u
cli=$1 backend=$2 dir=$3
mkdir -p "$dir"
"$cli" demo testsync --backend "$backend" --groups 2 --block 8 --csv "$dir/testsync.csv" >"$dir/testsync.txt" || exit 1
cat "$dir/testsync.txt"
grep -A2 '^test_sync, 2 groups of 8:' "$dir/testsync.txt" | tail -2 | tr '\n' '|' >"$dir/grid"
[ "$(cat "$dir/grid")" = "1 1 1 1 1 1 1 1 |0 0 0 0 0 0 0 0 |" ] || { echo "FAIL: grid $(cat "$dir/grid")"; exit 1; }
grep -q '^testsync,.*,test_sync,2,8,16,0,pass$' "$dir/testsync.csv" &&
    grep -q '^testsync,.*,test_nosync,2,8,16,[0-9]*,n/a$' "$dir/testsync.csv" || exit 1
"$cli" demo testsync --backend "$backend" --block 0 2>"$dir/err"
[ $? -eq 2 ] && grep -q -- '--block' "$dir/err" || exit 1
echo "cli_testsync: ok"
