#!/usr/bin/env python3
"""lsp_soak.py: cake-lsp while a file is broken, under bursts of edits.

Three measurements, each on generated files (`cake-bench-check
--emit-file`):

1. **Broken vs valid** (at each of --sizes): one-character edits, each
   waited for until its diagnostics arrive, first on the valid file, then
   after a syntax error (`kernel k(` on a line of its own) was put in the
   middle of it. Goal: broken p50 within 2x of valid p50.
2. **Soak** (at --soak-lines): --edits random edits of the kinds that leave
   a file broken (stray braces and brackets, `kernel k(`, line breaks,
   non-ASCII, NUL bytes, comment openers, one-character deletions), sent in
   bursts of --burst without waiting;
   after each burst, hover, completion, semantic tokens, code lens, document
   symbols and inlay hints are requested one after another (a different one
   first each time), each timed from its send to its answer's arrival
   (read off the pipe, before this client parses it); the first
   after a burst waits behind the burst's queued edits (goal: none more
   than 100 ms). Resident memory is read after a warm-up and once the
   known document has replaced the soaked text (goal: growth under 20 %). Then the whole text is replaced by a known
   document, whose diagnostics must equal those of a fresh server that
   opens it: a mismatch exits 1.
3. **Open** (at the largest size): open -> first diagnostics for cake-lsp
   and for mlir-lsp-server (Debian's mlir-14-tools) on an MLIR file of the
   same line count (tests/bench/lsp_bench.py's generator), in the same run.

Positions are negotiated as UTF-8, so edits address bytes. A benchmark, not
a test: timings never fail it; it exits 1 only when a server fails or the
final diagnostics differ. docs/benchmarks.md explains how to read it.

Usage: lsp_soak.py [--cake-lsp PATH] [--bench-check PATH] [--mlir-lsp PATH]
                   [--sizes 10000,100000] [--soak-lines 10000] [--edits 3000]
                   [--burst 25] [--seed 1] [--smoke]
"""
import json
import os
import pathlib
import random
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "lsp"))
sys.path.insert(0, str(ROOT / "tests" / "bench"))
from lsp_client import LspClient  # noqa: E402
from lsp_bench import mlir_file, percentile, server_arguments  # noqa: E402

URI = "file:///tmp/cake-soak/soak.cake"
UTF8 = {"general": {"positionEncodings": ["utf-8"]}}
FRAGMENTS = [b"}", b"{", b"(", b")", b"[", b"]", b"\n", b"kernel k(", b"\nkernel k(\n", b"x", b"0", b" ",
             "\u00e9".encode(), "\u2603".encode(), "\U0001d11e".encode(), b"\x00", b"/*", b"*/", b"//", b",",
             b"wait ", b"bench k {", b"->", b".."]


def ms(seconds):
    return seconds * 1000.0


def generate(bench_check, lines, workdir):
    path = os.path.join(workdir, f"gen{lines}.cake")
    if os.spawnv(os.P_WAIT, bench_check, [bench_check, "--emit-file", str(lines), path]) != 0:
        raise RuntimeError(f"{bench_check} --emit-file failed")
    return pathlib.Path(path).read_bytes()


def position(text, offset):
    """LSP position of a byte offset (UTF-8 positions)."""
    line = text.count(b"\n", 0, offset)
    start = text.rfind(b"\n", 0, offset) + 1
    return {"line": line, "character": offset - start}


def boundary(text, offset):
    """The nearest UTF-8 character boundary at or before `offset`."""
    while 0 < offset < len(text) and (text[offset] & 0xC0) == 0x80:
        offset -= 1
    return offset


def rss_kb(pid):
    time.sleep(0.3)  # the server is idle: it has given free pages back
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Session:
    """One cake-lsp with one open document, text kept in step as bytes."""

    def __init__(self, binary, text):
        self.c = LspClient([binary])
        r = self.c.initialize(UTF8)
        if r["result"]["capabilities"].get("positionEncoding") != "utf-8":
            raise RuntimeError("cake-lsp did not take UTF-8 positions")
        self.text = text
        self.version = 1
        t0 = time.perf_counter()
        self.c.open(URI, text.decode("utf-8"), 1)
        self.first = self.diagnostics(1)
        self.open_time = time.perf_counter() - t0

    def diagnostics(self, version, timeout=600):
        p = self.c.wait_notification("textDocument/publishDiagnostics",
                                     lambda p: p["uri"] == URI and p.get("version") == version, timeout)
        self.c.notifications.clear()  # older versions' diagnostics are of no use
        return p

    def edit(self, begin, end, new):
        """Sends one incremental change (no wait)."""
        change = {"range": {"start": position(self.text, begin), "end": position(self.text, end)},
                  "text": new.decode("utf-8")}
        self.text = self.text[:begin] + new + self.text[end:]
        self.version += 1
        self.c.change(URI, self.version, [change])

    def replace(self, text):
        self.text = text
        self.version += 1
        self.c.change(URI, self.version, [{"text": text.decode("utf-8")}])

    def close(self):
        try:
            self.c.request("shutdown", timeout=60)
            self.c.notify("exit")
            self.c.wait_exit(30)
        finally:
            self.c.kill()


