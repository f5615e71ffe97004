#!/usr/bin/env bash
# code-server (the web build of VS Code) for the test editors.vscode_e2e,
# installed once per machine in a cache outside the repository:
#   ${XDG_CACHE_HOME:-$HOME/.cache}/cake/code-server-VERSION/
# Usage:
#   code_server.sh install   install it unless the stamp says it is there
#                            (called by scripts/setup.sh); never fails: on
#                            failure it says why and leaves the reason in
#                            DIR.failed for the test to print when it skips
#   code_server.sh dir       print DIR (installed when DIR/.cake-stamp exists)
#   code_server.sh version   print VERSION
#   code_server.sh status    exit 0 when installed for this node, else print
#                            why not (the reason of the last failure) and exit 1
#
# 4.100.3 is VS Code 1.100.3, the last code-server whose engines accept node
# 20. `npm install -g code-server` fails under npm 11 (its postinstall), so
# this does what that postinstall does, by hand and without downloads other
# than npm packages: npm pack + unpack, `npm ci --ignore-scripts`, argon2
# built from source, lib/vscode's native modules built against node's own
# headers (/usr/include/node, npm's nodedir), ripgrep from Debian (the
# package @vscode/ripgrep would fetch it from GitHub), the symlinks of the
# postinstall. The stamp holds the version and node's module ABI, so a new
# node reinstalls.
set -uo pipefail

version=4.100.3
cache=${XDG_CACHE_HOME:-$HOME/.cache}/cake
dir=$cache/code-server-$version
stamp=$dir/.cake-stamp
failed=$dir.failed
log=$dir.log

want_stamp() { echo "code-server $version node-abi $(node -p process.versions.modules 2>/dev/null)"; }

installed() { [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(want_stamp)" ]; }

status() {
  # An install under way (scripts/test.sh starts it in the background while
  # the build runs) holds the lock: wait for it to end.
  mkdir -p "$cache"
  exec 9>"$cache/code-server.lock"
  flock 9
  installed && return 0
  if [ -f "$failed" ]; then
    echo "code-server $version could not be installed by scripts/setup.sh: $(cat "$failed")"
  else
    echo "code-server $version is not installed in $dir: run scripts/setup.sh"
  fi
  return 1
}

# Runs "$@" in the directory $1 with its output in the log; on failure
# records WHY ($2) and returns 1.
step() {
  local where=$1 why=$2
  shift 2
  echo "== ($where) $*" >>"$log"
  if ! (cd "$where" && "$@") >>"$log" 2>&1; then
    echo "$why (see $log)" >"$failed"
    return 1
  fi
}

do_install() {
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "node and npm are not installed" >"$failed"
    return 1
  fi
  local major
  major=$(node -p 'process.versions.node.split(".")[0]')
  if [ "$major" != 20 ]; then
    echo "code-server $version needs node 20, this is node $(node --version)" >"$failed"
    return 1
  fi
  local p
  for p in chromium rg make g++ python3; do
    command -v "$p" >/dev/null || { echo "$p is missing (scripts/setup.sh installs it with apt)" >"$failed"; return 1; }
  done
  [ -f /usr/include/node/node_api.h ] || { echo "node's headers (/usr/include/node) are missing" >"$failed"; return 1; }

  rm -rf "$dir" "$dir.pack"
  mkdir -p "$dir.pack"
  : >"$log"
  step "$dir.pack" "npm pack code-server@$version failed (no npm registry?)" \
    npm pack --silent "code-server@$version" || return 1
  tar -xzf "$dir.pack/code-server-$version.tgz" -C "$dir.pack" && mv "$dir.pack/package" "$dir" || {
    echo "unpacking code-server-$version.tgz failed" >"$failed"; return 1; }
  rm -rf "$dir.pack"

  # Native modules are built against node's headers (nodedir), never
  # downloaded; npx may fetch node-gyp (node-pty's build) from the registry.
  export npm_config_nodedir=/usr npm_config_yes=true npm_config_build_from_source=true
  local npm_q=(--no-audit --no-fund --loglevel=error)
  step "$dir" "npm ci in code-server failed (no npm registry?)" \
    npm ci --omit=dev --ignore-scripts "${npm_q[@]}" || return 1
  step "$dir" "building argon2 failed" npm rebuild argon2 "${npm_q[@]}" || return 1
  # lib/vscode's npm-shrinkwrap.json is out of step with its package.json
  # (npm ci refuses it): npm install, as code-server's postinstall does.
  step "$dir/lib/vscode" "npm install in code-server's lib/vscode failed (no npm registry?)" \
    npm install --omit=dev --ignore-scripts "${npm_q[@]}" || return 1
  # @vscode/ripgrep's postinstall downloads rg unless bin/ exists.
  mkdir -p "$dir/lib/vscode/node_modules/@vscode/ripgrep/bin" &&
    cp "$(command -v rg)" "$dir/lib/vscode/node_modules/@vscode/ripgrep/bin/rg" || {
    echo "copying rg into @vscode/ripgrep failed" >"$failed"; return 1; }
  step "$dir/lib/vscode" "building code-server's native modules (node-pty, spdlog, kerberos, ...) failed" \
    npm rebuild "${npm_q[@]}" || return 1
  step "$dir/lib/vscode/extensions" "npm install in code-server's lib/vscode/extensions failed (no npm registry?)" \
    npm install --omit=dev "${npm_q[@]}" || return 1
  # The rest of code-server's postinstall.sh.
  ln -sfn node_modules "$dir/lib/vscode/node_modules.asar" &&
    ln -sfn code-linux.sh "$dir/lib/vscode/bin/remote-cli/code-server" &&
    ln -sfn browser-linux.sh "$dir/lib/vscode/bin/helpers/browser.sh" || {
    echo "making code-server's symlinks failed" >"$failed"; return 1; }
  # It must start: --version loads argon2 and the server's modules. Its
  # config file goes to a scratch XDG_CONFIG_HOME, not the user's.
  local tmp
  tmp=$(mktemp -d)
  step "$dir" "the installed code-server does not start" \
    env XDG_CONFIG_HOME="$tmp" XDG_DATA_HOME="$tmp" node out/node/entry.js --version
  local rc=$?
  rm -rf "$tmp"
  [ $rc -eq 0 ] || return 1
  want_stamp >"$stamp"
  rm -f "$failed"
}

install() {
  mkdir -p "$cache"
  # One install at a time per machine (other checkouts share the cache).
  exec 9>"$cache/code-server.lock"
  flock 9
  if installed; then
    echo "setup: code-server $version present ($dir)"
    return 0
  fi
  echo "setup: installing code-server $version into $dir (a few minutes; log: $log)"
  local t0=$SECONDS
  if do_install; then
    echo "setup: code-server $version installed in $((SECONDS - t0)) s"
  else
    rm -rf "$dir" "$dir.pack"
    echo "setup: code-server $version not installed: $(cat "$failed") (editors.vscode_e2e will skip)" >&2
  fi
  return 0
}

case "${1:-}" in
  install) install ;;
  dir) echo "$dir" ;;
  version) echo "$version" ;;
  status) status ;;
  *) echo "usage: $0 install|dir|version|status" >&2; exit 2 ;;
esac
