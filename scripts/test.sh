#!/usr/bin/env bash
# Sets up and runs every test: installs what is missing (scripts/setup.sh),
# configures and builds build/ with Ninja, runs the whole CTest suite, then
# the sanitizer pass (scripts/sanitize.sh) where that script exists. Exits
# non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cmake -S . -B build -G Ninja
cmake --build build
ctest --test-dir build --output-on-failure -j2
if [ -f scripts/sanitize.sh ]; then
  bash scripts/sanitize.sh
fi
