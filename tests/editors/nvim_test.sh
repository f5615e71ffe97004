#!/usr/bin/env bash
# editors.nvim: the Neovim plugin as a user gets it. Installs the `nvim`
# component (plugin, parser/cake.so, queries) into a scratch prefix, then runs
# tests/editors/nvim_test.lua in headless Neovim with PREFIX/share/cake/nvim
# on 'runtimepath'.
# Usage: nvim_test.sh BUILD_DIR CAKE_LSP OUT_DIR
# Exits 77 (skipped) without nvim, or when the parser cannot be loaded by this
# Neovim's tree-sitter runtime (the Lua script says why).
set -euo pipefail
build=$1 lsp=$2 out=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v nvim >/dev/null || { echo "SKIP: nvim is not installed (scripts/setup.sh installs Debian's neovim)"; exit 77; }
prefix="$out/prefix"
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" --component nvim >/dev/null
rtp="$prefix/share/cake/nvim"
for f in plugin/cake.lua ftdetect/cake.vim lua/cake/init.lua parser/cake.so queries/cake/highlights.scm; do
  [ -e "$rtp/$f" ] || { echo "FAIL: cmake --install put no $f under $rtp"; exit 1; }
done
# The scratch home keeps the user's config and state out (--clean does too).
export HOME="$out/home" XDG_STATE_HOME="$out/home/state" XDG_DATA_HOME="$out/home/data"
mkdir -p "$HOME"
export CAKE_ROOT="$root" CAKE_LSP="$lsp" CAKE_NVIM_RTP="$rtp"
exec timeout --kill-after=5 100 nvim --headless --clean \
  --cmd "set runtimepath^=$rtp" \
  -c "luafile $root/tests/editors/nvim_test.lua"
