#!/usr/bin/env bash
# The main job: sets up (scripts/setup.sh), configures and builds build/,
# then checks the example kernels with `cake check docs/examples`, printing
# every diagnostic and the per-file summary. Exits with cake's exit code:
# 0 clean, 1 errors found, 2 usage or I/O error.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cmake -S . -B build -G Ninja
cmake --build build --target cake
echo "== cake check docs/examples"
exec build/bin/cake check --summary docs/examples
