#!/bin/sh
# cli_jacobi.sh GRIDSYNC BACKEND DIR: `gridsync bench jacobi` with its defaults on a
# host device: every method at every grid checked against the reference and timed, a
# best row per method, the summary. (Bad sizes: cli_usage.sh.)
set -u
cli=$1 backend=$2 dir=$3
mkdir -p "$dir"
"$cli" bench jacobi --backend "$backend" --repeats 3 --csv "$dir/jacobi.csv" \
    --json "$dir/jacobi.json" >"$dir/jacobi.txt" || exit 1
cat "$dir/jacobi.txt"
rows=$(grep -c '^jacobi,' "$dir/jacobi.csv")
best=$(grep -c '^best,' "$dir/jacobi.csv")
passed=$(grep -c ',pass$' "$dir/jacobi.csv")
# the algo column, counted after the quoted device and platform are taken out
methods=$(grep '^best,' "$dir/jacobi.csv" | sed 's/"[^"]*"//g' | cut -d, -f5 | sort -u | wc -l)
echo "rows=$rows best=$best methods=$methods passed=$passed"
[ "$methods" -ge 8 ] && [ "$best" -eq "$methods" ] && [ "$rows" -ge "$methods" ] &&
    [ "$passed" -eq $((rows + best)) ] || exit 1
grep -q 'ms/iter' "$dir/jacobi.txt" && grep -q '"n": 64' "$dir/jacobi.json" || exit 1
