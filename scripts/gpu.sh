#!/usr/bin/env bash
# scripts/gpu.sh - everything gridsync wants from a GPU machine, in one run of at most
# ~8 minutes: build, SASS of the barrier hot paths, microbenchmarks, the CUDA tests,
# the gridsync CLI, OpenCL on NVIDIA's driver where it can be reached.
#
#     OUT=/some/dir scripts/gpu.sh        (run from the repository root)
#
# The machine is bare: CUDA toolkit, cmake, ninja; no apt, maybe no cmocka, no OpenCL
# headers or ICD loader. Every stage runs under its own time limit and the script goes
# on after a failure. What comes back, under $OUT (few files, on purpose):
#     summary.txt       the stage table (also printed last)
#     micro.csv         gs_micro: name,blocks,threads,ns
#     groups.csv/.json  gridsync bench groups --backend cuda
#     sass.txt          the barrier instructions of every protocol's kernel
#     logs.tar.gz       every log, the full SASS, ctest output
# Only the 2013 thesis's experiments (CUDA and NVIDIA's OpenCL, ~60 s after the build):
#     GS_GPU_ONLY=cli_thesis,cli_thesis_opencl OUT=/some/dir scripts/gpu.sh
# Environment: OUT (default ./gpu-out), GS_BUILD_DIR (default build-gpu),
# GS_GPU_QUICK=1 for shorter tests, GS_GPU_ONLY=stage,stage,... to run only those
# stages (the machine's, configure's and build's always run).
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
OUT=${OUT:-$ROOT/gpu-out}
BUILD=${GS_BUILD_DIR:-build-gpu}
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
QUICK=${GS_GPU_QUICK:-0}
mkdir -p "$OUT"
WORK=$(mktemp -d /tmp/gs-gpu.XXXXXX)
LOGS="$WORK/logs"
mkdir -p "$LOGS"
START=$(date +%s)
STAGES=()

export PATH="$PATH:/usr/local/cuda/bin"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUOBJDUMP=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
JOBS=$(nproc 2>/dev/null || echo 4)

pack() {
    tar -czf "$OUT/logs.tar.gz.tmp" -C "$WORK" logs 2>/dev/null && mv "$OUT/logs.tar.gz.tmp" "$OUT/logs.tar.gz"
    {
        printf '%-16s %-8s %6s  %s\n' stage status secs note
        for s in "${STAGES[@]}"; do printf '%s\n' "$s"; done
        printf 'total %ss, device: %s\n' "$(($(date +%s) - START))" "${GPU_NAME:-?}"
    } >"$OUT/summary.txt"
}

BUDGET=${GS_GPU_BUDGET:-570} # seconds for the whole script

# stage NAME LIMIT_SECONDS COMMAND... : runs the command (or an exported shell function)
# with its output in logs/NAME.log, within its limit and what is left of the budget.
stage() {
    local name=$1 limit=$2
    shift 2
    local t0 rc status note left
    case ",${GS_GPU_ONLY:-$name},machine,configure,build,build_tests," in
    *",$name,"*) ;;
    *) return 0 ;;
    esac
    t0=$(date +%s)
    left=$((BUDGET - (t0 - START) - 5))
    [ "$left" -lt "$limit" ] && limit=$left
    if [ "$limit" -lt 10 ]; then
        STAGES+=("$(printf '%-16s %-8s %6s  %s' "$name" "NOTIME" 0 "budget spent")")
        pack
        return 124
    fi
    echo "=== $name (limit ${limit}s)" >&2
    timeout -k 10 "$limit" bash -c '"$@"' _ "$@" >"$LOGS/$name.log" 2>&1
    rc=$?
    case $rc in
    0) status=ok ;;
    77) status=skipped ;;
    124 | 137) status=TIMEOUT ;;
    *) status=FAIL ;;
    esac
    note=$(grep -E "passed|failed|tests passed|error:" "$LOGS/$name.log" 2>/dev/null | tail -1 | cut -c1-80)
    STAGES+=("$(printf '%-16s %-8s %6s  rc=%s %s' "$name" "$status" "$(($(date +%s) - t0))" "$rc" "$note")")
    echo "=== $name: $status (rc $rc)" >&2
    tail -5 "$LOGS/$name.log" >&2
    pack
    return $rc
}

# named_stage NAME LIMIT COMMAND...: a stage that runs only where GS_GPU_ONLY names it
# (an experiment of its own, not part of the default run).
named_stage() {
    case ",${GS_GPU_ONLY:-}," in *",$1,"*) stage "$@" ;; esac
}