def flip_site(text):
    """Byte offset of a digit to flip, in a kernel in the middle of the file."""
    middle = len(text) // 2
    at = text.find(b"- 2.0 * acc", middle)
    if at < 0:
        at = text.find(b"- 2.0 * acc")
    return at + 2


# Section - 1. Broken vs valid

def edits_to_diagnostics(s, site, count):
    times = []
    for k in range(count):
        t0 = time.perf_counter()
        s.edit(site, site + 1, b"3" if k % 2 == 0 else b"2")
        s.diagnostics(s.version)
        times.append(time.perf_counter() - t0)
    return times


def broken_vs_valid(binary, text, edits):
    s = Session(binary, text)
    try:
        site = flip_site(text)
        valid = edits_to_diagnostics(s, site, edits)
        # A syntax error in another kernel, a quarter of the file before the edit site.
        line_start = s.text.rfind(b"\nkernel ", 0, site // 2) + 1
        s.edit(line_start, line_start, b"kernel k(\n")
        problems = s.diagnostics(s.version)["diagnostics"]
        if not problems:
            raise RuntimeError("the inserted `kernel k(` drew no diagnostic")
        broken = edits_to_diagnostics(s, site + len(b"kernel k(\n"), edits)
        return {"open": s.open_time, "valid": valid, "broken": broken}
    finally:
        s.close()


# Section - 2. Soak

REQUESTS = ["textDocument/hover", "textDocument/completion", "textDocument/semanticTokens/full",
            "textDocument/codeLens", "textDocument/documentSymbol", "textDocument/inlayHint"]


def request_params(method, s, rng):
    doc = {"uri": URI}
    at = position(s.text, boundary(s.text, rng.randrange(len(s.text) + 1)))
    if method in ("textDocument/hover", "textDocument/completion"):
        return {"textDocument": doc, "position": at}
    if method == "textDocument/inlayHint":
        return {"textDocument": doc, "range": {"start": {"line": 0, "character": 0},
                                               "end": position(s.text, len(s.text))}}
    return {"textDocument": doc}


def random_edit(s, rng):
    """What the issue names: stray braces and brackets, `kernel k(`, non-ASCII,
    NUL bytes (and line breaks, comment openers, half statements) typed
    anywhere, or one character deleted (a backspace)."""
    n = len(s.text)
    begin = boundary(s.text, rng.randrange(n + 1))
    if rng.random() < 0.2 and begin > 0:
        s.edit(boundary(s.text, begin - 1), begin, b"")
    else:
        s.edit(begin, begin, rng.choice(FRAGMENTS))


def soak(binary, text, edits, burst, seed):
    rng = random.Random(seed)
    s = Session(binary, text)
    waits = {m: [] for m in REQUESTS}
    try:
        bursts = [0]
        first = {m: [] for m in REQUESTS}

        def requests():
            # One after another, the first (a different kind each burst)
            # right behind the burst's queued edits.
            order = REQUESTS[bursts[0] % len(REQUESTS):] + REQUESTS[:bursts[0] % len(REQUESTS)]
            bursts[0] += 1
            for i, method in enumerate(order):
                t0 = time.perf_counter()
                r = s.c.request(method, request_params(method, s, rng), timeout=600)
                if "error" in r and r["error"]["code"] != -32800:
                    raise RuntimeError(f"{method} failed: {r['error']}")
                # Until the answer was read off the pipe, not until this
                # client had parsed it (Python's json takes 10-40 ms for the
                # 0.7 MB of a 10,000-line file's tokens or symbols).
                waits[method].append(s.c.last_arrival - t0)
                if i == 0:
                    first[method].append(s.c.last_arrival - t0)
            s.c.notifications.clear()

        requests()  # warm-up: every kernel estimated once, tokens built
        rss_start = rss_kb(s.c.proc.pid)
        for m in waits:
            waits[m].clear()
            first[m].clear()
        t_start = time.perf_counter()
        done = 0
        while done < edits:
            for _ in range(min(burst, edits - done)):
                random_edit(s, rng)
                done += 1
            requests()
        soak_time = time.perf_counter() - t_start
        rss_end = rss_kb(s.c.proc.pid)

        # The whole text replaced by a known document: its diagnostics must
        # be those of a fresh server.
        s.replace(text)
        final = s.diagnostics(s.version)["diagnostics"]
        rss_replaced = rss_kb(s.c.proc.pid)
        fresh = Session(binary, text)
        try:
            expected = fresh.first["diagnostics"]
        finally:
            fresh.close()
        same = json.dumps(final, sort_keys=True) == json.dumps(expected, sort_keys=True)
        return {"waits": waits, "first": first, "rss_start": rss_start, "rss_end": rss_end, "rss_replaced": rss_replaced,
                "seconds": soak_time,
                "same": same, "final": len(final), "expected": len(expected)}
    finally:
        s.close()


# Section - 3. Open, next to mlir-lsp-server

def mlir_open(binary, lines):
    c = LspClient([binary])
    try:
        c.initialize()
        uri = "file:///tmp/cake-soak/gen.mlir"
        t0 = time.perf_counter()
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1,
                                                           "text": mlir_file(lines)}})
        c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == uri, 600)
        return time.perf_counter() - t0
    finally:
        c.kill()


