#!/usr/bin/env bash
# editors.vscode: the VS Code extension (editors/vscode) without VS Code:
# type-check, bundle, the TextMate grammar against its snapshots, the vsix
# packaged with vsce and its manifest and files checked.
# Then the extension's requests against a real cake-lsp (test/server.test.mjs).
# Usage: vscode_test.sh OUT_DIR [CAKE_LSP]   (the vsix goes to OUT_DIR, not the source tree)
# Exits 77 (skipped) when node/npm or editors/vscode/node_modules are missing
# or stale: scripts/setup.sh installs them with `npm ci`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ext=$(cd "$here/../../editors/vscode" && pwd)
out=${1:-${TMPDIR:-/tmp}/cake-editors-vscode}
lsp=${2:-}
mkdir -p "$out"

skip() { echo "SKIP: $*"; exit 77; }
command -v node >/dev/null || skip "node is not installed (scripts/setup.sh installs it)"
command -v npm >/dev/null || skip "npm is not installed (scripts/setup.sh installs it)"
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || skip "node $(node --version) is older than 20 (@vscode/vsce needs 20)"
[ -d "$ext/node_modules" ] || skip "editors/vscode/node_modules is missing: run scripts/setup.sh or (cd editors/vscode && npm ci)"
# npm writes node_modules/.package-lock.json on install: older than package-lock.json means stale.
[ "$ext/node_modules/.package-lock.json" -nt "$ext/package-lock.json" ] || \
  skip "editors/vscode/node_modules is older than package-lock.json: run (cd editors/vscode && npm ci)"

cd "$ext"
step() { echo; echo "== $*"; }
step "type-check (tsc --noEmit)"
npx --no-install tsc --noEmit -p .
step "bundle (esbuild)"
node esbuild.mjs
test -s dist/extension.js
step "TextMate grammar over docs/examples (snapshots and expectations)"
node test/grammar.test.mjs
step "package (vsce) to $out/cake-ir.vsix"
rm -f "$out/cake-ir.vsix"
npx --no-install vsce package --no-dependencies --out "$out/cake-ir.vsix" </dev/null
step "files vsce would include (vsce ls)"
npx --no-install vsce ls --no-dependencies </dev/null | tee "$out/vsce-ls.txt"
grep -qx 'dist/extension.js' "$out/vsce-ls.txt"
grep -qx 'syntaxes/cake.tmLanguage.json' "$out/vsce-ls.txt"
! grep -q '^src/\|^node_modules/\|\.map$' "$out/vsce-ls.txt"
step "manifest and vsix contents"
node test/manifest.test.mjs "$out/cake-ir.vsix"
step "serverInfo and rule pages against cake-lsp ${lsp:-(none given)}"
node test/server.test.mjs $lsp
echo; echo "editors.vscode: all ok"
