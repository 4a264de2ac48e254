#!/bin/sh
# cli_usage.sh GRIDSYNC DIR: bad input to the CLI exits 2 with a message on stderr that
# names what was wrong, before any run starts; never a crash, never a silent pass. And
# what a new user meets first: defaults that end in time, rows as they are measured, a
# table that explains itself, and an exit status that tells a refused row from a pass.
set -u
cli=$1 dir=$2
mkdir -p "$dir"
# Absolute: a few commands run inside $dir (cd), where they may leave files.
dir=$(cd "$dir" && pwd)
case $cli in /*) ;; */*) cli=$(pwd)/$cli ;; esac
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
# A file option's value that is another option is refused, naming the option (--csv
# --json wrote a file named --json and ran); ./--json still names such a file.
here=$(pwd)
cd "$dir" || exit 1
expect_says 2 "--csv: '--json' is an option" bench memory --backend cpu --csv --json
expect_says 2 "--json: '--plot' is an option" bench memory --backend cpu --json --plot
expect_says 2 "--plot: '--csv' is an option" bench memory --backend cpu --plot --csv
for f in ./--json ./--plot ./--csv; do
    [ ! -e "$f" ] || { echo "FAIL: a file option wrote $f" >&2; failed=1; rm -f -- "$f"; }
done
expect 0 bench memory --backend cpu --csv ./--json
[ -s ./--json ] || { echo "FAIL: --csv ./--json wrote no file" >&2; failed=1; }
rm -f -- ./--json
cd "$here" || exit 1
# --max-spread takes a plain decimal number (strtod took 0x10, +5, " 5" and 1e2); the
# whole numbers were already strict: kept so.
for bad in 0x10 +5 " 5" 1e2 5x 1.2.3 . -1 1001 inf; do
    expect_says 2 "--max-spread: bad value" bench groups --backend cpu --algo flip --groups 1 \
        --iters 5 --repeats 1 --max-spread "$bad"
done
expect 0 bench groups --backend cpu --algo flip --groups 1 --iters 5 --repeats 1 --max-spread 2.5
for bad in "--iters +5" "--iters 0x10" "--groups 2x" "--timeout-ms 1e3"; do
    # shellcheck disable=SC2086 # the option and its value are two words on purpose
    expect_says 2 "${bad%% *}: bad value" bench groups --backend cpu $bad
done
expect_says 2 "--repeats: bad value" bench groups --backend cpu --repeats " 3"
expect_says 2 "--steps: bad value" bench pi --backend cpu --steps +1000
# A write that fails once the file is open (a full disk) is reported, naming the file,
# and is exit status 1: the rows were measured (they all exited 0; bench 2).
if [ -w /dev/full ]; then
    small="--backend cpu --algo flip --groups 1 --iters 5 --repeats 1"
    for opt in csv json plot; do
        # shellcheck disable=SC2086
        expect_says 1 "cannot .*/dev/full" bench groups $small --$opt /dev/full
    done
    expect_says 1 'cannot write /dev/full' bench memory --backend cpu --csv /dev/full
    for opt in csv json; do
        expect_says 1 'cannot write /dev/full' bench pi --backend cpu --quick --steps 1000 --$opt /dev/full
        expect_says 1 'cannot write /dev/full' bench multi --backend cpu --devices 0 --groups 1 \
            --iters 5 --repeats 1 --$opt /dev/full
    done
    expect_says 1 'cannot write /dev/full' demo testsync --backend cpu --groups 2 --csv /dev/full
fi
# An option another one makes do nothing is refused, naming both (they were dropped).
expect_says 2 '--iters-list and --appendix' bench thesis --backend cpu --appendix H --iters-list 5 \
    --groups 1 --block 2 --compute 1 --repeats 1
expect_says 2 '--iters and --appendix' bench thesis --backend cpu --appendix I --iters 5 \
    --groups 1 --block 2 --compute 1 --repeats 1
expect_says 2 '--compute and --appendix' bench thesis --backend cpu --appendix J --compute 5
expect_says 2 '--repeats and --appendix' bench thesis --backend cpu --appendix J --repeats 2
wf="bench wavefront --backend cpu --quick --repeats 1 --matrix 32"
# shellcheck disable=SC2086
expect_says 2 '--algo and --schemes' $wf --algo flip --schemes local
# shellcheck disable=SC2086
expect_says 2 '--variants and --schemes' $wf --variants row --schemes global
# shellcheck disable=SC2086
expect_says 2 '--groups and --schemes' $wf --groups 2 --schemes relaunch
expect_says 2 '--iters and --sizes' bench sor --backend cpu --repeats 1 --sizes 8:2 --iters 3
expect_says 2 '--iters and --sizes' bench stencil --backend cpu --repeats 1 --sizes 64:2 --iters 3
# An exit 2 leaves an existing output file as it was (a header alone replaced it).
echo keep >"$dir/keep.csv"
expect_says 2 '--iters and --sizes' bench jacobi --backend cpu --sizes 8:7 --iters 2 --csv "$dir/keep.csv"
expect_says 2 'left nothing to run' bench jacobi --backend cpu --algo flip --sizes 3:1 --form halo \
    --csv "$dir/keep.csv"
has "$dir/keep.csv" '^keep$' "a bench jacobi that exited 2 overwrote its --csv file"
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

# More groups than the cpu back end can hold at once (GS_CPU_MAX_THREADS): check refuses
# before any run (it printed a row of errors and "waits bounded at 0 ms"); bench memory
# shows the state as refused, not as an error, and --allow-refused lets it pass.
expect_says 2 'at most [0-9]+ groups of 1 can be co-resident' check --backend cpu --groups 8192 --block 1
expect 1 bench memory --backend cpu --algo flip --groups 4096,8192
has "$dir/out" '^memory +flip +8192 .* refused$' "bench memory: a state past the bound is not shown as refused"
expect 0 bench memory --backend cpu --algo flip --groups 4096,8192 --allow-refused

# A size whose matrices cannot fit the machine's memory ends at once in an error row that
# says so (it paged for minutes: 10.8 GB after 60 s). 65536^2: 16 GiB a matrix, a
# reference, a result and one per method on the cpu; skipped on a machine of 96 GiB or more.
if [ "$(awk '/^MemTotal:/ { print int($2 / 1048576) }' /proc/meminfo)" -lt 96 ]; then
    expect_says 1 'GS_ERR_OUT_OF_MEMORY' bench wavefront --backend cpu --matrix 65536 --tile 16
fi

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