# Section - Report

def main():
    ap = server_arguments(__doc__)
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--soak-lines", type=int, default=10000)
    ap.add_argument("--edits", type=int, default=3000)
    ap.add_argument("--burst", type=int, default=25)
    ap.add_argument("--flips", type=int, default=30, help="edits per broken/valid series")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--smoke", action="store_true", help="what CTest runs: small files, few edits")
    a = ap.parse_args()
    if a.smoke:
        a.sizes, a.soak_lines, a.edits, a.flips = "1000", 1000, 200, 5
    sizes = [int(x) for x in a.sizes.split(",")]
    failed = False
    with tempfile.TemporaryDirectory() as work:
        print("lsp_soak: one-character edit -> its diagnostics, valid file vs one with a syntax error (ms)")
        print(f"{'lines':>10} {'open ms':>10} {'valid p50':>10} {'valid p95':>10} {'broken p50':>11} "
              f"{'broken p95':>11} {'ratio p50':>10}  goal <= 2")
        opens = {}
        for lines in sizes:
            r = broken_vs_valid(a.cake_lsp, generate(a.bench_check, lines, work), a.flips)
            opens[lines] = r["open"]
            v50, b50 = statistics.median(r["valid"]), statistics.median(r["broken"])
            print(f"{lines:>10,} {ms(r['open']):>10.1f} {ms(v50):>10.2f} {ms(percentile(r['valid'], 95)):>10.2f} "
                  f"{ms(b50):>11.2f} {ms(percentile(r['broken'], 95)):>11.2f} {b50 / v50:>10.2f}  "
                  f"{'meets' if b50 <= 2 * v50 else 'misses'}")

        r = soak(a.cake_lsp, generate(a.bench_check, a.soak_lines, work), a.edits, a.burst, a.seed)
        print(f"\nlsp_soak: {a.edits} random edits on {a.soak_lines:,} lines in bursts of {a.burst}, six requests "
              f"after each burst, one after another ({r['seconds']:.1f} s); request send -> answer read (ms): every "
              f"request, and the first after a burst (behind its queued edits)")
        print(f"{'request':<36} {'p50':>8} {'p95':>8} {'max':>8} {'first p50':>10} {'first max':>10}  "
              f"goal first max <= 100")
        for method, times in r["waits"].items():
            f = r["first"][method] or [0.0]
            print(f"{method:<36} {ms(statistics.median(times)):>8.2f} {ms(percentile(times, 95)):>8.2f} "
                  f"{ms(max(times)):>8.2f} {ms(statistics.median(f)):>10.2f} {ms(max(f)):>10.2f}  "
                  f"{'meets' if max(f) <= 0.1 else 'misses'}")
        # Growth compares the same text: the known document after warm-up and
        # after the soak (the broken text at the end of it is reported too).
        growth = r["rss_replaced"] / r["rss_start"] - 1 if r["rss_start"] else 0.0
        print(f"resident memory: {r['rss_start'] / 1024:.1f} MB after warm-up, {r['rss_end'] / 1024:.1f} MB at the "
              f"end of the soak (its broken text), {r['rss_replaced'] / 1024:.1f} MB once the known text replaced it: "
              f"{100 * growth:+.1f} %  goal < +20 %  {'meets' if growth < 0.2 else 'misses'}")
        print(f"final diagnostics after replacing the text: {r['final']}, a fresh server's: {r['expected']}: "
              f"{'equal' if r['same'] else 'DIFFERENT'}")
        failed |= not r["same"]

        largest = max(sizes)
        if os.path.exists(a.mlir_lsp) and not a.smoke:
            m = mlir_open(a.mlir_lsp, largest)
            c = opens[largest]
            print(f"\nopen -> first diagnostics at {largest:,} lines: cake-lsp {ms(c):.0f} ms, mlir-lsp-server "
                  f"{ms(m):.0f} ms: ratio {m / c:.2f}  goal >= 1  {'meets' if c <= m else 'misses'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
