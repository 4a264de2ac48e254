#!/bin/sh
# expect_exit.sh CODE COMMAND...: passes when COMMAND exits with exactly CODE.
# Used to prove the weakened libraries fail the checks (a crash is not a pass).
want=$1; shift
"$@"
got=$?
if [ "$got" -ne "$want" ]; then
  echo "expect_exit: '$*' exited $got, expected $want" >&2
  exit 1
fi
echo "expect_exit: exited $got as expected"
