#!/usr/bin/env python3
"""editors.nvim_tmux: editors/nvim in a real terminal Neovim, read off the screen.

Usage: nvim_tmux_test.py CAKE_LSP PARSER OUT_DIR

Starts a detached tmux session (120x40, private socket) running
`nvim --clean -u tests/editors/nvim_tmux_init.lua` (the plugin from the source
tree, CAKE_LSP and the parser PARSER of the build tree) on a copy of
docs/examples/hopper_gemm.cake with one mistake: `full[s]` -> `fulll[s]` on
the producer's first tma.load (CAKE-E0101, fix "replace with `full`"). Then,
each time polling `tmux capture-pane -e -p` until a deadline:

  1. the error line shows the sign `E` and the virtual text
     "■ undefined name `fulll`", `fulll` is underlined, no other line has a sign;
  2. colouring: `kernel` and `tma.load` carry a foreground colour (tree-sitter
     highlights), a buffer name beside them does not;
  3. `K` on the kernel's name opens the hover float right under it ("hopper_gemm:
     a kernel", hiding the next file line), without a cost estimate: the
     kernel has an error of its own;
  4. on the error, :lua vim.lsp.buf.code_action() lists "1: replace with
     `full`"; typing 1 applies it: the line reads `full[s]`, the sign, the
     virtual text and the message are gone, the buffer is modified;
  5. `K` on the kernel's name again: now with the cost estimate (a row per
     bench: target, device, shape, time in µs, bound);
  6. :qa! ends Neovim with status 0.

Every screen is kept under OUT_DIR/screens (NN-step.ansi with the escapes,
NN-step.txt plain); on a failure the test names the check, prints the screen
and the directory. Exit 0 all passed, 1 a failure, 77 (skipped, with the
reason) when tmux or nvim is missing.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXAMPLE = os.path.join(ROOT, "docs", "examples", "hopper_gemm.cake")
WIDTH, HEIGHT = 120, 40
WAIT_S = 20  # per wait: generous for a loaded 2-core machine
TOTAL_S = 90  # all waits together, under CTest's TIMEOUT (120) so that `finally` runs
SGR = re.compile(r"\x1b\[([0-9;:]*)m")


class Failure(Exception):
    pass


def skip(reason):
    print("SKIP: " + reason)
    sys.exit(77)


# Section - Screen

def styled(line):
    """The plain text of one `capture-pane -e` line and, per character, its
    (foreground, underline) after the SGR escapes before it. tmux starts each
    line from the default style; foreground None is the terminal default."""
    text, styles = [], []
    fg, underline = None, False
    pos = 0
    for m in SGR.finditer(line + "\x1b[m"):
        for ch in line[pos:m.start()]:
            text.append(ch)
            styles.append((fg, underline))
        pos = m.end()
        params = m.group(1).split(";")
        i = 0
        while i < len(params):
            p = params[i]
            if p in ("", "0"):
                fg, underline = None, False
            elif p == "39":
                fg = None
            elif re.fullmatch(r"3[0-7]|9[0-7]", p):
                fg = p
            elif p in ("38", "48", "58"):  # 38;5;N or 38;2;R;G;B (also bg, underline colour)
                n = 3 if i + 1 < len(params) and params[i + 1] == "5" else 5
                if p == "38":
                    fg = ";".join(params[i:i + n])
                i += n - 1
            elif p == "4" or (p.startswith("4:") and p != "4:0"):
                underline = True
            elif p in ("24", "4:0"):
                underline = False
            i += 1
    return "".join(text), styles


class Screen:
    def __init__(self, escaped):
        self.escaped = escaped
        pairs = [styled(l) for l in escaped.split("\n")]
        self.lines = [p[0] for p in pairs]
        self.styles = [p[1] for p in pairs]

    @property
    def text(self):
        return "\n".join(self.lines)

    def row(self, pattern):
        """The index of the only screen row matching `pattern`, else None."""
        rows = [i for i, l in enumerate(self.lines) if re.search(pattern, l)]
        return rows[0] if len(rows) == 1 else None

    def style_of(self, row, word, start=0):
        """The set of styles over `word` on screen row `row` (its first
        occurrence from column `start`), or None when it is not there."""
        col = self.lines[row].find(word, start)
        if col < 0:
            return None
        return set(self.styles[row][col:col + len(word)])

    def ruler(self):
        """(line, column) of the cursor from the status line's ruler."""
        m = re.search(r"\s(\d+),(\d+)(?:-\d+)?\s+(?:Top|Bot|All|\d+%)\s*$", self.lines[HEIGHT - 2])
        return (int(m.group(1)), int(m.group(2))) if m else None


