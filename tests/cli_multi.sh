#!/bin/sh
# cli_multi.sh GRIDSYNC DIR: `gridsync bench multi` on the cpu back end's emulated
# devices: with --quick a relaunch row and a barrier row for 1 and 2 devices at 1 and 2
# groups each, every one checked and timed (the figures are the host's scheduling, noisy
# on a loaded machine: only their presence is checked); an explicit list of devices; bad
# values and OpenCL exit 2 before anything runs; a grid too large for the threads is a
# refused row (exit 1).
set -u
cli=$1 dir=$2
mkdir -p "$dir"
"$cli" bench multi --backend cpu --quick --csv "$dir/multi.csv" --json "$dir/multi.json" \
    >"$dir/multi.txt" || { cat "$dir/multi.txt"; exit 1; }
cat "$dir/multi.txt"
rows=$(grep -c '^multi,' "$dir/multi.csv")
passed=$(grep -c ',pass$' "$dir/multi.csv")
# a time for every row (the barrier's can be 0 where the host's noise is larger than it)
timed=$(grep '^multi,' "$dir/multi.csv" | sed 's/"[^"]*"//g' | awk -F, '$4 == "multi" && $10 >= 0' | wc -l)
echo "rows=$rows passed=$passed timed=$timed"
[ "$rows" -eq 8 ] && [ "$passed" -eq 8 ] && [ "$timed" -eq 4 ] || exit 1
grep -q '"ns_per_barrier"' "$dir/multi.json" || exit 1
# three ranks on device 0, 3 groups of 2 each
"$cli" bench multi --backend cpu --devices 0,0,0 --groups 3 --iters 40 --repeats 3 \
    --csv "$dir/three.csv" >/dev/null || exit 1
grep -q '^multi,.*,multi,"0,0,0",3,3,2,40,.*,pass$' "$dir/three.csv" || { cat "$dir/three.csv"; exit 1; }
for bad in "--devices 1025" "--devices 0,,0" "--devices 1" "--backend opencl" "--algo flip" \
    "--groups 0"; do
    # shellcheck disable=SC2086 # the options are words on purpose
    "$cli" bench multi --backend cpu $bad >/dev/null 2>"$dir/err"
    rc=$?
    if [ $rc -ne 2 ]; then
        echo "FAIL: bench multi $bad exited $rc:"; cat "$dir/err"; exit 1
    fi
done
# more threads than run at once: a refused row, exit 1
"$cli" bench multi --backend cpu --devices 0,0,0,0 --groups 600 --block 2 --iters 5 \
    >"$dir/big.txt" 2>&1
rc=$?
grep -q 'refused' "$dir/big.txt" && [ $rc -eq 1 ] || { echo "FAIL: too large exited $rc"; cat "$dir/big.txt"; exit 1; }
echo "cli_multi: ok"
