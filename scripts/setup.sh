#!/usr/bin/env bash
# Installs, idempotently, everything cake needs to build and test on Debian
# bookworm as root: compilers, CMake/Ninja, the tree-sitter runtime, LLVM
# Support (static), nlohmann-json, Boost, Catch2, NLopt (the optimiser of
# `cake calibrate`), Eigen (the CPU executor's tile products), clang's sanitizer and fuzzer runtimes, and Neovim and
# tmux for the editor tests (editors.nvim_tmux runs Neovim in a tmux terminal).
# Runs `apt-get update` only when something is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  clang libclang-rt-dev llvm-dev zlib1g-dev libtinfo-dev libz3-dev
  libtree-sitter-dev nlohmann-json3-dev libboost-dev catch2 libnlopt-dev libeigen3-dev
  neovim tmux python3 mlir-14-tools
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

# The VS Code extension's npm packages (editors/vscode, test editors.vscode):
# `npm ci` when node >= 20 is present and node_modules is missing or older
# than package-lock.json. Without node, or when npm fails (no registry), the
# test is skipped rather than setup failing.
vscode_dir="$(cd "$(dirname "$0")/.." && pwd)/editors/vscode"
if [ -f "$vscode_dir/package-lock.json" ]; then
  if ! command -v node >/dev/null || ! command -v npm >/dev/null ||
     [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
    echo "setup: node >= 20 and npm not found: editors/vscode is not set up (editors.vscode will skip)"
  elif [ "$vscode_dir/node_modules/.package-lock.json" -nt "$vscode_dir/package-lock.json" ]; then
    echo "setup: editors/vscode node_modules up to date"
  else
    echo "setup: npm ci in editors/vscode"
    (cd "$vscode_dir" && npm ci --no-audit --no-fund --loglevel=error) ||
      echo "setup: npm ci failed in editors/vscode (editors.vscode will skip)" >&2
  fi
fi