class Tmux:
    def __init__(self, out):
        # A private server: its own socket name in its own directory (removed
        # at the end: tmux leaves the socket file behind), no ~/.tmux.conf.
        self.socket = "cake-nvim-tmux-%d" % os.getpid()
        self.env = dict(os.environ, TMUX_TMPDIR=tempfile.mkdtemp(prefix="cake-nvim-tmux-"))
        self.env.pop("TMUX", None)
        self.shots = os.path.join(out, "screens")
        os.makedirs(self.shots)
        self.count = 0
        self.last = None
        self.deadline = time.monotonic() + TOTAL_S

    def __call__(self, *args):
        r = subprocess.run(["tmux", "-u", "-L", self.socket, "-f", "/dev/null", *args],
                           env=self.env, capture_output=True, text=True, timeout=10)
        if r.returncode != 0:
            raise Failure("tmux %s: %s" % (" ".join(args), r.stderr.strip()))
        return r.stdout

    def kill(self):
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], env=self.env, capture_output=True, timeout=10)
        shutil.rmtree(self.env["TMUX_TMPDIR"], ignore_errors=True)

    def capture(self):
        self.last = Screen(self("capture-pane", "-e", "-p", "-t", "cake").rstrip("\n"))
        return self.last

    def save(self, name):
        """Writes the last screen as NN-name.ansi (with escapes) and NN-name.txt."""
        self.count += 1
        base = os.path.join(self.shots, "%02d-%s" % (self.count, name))
        with open(base + ".ansi", "w", encoding="utf-8") as f:
            f.write(self.last.escaped + "\n")
        with open(base + ".txt", "w", encoding="utf-8") as f:
            f.write(self.last.text + "\n")

    def keys(self, *keys):
        """Sends each of `keys`: Enter as the key, anything else typed literally."""
        for k in keys:
            if k == "Enter":
                self("send-keys", "-t", "cake", k)
            else:
                self("send-keys", "-t", "cake", "-l", k)

    def wait(self, step, what, check, timeout=WAIT_S):
        """Polls the screen until check(screen) is truthy and returns that
        value; saves the screen as NN-step. Fails at the deadline (`timeout`
        seconds, or less when the whole test's deadline comes first)."""
        timeout = max(0, min(timeout, self.deadline - time.monotonic()))
        deadline = time.monotonic() + timeout
        while True:
            screen = self.capture()
            got = check(screen)
            if got:
                self.save(step)
                print("PASS %s" % what, flush=True)
                return got
            if time.monotonic() > deadline:
                self.save(step + "-FAILED")
                raise Failure("%s: not on the screen within %.0f s" % (what, timeout))
            time.sleep(0.1)


# Section - The scenario

def find(lines, needle):
    """1-based number of the first line holding `needle`."""
    for i, line in enumerate(lines):
        if needle in line:
            return i + 1
    raise Failure("%s: no line with %r" % (EXAMPLE, needle))


