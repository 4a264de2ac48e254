#!/usr/bin/env bash
# plot.sh DIR: draws DIR/groups.png, DIR/groups64.png, DIR/iters.png and DIR/split.png
# from the bench CSVs in DIR with gnuplot (Debian: gnuplot-nox). One line per protocol
# (split: per protocol and form) that passed.
set -euo pipefail
dir=$1
# csv png xfield yfield xlabel ylabel extra [by_form] — fields counted after the quoted
# ones are emptied; by_form=1 draws a line per protocol and form (bench split's rows)
plot() {
  local csv=$1 png=$2 x=$3 y=$4 xl=$5 yl=$6 extra=$7 by_form=${8:-0}
  [ -f "$csv" ] || return 0
  local data device
  data=$(tail -n +2 "$csv" | sed 's/"[^"]*"//g' |
    awk -F, -v x="$x" -v y="$y" -v f="$by_form" '$NF == "pass" { print (f ? $5 "-" $1 : $5), $x, $y }')
  device=$(sed -n 2p "$csv" | cut -d'"' -f2)
  {
    echo "set terminal pngcairo size 1000,640; set output '$png'; set key outside"
    echo "set title '$device'; set xlabel '$xl'; set ylabel '$yl'; set logscale y; $extra"
    local algos first=1
    algos=$(echo "$data" | awk '!s[$1]++ { print $1 }')
    printf 'plot '
    for a in $algos; do
      [ $first = 1 ] || printf ', '
      first=0
      printf "'-' using 1:2 with linespoints title '%s'" "$a"
    done
    echo
    for a in $algos; do
      echo "$data" | awk -v a="$a" '$1 == a { print $2, $3 }'
      echo e
    done
  } | gnuplot
}
plot "$dir/groups.csv" "$dir/groups.png" 6 9 "blocks (256 threads)" "ns per barrier" "set logscale x 2"
plot "$dir/groups64.csv" "$dir/groups64.png" 6 9 "blocks (64 threads)" "ns per barrier" "set logscale x 2"
plot "$dir/iters.csv" "$dir/iters.png" 8 10 "barriers" "total ms" "set logscale x"
# split: ns per barrier (the work included) against the work, 132 blocks of 256
if [ -f "$dir/split.csv" ]; then
  split132=$(mktemp)
  trap 'rm -f "$split132"' EXIT
  { head -1 "$dir/split.csv"; grep -E '^[a-z]+,"[^"]*",[a-z]+,"[^"]*",[a-z-]+,132,256,' "$dir/split.csv" || true; } >"$split132"
  plot "$split132" "$dir/split.png" 16 9 "independent multiply-adds per work-item per barrier (132 blocks of 256)" \
    "ns per barrier, work included" "set logscale x 2" 1
fi
