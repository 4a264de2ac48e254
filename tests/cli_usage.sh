#!/bin/sh
# cli_usage.sh GRIDSYNC DIR: bad input to the CLI exits 2 with a message on stderr,
# before any run starts; never a crash, never a silent pass.
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
[ ! -s "$dir/out" ] || { echo "FAIL: a table was printed before the CSV was refused" >&2; failed=1; }
expect 2 bench memory --backend cpu --json "$dir/no/such/dir/m.json"
expect 0 --help
expect 0 info --backend cpu
grep -q '^cpu device:' "$dir/out" || { echo "FAIL: info --backend cpu names no cpu device" >&2; failed=1; }
exit $failed
