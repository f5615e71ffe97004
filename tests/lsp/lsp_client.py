"""A minimal LSP client over a subprocess's stdio or a TCP socket, standard
library only.

Used by the transcript tests (tests/lsp/transcript_test.py), the benchmark
(tests/bench/lsp_bench.py) and the agent example (docs/agents.md). Messages
are JSON-RPC 2.0 with Content-Length framing; `request` waits for the
matching response and keeps the notifications that arrive meanwhile.
"""
import json
import queue
import socket
import subprocess
import threading
import time


class LspClient:
    def __init__(self, argv=None, cwd=None, sock=None):
        """Starts `argv` and talks over its stdio, or talks over a connected
        socket `sock` (then `proc` is None)."""
        self.proc = None
        self.sock = sock
        if sock is None:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, cwd=cwd)
            self._in, self._out = self.proc.stdout, self.proc.stdin
        else:
            self._in, self._out = sock.makefile("rb"), sock.makefile("wb")
        self.next_id = 1
        # (arrival time, body): the reader thread only reads, so a message's
        # arrival is not held up by parsing the ones before it.
        self.messages = queue.Queue()
        self.last_arrival = None  # perf_counter() when the message _next() returned last was read
        self.notifications = []
        self.closed = False
        threading.Thread(target=self._read, daemon=True).start()

    @classmethod
    def connect(cls, host, port, timeout=10):
        """A client over TCP, retrying until the server listens."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                return cls(sock=socket.create_connection((host, port), timeout=timeout))
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def _read(self):
        out = self._in
        try:
            while True:
                length = None
                while True:
                    line = out.readline()
                    if not line:
                        return
                    line = line.strip()
                    if not line:
                        break
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                body = out.read(length)
                self.messages.put((time.perf_counter(), body))
        except (OSError, ValueError):
            return
        finally:
            self.closed = True
            self.messages.put(None)

    def _next(self, timeout):
        item = self.messages.get(timeout=timeout)
        if item is not None:
            arrived, body = item
            try:
                m = json.loads(body)
            except ValueError:
                item = None
                self.closed = True
        if item is None:
            self.messages.put(None)  # every later wait sees the end too
            raise EOFError("server closed its output")
        self.last_arrival = arrived
        return m

    def send_raw(self, data: bytes):
        self._out.write(data)
        self._out.flush()

    def send(self, message):
        body = json.dumps(message).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method, params=None):
        self.send({"jsonrpc": "2.0", "method": method, "params": params if params is not None else {}})

    def request_async(self, method, params=None):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params if params is not None else {}})
        return rid

    def wait_response(self, rid, timeout=30):
        return self.wait_message(lambda m: "method" not in m and m.get("id") == rid, timeout)

    def request(self, method, params=None, timeout=30):
        return self.wait_response(self.request_async(method, params), timeout)

    def wait_message(self, predicate, timeout=30):
        """The first message (kept or new) for which predicate(message) holds."""
        for i, m in enumerate(self.notifications):
            if predicate(m):
                return self.notifications.pop(i)
        while True:
            m = self._next(timeout)
            if predicate(m):
                return m
            self.notifications.append(m)

    def wait_notification(self, method, predicate=lambda p: True, timeout=30):
        return self.wait_message(lambda m: m.get("method") == method and predicate(m.get("params")), timeout)["params"]

    def drain(self, seconds):
        """Keeps every message that arrives within `seconds`; returns them all."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return self.notifications
            try:
                self.notifications.append(self._next(left))
            except queue.Empty:
                return self.notifications

    def initialize(self, capabilities=None, root_uri=None):
        r = self.request("initialize", {"processId": None, "rootUri": root_uri,
                                        "capabilities": capabilities or {}})
        self.notify("initialized", {})
        return r

    def open(self, uri, text, version=1):
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "cake", "version": version, "text": text}})

    def change(self, uri, version, changes):
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": changes})

    def close_input(self):
        """Ends the server's input, as a client that goes away does."""
        if self.sock is not None:
            self.sock.shutdown(socket.SHUT_WR)
        else:
            self.proc.stdin.close()

    def shutdown(self, timeout=10):
        r = self.request("shutdown")
        self.notify("exit")
        return r, self.wait_exit(timeout)

    def wait_exit(self, timeout=10):
        """The server's exit code (stdio only; None over TCP)."""
        if self.proc is None:
            return None
        return self.proc.wait(timeout=timeout)

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if self.sock is not None:
            self.sock.close()