# Every experiment's CSV and JSON go into results.tar.gz (few files come back).
RES="$WORK/results"
mkdir -p "$RES"
export ROOT OUT BUILD WORK LOGS NVCC CUOBJDUMP RES
# ---- 0. the machine ----------------------------------------------------------------
GPU_NAME=$(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null | head -1)
machine_info() {
    nvidia-smi || true
    "$NVCC" --version || true
    cmake --version | head -1
    ninja --version
    nproc
    echo "OpenCL headers: $(ls /usr/include/CL/cl.h 2>/dev/null || echo none)"
    echo "ICD loader: $(ls /usr/lib/x86_64-linux-gnu/libOpenCL.so* /usr/local/cuda/lib64/libOpenCL.so* 2>/dev/null | tr '\n' ' ')"
    echo "NVIDIA OpenCL: $(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so* 2>/dev/null | tr '\n' ' ')"
    echo "cmocka: $(ls /usr/lib/x86_64-linux-gnu/libcmocka* /usr/lib/x86_64-linux-gnu/cmake/cmocka 2>/dev/null | tr '\n' ' ')"
}
export -f machine_info
stage machine 30 machine_info

# ---- 1. OpenCL: headers + ICD loader + NVIDIA's ICD --------------------------------
OPENCL=OFF
if [ -f /usr/include/CL/cl.h ] && ls /usr/lib/x86_64-linux-gnu/libOpenCL.so* /usr/local/cuda/lib64/libOpenCL.so* >/dev/null 2>&1; then
    OPENCL=ON
    # NVIDIA's driver without its ICD file: gridsync loads the library itself, and only
    # NVIDIA's platform counts (docs/using.md, "NVIDIA's OpenCL without its ICD file"), so
    # an OpenCL stage cannot pass on another platform by mistake.
    if ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
        export GRIDSYNC_OPENCL_ICD=libnvidia-opencl.so.1
    fi
    export GRIDSYNC_OPENCL_PLATFORM=NVIDIA
fi

# ---- 2. configure and build ----------------------------------------------------------
TESTING=ON
if ! ls /usr/lib/x86_64-linux-gnu/cmake/cmocka/*onfig.cmake /usr/lib/cmake/cmocka/*onfig.cmake \
    /usr/local/lib/cmake/cmocka/*onfig.cmake /usr/lib64/cmake/cmocka/*onfig.cmake >/dev/null 2>&1; then
    TESTING=OFF # tests/CMakeLists.txt needs cmocka; the CUDA tests are built by hand below
fi
configure() {
    cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DGRIDSYNC_OPENCL=$OPENCL -DGRIDSYNC_TSAN_TESTS=OFF -DBUILD_TESTING=$TESTING
}
export OPENCL TESTING
export -f configure
stage configure 120 configure
stage build 240 cmake --build "$BUILD" -j "$JOBS"

CLI=$(find "$BUILD/tools" -maxdepth 2 -type f -name gridsync -perm -u+x 2>/dev/null | head -1)
MICRO="$BUILD/bench/gs_micro"
CUDA_BARRIER=$(find "$BUILD/tests" -maxdepth 1 -type f -name cuda_barrier 2>/dev/null | head -1)
CUDA_WEAK=$(find "$BUILD/tests" -maxdepth 1 -type f -name cuda_weak 2>/dev/null | head -1)
CUDA_USER_API=$(find "$BUILD/tests" -maxdepth 1 -type f -name cuda_user_api 2>/dev/null | head -1)
CUDA_LOCAL=$(find "$BUILD/tests" -maxdepth 1 -type f -name cuda_local 2>/dev/null | head -1)
CUDA_MULTI=$(find "$BUILD/tests" -maxdepth 1 -type f -name cuda_multi 2>/dev/null | head -1)
CUDA_MULTI_NCCL=$(find "$BUILD/tests" -maxdepth 1 -type f -name cuda_multi_nccl 2>/dev/null | head -1)
if [ -z "$CUDA_BARRIER" ] && [ -f "$BUILD/src/libgridsync_all.a" ]; then
    # no cmocka, or tests/CMakeLists.txt does not include src/cuda/tests.cmake: by hand,
    # against the in-tree library with every back end (libgridsync_all.a)
    build_tests() {
        local libs="$BUILD/src/libgridsync_all.a"
        [ "$OPENCL" = ON ] && libs="$libs -lOpenCL"
        for t in cuda_barrier cuda_weak cuda_user_api cuda_local cuda_multi; do
            "$NVCC" -arch=sm_90 -O2 -std=c++17 -Iinclude -Isrc -Itests -Itests/weaken "tests/$t.cu" $libs \
                -cudart shared -lpthread -o "$WORK/$t" || return 1
        done
        # the NCCL path's one-GPU test, where gridsync_nccl was built (NCCL found)
        local nccl_dir
        nccl_dir=$(dirname "$(find /usr/local/cuda/ /usr/local/cuda/lib /usr/local/cuda/lib64 \
            /usr/lib/x86_64-linux-gnu -maxdepth 1 -name 'libnccl.so*' 2>/dev/null | head -1)")
        if [ -f "$BUILD/src/libgridsync_nccl.a" ] && [ "$nccl_dir" != . ]; then
            "$NVCC" -arch=sm_90 -O2 -std=c++17 -Iinclude -Isrc -Itests tests/cuda_multi_nccl.cu \
                "$BUILD/src/libgridsync_nccl.a" $libs -L"$nccl_dir" -lnccl -Xlinker -rpath="$nccl_dir" \
                -cudart shared -lpthread -o "$WORK/cuda_multi_nccl" || return 1
        fi
    }
    export -f build_tests
    # an experiment's run (GS_GPU_ONLY naming no CUDA test) skips their build: ~30 s
    case ",${GS_GPU_ONLY:-cuda}," in
    *cuda* | *example*) stage build_tests 240 build_tests ;;
    esac
    CUDA_BARRIER="$WORK/cuda_barrier"
    CUDA_WEAK="$WORK/cuda_weak"
    CUDA_USER_API="$WORK/cuda_user_api"
    CUDA_LOCAL="$WORK/cuda_local"
    CUDA_MULTI="$WORK/cuda_multi"
    CUDA_MULTI_NCCL="$WORK/cuda_multi_nccl"
fi

# ---- 3. SASS: the barrier's instructions, per protocol ---------------------------------
sass() {
    local objs
    objs=$(find "$BUILD/src" -name 'kernel_*.cu.o' | sort)
    "$NVCC" -arch=sm_90 -O3 -cubin -Iinclude bench/micro/probe.cu -o "$WORK/probe.cubin" -Xptxas -v \
        >"$LOGS/probe_ptxas.log" 2>&1
    for o in $objs "$WORK/probe.cubin"; do
        echo "##### $o"
        "$CUOBJDUMP" -sass "$o"
    done >"$LOGS/sass_full.txt" 2>&1
    {
        echo "# registers (ptxas -v) of the probe kernels:"
        grep -E "Compiling entry|Used" "$LOGS/probe_ptxas.log" | paste - - | sed -E 's/ptxas info *: //g'
        echo "# registers of the built-in kernels:"
        "$CUOBJDUMP" -res-usage $objs 2>&1 | grep -E "Function|REG" | paste - - | cut -c1-160
        echo
        echo "# every memory-ordering, atomic, barrier and sleep instruction, per function"
        awk '/Function :/ { print ""; print; next }
             /(ATOM|RED|MEMBAR|FENCE|CCTL|NANOSLEEP|BAR\.|BAR |UCGABAR|CGAERRBAR|ERRBAR|STRONG|GLOBALTIMER|LDG|STG|ST\.E|LD\.E|WARPSYNC|ELECT|SYNCS)/ {
                 gsub(/^[ \t]*/, ""); gsub(/ +/, " "); print }' "$LOGS/sass_full.txt"
    } >"$OUT/sass.txt"
    grep -c . "$OUT/sass.txt"
}
export -f sass
if [ -x "$CUOBJDUMP" ]; then stage sass 60 sass; fi

