#!/bin/sh
# cli_pi.sh GRIDSYNC BACKEND DIR: `gridsync bench pi` with its defaults on a host device:
# every way at every step count passes (agrees to 1e-12) and is close to pi at the
# largest; bad values refused naming the option.
set -u
cli=$1 backend=$2 dir=$3
mkdir -p "$dir"
"$cli" bench pi --backend "$backend" --csv "$dir/pi.csv" --json "$dir/pi.json" >"$dir/pi.txt" || exit 1
cat "$dir/pi.txt"
rows=$(grep -c '^pi,' "$dir/pi.csv")
passed=$(grep -c ',pass$' "$dir/pi.csv")
ways=$(grep '^pi,' "$dir/pi.csv" | sed 's/"[^"]*"//g' | cut -d, -f4 | sort -u | wc -l)
echo "rows=$rows ways=$ways passed=$passed"
[ "$ways" -eq 3 ] && [ "$rows" -eq 9 ] && [ "$passed" -eq "$rows" ] || exit 1
grep -q '"steps": 10000000,' "$dir/pi.json" || exit 1
# the largest step count: pi to 1e-12
grep '^pi,' "$dir/pi.csv" | sed 's/"[^"]*"//g' | awk -F, '$7 == 10000000 && ($8 < 3.141592653589 || $8 > 3.141592653591) { bad = 1 } END { exit bad }' || exit 1
for bad in "--steps 0" "--steps 1,,2" "--steps 1000000000001" "--block 3" "--groups 1,2"; do
    # shellcheck disable=SC2086 # the options are words on purpose
    "$cli" bench pi --backend "$backend" $bad >/dev/null 2>"$dir/err"
    rc=$?
    opt=$(echo "$bad" | sed 's/^--\([a-z]*\).*/\1/')
    if [ $rc -ne 2 ] || ! grep -q -- "--$opt" "$dir/err"; then
        echo "FAIL: bench pi $bad exited $rc:"; cat "$dir/err"; exit 1
    fi
done
echo "cli_pi: ok"
