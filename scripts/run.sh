#!/usr/bin/env bash
# The main job: sets up (scripts/setup.sh), configures and builds build/,
# then checks the example kernels with `cake check docs/examples`, printing
# every diagnostic and the per-file summary, and then prints the examples'
# cost estimates (`cake estimate docs/examples`). Exits with the check's exit
# code: 0 clean, 1 errors found, 2 usage or I/O error.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cmake -S . -B build -G Ninja
cmake --build build --target cake
echo "== cake check docs/examples"
status=0
build/bin/cake check --summary docs/examples || status=$?
echo
echo "== cake estimate docs/examples"
build/bin/cake estimate docs/examples || true
exit "$status"
