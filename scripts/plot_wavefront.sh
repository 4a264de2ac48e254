#!/usr/bin/env bash
# scripts/plot_wavefront.sh [OUTDIR] - the figures of docs/wavefront.md (default
# docs/img/): Needleman-Wunsch time against matrix size per scheme (bench wavefront's
# size experiment) and SOR time per scheme at each size (bench sor's best grid), for
# every GPU under bench/results/ that has the CSV. Skips, exiting 0, without gnuplot.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$ROOT/docs/img}
command -v gnuplot >/dev/null || { echo "plot_wavefront.sh: no gnuplot, figures not drawn"; exit 0; }
mkdir -p "$out"
dat=$(mktemp -d)
trap 'rm -rf "$dat"' EXIT

# The CSVs quote the device and platform, which hold commas: drop the quoted fields first.
plain() { sed 's/"[^"]*"//g' "$1"; }

nw=() sor=()
for dir in "$ROOT"/bench/results/*/; do
    gpu=$(basename "$dir")
    if [ -f "$dir/wavefront.csv" ]; then
        # size experiment: the fastest run of each scheme (local: either group count) per n
        for scheme in relaunch relaunch-graph global cg local; do
            plain "$dir/wavefront.csv" | awk -F, -v s="$scheme" '$1=="size" && $18==s && $24=="pass" {
                if (!($16 in best) || $10 < best[$16]) best[$16] = $10 }
                END { for (n in best) print n, best[n] }' | sort -n >"$dat/nw_${gpu}_$scheme.dat"
        done
        nw+=("$gpu")
    fi
    if [ -f "$dir/sor.csv" ]; then
        for algo in relaunch relaunch-graph auto cg local; do
            plain "$dir/sor.csv" | awk -F, -v a="$algo" '$1=="best" && $5==a { print $16, $10, $8 }' |
                sort -n >"$dat/sor_${gpu}_$algo.dat"
        done
        sor+=("$gpu")
    fi
done

for gpu in "${nw[@]}"; do
    gnuplot <<GP
set terminal pngcairo size 1000,650 font ',10'
set output '$out/wavefront_size_$gpu.png'
set title "Needleman-Wunsch, tiles of 16 x 16, $gpu: gridsync bench wavefront --backend cuda (size experiment)" noenhanced
set logscale xy 2
set xlabel 'sequence length n (an (n+1)^2 matrix)'
set ylabel 'ms (median of 3)'
set key top left
plot '$dat/nw_${gpu}_relaunch.dat' with linespoints title 'relaunch (a launch per anti-diagonal)', \
     '$dat/nw_${gpu}_relaunch-graph.dat' with linespoints title 'relaunch-graph', \
     '$dat/nw_${gpu}_global.dat' with linespoints title 'global (auto barrier per diagonal)', \
     '$dat/nw_${gpu}_cg.dat' with linespoints title 'global with grid.sync()', \
     '$dat/nw_${gpu}_local.dat' with linespoints lw 2 title 'local (tickets + a flag per tile)'
GP
    echo "$out/wavefront_size_$gpu.png"
done
for gpu in "${sor[@]}"; do
    # the sizes and their sweeps, as the run had them ("512 x 4000, ...")
    sizes=$(awk '{ printf "%s%s x %s", (NR > 1 ? ", " : ""), $1, $3 }' "$dat/sor_${gpu}_local.dat")
    xtics=$(awk '{ printf "%s%s", (NR > 1 ? ", " : ""), $1 }' "$dat/sor_${gpu}_local.dat")
    gnuplot <<GP
set terminal pngcairo size 1000,650 font ',10'
set output '$out/sor_$gpu.png'
set title "SOR sweeps pipelined as a wavefront, tiles of 32 x 32, $gpu: gridsync bench sor --backend cuda (best grid per scheme)" noenhanced
set logscale x 2
set xlabel 'N x sweeps: $sizes'
set xtics ($xtics)
set offsets graph 0.03, graph 0.03, 0, 0
set ylabel 'ms (median of 3)'
set key top center
plot '$dat/sor_${gpu}_relaunch.dat' using 1:2 with linespoints title 'relaunch', \
     '$dat/sor_${gpu}_relaunch-graph.dat' using 1:2 with linespoints title 'relaunch-graph', \
     '$dat/sor_${gpu}_auto.dat' using 1:2 with linespoints title 'global (auto)', \
     '$dat/sor_${gpu}_cg.dat' using 1:2 with linespoints title 'global with grid.sync()', \
     '$dat/sor_${gpu}_local.dat' using 1:2 with linespoints lw 2 title 'local'
GP
    echo "$out/sor_$gpu.png"
done
