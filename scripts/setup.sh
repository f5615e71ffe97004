#!/usr/bin/env bash
# Installs, idempotently, everything cake needs to build and test on Debian
# bookworm as root: compilers, CMake/Ninja, the tree-sitter runtime, LLVM
# Support (static), nlohmann-json, Boost, Catch2, clang's sanitizer and
# fuzzer runtimes, and Neovim for the editor tests. Runs `apt-get update`
# only when something is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  clang libclang-rt-dev llvm-dev zlib1g-dev libtinfo-dev libz3-dev
  libtree-sitter-dev nlohmann-json3-dev libboost-dev catch2
  neovim python3
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
