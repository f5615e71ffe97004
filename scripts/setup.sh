#!/usr/bin/env bash
# Installs, idempotently, everything cake needs to build and test on Debian
# bookworm as root: compilers, CMake/Ninja, the tree-sitter runtime, LLVM
# Support (static), nlohmann-json, simdjson, jemalloc, Boost, Catch2, NLopt (the optimiser of
# `cake calibrate`), Eigen (the CPU executor's tile products), clang's sanitizer and fuzzer runtimes, Neovim and
# tmux for the editor tests (editors.nvim_tmux runs Neovim in a tmux terminal); for the VS Code end-to-end test
# chromium (driven by playwright-core), ripgrep and libkrb5-dev (code-server's search and its kerberos module),
# then code-server itself (scripts/code_server.sh). Runs `apt-get update` only when something is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  clang libclang-rt-dev llvm-dev zlib1g-dev libtinfo-dev libz3-dev
  libtree-sitter-dev nlohmann-json3-dev libsimdjson-dev libjemalloc-dev libboost-dev catch2 libnlopt-dev libeigen3-dev
  neovim tmux python3 mlir-14-tools
  chromium ripgrep libkrb5-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing packages: ${missing[*]} (run as root to install them)" >&2
    exit 2
  fi
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi

# npm packages: the VS Code extension's (editors/vscode, tests editors.vscode
# and editors.vscode_e2e) and the editor tests' (tests/editors: playwright-core
# for editors.vscode_e2e). `npm ci` where node >= 20 is present and
# node_modules is missing or older than package-lock.json. Without node, or
# when npm fails (no registry), the tests are skipped rather than setup failing.
root="$(cd "$(dirname "$0")/.." && pwd)"
for dir in editors/vscode tests/editors; do
  [ -f "$root/$dir/package-lock.json" ] || continue
  if ! command -v node >/dev/null || ! command -v npm >/dev/null ||
     [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
    echo "setup: node >= 20 and npm not found: $dir is not set up (its tests will skip)"
  elif [ "$root/$dir/node_modules/.package-lock.json" -nt "$root/$dir/package-lock.json" ]; then
    echo "setup: $dir node_modules up to date"
  else
    echo "setup: npm ci in $dir"
    (cd "$root/$dir" && npm ci --no-audit --no-fund --loglevel=error) ||
      echo "setup: npm ci failed in $dir (its tests will skip)" >&2
  fi
done

# code-server for editors.vscode_e2e, cached outside the repository
# (scripts/code_server.sh: a no-op once installed; without node 20 or the
# npm registry it says why, the test skips, and setup goes on).
# CAKE_CODE_SERVER=background (scripts/test.sh) installs it while the build
# runs: the test waits for the install's lock. CAKE_CODE_SERVER=no
# (scripts/run.sh, which runs no editor test) leaves it out.
case ${CAKE_CODE_SERVER:-foreground} in
  no) ;;
  background)
    if bash "$root/scripts/code_server.sh" status >/dev/null 2>&1; then
      echo "setup: code-server present"
    else
      echo "setup: installing code-server in the background (editors.vscode_e2e waits for it)"
      nohup bash "$root/scripts/code_server.sh" install >/dev/null 2>&1 &
    fi ;;
  *) bash "$root/scripts/code_server.sh" install ;;
esac
