#!/usr/bin/env bash
# The main job: sets up (scripts/setup.sh), configures and builds build/,
# then checks the example kernels with `cake check docs/examples`, printing
# every diagnostic and the per-file summary, and then prints the examples'
# cost estimates (`cake estimate docs/examples`), then runs every example on
# the CPU reference executor (`cake run --backend cpu`, two extra schedules),
# then lowers each example to CUDA and compiles it with NVRTC (`cake lower
# --emit cubin -o build/lowered`). The lowering is incomplete
# (docs/lowering.md): kernels it does not handle yet are listed with
# CAKE-E0801 and do not change the exit status; a lowered kernel that fails
# to compile does. Exits 0 when everything is clean, 1 when errors or run findings are found,
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
echo
echo "== cake lower --emit cubin (docs/lowering.md: what lowers so far)"
for f in docs/examples/*.cake; do
  json=$(build/bin/cake lower "$f" --emit cubin -o build/lowered --format json) || true
  # One line per kernel and target: its cubin and registers, or why not.
  printf '%s\n' "$json" | python3 -c '
import json, sys
bad = 0
for e in json.load(sys.stdin):
    head = "%s %s: " % (e["kernel"], e["target"])
    if e["ok"]:
        r = e["resources"][0]
        print(head + "%s, %d registers, %d bytes spilled" % (e["file"], r["registers"], r["spill_stores"]))
    elif "compile_log" in e:
        bad = 1
        print(head + "COMPILE FAILED\n" + e["compile_log"])
    else:
        d = e["diagnostics"]
        print(head + "not lowered yet: line %d: %s (and %d more)" % (d[0]["line"], d[0]["message"], len(d) - 1))
sys.exit(bad)' || status=1
done
exit "$status"
