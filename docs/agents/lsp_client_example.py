#!/usr/bin/env python3
"""A minimal cake-lsp client in Python's standard library (docs/agents.md).

Starts cake-lsp, opens each .cake file given (a directory: its *.cake files),
waits for the diagnostics the server pushes, prints them one a line, and
shuts the server down:

    lsp_client_example.py [--server PATH] [--tcp] [--json] FILE|DIR ...

    path:line:col: error CAKE-E0101: unknown name `bogus` [docs: file:///...]

--tcp runs `cake-lsp --listen 127.0.0.1:PORT` and connects to it instead of
using stdio; --json prints {"path": [Diagnostic, ...]} instead of lines.
Exit status: 0 no errors, 1 some error diagnostic, 2 a failure (no server,
a timeout, a protocol error). CTest `editors.agents` keeps it working.
"""
import argparse
import json
import os
import queue
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

TIMEOUT_S = 30


class Connection:
    """JSON-RPC 2.0 with Content-Length framing over a pair of byte streams."""

    def __init__(self, reader, writer):
        self.writer = writer
        self.next_id = 1
        self.inbox = queue.Queue()
        threading.Thread(target=self._read_loop, args=(reader,), daemon=True).start()

    def _read_loop(self, reader):
        while True:
            length = None
            while True:  # headers up to the empty line
                line = reader.readline()
                if not line:
                    self.inbox.put(None)  # end of stream
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.inbox.put(json.loads(reader.read(length)))

    def send(self, message):
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.writer.flush()

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def request(self, method, params, on_notification=None):
        """Sends a request and returns its result; notifications that arrive meanwhile go to on_notification."""
        rid = self.next_id
        self.next_id += 1
        self.send({"id": rid, "method": method, "params": params})
        while True:
            msg = self.receive()
            if msg.get("id") == rid and "method" not in msg:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result")
            self.handle(msg, on_notification)

    def receive(self, timeout=TIMEOUT_S):
        try:
            msg = self.inbox.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no message from cake-lsp within {timeout} s") from None
        if msg is None:
            raise ConnectionError("cake-lsp closed the connection")
        return msg

    def handle(self, msg, on_notification):
        if "method" in msg and "id" in msg:  # a request from the server: answer it
            self.send({"id": msg["id"], "result": None})
        elif "method" in msg and on_notification:
            on_notification(msg)


def find_server(explicit):
    for candidate in (explicit, os.environ.get("CAKE_LSP"),
                      Path(__file__).resolve().parents[2] / "build/bin/cake-lsp",
                      shutil.which("cake-lsp")):
        if candidate and os.access(candidate, os.X_OK):
            return str(candidate)
    sys.exit("lsp_client_example: cake-lsp not found (use --server or CAKE_LSP)")


def start(server, tcp):
    """Starts cake-lsp; returns (process, Connection)."""
    if not tcp:
        proc = subprocess.Popen([server], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        return proc, Connection(proc.stdout, proc.stdin)
    with socket.socket() as probe:  # a free port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([server, "--listen", f"127.0.0.1:{port}"])
    deadline = time.monotonic() + TIMEOUT_S
    while True:
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT_S)
            break
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise
            time.sleep(0.05)
    return proc, Connection(sock.makefile("rb"), sock.makefile("wb"))


def collect_files(args):
    files = []
    for arg in args:
        p = Path(arg)
        files.extend(sorted(p.rglob("*.cake")) if p.is_dir() else [p])
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+", metavar="FILE|DIR")
    ap.add_argument("--server", help="cake-lsp (default: $CAKE_LSP, build/bin, PATH)")
    ap.add_argument("--tcp", action="store_true", help="talk over TCP (cake-lsp --listen) instead of stdio")
    ap.add_argument("--json", action="store_true", help="print the diagnostics as JSON")
    opts = ap.parse_args()

    proc, conn = start(find_server(opts.server), opts.tcp)
    results = {}  # uri -> diagnostics of the version we opened

    def on_notification(msg):
        if msg["method"] == "textDocument/publishDiagnostics":
            p = msg["params"]
            if p.get("version") in (None, 1):
                results[p["uri"]] = p["diagnostics"]

    try:
        # No textDocument.diagnostic capability: the server pushes diagnostics.
        conn.request("initialize", {
            "processId": os.getpid(), "rootUri": None,
            "capabilities": {"general": {"positionEncodings": ["utf-16"]}},
            "clientInfo": {"name": "lsp_client_example.py"},
        }, on_notification)
        conn.notify("initialized", {})
        files = collect_files(opts.paths)
        uris = {}
        for f in files:
            uri = f.resolve().as_uri()
            uris[uri] = f
            conn.notify("textDocument/didOpen", {"textDocument": {
                "uri": uri, "languageId": "cake", "version": 1,
                "text": f.read_text(encoding="utf-8", errors="replace")}})
        while not all(u in results for u in uris):
            conn.handle(conn.receive(), on_notification)
        conn.request("shutdown", None, on_notification)
        conn.notify("exit", None)
        proc.wait(timeout=TIMEOUT_S)
    except (TimeoutError, ConnectionError, RuntimeError, OSError) as e:
        proc.kill()
        print(f"lsp_client_example: {e}", file=sys.stderr)
        return 2

    errors = 0
    if opts.json:
        print(json.dumps({str(uris[u]): results[u] for u in uris}, indent=2))
    for uri, path in uris.items():
        for d in results[uri]:
            sev = {1: "error", 2: "warning", 3: "info", 4: "hint"}.get(d.get("severity"), "error")
            errors += sev == "error"
            if not opts.json:
                start_pos = d["range"]["start"]
                href = d.get("codeDescription", {}).get("href")
                print(f"{path}:{start_pos['line'] + 1}:{start_pos['character'] + 1}: {sev} {d.get('code', '')}: "
                      f"{d['message']}" + (f" [docs: {href}]" if href else ""))
    if not opts.json:
        print(f"{len(uris)} file(s), {errors} error(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
