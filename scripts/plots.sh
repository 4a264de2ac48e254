#!/usr/bin/env bash
# scripts/plots.sh [OUTDIR] - the figures of docs/results.md (default docs/img/): the
# 2013 thesis's Appendices H, I, J beside ours on each GPU, the blog's stencil times
# beside ours, Pi's time per way. Data from scripts/results_tables.py (the same CSVs and
# the same stand-ins as the tables); each figure names its devices and the command that
# made our numbers. Skips, saying so and exiting 0, without gnuplot or python3.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$ROOT/docs/img}
for tool in gnuplot python3; do
    command -v "$tool" >/dev/null || { echo "plots.sh: no $tool, figures not drawn (Debian: gnuplot-nox, python3)"; exit 0; }
done
mkdir -p "$out"
dat=$(mktemp -d)
trap 'rm -rf "$dat"' EXIT
python3 "$ROOT/scripts/results_tables.py" --dat "$dat"

# label FILE: what the first line of an ours_*.dat says about its source
label() { sed -n '1s/^# [^|]*| //p' "$1" | sed 's/ | /: /'; }

# thesis_fig APPENDIX XCOL_NAME YLABEL LOGX: thesis and ours (both GPUs), DCB/CB/CPU as
# dashed (2013) and solid (ours) lines
thesis_fig() {
    local app=$1 xl=$2 yl=$3 logx=$4 lower plots t
    lower=$(echo "$app" | tr 'HIJ' 'hij')
    plots="'$dat/thesis_$lower.dat' using 1:2 with linespoints dt 2 title '2013 DCB', \
'' using 1:3 with linespoints dt 2 title '2013 CB', '' using 1:4 with linespoints dt 2 title '2013 CPU Sync'"
    t=""
    for gpu in h100 h200; do
        f="$dat/ours_${lower}_$gpu.dat"
        [ -f "$f" ] || continue
        plots="$plots, '$f' using 1:2 with linespoints title '$gpu lockfree (DCB)', \
'' using 1:3 with linespoints title '$gpu central (CB)', '' using 1:4 with linespoints title '$gpu relaunch (CPU Sync)'"
        t="$t\\n$gpu: $(label "$f" | sed "s/'//g")"
    done
    gnuplot <<GP
set terminal pngcairo size 1100,700 font ',10'
set output '$out/thesis_$lower.png'
set key outside right
set title "Appendix $app: thesis (ATI Mobility Radeon HD 5870, OpenCL, 2013) and ours$t" noenhanced
set xlabel '$xl'; set ylabel '$yl'; set logscale y
$logx
plot $plots
GP
}
thesis_fig H "work-groups" "ns (thesis: one sync; ours: see title)" ""
thesis_fig I "iterations (barriers)" "ms at 70 work-groups" ""
thesis_fig J "work-groups" "KB" "unset logscale y"

# The blog's stencil: ms per method and work-group size, the blog's beside each GPU's.
stencil() {
    local rows=$dat/stencil.dat
    {
        echo "# method blog h100 h200 (ms, block 1024; 2048 items x 500000 iterations)"
        for pair in naive:3020 central:1020 lockfree:1405; do
            m=${pair%%:*} b=${pair#*:} line="$m $b"
            for gpu in h100 h200; do
                v=$(sed 's/"[^"]*"//g' "$ROOT/bench/results/$gpu/stencil.csv" 2>/dev/null |
                    awk -F, -v m="$m" '$5 == m && $7 == 1024 && $8 == 500000 && $16 == 2048 && $18 == "pass" { print $10 }')
                line="$line ${v:-nan}"
            done
            echo "$line"
        done
    } >"$rows"
    gnuplot <<GP
set terminal pngcairo size 900,560 font ',10'
set output '$out/stencil.png'
set title "Blog stencil, 2048 items x 500000 iterations, blocks of 1024: the blog (2013, OpenCL)\\nand gridsync bench stencil on H100 and H200 (bench/results/*/stencil.csv)" noenhanced
set style data histogram; set style histogram cluster gap 1; set style fill solid 0.8
set ylabel 'ms'; set yrange [0:*]; set key top right
plot '$rows' using 2:xtic(1) title 'blog 2013 (globalSync1/2/3)', '' using 3 title 'H100', '' using 4 title 'H200'
GP
}
stencil

# Pi: ms per way of finishing the sum against the steps, each GPU.
for gpu in h100 h200; do
    csv=$ROOT/bench/results/$gpu/pi.csv
    [ -f "$csv" ] || continue
    data=$(tail -n +2 "$csv" | sed 's/"[^"]*"//g' | awk -F, '$12 == "pass" { print $4, $7, $10 }')
    ways=$(echo "$data" | awk '!s[$1]++ { print $1 }')
    dev=$(sed -n 2p "$csv" | cut -d'"' -f2)
    {
        echo "set terminal pngcairo size 900,560 font ',10'; set output '$out/pi_$gpu.png'"
        echo "set title \"Pi (gridsync bench pi --backend cuda), $dev\" noenhanced"
        echo "set xlabel 'steps'; set ylabel 'ms'; set logscale xy; set key top left"
        printf 'plot '
        first=1
        for w in $ways; do
            [ $first = 1 ] || printf ', '
            first=0
            printf "'-' using 1:2 with linespoints title '%s'" "$w"
        done
        echo
        for w in $ways; do
            echo "$data" | awk -v w="$w" '$1 == w { print $2, $3 }'
            echo e
        done
    } | gnuplot
done
ls "$out"/*.png
