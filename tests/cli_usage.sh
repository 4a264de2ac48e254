#!/bin/sh
# cli_usage.sh GRIDSYNC DIR: bad input to the CLI exits 2 with a message on stderr that
# names what was wrong, before any run starts; never a crash, never a silent pass. And
# what a new user meets first: defaults that end in time, rows as they are measured, a
# table that explains itself, and an exit status that tells a refused row from a pass.
set -u
cli=$1 dir=$2
mkdir -p "$dir"
failed=0

# expect CODE ARGS...: the command exits with exactly CODE; a 2 must say why on stderr.
expect() {
    want=$1; shift
    timeout 60 "$cli" "$@" >"$dir/out" 2>"$dir/err"
    got=$?
    if [ "$got" -ne "$want" ]; then
        echo "FAIL: gridsync $* exited $got, expected $want" >&2
        sed 's/^/  stderr: /' "$dir/err" >&2
        failed=1
    elif [ "$want" -eq 2 ] && [ ! -s "$dir/err" ]; then
        echo "FAIL: gridsync $* exited 2 without a message" >&2
        failed=1
    else
        echo "ok: gridsync $* -> $got"
    fi
}

# expect_any ARGS...: the command ends by itself with 0 or 1 (a result, pass or fail).
expect_any() {
    timeout 60 "$cli" "$@" >"$dir/out" 2>"$dir/err"
    got=$?
    if [ "$got" -gt 1 ]; then
        echo "FAIL: gridsync $* exited $got, expected 0 or 1" >&2
        sed 's/^/  stderr: /' "$dir/err" >&2
        failed=1
    else
        echo "ok: gridsync $* -> $got"
    fi
}

# expect_says CODE PATTERN ARGS...: as expect, and stderr matches PATTERN (grep -E).
expect_says() {
    pattern=$2
    code=$1; shift 2
    expect "$code" "$@"
    grep -Eq -- "$pattern" "$dir/err" || {
        echo "FAIL: gridsync $* did not say /$pattern/ on stderr" >&2
        sed 's/^/  stderr: /' "$dir/err" >&2
        failed=1
    }
}

# has FILE PATTERN WHY: FILE matches PATTERN (grep -E), or the test fails saying WHY.
has() {
    grep -Eq -- "$2" "$1" || { echo "FAIL: $3" >&2; failed=1; }
}

long=$(seq -s, 1 70)
expect 2
expect 2 frobnicate
expect 2 bench
expect 2 bench nosuch --backend cpu
expect 2 bench groups --backend nope
expect 2 bench groups --backend cpu --groups 0
expect 2 bench groups --backend cpu --groups -5
expect 2 bench groups --backend cpu --groups 99999999999
expect 2 bench groups --backend cpu --groups 1,,2
expect 2 bench groups --backend cpu --groups 1,
expect 2 bench groups --backend cpu --groups "$long"
expect 2 bench groups --backend cpu --block 0
expect 2 bench groups --backend cpu --block 100000
expect 2 bench groups --backend cpu --iters abc
expect 2 bench groups --backend cpu --repeats 0
expect 2 bench groups --backend cpu --timeout-ms 0
expect 2 bench groups --backend cpu --algo
expect 2 bench groups --backend cpu --algo flip,,tree
expect 2 bench groups --backend cpu --stray
expect 2 bench groups --backend cpu extra
expect 2 bench split --backend cpu --compute 1,,2
expect 2 bench split --backend cpu --compute 2000000
expect 2 bench split --backend cpu --compute x
expect 2 bench split --backend cpu --compute 0
# bench jacobi's sizes: N:T, N from 3 to 32768, T at least 1.
for bad in 64 64: :5 64:0 2:5 40000:1 64:5,,9:9 x:5; do
    expect 2 bench jacobi --backend cpu --sizes "$bad"
done
expect 2 bench jacobi --backend cpu --algo cg
expect 2 check --backend cpu --algo nosuch
expect 2 check --backend cpu --device 7
# cg runs on CUDA only: naming nothing else must not pass as a check of nothing.
expect 2 check --backend cpu --algo cg
# An output file that cannot be written is refused before the run, not after it.
expect 2 bench memory --backend cpu --csv "$dir/no/such/dir/m.csv"
# ... for every command that writes files (pi, testsync and multi exited 0 and wrote
# nothing), a directory as a file too, and two outputs naming one file (one was lost).
expect 2 bench pi --backend cpu --quick --steps 1000 --csv "$dir/no/such/dir/p.csv"
expect 2 bench pi --backend cpu --quick --steps 1000 --json "$dir"
expect 2 demo testsync --backend cpu --csv "$dir/no/such/dir/t.csv"
expect 2 bench multi --backend cpu --devices 0 --groups 1 --csv "$dir/no/such/dir/m.csv"
# A short option's letter, not the word before it ('cpu'); help asked the usual ways; a
# run that measured nothing is no pass (halo runs no protocol of --algo: exited 0).
expect_says 2 "option '-x'" info --backend cpu -xyz
expect 0 bench --help
expect 0 help help
expect_says 2 '--iters and --sizes' bench jacobi --backend cpu --sizes 8:7 --iters 2
expect_says 2 'left nothing to run' bench jacobi --backend cpu --algo flip --sizes 3:1 --form halo
expect_says 2 '--csv and --json name the same file' bench groups --backend cpu --algo flip \
    --groups 1 --iters 5 --repeats 1 --csv "$dir/same" --json "$dir/same"
[ ! -s "$dir/out" ] || { echo "FAIL: a table was printed before the CSV was refused" >&2; failed=1; }
expect 2 bench memory --backend cpu --json "$dir/no/such/dir/m.json"
expect 0 --help
expect 0 info --backend cpu
grep -q '^cpu device:' "$dir/out" || { echo "FAIL: info --backend cpu names no cpu device" >&2; failed=1; }

