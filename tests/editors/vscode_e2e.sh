#!/usr/bin/env bash
# editors.vscode_e2e: the VS Code extension end to end in code-server (VS Code
# 1.100.3 for the web) driven by headless chromium through playwright-core
# (tests/editors/vscode_e2e.mjs says what it checks). This script checks what
# the test needs, packages the .vsix from the tree into OUT_DIR and runs it.
# Usage: vscode_e2e.sh CAKE_LSP OUT_DIR   (screenshots in OUT_DIR/screenshots)
# Exits 77 (skipped, with the reason) without node 20 / npm, or when
# scripts/setup.sh could not install the npm packages or code-server (no npm
# registry): it says why.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ext=$root/editors/vscode
lsp=$(realpath "$1") out=$2
mkdir -p "$out"

skip() { echo "SKIP: $*"; exit 77; }
command -v node >/dev/null || skip "node is not installed (code-server $("$root/scripts/code_server.sh" version) needs node 20)"
command -v npm >/dev/null || skip "npm is not installed"
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" = 20 ] || skip "node $(node --version) is not node 20 (code-server $("$root/scripts/code_server.sh" version) needs 20)"
# npm writes node_modules/.package-lock.json on install: older than package-lock.json means stale.
for d in "$ext" "$here"; do
  [ "$d/node_modules/.package-lock.json" -nt "$d/package-lock.json" ] ||
    skip "${d#"$root"/}/node_modules is missing or older than package-lock.json: scripts/setup.sh runs npm ci there (no npm registry?)"
done
why=$("$root/scripts/code_server.sh" status) || skip "$why"
chromium=$(command -v chromium) || skip "chromium is not installed (scripts/setup.sh installs Debian's chromium)"
[ -x "$lsp" ] || { echo "FAIL: $lsp is not an executable"; exit 1; }

echo "== package the extension (vsce) to $out/cake-ir.vsix"
rm -f "$out/cake-ir.vsix"
(cd "$ext" && npx --no-install vsce package --no-dependencies --out "$out/cake-ir.vsix" </dev/null)

echo "== code-server $("$root/scripts/code_server.sh" dir), chromium $("$chromium" --version 2>/dev/null | grep -o '[0-9][0-9.]*' | head -1)"
# The test keeps its own deadline (170 s); timeout is the backstop.
exec timeout --kill-after=10 200 node "$here/vscode_e2e.mjs" \
  --code-server "$("$root/scripts/code_server.sh" dir)" --chromium "$chromium" \
  --vsix "$out/cake-ir.vsix" --cake-lsp "$lsp" \
  --example "$root/docs/examples/hopper_gemm.cake" --out "$out" --deadline 170