# ---- 4. microbenchmarks ------------------------------------------------------------------
if [ -x "$MICRO" ]; then
    stage micro 90 "$MICRO" "$OUT/micro.csv"
fi

# Candidate designs beside grid.sync() in one bare harness, and the library's own barriers
# in a bare user kernel (docs/performance.md reads them side by side).
VARIANTS="$BUILD/bench/gs_variants"
LIBSYNC="$BUILD/bench/gs_libsync"
[ -x "$VARIANTS" ] && stage variants 120 "$VARIANTS" full
[ -f "$LOGS/variants.log" ] && { grep -v "^gs_variants" "$LOGS/variants.log" >"$OUT/variants.csv" || true; }
# The floor: all-to-all flags, the lean tree, replicated releases, and the fence-free
# diagnostics (not barriers) that show what the fences cost at each size.
variants_floor() { GS_A2A=1 "$VARIANTS" quick a2a >"$RES/variants_floor.csv"; }
export -f variants_floor; export VARIANTS
[ -x "$VARIANTS" ] && stage variants_floor 90 variants_floor
libsync() { GS_LIBSYNC_ONLY=1 "$LIBSYNC" central,flip,tree,sharded,cluster,cg; }
export -f libsync; export LIBSYNC
[ -x "$LIBSYNC" ] && stage libsync 90 libsync
[ -f "$LOGS/libsync.log" ] && { cp "$LOGS/libsync.log" "$OUT/libsync.csv" || true; }

episode_parts() { "$NVCC" -arch=sm_90 -O3 "$ROOT/bench/micro/episode_parts.cu" -o "$WORK/episode_parts" && "$WORK/episode_parts"; }
export -f episode_parts
stage episode_parts 60 episode_parts

# What gridsync's begin and one or four barriers add to an empty kernel (auto, 132 to 1056
# blocks of 256): device time between CUDA events.
begin_cost() {
    "$NVCC" -arch=sm_90 -O3 -std=c++17 -I"$ROOT/include" "$ROOT/bench/micro/begin_cost.cu" \
        "$BUILD/src/libgridsync-cuda.a" "$BUILD/src/libgridsync.a" -lcuda -o "$WORK/begin_cost" &&
        "$WORK/begin_cost" >"$OUT/begin_cost.csv" && cat "$OUT/begin_cost.csv"
}
export -f begin_cost
[ -f "$BUILD/src/libgridsync-cuda.a" ] && stage begin_cost 60 begin_cost