# Every bad value names its option and its range, before anything runs (these passed
# parsing and ended in an unexplained error row; '0' was "bad value '0'" alone).
expect_says 2 '--timeout-ms.*1 to 3600000' bench groups --backend cpu --timeout-ms 99999999
expect_says 2 '--iters.*1 to 1073741824' bench groups --backend cpu --iters 4294967295
expect_says 2 '--groups.*1 to 16777216' bench groups --backend cpu --groups 4294967295
expect_says 2 "--groups: bad value '0'.*1 to" bench groups --backend cpu --groups 0
expect_says 2 '--block.*1 to 1024' bench groups --backend cpu --block 2000
# A bad environment variable is named (GRIDSYNC_BACKEND=bogus read as a null pointer).
export GRIDSYNC_BACKEND=bogus
expect_says 2 'GRIDSYNC_BACKEND' info
unset GRIDSYNC_BACKEND
export GRIDSYNC_TIMEOUT_MS=soon
expect_says 2 'GRIDSYNC_TIMEOUT_MS' check --backend cpu --quick
unset GRIDSYNC_TIMEOUT_MS
export GRIDSYNC_BACKOFF_CAP_NS=2000000
expect_says 2 'GRIDSYNC_BACKOFF_CAP_NS.*0 to 1000000' bench memory --backend cpu
unset GRIDSYNC_BACKOFF_CAP_NS
export GRIDSYNC_SHARDS=0
expect_says 2 'GRIDSYNC_SHARDS.*1 to 1024' bench memory --backend cpu
unset GRIDSYNC_SHARDS
# Every option is honoured or refused: info ignored --csv and --device.
expect_says 2 'info does not take --csv' info --backend cpu --csv "$dir/i.csv"
expect_says 2 'no device' info --backend cpu --device 7
expect_says 2 'does not take --iters' bench memory --backend cpu --iters 5
expect_says 2 'one value' bench iters --backend cpu --groups 1,2
expect_says 2 'check does not take --csv' check --backend cpu --csv "$dir/c.csv"
# check ignored --timeout-ms: the bound its barriers had, read back from them, is the
# option's (whether 1 ms times a run out depends on the machine's load: not asserted).
expect_any check --backend cpu --quick --algo central --timeout-ms 1
has "$dir/out" '^waits bounded at 1 ms$' "check --timeout-ms 1 did not reach the barriers"
expect 0 check --backend cpu --quick --algo central --timeout-ms 4321
has "$dir/out" '^waits bounded at 4321 ms$' "check --timeout-ms 4321 did not reach the barriers"
# gridsync help SUBCOMMAND.
expect 0 help bench groups
has "$dir/out" '--groups LIST' "help bench groups lists no --groups"
expect 0 help check
has "$dir/out" '--timeout-ms' "help check lists no --timeout-ms"
expect 0 bench split --help
expect 2 help nosuch

# A refused row (more groups than can be co-resident) is not a pass: exit 1, unless asked.
expect_says 1 'refused' bench groups --backend cpu --algo flip --groups 2000 --iters 5
expect 0 bench groups --backend cpu --algo flip --groups 2000 --iters 5 --allow-refused
# A row whose repeats spread more than --max-spread is warned about.
expect_says 0 'warning: flip at 2 groups.*spread' bench groups --backend cpu --algo flip --groups 2 --iters 20 \
    --repeats 3 --max-spread 0
has "$dir/out" '^warning: 1 row spread' "no warning under the table for a row spread too wide"

# The README's main job on a CPU: the defaults end within a minute (expect's limit; it
# ran 1024 groups of 4 threads on 2 cores, more than a minute, before), with a legend
# and the best protocol per grid.
expect 0 bench groups --backend cpu
has "$dir/out" '^columns: ' "bench groups printed no legend"
has "$dir/out" '^best per grid' "bench groups printed no best per grid"
# Blank cells where a baseline (cg, relaunch-graph: CUDA only) did not run, not 0.000.
expect 0 bench groups --backend cpu --algo flip,relaunch --groups 1 --iters 5 --repeats 1 --csv "$dir/groups.csv"
if grep -E '^groups ' "$dir/out" | grep -q '0\.000'; then
    echo "FAIL: a ratio to a baseline that did not run reads 0.000" >&2
    failed=1
fi
# CSV: ratio_cg (the 14th field once the quoted ones are emptied) empty, not 0.
sed 's/"[^"]*"//g' "$dir/groups.csv" | awk -F, 'NR > 1 && $14 != "" { bad = 1 } END { exit bad }' ||
    { echo "FAIL: groups.csv has a ratio_cg where cg did not run" >&2; failed=1; }

# Rows are printed as they are measured: the first row is out while a long second one
# still runs (nothing was printed before the end).
"$cli" bench iters --backend cpu --algo central --groups 1 --iters-list 10,1000000000 --repeats 1 \
    >"$dir/live" 2>"$dir/live.err" &
pid=$!
waited=0
until grep -q '^iters ' "$dir/live" || [ $waited -ge 60 ]; do
    sleep 1
    waited=$((waited + 1))
done
if kill -0 $pid 2>/dev/null && grep -q '^iters ' "$dir/live"; then
    echo "ok: the first row was printed after ${waited} s, while the run went on"
else
    echo "FAIL: no row printed within 60 s of a run that was still going" >&2
    sed 's/^/  stdout: /' "$dir/live" >&2
    sed 's/^/  stderr: /' "$dir/live.err" >&2
    failed=1
fi
kill $pid 2>/dev/null
wait $pid 2>/dev/null
exit $failed
