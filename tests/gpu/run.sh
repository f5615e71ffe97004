#!/usr/bin/env bash
# The GPU check: every example kernel that lowers (docs/lowering.md) runs on
# the GPU this machine has, compared with the CPU executor's outputs for the
# same seeded inputs (cake-gpu-check, tests/gpu/gpu_check.cpp). Builds it in
# build/ (or $CAKE_BUILD_DIR) if needed. Exits 77 saying why when there is no
# driver or GPU, 0 when every kernel that ran matched, 1 otherwise; a kernel
# that hangs is stopped by the 10-minute limit (exit 124).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${CAKE_BUILD_DIR:-build}
if [ ! -x "$build/bin/cake-gpu-check" ]; then
  cmake -S . -B "$build" -G Ninja >/dev/null
  cmake --build "$build" --target cake-gpu-check
fi
exec timeout 600 "$build/bin/cake-gpu-check" "$@"
