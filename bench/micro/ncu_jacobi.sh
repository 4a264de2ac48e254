#!/bin/bash
# bench/micro/ncu_jacobi.sh BUILD OUTDIR: Nsight Compute on the user's Jacobi kernels of
# bench/micro/jacobi_order.cu (apps/jacobi's sync form), one report per variant. Issue 15's
# last gap: at 4096^2 and 8192^2 on 1 and 2 blocks per SM the library's flip trails
# grid.sync() by 0.1-0.5% with the same 27-instruction sweep loop, and the stamps
# (bench/results/h100/twelfth/jacobi_order_stamps.csv) put the loss in the sweeps between
# barriers, not in the barrier. What the counters say about those sweeps: L1 and L2 hit
# rates, instructions issued, threads active per warp instruction (divergence), and the
# stall samples per SASS instruction (the source page), summed over the sweep loop and
# the rest of the kernel by ncu_sweep_samples.py.
#   NCU_VARIANTS  jacobi_order variant:kernel-regex pairs (default cg, flip, hand-flip)
#   JO_SIZES, JO_GROUPS as jacobi_order's (default 4096:200 and 132,264)
# Leaves the clocks alone (--clock-control none, METHOD.md). Each report's details page
# and source page (SASS, stall samples) go to OUTDIR as CSV, the .ncu-rep beside them,
# all packed into OUTDIR.tar.gz.
set -uo pipefail
BUILD=$1 OUTDIR=$2
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
mkdir -p "$OUTDIR"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
bash "$ROOT/bench/micro/build_jacobi_order.sh" "$BUILD" "$WORK/jo" "$ROOT/include" -lineinfo || exit 1
export JO_SIZES=${JO_SIZES:-4096:200} JO_GROUPS=${JO_GROUPS:-132,264} JO_ROUNDS=1
VARIANTS=${NCU_VARIANTS:-"cg:gsj_persistentI6gsj_cg flip:gsj_persistentI8gsj_flip hand-flip:hand_flipILi0ELi0ELi0ELi0ELi0EE"}
METRICS=gpu__time_duration.sum,sm__cycles_elapsed.avg,smsp__inst_executed.sum,\
smsp__thread_inst_executed_per_inst_executed.ratio,smsp__sass_branch_targets_threads_divergent.sum,\
l1tex__t_sector_hit_rate.pct,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_sector_hit_rate.pct,lts__t_sectors_op_read.sum,\
lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum,dram__bytes_read.sum,dram__bytes_write.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__cycles_active.avg,sm__warps_active.avg.pct_of_peak_sustained_active
rc=0
for pair in $VARIANTS; do
    v=${pair%%:*} k=${pair#*:}
    # every launch of the kernel after the warm-up round: round 1 at each grid
    JO_ONLY=$v "$NCU" --clock-control none --kernel-name-base mangled --kernel-name "regex:$k" --launch-count 4 \
        --section WarpStateStats --section SchedulerStats --section SourceCounters \
        --section MemoryWorkloadAnalysis --metrics "$METRICS" -f -o "$OUTDIR/ncu_$v" \
        "$WORK/jo" >"$OUTDIR/ncu_${v}_run.txt" 2>&1 || rc=1
    tail -3 "$OUTDIR/ncu_${v}_run.txt"
    "$NCU" -i "$OUTDIR/ncu_$v.ncu-rep" --page details --csv >"$OUTDIR/ncu_${v}_details.csv" 2>&1 || rc=1
    "$NCU" -i "$OUTDIR/ncu_$v.ncu-rep" --page source --print-source sass --csv \
        >"$OUTDIR/ncu_${v}_source.csv" 2>&1 || rc=1
    # the headline figures, one line each
    grep -E '"(gpu__time_duration.sum|smsp__inst_executed.sum|smsp__thread_inst_executed_per_inst_executed.ratio|l1tex__t_sector_hit_rate.pct|lts__t_sector_hit_rate.pct|dram__bytes_read.sum|lts__t_sectors_op_read.sum)"' \
        "$OUTDIR/ncu_${v}_details.csv" | awk -F'","' -v v="$v" '{ print v, $9, $(NF-2), $NF }' || true
done
# the sweep loop's stall samples against the rest of each kernel's
python3 "$ROOT/bench/micro/ncu_sweep_samples.py" "$OUTDIR"/ncu_*_source.csv | tee "$OUTDIR/sweep_samples.txt" || rc=1
# few files come back from the GPU machine: the reports and pages in one archive
tar -czf "$OUTDIR.tar.gz" -C "$(dirname "$OUTDIR")" "$(basename "$OUTDIR")" && rm -rf "$OUTDIR"
exit $rc