def scenario(tmux, lsp, parser, out):
    src = open(EXAMPLE, encoding="utf-8").read().split("\n")
    kline = find(src, "kernel hopper_gemm(")
    eline = find(src, "tma.load sA[s]")
    src[eline - 1] = src[eline - 1].replace(", full[s]", ", fulll[s]")
    ecol = src[eline - 1].index("fulll") + 1
    tline = find(src, "tma.load sB[s]")
    work = os.path.join(out, "work")
    os.makedirs(work)
    path = os.path.join(work, "hopper_gemm.cake")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(src))

    home = os.path.join(out, "home")
    env = {
        "HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data",
        "XDG_STATE_HOME": home + "/state", "XDG_CACHE_HOME": home + "/cache",
        "CAKE_NVIM_PLUGIN": os.path.join(ROOT, "editors", "nvim"),
        "CAKE_LSP": lsp, "CAKE_NVIM_PARSER": parser,
    }
    rc_file = os.path.join(out, "nvim.rc")
    init = os.path.join(HERE, "nvim_tmux_init.lua")
    cmd = "nvim --clean -u %s -i NONE -n %s; echo $? > %s" % (init, path, rc_file)
    tmux("new-session", "-d", "-s", "cake", "-x", str(WIDTH), "-y", str(HEIGHT),
         *[a for k, v in env.items() for a in ("-e", "%s=%s" % (k, v))], cmd)

    # 1. Diagnostics: sign, virtual text, underline, on the error line only.
    diag = r"^E\s+%d\s.*, fulll\[s\]\s+■ undefined name `fulll`\s*$" % eline

    def diagnostics(s):
        r = s.row(diag)
        signs = [l for l in s.lines if re.match(r"^[EWIH]\s+\d+ ", l)]
        return r is not None and len(signs) == 1 and r
    tmux.wait("diagnostics", "diagnostic sign and virtual text on line %d" % eline, diagnostics)

    def underlined(s):
        r = s.row(diag)
        st = r is not None and s.style_of(r, "fulll")
        return st and all(u for _, u in st)
    tmux.wait("underline", "`fulll` is underlined", underlined)

    # 2. Colouring from tree-sitter (the default colour scheme, 256 colours).
    def colours(s):
        krow, trow = s.row(r"^\s*%d kernel hopper_gemm\($" % kline), s.row(r"^\s*%d\s+tma\.load sB" % tline)
        if krow is None or trow is None:
            return False
        kernel, op, name = s.style_of(krow, "kernel"), s.style_of(trow, "tma.load"), s.style_of(trow, "sB")
        coloured = lambda st: len(st) == 1 and next(iter(st))[0] is not None
        return coloured(kernel) and coloured(op) and not any(fg for fg, _ in name)
    tmux.wait("colours", "`kernel` and `tma.load` coloured, the buffer name `sB` not", colours)

    # 3. Hover on the kernel's name: a float under the cursor; no estimate
    # while the kernel has an error of its own.
    kcol = src[kline - 1].index("hopper_gemm") + 1
    row_re = r"\| sm_90a \| \S+ \| M=8192, N=8192, K=8192 \| [0-9.]+ µs \| \S+-bound \d+ % \|"

    def hover_kernel(step):
        tmux.keys("%dG" % kline, "0")  # 'nostartofline' keeps the column: 0 goes to the first
        tmux.wait(step + "-cursor-line", "cursor on line %d" % kline, lambda s: s.ruler() == (kline, 1))
        tmux.keys("w")
        tmux.wait(step + "-cursor-name", "cursor on the kernel's name", lambda s: s.ruler() == (kline, kcol))
        tmux.keys("K")

    def float_open(s):
        krow = s.row(r"^\s*%d kernel hopper_gemm\($" % kline)
        # The float opens on the row under the cursor's line (as wide as its
        # text, so it may start left of the cursor or at it), hiding line 9.
        return (krow is not None and krow + 1 < len(s.lines) and "hopper_gemm: a kernel" in s.lines[krow + 1]
                and s.row(r"^\s*%d\s+A: global" % (kline + 1)) is None)

    hover_kernel("hover")
    tmux.wait("hover", "hover float under `hopper_gemm`, no estimate while the kernel has an error",
              lambda s: float_open(s) and "shared memory:" in s.text and "Estimated cost" not in s.text)

    # 4. The code action on the error, chosen from the list by typing 1.
    tmux.keys(":call cursor(%d, %d)" % (eline, ecol), "Enter")
    tmux.wait("cursor-error", "cursor on `fulll`, hover closed",
              lambda s: s.ruler() == (eline, ecol) and "Estimated cost" not in s.text)
    tmux.keys(":lua vim.lsp.buf.code_action()", "Enter")
    tmux.wait("code-actions", "code action list offers \"replace with `full`\"",
              lambda s: s.row(r"^Code actions:$") is not None and s.row(r"^1: replace with `full`$") is not None)
    tmux.keys("1", "Enter")
    fixed = r"^\s*%d\s+tma\.load sA\[s\] <- .*, full\[s\]$" % eline

    def applied(s):
        return (s.row(fixed) is not None and "fulll" not in s.text and "undefined name" not in s.text
                and not any(re.match(r"^[EWIH]\s+\d+ ", l) for l in s.lines)
                and re.search(r"hopper_gemm\.cake \[\+\]", s.lines[HEIGHT - 2]))
    tmux.wait("fixed", "fix applied: line %d reads full[s], no sign, no virtual text" % eline, applied)

    # 5. Hover on the kernel's name again: now with its estimate.
    hover_kernel("hover-fixed")
    tmux.wait("hover-fixed", "hover float under `hopper_gemm` with the estimate once the error is fixed",
              lambda s: float_open(s) and s.row(r"^ Estimated cost") is not None and s.row(row_re) is not None)

    # 6. Quit.
    tmux.keys(":qa!", "Enter")
    deadline = min(time.monotonic() + WAIT_S, tmux.deadline)
    while not os.path.exists(rc_file) or not open(rc_file).read().strip():
        if time.monotonic() > deadline:
            tmux.capture()
            tmux.save("quit-FAILED")
            raise Failure(":qa! did not end Neovim within %d s" % WAIT_S)
        time.sleep(0.1)
    rc = open(rc_file).read().strip()
    if rc != "0":
        raise Failure("nvim exited with %s" % rc)
    print("PASS :qa! ends Neovim with 0")


def main(argv):
    if len(argv) != 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    lsp, parser, out = argv[1:]
    for tool in ("tmux", "nvim"):
        if not shutil.which(tool):
            skip("%s is not installed (scripts/setup.sh installs Debian's %s)"
                 % (tool, "neovim" if tool == "nvim" else tool))
    for f in (lsp, parser):
        if not os.path.isfile(f):
            print("FAIL: %s does not exist (build cake-lsp and cake-nvim-parser)" % f)
            return 1
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    tmux = Tmux(out)
    # SIGTERM and ^C end the test through `finally`, killing the server. CTest's
    # TIMEOUT kills outright: TOTAL_S ends the test before it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    start = time.monotonic()
    try:
        scenario(tmux, lsp, parser, out)
    except Failure as e:
        print("FAIL: %s" % e)
        if tmux.last:
            print("---- last screen ----\n%s\n---------------------" % tmux.last.text)
        print("screens (NN-step.ansi with escapes, NN-step.txt plain): %s" % tmux.shots)
        return 1
    finally:
        tmux.kill()
    print("editors.nvim_tmux: all checks passed in %.1f s (screens: %s)" % (time.monotonic() - start, tmux.shots))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
