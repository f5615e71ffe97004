#!/usr/bin/env bash
# Builds everything with clang under AddressSanitizer and
# UndefinedBehaviorSanitizer in build-asan (-DCAKE_SANITIZE=ON), runs the
# whole CTest suite there except the benchmark smoke run (label `bench`),
# the editor tests (label `editors`: TypeScript, Lua and a Python client;
# the server under them is covered by lsp.transcript), the build tests
# (label `build`: they compile sources, which a sanitizer cannot watch) and
# the examples against their references on the CPU executor (label `run`:
# ten times slower under the sanitizers; exec.run drives the same executor),
# with two tests shortened (analysis.document's random edit sequences 12
# steps instead of 40, CAKE_DOC_STEPS; codegen.ops compiling each op's
# kernel with NVRTC on the first target that lowers it rather than on
# every one, CAKE_OPS_COMPILE=first: NVRTC is not instrumented, and what
# cake does around a compile is the same on every target),
# then fuzzes the front end for 45 s and, at the same time, the language
# server for 20 s (scripts/fuzz.sh, CAKE_FUZZ_TARGET=lsp) reusing the same build directory,
# which is why it is configured with -DCAKE_FUZZ=ON too. Any sanitizer report
# fails the test that triggers it. Meant to finish in well under 8 minutes on
# two cores.
#
# Usage: scripts/sanitize.sh [FUZZ_SECONDS]
# Environment: CAKE_ASAN_BUILD_DIR (default build-asan), CAKE_JOBS,
#              CAKE_CTEST_ARGS (extra ctest arguments, e.g. "-R grammar").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CAKE_ASAN_BUILD_DIR:-$root/build-asan}
jobs=${CAKE_JOBS:-$(nproc)}
start=$SECONDS

bash "$root/scripts/sanitizer_build.sh" "$build" "$jobs"
echo "sanitize.sh: built in $((SECONDS - start))s"

# intercept_tls_get_addr=0: clang 14's runtime guesses the layout of a
# dynamic TLS block (libnvrtc's, once a compile has run) from its address,
# and where glibc's malloc happens to place it on a page boundary plus 16 it
# takes glibc 2.19's layout; LeakSanitizer's exit-time scan then read a bogus
# range and died with "Tracer caught signal 11" after every test had passed
# (codegen.facts; google/sanitizers#1322). Static TLS, where the front end
# keeps its per-thread parsers, is still scanned.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:check_initialization_order=1:intercept_tls_get_addr=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export CAKE_DOC_STEPS=${CAKE_DOC_STEPS:-12} CAKE_OPS_COMPILE=${CAKE_OPS_COMPILE:-first}
# shellcheck disable=SC2086  # CAKE_CTEST_ARGS is split on purpose
ctest --test-dir "$build" -LE "bench|editors|build|run" -j "$jobs" --output-on-failure ${CAKE_CTEST_ARGS:-}
echo "sanitize.sh: tests passed at $((SECONDS - start))s"

# The two fuzzers at once, one a core (libFuzzer runs one process); the
# build above made both. The front end's output follows the server's.
front_log="$build/fuzz-parse-check.log"
CAKE_FUZZ_BUILD_DIR="$build" CAKE_FUZZ_BUILT=1 "$root/scripts/fuzz.sh" "${1:-45}" >"$front_log" 2>&1 &
front=$!
lsp_status=0 front_status=0
CAKE_FUZZ_BUILD_DIR="$build" CAKE_FUZZ_BUILT=1 CAKE_FUZZ_TARGET=lsp "$root/scripts/fuzz.sh" 20 || lsp_status=$?
wait "$front" || front_status=$?
cat "$front_log"
if [ "$lsp_status" -ne 0 ] || [ "$front_status" -ne 0 ]; then
  echo "sanitize.sh: fuzzing failed (language server: exit $lsp_status, front end: exit $front_status)" >&2
  exit 1
fi
echo "sanitize.sh: done in $((SECONDS - start))s"
