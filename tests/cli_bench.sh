#!/bin/sh
# cli_bench.sh GRIDSYNC BACKEND DIR: `gridsync bench groups` writes a CSV and a JSON
# row for every protocol and group count it ran, each checked and timed; `bench split`
# a row per protocol, form and amount of work.
set -u
cli=$1 backend=$2 dir=$3
mkdir -p "$dir"
"$cli" bench groups --backend "$backend" --groups 1,2 --iters 20 --repeats 3 \
    --csv "$dir/groups.csv" --json "$dir/groups.json" || exit 1
rows=$(tail -n +2 "$dir/groups.csv" | wc -l)
algos=$(tail -n +2 "$dir/groups.csv" | grep -oE ',(central|lockfree|naive|flip|tree|relaunch|cluster|cg|relaunch-graph|sharded|auto),[0-9]+,' | cut -d, -f2 | sort -u | wc -l)
passed=$(grep -c ',pass$' "$dir/groups.csv")
echo "rows=$rows protocols=$algos passed=$passed"
[ "$rows" -eq $((algos * 2)) ] && [ "$algos" -ge 6 ] && [ "$passed" -eq "$rows" ] || exit 1
grep -q '"rows"' "$dir/groups.json" || exit 1
"$cli" bench memory --backend "$backend" --csv "$dir/memory.csv" >/dev/null || exit 1
# bench split: both forms of every protocol at each amount of work, all checked, and the
# summary pairs them.
"$cli" bench split --backend "$backend" --groups 2 --compute 1,64 --iters 20 --repeats 3 \
    --csv "$dir/split.csv" >"$dir/split.txt" || exit 1
rows=$(tail -n +2 "$dir/split.csv" | wc -l)
split=$(grep -c '^split,.*,64,pass$' "$dir/split.csv")
pairs=$(grep -c 'compute  *64: .* -> ' "$dir/split.txt")
echo "split: rows=$rows split-rows-at-64=$split summary-pairs-at-64=$pairs"
[ "$rows" -eq $((algos * 4)) ] && [ "$split" -eq "$algos" ] && [ "$pairs" -eq "$algos" ] || exit 1
[ "$(tail -n +2 "$dir/memory.csv" | wc -l)" -ge 42 ] || exit 1
