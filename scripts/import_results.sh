#!/usr/bin/env bash
# scripts/import_results.sh OUT DEST - files the output of one scripts/gpu.sh run ($OUT,
# as it comes back from the GPU machine) into a results folder, bench/results/<gpu>/, in
# the layout that folder's README describes, and draws the plots.
#
#     bash scripts/import_results.sh /path/to/out bench/results/h100
#
# What a stage of that run did not produce is left as it was in DEST (GS_GPU_ONLY runs
# refresh only their own files); the README in DEST says which run made which file.
set -euo pipefail
src=$1
dest=$2
[ -f "$src/summary.txt" ] || { echo "import_results: $src has no summary.txt (not a gpu.sh output)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -f "$src/results.tar.gz" ] && tar -xzf "$src/results.tar.gz" -C "$work"
[ -f "$src/logs.tar.gz" ] && tar -xzf "$src/logs.tar.gz" -C "$work"
mkdir -p "$dest/tune"

# take FILE TARGET: copies FILE when the run made it
take() { [ -s "$1" ] && install -m 0644 "$1" "$2" || true; }

for f in groups.csv jacobi.csv wavefront.csv sor.csv micro.csv libsync.csv sass.txt summary.txt; do take "$src/$f" "$dest/$f"; done
for f in groups.json groups64.csv groups64.json iters.csv iters.json wgsize.csv wgsize.json memory.csv \
    groups_opencl.csv variants_floor.csv split.csv split.json split_opencl.csv jacobi.json wavefront.json sor.json registers.txt \
    stencil.csv stencil.json pi.csv pi.json testsync.csv multi.csv multi.json multi_one_gpu.csv \
    multi_one_gpu.json; do
    take "$work/results/$f" "$dest/$f"
done
# bench thesis (stages cli_thesis, cli_thesis_opencl): thesis_{h,h_noloop,i,i_noloop,j}[_opencl].csv/.json
for f in "$work"/results/thesis_*.csv "$work"/results/thesis_*.json; do
    [ -e "$f" ] && take "$f" "$dest/$(basename "$f")"
done
for f in "$work"/results/tune_*.csv "$work"/results/bound_*.csv; do
    [ -e "$f" ] && take "$f" "$dest/tune/$(basename "$f")"
done

logs=$work/logs
if [ -s "$logs/variants.log" ]; then grep -v '^gs_variants' "$logs/variants.log" >"$dest/variants.csv" || true; fi
# episode_parts.log also holds nvcc's warnings: only its name,blocks,ns rows
if [ -s "$logs/episode_parts.log" ]; then
    grep -E '^[a-z_+]+,[0-9]+,[0-9.]+$' "$logs/episode_parts.log" >"$dest/episode_parts.csv" || true
fi
take "$logs/cli_check.log" "$dest/check_cuda.txt"
take "$logs/cli_check_lines.log" "$dest/check_cuda_lines.txt"
take "$logs/cli_check_opencl.log" "$dest/check_opencl_nvidia.txt"
take "$logs/cli_check_ocl12.log" "$dest/check_opencl_nvidia_seeds_fences.txt"
take "$logs/memcheck.log" "$dest/compute_sanitizer_memcheck.txt"
take "$logs/synccheck.log" "$dest/compute_sanitizer_synccheck.txt"
for t in cuda_barrier cuda_faults cuda_weak cuda_weak_lines cuda_user_api cuda_local cuda_multi cli_jacobi cli_stencil \
    cli_testsync cli_pi cli_thesis cli_thesis_opencl cli_multi cli_multi_one_gpu; do take "$logs/$t.log" "$dest/$t.log"; done

if command -v gnuplot >/dev/null; then
    bash "$(dirname "$0")/plot.sh" "$dest"
else
    echo "import_results: no gnuplot, plots not drawn (Debian: gnuplot-nox)" >&2
fi
echo "import_results: $(grep -c . "$dest/summary.txt") summary lines; $(tail -1 "$dest/summary.txt")"
