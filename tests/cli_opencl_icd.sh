#!/bin/sh
# cli_opencl_icd.sh GRIDSYNC DIR: the two variables that choose OpenCL platforms
# (src/opencl/platforms.c), on PoCL: GRIDSYNC_OPENCL_ICD loads the libraries it names
# instead of the loader's vendors directory (PoCL found with the directory gone, nothing
# found from a library that does not exist), leaving no file behind; and
# GRIDSYNC_OPENCL_PLATFORM keeps only the platforms it names (any case). No GPU needed:
# NVIDIA's libnvidia-opencl.so.1 goes the same way as PoCL's library here.
set -u
cli=$1 dir=$2
mkdir -p "$dir/tmp"
export TMPDIR="$dir/tmp"
failed=0
fail() { echo "FAIL: $*"; sed 's/^/  /' "$dir/out" "$dir/err"; failed=1; }
pocl=$(cat /etc/OpenCL/vendors/pocl.icd 2>/dev/null) || { echo "no PoCL ICD file: skipped"; exit 77; }
run() { "$cli" bench memory --backend opencl --groups 1 --algo central >"$dir/out" 2>"$dir/err"; }

OCL_ICD_VENDORS=/nonexistent run && fail "a device without any vendors directory"
OCL_ICD_VENDORS=/nonexistent GRIDSYNC_OPENCL_ICD="$pocl" run || fail "GRIDSYNC_OPENCL_ICD=$pocl found no device"
grep -q "Portable Computing Language" "$dir/out" || fail "GRIDSYNC_OPENCL_ICD=$pocl did not open PoCL"
GRIDSYNC_OPENCL_ICD=/nonexistent/libnvidia-opencl.so.1 run
[ $? -eq 2 ] || fail "a missing ICD library did not end in exit 2"
grep -q "GRIDSYNC_OPENCL_ICD" "$dir/err" || fail "no device, and no hint at GRIDSYNC_OPENCL_ICD"
GRIDSYNC_OPENCL_ICD="/nonexistent/libfoo.so:$pocl" run || fail "the second library of a list was not loaded"
[ -z "$(ls -A "$dir/tmp")" ] || fail "left behind in TMPDIR: $(ls -A "$dir/tmp")"

GRIDSYNC_OPENCL_PLATFORM=portable run || fail "GRIDSYNC_OPENCL_PLATFORM=portable found no device"
GRIDSYNC_OPENCL_PLATFORM=NVIDIA run
[ $? -eq 2 ] || fail "GRIDSYNC_OPENCL_PLATFORM=NVIDIA opened a device without NVIDIA's platform"
GRIDSYNC_OPENCL_PLATFORM=NVIDIA "$cli" info --backend opencl >"$dir/out" 2>"$dir/err"
[ $? -eq 2 ] || fail "info --backend opencl without NVIDIA's platform did not end in exit 2"
grep -q "GRIDSYNC_OPENCL_ICD" "$dir/err" || fail "info --backend opencl: no device, and no hint"
[ $failed -eq 0 ] && echo "cli_opencl_icd: ok"
exit $failed
