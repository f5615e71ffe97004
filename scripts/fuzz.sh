#!/usr/bin/env bash
# Fuzzes the front end (parse + model + checks + one incremental reparse,
# tests/fuzz/parse_check_fuzzer.cpp) with libFuzzer under ASan and UBSan, or
# with CAKE_FUZZ_TARGET=lsp the language server's framing and dispatch
# (tests/fuzz/lsp_fuzzer.cpp, corpus tests/fuzz/lsp_corpus/).
# Builds the fuzzer in build-fuzz with clang (-DCAKE_FUZZ=ON
# -DCAKE_SANITIZE=ON: scripts/sanitizer_build.sh), copies the committed corpus (tests/fuzz/corpus/ or
# tests/fuzz/lsp_corpus/) to a
# scratch directory (the committed one is never modified), and runs with a
# fixed seed for SECONDS (default 60). Exits non-zero on a crash, a sanitizer
# report, a timeout (20 s per input) or an out-of-memory (2 GB); the
# reproducer is left in BUILD/fuzz-artifacts/FUZZER/: copy it into tests/fuzz/corpus/
# (or tests/fuzz/lsp_corpus/) under a descriptive name so that every test
# run replays it.
#
# Usage: scripts/fuzz.sh [SECONDS]
# Environment: CAKE_FUZZ_BUILD_DIR (default build-fuzz), CAKE_FUZZ_SECONDS,
#              CAKE_FUZZ_SEED (default 1), CAKE_JOBS (build parallelism),
#              CAKE_FUZZ_TARGET (parse-check, the default, or lsp),
#              CAKE_FUZZ_BUILT=1 (the build directory is configured and the
#              fuzzer built: neither is redone, so that two fuzzers can run
#              at once over one build, as scripts/sanitize.sh does).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CAKE_FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=${1:-${CAKE_FUZZ_SECONDS:-60}}
seed=${CAKE_FUZZ_SEED:-1}
jobs=${CAKE_JOBS:-$(nproc)}
case ${CAKE_FUZZ_TARGET:-parse-check} in
  parse-check) fuzzer=cake-fuzz-parse-check corpus=corpus dict=(-dict="$root/tests/fuzz/cake.dict") ;;
  lsp) fuzzer=cake-fuzz-lsp corpus=lsp_corpus dict=(-dict="$root/tests/fuzz/lsp.dict") ;;
  *) echo "fuzz.sh: CAKE_FUZZ_TARGET is parse-check or lsp" >&2; exit 2 ;;
esac

if [ "${CAKE_FUZZ_BUILT:-}" != 1 ]; then
  bash "$root/scripts/sanitizer_build.sh" "$build" "$jobs" "$fuzzer"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/cake-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -r "$root/tests/fuzz/$corpus" "$work/corpus"
artifacts="$build/fuzz-artifacts/$fuzzer"
mkdir -p "$artifacts"

echo "fuzzing $fuzzer for ${seconds}s (seed $seed) over a copy of tests/fuzz/$corpus ($(ls "$work/corpus" | wc -l) inputs)"
status=0
# -detect_leaks=0: the front end keeps one tree-sitter parser per thread,
# whose pools grow between inputs, so libFuzzer's per-input leak check would
# rerun most inputs under LSan (4x fewer executions) without finding leaks.
# Leaks are caught instead when the corpus is replayed under ASan by CTest.
ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
"$build/bin/$fuzzer" "$work/corpus" \
  -seed="$seed" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 -detect_leaks=0 \
  "${dict[@]}" -artifact_prefix="$artifacts/" \
  -print_final_stats=1 || status=$?

if [ "$status" -ne 0 ]; then
  echo "fuzz.sh: the fuzzer failed (exit $status); reproducers:" >&2
  ls -1t "$artifacts" | head -5 | sed "s|^|  $artifacts/|" >&2
  echo "replay one with: $build/bin/$fuzzer FILE" >&2
  exit "$status"
fi
echo "fuzz.sh: no crash in ${seconds}s"
