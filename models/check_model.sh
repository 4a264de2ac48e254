#!/usr/bin/env bash
# check_model.sh - verify one gridsync Promela model with spin and judge pan's output.
#
#   check_model.sh [options] MODEL.pml
#
#   --mode safety      pan compiled with -DSAFETY -DNOCLAIM: assertions and invalid
#                      end states (deadlocks), no never claim (default)
#   --mode liveness    pan compiled with -DNFAIR=3, run with -a -f: the model's ltl
#                      property (acceptance cycles) under weak fairness, and
#                      assertions. (Spin turns off invalid-end-state checks while a
#                      never claim runs; a deadlock shows as an acceptance cycle.)
#   --expect-error KIND   the model is a mutant: pass only if pan reports an error
#                      of KIND: assertion | acceptance | invalid-end | any
#   -D NAME[=VALUE]    passed to spin's preprocessor (also -DNAME[=VALUE]);
#                      repeatable, e.g. -D MUTANT=1 -D N=4
#   --workdir DIR      where spin and pan run (emptied first); default: a fresh
#                      temporary directory, removed afterwards
#   --spin PATH        spin executable (default: $SPIN or spin)
#   --cc PATH          C compiler for pan.c (default: $CC or gcc)
#   --opt FLAG         its optimisation flag (default -O0: most state spaces here
#                      are tiny, so compiling fast matters more; -O2 for big ones)
#   --depth N          pan's search depth bound -m (default 100000)
#   --pan-arg ARG      one more argument for pan (repeatable)
#
# Exit status: 0 pass, 1 fail, 2 usage or tool error.
set -u

mode=safety
expect=""
defines=()
workdir=""
spin_bin="${SPIN:-spin}"
cc_bin="${CC:-gcc}"
depth=100000
opt=-O0
pan_extra=()
model=""

usage() { sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

while [ $# -gt 0 ]; do
    case "$1" in
        --mode) mode="${2:?}"; shift 2 ;;
        --mode=*) mode="${1#*=}"; shift ;;
        --expect-error) expect="${2:?}"; shift 2 ;;
        --expect-error=*) expect="${1#*=}"; shift ;;
        -D) defines+=("-D${2:?}"); shift 2 ;;
        -D*) defines+=("$1"); shift ;;
        --workdir) workdir="${2:?}"; shift 2 ;;
        --spin) spin_bin="${2:?}"; shift 2 ;;
        --cc) cc_bin="${2:?}"; shift 2 ;;
        --depth) depth="${2:?}"; shift 2 ;;
        --opt) opt="${2:?}"; shift 2 ;;
        --pan-arg) pan_extra+=("${2:?}"); shift 2 ;;
        -h|--help) usage ;;
        -*) echo "check_model.sh: unknown option $1" >&2; usage ;;
        *) [ -z "$model" ] || { echo "check_model.sh: one model only" >&2; exit 2; }
           model="$1"; shift ;;
    esac
done

[ -n "$model" ] || usage
[ -f "$model" ] || { echo "check_model.sh: no model $model" >&2; exit 2; }
case "$mode" in safety|liveness) ;; *) echo "check_model.sh: bad --mode $mode" >&2; exit 2 ;; esac
case "$expect" in ""|assertion|acceptance|invalid-end|any) ;;
    *) echo "check_model.sh: bad --expect-error $expect" >&2; exit 2 ;; esac

model_dir="$(cd "$(dirname "$model")" && pwd)"
model_name="$(basename "$model")"

if [ -n "$workdir" ]; then
    rm -rf "$workdir" && mkdir -p "$workdir" || exit 2
else
    workdir="$(mktemp -d "${TMPDIR:-/tmp}/gridsync-model.XXXXXX")" || exit 2
    trap 'rm -rf "$workdir"' EXIT
fi
# The models #include common.pml; pan writes its trail next to the model: work on copies.
cp "$model_dir"/*.pml "$workdir"/ || exit 2
cd "$workdir" || exit 2

label="$model_name ${defines[*]:-} ($mode${expect:+, expecting $expect error})"
echo "== $label"
echo "   in $workdir"

# 1. spin: Promela -> pan.c
if ! "$spin_bin" "${defines[@]}" -a "$model_name" >spin.log 2>&1 || [ ! -f pan.c ]; then
    echo "FAIL: spin -a did not produce pan.c"; cat spin.log; exit 2
fi

# 2. compile the verifier
if [ "$mode" = safety ]; then
    cflags=(-DSAFETY -DNOCLAIM)
    pan_args=()
else
    cflags=(-DNFAIR=3)
    pan_args=(-a -f)
fi
if ! "$cc_bin" -w "$opt" -DMEMLIM=3072 "${cflags[@]}" -o pan pan.c >cc.log 2>&1; then
    echo "FAIL: compiling pan.c failed"; cat cc.log; exit 2
fi

# 3. run it (-n: no unreached-code listing; -w22: 4M-slot hash table)
start=$(date +%s.%N)
./pan "${pan_args[@]}" -m"$depth" -w22 -n "${pan_extra[@]}" >pan.log 2>&1
pan_rc=$?
end=$(date +%s.%N)
secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')

# The last steps of pan's counterexample, replayed by spin -t.
show_trail() {
    [ -f "$model_name.trail" ] || return 0
    echo "   counterexample ($workdir/$model_name.trail), its last events:"
    "$spin_bin" "${defines[@]}" -t "$model_name" 2>&1 |
        grep -E 'MSG|START OF CYCLE|Error|failed assertion' |
        tail -n "$1" | sed -e 's/^ *MSG /     /' -e 's/^/   /'
}

# 4. judge. pan numbers its error reports "pan:1: <what> ..."; the "invalid end
# states +" line of the summary is not one.
errors=$(sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' pan.log | tail -n 1)
reports=$(grep -E '^pan:[0-9]+: ' pan.log)
stats=$(grep -E 'states, stored' pan.log | head -n 1 | sed 's/^ *//')
fatal=$(grep -E 'max search depth too small|out of memory|pan: reached -DMEMLIM|too many processes' pan.log)

echo "   pan exit $pan_rc, errors: ${errors:-?}, $stats, ${secs}s"
[ -z "$reports" ] || echo "$reports" | sed 's/^/   /'

if [ -n "$fatal" ] || [ -z "$errors" ]; then
    echo "FAIL: the search did not complete"
    [ -z "$fatal" ] || echo "$fatal" | sed 's/^/   /'
    tail -n 30 pan.log
    exit 1
fi

if [ -z "$expect" ]; then
    if [ "$errors" = 0 ] && [ -z "$reports" ] && ! grep -q 'Search not completed' pan.log; then
        echo "PASS: $label: no errors"
        exit 0
    fi
    echo "FAIL: $label"
    cat pan.log
    show_trail 40
    exit 1
fi

case "$expect" in
    assertion) pat='assertion violated' ;;
    acceptance) pat='acceptance cycle' ;;
    invalid-end) pat='invalid end state' ;;
    any) pat='.' ;;
esac
if [ "$errors" -ge 1 ] && echo "$reports" | grep -qE "$pat"; then
    echo "PASS: $label: spin rejects the mutant: $(echo "$reports" | head -n 1)"
    show_trail 12
    exit 0
fi
echo "FAIL: $label: expected spin to report '$pat', it did not"
cat pan.log
exit 1
