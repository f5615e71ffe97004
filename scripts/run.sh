#!/usr/bin/env bash
# The main job: sets up (scripts/setup.sh), configures and builds build/,
# then checks the example kernels with `cake check docs/examples`, printing
# every diagnostic and the per-file summary, and then prints the examples'
# cost estimates (`cake estimate docs/examples`), then runs every example on
# the CPU reference executor (`cake run --backend cpu`, two extra schedules).
# Exits 0 when everything is clean, 1 when errors or run findings are found,
# 2 for a usage or I/O error.
set -euo pipefail
cd "$(dirname "$0")/.."

CAKE_CODE_SERVER=no bash scripts/setup.sh
cmake -S . -B build -G Ninja
cmake --build build --target cake
echo "== cake check docs/examples"
status=0
build/bin/cake check --summary docs/examples || status=$?
echo
echo "== cake estimate docs/examples"
build/bin/cake estimate docs/examples || true
echo
echo "== cake run --backend cpu (each example at its smallest legal shape)"
for f in docs/examples/*.cake; do
  rc=0
  build/bin/cake run "$f" --backend cpu --schedules 2 || rc=$?
  if [ "$rc" -gt "$status" ]; then status=$rc; fi
done
exit "$status"
