#!/bin/sh
# cli_wavefront.sh GRIDSYNC BACKEND DIR: `gridsync bench wavefront --quick` on a host
# device: every experiment's rows checked against the reference and timed, a best row
# per point, every scheme and local variant present, speed-ups filled, the summary; then
# --schemes naming some schemes runs those alone; then bad values of its own options,
# each refused (exit 2) naming the option.
set -u
cli=$1 backend=$2 dir=$3
mkdir -p "$dir"
"$cli" bench wavefront --backend "$backend" --quick --repeats 1 --csv "$dir/wf.csv" \
    --json "$dir/wf.json" >"$dir/wf.txt" 2>"$dir/wf.err" || { cat "$dir/wf.err"; exit 1; }
cat "$dir/wf.txt"
rows=$(grep -vc -e '^experiment' -e '^best,' "$dir/wf.csv")
best=$(grep -c '^best,' "$dir/wf.csv")
passed=$(grep -c ',pass$' "$dir/wf.csv")
# scheme and variant columns (18th and 19th once the quoted fields are emptied)
schemes=$(grep -v '^experiment' "$dir/wf.csv" | sed 's/"[^"]*"//g' | cut -d, -f18 | sort -u | tr '\n' ' ')
variants=$(grep '^granularity,\|^schedule,' "$dir/wf.csv" | sed 's/"[^"]*"//g' | cut -d, -f19 | sort -u | tr '\n' ' ')
echo "rows=$rows best=$best passed=$passed schemes=[$schemes] variants=[$variants]"
# quick on a host: size 64 (4 rows), tile 16 and 32 (4 each), granularity 4, schedule 3
[ "$rows" -eq 19 ] && [ "$best" -eq 5 ] && [ "$passed" -eq $((rows + best)) ] || exit 1
[ "$schemes" = "global local local-tagged relaunch " ] || exit 1
[ "$variants" = "k16 k4 row rows rows-k4 tile " ] || exit 1
grep -q '"gcups": [0-9]' "$dir/wf.json" && grep -q '"speedup_relaunch": [0-9]' "$dir/wf.json" || exit 1
grep -q '^targets' "$dir/wf.txt" && grep -q 'GCUPS' "$dir/wf.txt" || exit 1
# a local and a local-tagged row's speed-up over relaunch are filled (the 22nd column once
# quotes are emptied), and the summary judges local-tagged against local too
for s in local local-tagged; do
    grep '^size,' "$dir/wf.csv" | grep ",$s," | sed 's/"[^"]*"//g' | cut -d, -f22 | grep -q '^[0-9]' || exit 1
done
grep -q 'local-tagged: x_relnch [0-9.]* ([a-z ]*)  x_global [0-9.]* ([a-z ]*)  x_local [0-9]' "$dir/wf.txt" || exit 1

# --schemes: the named schemes alone (no local: no granularity or schedule experiment)
"$cli" bench wavefront --backend "$backend" --quick --repeats 1 --schemes local-tagged,relaunch \
    --csv "$dir/some.csv" >"$dir/some.txt" 2>"$dir/some.err" || { cat "$dir/some.err"; exit 1; }
some=$(grep -v '^experiment' "$dir/some.csv" | sed 's/"[^"]*"//g' | cut -d, -f18 | sort -u | tr '\n' ' ')
exps=$(grep -v '^experiment' "$dir/some.csv" | cut -d, -f1 | sort -u | tr '\n' ' ')
echo "--schemes local-tagged,relaunch: schemes=[$some] experiments=[$exps]"
[ "$some" = "local-tagged relaunch " ] && [ "$exps" = "best size tile " ] || exit 1

# --variants: the variants experiment runs those, and the size and tile experiments still
# run the default variant (a flag per tile; they once ran an uninitialised one: errors)
"$cli" bench wavefront --backend "$backend" --quick --repeats 1 --variants rows,k2 \
    --csv "$dir/var.csv" >"$dir/var.txt" 2>"$dir/var.err" || { cat "$dir/var.err"; exit 1; }
named=$(grep '^variants,' "$dir/var.csv" | sed 's/"[^"]*"//g' | cut -d, -f19 | sort -u | tr '\n' ' ')
sized=$(grep '^size,\|^tile,' "$dir/var.csv" | sed 's/"[^"]*"//g' | awk -F, '$18 == "local" { print $19 }' | sort -u | tr '\n' ' ')
bad=$(grep -v '^experiment' "$dir/var.csv" | grep -vc ',pass$')
echo "--variants rows,k2: variants=[$named] size and tile=[$sized] not passed=$bad"
[ "$named" = "k2 rows " ] && [ "$sized" = "tile " ] && [ "$bad" -eq 0 ] || exit 1

fail=0
refuse() { # refuse OPTION ARGS...: exit 2 and a message naming --OPTION
    opt=$1
    shift
    "$cli" bench wavefront --backend "$backend" "$@" >/dev/null 2>"$dir/bad.err"
    rc=$?
    if [ $rc -ne 2 ] || ! grep -q -- "--$opt" "$dir/bad.err"; then
        echo "FAIL: '$*' gave $rc: $(cat "$dir/bad.err")" >&2
        fail=1
    fi
}
refuse tile --tile 24
refuse tile --tile 16,
refuse matrix --matrix 0
refuse matrix --matrix 65537
refuse variants --variants tile,k0
refuse variants --variants diagonal
refuse schemes --schemes tagged
refuse schemes --schemes local-tagged,
refuse schemes --schemes local,local-tagged,Local
refuse schemes --schemes cg # CUDA's alone: it does not run here
refuse algo --algo flip,tree
refuse iters --iters 5
exit $fail