# Where gs_cuda_launch's host time goes: each call's host time against <<<>>>'s.
launch_cost() {
    "$NVCC" -arch=sm_90 -O3 -std=c++17 -I"$ROOT/include" "$ROOT/bench/micro/launch_cost.cu" \
        "$BUILD/src/libgridsync-cuda.a" "$BUILD/src/libgridsync.a" -lcuda -o "$WORK/launch_cost" &&
        "$WORK/launch_cost" | tee "$RES/launch_cost.csv"
}
export -f launch_cost
[ -f "$BUILD/src/libgridsync-cuda.a" ] && stage launch_cost 60 launch_cost

# How soon the host learns that a kernel of 10 us to 10 ms has ended, by the way it waits.
wait_latency() {
    "$NVCC" -arch=sm_90 -O3 -std=c++17 "$ROOT/bench/micro/wait_latency.cu" -o "$WORK/wait_latency" &&
        "$WORK/wait_latency" | tee "$RES/wait_latency.csv"
}
export -f wait_latency
stage wait_latency 90 wait_latency

# Where the Pi program's ways to finish spend their time (apps/pi, issue 18): each
# variant's device time and its time from the launch to pi on the host.
pi_finish() {
    "$NVCC" -arch=sm_90 -O3 -std=c++17 -I"$ROOT/include" -I"$ROOT/apps/pi" "$ROOT/bench/micro/pi_finish.cu" \
        "$BUILD/src/libgridsync-cuda.a" "$BUILD/src/libgridsync.a" -lcuda -o "$WORK/pi_finish" &&
        "$WORK/pi_finish" | tee "$RES/pi_finish.csv"
}
export -f pi_finish
[ -f "$BUILD/src/libgridsync-cuda.a" ] && stage pi_finish 90 pi_finish

# The Pi program's ways taken apart at 10^9 and 10^10 steps (bench/micro/pi_tail.cu), with
# and without a 50 us kernel ahead of each variant; only when named.
pi_tail() {
    "$NVCC" -arch=sm_90 -O3 -std=c++17 -I"$ROOT/include" -I"$ROOT/apps/pi" "$ROOT/bench/micro/pi_tail.cu" \
        "$BUILD/src/libgridsync-cuda.a" "$BUILD/src/libgridsync.a" -lcuda -o "$WORK/pi_tail" &&
        { "$WORK/pi_tail"; "$WORK/pi_tail" gate | tail -n +2; } | tee "$RES/pi_tail.csv"
}
export -f pi_tail
named_stage pi_tail 120 pi_tail

# Issue 15: what each ingredient of a grid barrier costs in a user's Jacobi kernel (the
# app's sync and resident kernels with cg, gridsync's flip, and flip and cg's algorithms
# written out bare); the SASS of every kernel beside it.
jacobi_barriers() {
    "$NVCC" -arch=sm_90 -O3 -std=c++17 --fmad=false -I"$ROOT/include" -I"$ROOT/apps/jacobi" \
        "$ROOT/bench/micro/jacobi_barriers.cu" "$ROOT/apps/jacobi/reference.c" "$ROOT/apps/jacobi/tiles.c" \
        "$BUILD/src/libgridsync-cuda.a" "$BUILD/src/libgridsync.a" -lcuda -o "$WORK/jacobi_barriers" &&
        { [ ! -x "$CUOBJDUMP" ] || "$CUOBJDUMP" -sass "$WORK/jacobi_barriers" >"$RES/jacobi_barriers_sass.txt"; } &&
        "$WORK/jacobi_barriers" | tee "$RES/jacobi_barriers.csv"
}
export -f jacobi_barriers
[ -f "$BUILD/src/libgridsync-cuda.a" ] && stage jacobi_barriers 240 jacobi_barriers

# Issue 15's last gaps at 4096^2 and 8192^2: the order the app measures in, and flip's
# back-off, in interleaved rounds of the same user kernels (bench/micro/jacobi_order.cu).
jacobi_order() {
    NVCC="$NVCC" bash "$ROOT/bench/micro/build_jacobi_order.sh" "$BUILD" "$WORK/jacobi_order" &&
        "$WORK/jacobi_order" | tee "$RES/jacobi_order.csv"
}
export -f jacobi_order
[ -f "$BUILD/src/libgridsync-cuda.a" ] && stage jacobi_order 240 jacobi_order

