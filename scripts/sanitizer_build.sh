#!/usr/bin/env bash
# Configures BUILD for clang with AddressSanitizer, UndefinedBehaviorSanitizer
# and the libFuzzer targets (-DCAKE_SANITIZE=ON -DCAKE_FUZZ=ON), then builds
# TARGETs (every target when none is named). The one home of these options:
# scripts/sanitize.sh and scripts/fuzz.sh share such a build.
#
# -O1 with line tables: a quarter of the compile time of -O2 -g, readable
# sanitizer stacks, and assertions on (no -DNDEBUG).
#
# Usage: scripts/sanitizer_build.sh BUILD JOBS [TARGET...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1 jobs=$2
shift 2
cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" \
  -DCAKE_SANITIZE=ON -DCAKE_FUZZ=ON >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$build" "${targets[@]}" -j "$jobs"
