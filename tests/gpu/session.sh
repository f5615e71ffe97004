#!/usr/bin/env bash
# Everything the GPU check has to say in one short sitting, for a GPU that is
# lent for minutes: the check at the check shapes (mismatching kernels'
# outputs dumped), the bench timings, random fragment, mma.sync, wgmma and
# tcgen05.mma kernels (seeds 1-100 of each) and pipeline kernels (1-50 of each
# of its four kinds, which take longer), and compute-sanitizer's memcheck
# over the check. Each step has its own time limit, so a slow one cannot
# take the others' time, and everything lands in OUTDIR:
#
#   check.log, dump/ (KERNEL.ARCH.TENSOR.bin of each kernel that differed),
#   time.log, measured.json (cake-measurements, written after each bench),
#   random.log, random_mma.log, random_pipeline.log, memcheck.log
#
# Usage: tests/gpu/session.sh OUTDIR [CHECK_S TIME_S MEMCHECK_S RANDOM_S]
# (defaults 120, 300, 150, 60 seconds; RANDOM_S for each random step).
# Exits 77 when there is no GPU (the check says why), else 0 when the
# check, the timings and the random kernels found nothing wrong, 1
# otherwise. cake-gpu-check is built in build/ (or
# $CAKE_BUILD_DIR) when missing, or taken from $CAKE_GPU_CHECK.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: tests/gpu/session.sh OUTDIR [CHECK_S TIME_S MEMCHECK_S RANDOM_S]}
check_s=${2:-120} time_s=${3:-300} memcheck_s=${4:-150} random_s=${5:-60}
mkdir -p "$out"
bin=${CAKE_GPU_CHECK:-${CAKE_BUILD_DIR:-build}/bin/cake-gpu-check}
if [ ! -x "$bin" ]; then
  cmake -S . -B "${CAKE_BUILD_DIR:-build}" -G Ninja >/dev/null && cmake --build "${CAKE_BUILD_DIR:-build}" --target cake-gpu-check || exit 2
fi
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader

step() {  # NAME SECONDS COMMAND...: runs it into OUTDIR/NAME.log, says how it ended
  local name=$1 limit=$2 start=$SECONDS rc
  shift 2
  timeout "$limit" "$@" >"$out/$name.log" 2>&1
  rc=$?
  echo "$name: exit $rc after $((SECONDS - start)) s (limit $limit s)"
  return $rc
}

step check "$check_s" "$bin" --dump "$out/dump" docs/examples
check=$?
grep -v '^  ok \|^  compiled ' "$out/check.log" | tail -60
[ $check -eq 77 ] && exit 77
step time "$time_s" "$bin" --time "$out/measured.json" docs/examples
timing=$?
cat "$out/time.log"
step random "$random_s" "$bin" --random 1:100
random=$?
grep -v '^  ok ' "$out/random.log" | tail -20
step random_mma "$random_s" "$bin" --random-mma 1:100
random_mma=$?
grep -v '^  ok ' "$out/random_mma.log" | tail -20
step random_pipeline "$random_s" "$bin" --random-pipeline 1:50
random_pipeline=$?
grep -v '^  ok ' "$out/random_pipeline.log" | tail -20
if command -v compute-sanitizer >/dev/null; then
  step memcheck "$memcheck_s" compute-sanitizer --tool memcheck --print-limit 20 "$bin" docs/examples
  tail -3 "$out/memcheck.log"
else
  echo "memcheck: skipped, compute-sanitizer is not on the PATH"
fi
[ $check -eq 0 ] && [ $timing -eq 0 ] && [ $random -eq 0 ] && [ $random_mma -eq 0 ] && [ $random_pipeline -eq 0 ]