# An A/B of the device headers in those kernels: where build-ab/old/include holds an older
# include/ (carried to the GPU machine: `git archive REV include | tar -x -C build-ab/old`),
# jacobi_order built against it and against this tree, run alternately
# (bench/micro/ab_headers.sh; AB_PAIRS pairs, default 3).
ab_headers() { NVCC="$NVCC" bash "$ROOT/bench/micro/ab_headers.sh" "$ROOT/build-ab/old/include" "$BUILD" "$RES/ab_headers.csv" "${AB_PAIRS:-3}"; }
export -f ab_headers
[ -d "$ROOT/build-ab/old/include" ] && [ -f "$BUILD/src/libgridsync-cuda.a" ] && stage ab_headers 500 ab_headers

# The sweep loops of the app's own kernels (every protocol and form beside grid.sync()'s):
# the fixed stall cycles ptxas wrote into the user's loop, which decide the large sizes
# at 1 and 2 blocks per SM (docs/performance.md, eighteenth round). No GPU time.
sweep_loops() { NVCC="$NVCC" bash "$ROOT/bench/micro/app_sweep_loops.sh" "$CUOBJDUMP" | tee "$RES/app_sweep_loops.txt"; }
export -f sweep_loops
[ -x "$CUOBJDUMP" ] && stage sweep_loops 120 sweep_loops

# ---- 5. CUDA tests -----------------------------------------------------------------------
[ "$QUICK" = 1 ] && export GS_TEST_QUICK=1
if [ "$TESTING" = ON ] && [ -f "$BUILD/CTestTestfile.cmake" ] && grep -rq cuda_barrier "$BUILD/tests/CTestTestfile.cmake" 2>/dev/null; then
    ctest_cuda() { cd "$BUILD" && ctest -L cuda --output-on-failure --timeout 200; }
    export -f ctest_cuda
    stage ctest_cuda 210 ctest_cuda
else
    [ -x "${CUDA_USER_API:-}" ] && stage cuda_user_api 120 "$CUDA_USER_API"
    # local synchronization: wavefronts with 10x the co-resident blocks, graph replays
    [ -x "${CUDA_LOCAL:-}" ] && stage cuda_local 90 "$CUDA_LOCAL"
    # a barrier across devices: two ranks on GPU 0 (GS_TEST_MULTI_DEVICES names others)
    [ -x "${CUDA_MULTI:-}" ] && stage cuda_multi 120 "$CUDA_MULTI"
    # and across the GPUs, where the machine has several: one rank each, over peer access
    GPUS=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
    if [ "${GPUS:-0}" -ge 2 ] && [ -x "${CUDA_MULTI:-}" ]; then
        stage cuda_multi_gpus 120 env GS_TEST_MULTI_DEVICES="$(seq -s, 0 $((GPUS - 1)))" "$CUDA_MULTI"
    fi
    # the NCCL path: one rank on GPU 0, then one rank a GPU (up to 8, one thread each) where
    # there are 2 or more (multicast off, as everywhere)
    [ -x "${CUDA_MULTI_NCCL:-}" ] && stage cuda_multi_nccl 120 env NCCL_NVLS_ENABLE=0 "$CUDA_MULTI_NCCL"
    # examples/cuda_ring.cu: the README's first CUDA program, asynchronous launch and collect
    [ -x "$BUILD/examples/example_cuda" ] && stage example_cuda 60 "$BUILD/examples/example_cuda"
    [ -x "$CUDA_BARRIER" ] && stage cuda_barrier 200 "$CUDA_BARRIER"
    [ -x "$CUDA_BARRIER" ] && stage cuda_faults 90 "$CUDA_BARRIER" fault
    [ -x "$CUDA_WEAK" ] && stage cuda_weak 90 "$CUDA_WEAK"
    # the release lines, which only grids above 1024 or 1536 groups take by default
    [ -x "$CUDA_WEAK" ] && stage cuda_weak_lines 90 env GRIDSYNC_RELEASE=lines GRIDSYNC_CLUSTER_SIZE=1 "$CUDA_WEAK"
fi

# ---- 5b. registers of user kernels beside grid.sync() (tests/regs; no GPU needed) ----------
registers() {
    set -o pipefail # the check's status, not tee's
    sh "$ROOT/tests/regs/check_registers.sh" "$NVCC" "$ROOT/include" "$ROOT/tests/regs/user_kernels.cu" | tee "$RES/registers.txt"
}
export -f registers
stage registers 60 registers

# ---- 6. the CLI -------------------------------------------------------------------------
if [ -n "$CLI" ]; then
    # The application benchmark: a user's Jacobi solver (apps/jacobi) with every protocol,
    # auto, grid.sync(), a relaunch per iteration and a CUDA-graph relaunch, at 1, 2, 4 and 8
    # blocks of 256 per SM and four sizes, each result checked against the host; the local
    # form (bands waiting for their neighbours, no barrier) and the halo form (resident
    # tiles, halos in tagged words, no barrier) beside them. GS_JACOBI_ARGS:
    # other options in place of the defaults' (e.g. --form sync,local --algo auto,cg).
    # (--allow-refused: the resident form's tiles at 4096^2 on 1056 groups do not fit the
    # co-resident blocks' shared memory; those rows are "refused", the rest still checked)
    stage cli_jacobi 540 "$CLI" bench jacobi --backend cuda --allow-refused ${GS_JACOBI_ARGS:-} --csv "$OUT/jacobi.csv" \
        --json "$RES/jacobi.json"
    # The SOR wavefront (apps/sor): S Gauss-Seidel sweeps of N x N in 32 x 32 tiles, one
    # warp per tile; local (tickets + a progress word per tile) against global (auto, a
    # barrier per wavefront step), cg, relaunch and relaunch-graph, at 1 .. 32 blocks per
    # SM and 512^2 x 4000 .. 8192^2 x 100, each result checked bit for bit; the summary
    # gives local's speed-ups. The CUDA correctness test of the app runs in ctest_cuda.
    # GS_SOR_ARGS: other options in place of the defaults' (e.g. --sizes, --groups).
    stage cli_sor 540 "$CLI" bench sor --backend cuda --repeats 3 ${GS_SOR_ARGS:-} --csv "$OUT/sor.csv" \
        --json "$RES/sor.json"
    # The blog's stencil at its own sizes (2048 items, 500000 iterations, blocks 1024/64/32,
    # every method) and at 2^20 elements x 1000, beside the blog's times; the lecture's Pi
    # program up to 10^10 steps, every way to finish the sum; test_sync with and without
    # the barrier.
    # Needleman-Wunsch wavefronts (apps/nw, issue 17): relaunch per anti-diagonal, a grid
    # barrier per diagonal, local tickets (co-resident and 10x the blocks), 2048^2 to
    # 32768^2, B = 16/32/64, flag granularity and PeerWave's row allocation; every matrix
    # checked against the host's before it is timed.
    stage cli_wavefront 540 "$CLI" bench wavefront --backend cuda --repeats 3 --csv "$OUT/wavefront.csv" \
        --json "$RES/wavefront.json"
    stage cli_stencil 540 "$CLI" bench stencil --backend cuda --repeats 2 --allow-refused --csv "$RES/stencil.csv" \
        --json "$RES/stencil.json"
    stage cli_testsync 60 "$CLI" demo testsync --backend cuda --csv "$RES/testsync.csv"
    stage cli_pi 240 "$CLI" bench pi --backend cuda --csv "$RES/pi.csv" --json "$RES/pi.json"
    # Only when named (GS_GPU_ONLY): every application at its --quick sizes, each result
    # checked (a minute: after a change to the apps' shared code), and the Pi program's
    # ways at 10^9 and 10^10 steps (GS_PI_STEPS: other --steps) in GS_PI_RUNS (default 3)
    # runs, the SM clock and the power sampled beside them (nvidia-smi, 100 ms).
    apps_quick() {
        local rc=0 e
        for e in "bench jacobi --quick --allow-refused" "bench sor --quick" "bench wavefront --quick" \
            "bench stencil --quick --allow-refused" "demo testsync" "bench pi --quick"; do
            echo "== gridsync $e --backend cuda"
            $CLI $e --backend cuda || rc=1
        done
        return $rc
    }
    pi_rounds() {
        local rc=0 i smi
        nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu \
            --format=csv -lms 100 >"$RES/pi_rounds_smi.csv" 2>/dev/null &
        smi=$!
        for i in $(seq 1 "${GS_PI_RUNS:-3}"); do
            "$CLI" bench pi --backend cuda --steps "${GS_PI_STEPS:-1000000000,10000000000}" \
                --csv "$RES/pi_rounds_$i.csv" || rc=1
        done
        kill "$smi" 2>/dev/null
        return $rc
    }
    # Only when named: whether the order of the methods moves the large sizes' auto / cg
    # (bench jacobi runs cg before auto at every grid): cg alone, auto alone, auto, cg
    # (ABBA, each its own process), then both in one process as the table runs them.
    jacobi_abba() {
        local rc=0 i=0 m
        local args="--backend cuda --form sync --sizes 4096:1000,8192:200 --groups 132,264 --repeats 5"
        for m in cg auto auto cg cg,auto; do
            i=$((i + 1))
            "$CLI" bench jacobi $args --algo "$m" --csv "$RES/jacobi_abba_${i}_${m/,/_}.csv" || rc=1
        done
        return $rc
    }
    export -f apps_quick pi_rounds jacobi_abba; export CLI RES
    named_stage cli_apps_quick 300 apps_quick
    named_stage pi_rounds 400 pi_rounds
    named_stage jacobi_abba 500 jacobi_abba
    stage cli_multi 240 "$CLI" bench multi --backend cuda --csv "$RES/multi.csv" --json "$RES/multi.json"
    # two ranks on one GPU: the protocol across devices where only one GPU is lent
    stage cli_multi_one_gpu 120 "$CLI" bench multi --backend cuda --devices 0,0 \
        --csv "$RES/multi_one_gpu.csv" --json "$RES/multi_one_gpu.json"
    stage cli_info 60 "$CLI" info
    stage cli_groups 150 "$CLI" bench groups --backend cuda --algo all --csv "$OUT/groups.csv" --json "$RES/groups.json"
    stage cli_groups64 150 "$CLI" bench groups --backend cuda --algo all --block 64 --groups 132,1056,2112,4224 \
        --csv "$RES/groups64.csv" --json "$RES/groups64.json"
    stage cli_iters 120 "$CLI" bench iters --backend cuda --algo all --csv "$RES/iters.csv" --json "$RES/iters.json"
    stage cli_wgsize 120 "$CLI" bench wgsize --backend cuda --algo all --csv "$RES/wgsize.csv" --json "$RES/wgsize.json"
    stage cli_memory 30 "$CLI" bench memory --backend cuda --algo all --csv "$RES/memory.csv"
    # The 2013 thesis's Appendices H, I, J (gridsync bench thesis; docs/results.md reads
    # them beside the thesis's tables): its CB/DCB/CPU Sync (central, lockfree, relaunch)
    # in groups of 128, with its avg = (a + b) / 2 loop (20000 steps) before every barrier,
    # and again with one step (_noloop: what its own times show it measured). ~30 s.
    thesis() {
        local backend=$1 sfx=$2 rc=0
        "$CLI" bench thesis --backend "$backend" --appendix H --csv "$RES/thesis_h$sfx.csv" \
            --json "$RES/thesis_h$sfx.json" || rc=1
        "$CLI" bench thesis --backend "$backend" --appendix H --compute 1 --csv "$RES/thesis_h_noloop$sfx.csv" || rc=1
        "$CLI" bench thesis --backend "$backend" --appendix I --repeats 3 --csv "$RES/thesis_i$sfx.csv" \
            --json "$RES/thesis_i$sfx.json" || rc=1
        "$CLI" bench thesis --backend "$backend" --appendix I --compute 1 --repeats 3 \
            --csv "$RES/thesis_i_noloop$sfx.csv" || rc=1
        "$CLI" bench thesis --backend "$backend" --appendix J --csv "$RES/thesis_j$sfx.csv" || rc=1
        return $rc
    }
    export -f thesis; export CLI
    stage cli_thesis 150 thesis cuda ""
    # What the split-phase form hides: independent work between gs_arrive and gs_wait_token
    # against the same work before gs_sync, at 1 and 8 blocks per SM.
    stage cli_split 120 "$CLI" bench split --backend cuda --algo all --groups 132,1056 \
        --csv "$RES/split.csv" --json "$RES/split.json"
    stage cli_check 100 "$CLI" check --backend cuda
    # The release lines flip, cluster (of one block) and the tree take above 1536 groups,
    # at check's sizes (the ctest check_cuda_lines, where cmocka is missing).
    stage cli_check_lines 100 env GRIDSYNC_RELEASE=lines GRIDSYNC_RELEASE_LINES=3 GRIDSYNC_CLUSTER_SIZE=1 \
        "$CLI" check --backend cuda --quick --algo flip,tree,cluster
    # Tuning sweep: poll back-off (GRIDSYNC_BACKOFF_NS, the sleep once a wait is long),
    # and flip's and cluster's two releases (polling the counter; 4, 8 or 16 release
    # lines) around the size where the host switches. (The tree's sweep, tune_tree*, is
    # the third round's: GRIDSYNC_RELEASE=poll|lines with GRIDSYNC_TREE_FANOUT redoes it.)
    tune_backoff() {
        for bo in 0 128 512; do
            GRIDSYNC_BACKOFF_NS=$bo "$CLI" bench groups --backend cuda --algo flip,cg --groups 132,1056 \
                --repeats 3 --csv "$RES/tune_backoff_$bo.csv" >/dev/null || return 1
            GRIDSYNC_BACKOFF_NS=$bo "$CLI" bench groups --backend cuda --algo central,lockfree,sharded \
                --block 64 --groups 1056,4224 --repeats 3 --csv "$RES/tune_backoff64_$bo.csv" >/dev/null || return 1
        done
    }
    tune() {
        for rel in poll lines4 lines8 lines16; do
            local n=${rel#lines}; [ "$rel" = poll ] && n=1
            GRIDSYNC_RELEASE=${rel%%[0-9]*} GRIDSYNC_RELEASE_LINES=$n "$CLI" bench groups --backend cuda \
                --algo flip,cluster --groups 528,1056 --repeats 3 --csv "$RES/tune_flip_$rel.csv" >/dev/null || return 1
            GRIDSYNC_RELEASE=${rel%%[0-9]*} GRIDSYNC_RELEASE_LINES=$n "$CLI" bench groups --backend cuda \
                --algo flip,cluster --block 64 --groups 1056,2112,4224 --repeats 3 \
                --csv "$RES/tune_flip64_$rel.csv" >/dev/null || return 1
        done
    }
    # The tree's two releases (GRIDSYNC_RELEASE=poll|lines) on both sides of the size
    # where the host switches, and the leaf width with lines.
    tune_tree() {
        local rel f
        for rel in poll lines; do
            GRIDSYNC_RELEASE=$rel "$CLI" bench groups --backend cuda --algo tree --groups 528,1056 --repeats 3 \
                --csv "$RES/tune_tree_$rel.csv" >/dev/null || return 1
            GRIDSYNC_RELEASE=$rel "$CLI" bench groups --backend cuda --algo tree --block 64 \
                --groups 1056,2112,4224 --repeats 3 --csv "$RES/tune_tree64_$rel.csv" >/dev/null || return 1
        done
        for f in 66 132 264; do
            GRIDSYNC_RELEASE=lines GRIDSYNC_TREE_FANOUT=$f "$CLI" bench groups --backend cuda --algo tree \
                --groups 1056 --repeats 3 --csv "$RES/tune_tree_lines_f$f.csv" >/dev/null || return 1
            GRIDSYNC_RELEASE=lines GRIDSYNC_TREE_FANOUT=$f "$CLI" bench groups --backend cuda --algo tree \
                --block 64 --groups 1056 --repeats 3 --csv "$RES/tune_tree64_lines_f$f.csv" >/dev/null || return 1
        done
        for f in 128 528; do
            GRIDSYNC_RELEASE=lines GRIDSYNC_TREE_FANOUT=$f "$CLI" bench groups --backend cuda --algo tree \
                --block 64 --groups 2112,4224 --repeats 3 --csv "$RES/tune_tree64_lines_f$f.csv" >/dev/null || return 1
        done
        cat "$RES"/tune_tree*.csv | grep -v '^experiment' | cut -d, -f5-9
    }
    export -f tune tune_backoff tune_tree; export CLI
    export RES
    stage tune_backoff 90 tune_backoff
    stage tune 150 tune
    stage tune_tree 150 tune_tree
fi

# ---- 6b. what the bound costs, and the sanitizers ------------------------------------------
# The same protocols built without the deadline and abort checks in gs_wait.
bound_cost() {
    local nb="$WORK/build-nodeadline"
    cmake -S "$ROOT" -B "$nb" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGRIDSYNC_OPENCL=OFF -DBUILD_TESTING=OFF \
        -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_FLAGS=-DGS_NO_DEADLINE=1 >/dev/null &&
        cmake --build "$nb" >/dev/null || return 1
    for v in bounded unbounded; do
        local cli="$CLI"
        [ $v = unbounded ] && cli="$nb/tools/gridsync/gridsync"
        "$cli" bench groups --backend cuda --algo central,flip,tree,cluster --groups 132,1056 --repeats 5 \
            --csv "$RES/bound_$v.csv" | awk -v v=$v 'NR>2 { print v, $2, $3, $6 }'
    done
}
export -f bound_cost
[ -n "$CLI" ] && stage bound_cost 150 bound_cost
SANITIZER=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
if [ -n "$SANITIZER" ] && [ -x "${CUDA_BARRIER:-}" ]; then
    export SANITIZER CUDA_BARRIER
    memcheck() { GS_TEST_QUICK=1 "$SANITIZER" --tool memcheck --error-exitcode 9 "$CUDA_BARRIER"; }
    synccheck() { GS_TEST_QUICK=1 "$SANITIZER" --tool synccheck --error-exitcode 9 "$CUDA_BARRIER"; }
    export -f memcheck synccheck
    stage memcheck 150 memcheck
    stage synccheck 150 synccheck
fi

# ---- 7. OpenCL on NVIDIA's driver ----------------------------------------------------------
if [ "$OPENCL" = ON ] && [ -n "$CLI" ]; then
    stage cli_info_opencl 60 "$CLI" info --backend opencl
    stage cli_check_opencl 120 "$CLI" check --backend opencl --quick
    # Are the seeds' OpenCL 1.2 fences (mem_fence(CLK_GLOBAL_MEM_FENCE)) enough here?
    ocl12() { GRIDSYNC_CL_ORDERING=0 "$CLI" check --backend opencl --quick; }
    export -f ocl12; export CLI
    stage cli_check_ocl12 120 ocl12
    stage cli_groups_opencl 120 "$CLI" bench groups --backend opencl --quick --csv "$RES/groups_opencl.csv"
    # The thesis's Appendices on NVIDIA's OpenCL, the API it used (on AMD's in 2013).
    stage cli_thesis_opencl 150 thesis opencl _opencl
    # What split phase gains on NVIDIA's OpenCL, where gs_arrive ends with a group barrier
    # (GS_ARRIVE_END, prims_opencl.clh) that the OpenCL execution model asks for.
    stage cli_split_opencl 120 "$CLI" bench split --backend opencl --groups 132 --compute 256,1024 \
        --algo central,flip,sharded,tree,lockfree --csv "$RES/split_opencl.csv"
fi
tar -czf "$OUT/results.tar.gz" -C "$WORK" results 2>/dev/null

pack
rm -rf "$WORK"
echo
cat "$OUT/summary.txt"
