"""A minimal LSP client over a subprocess's stdio, standard library only.

Used by the transcript tests (tests/lsp/transcript_test.py) and the agent
example (docs/agents.md). Messages are JSON-RPC 2.0 with Content-Length
framing; `request` waits for the matching response and keeps the
notifications that arrive meanwhile.
"""
import json
import subprocess
import threading
import queue


class LspClient:
    def __init__(self, argv, cwd=None):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd)
        self.next_id = 1
        self.messages = queue.Queue()
        self.notifications = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            body = out.read(length)
            self.messages.put(json.loads(body))

    def send_raw(self, data: bytes):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

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
        while True:
            m = self.messages.get(timeout=timeout)
            if m is None:
                raise EOFError("server closed its output")
            if "method" not in m and m.get("id") == rid:
                return m
            self.notifications.append(m)

    def request(self, method, params=None, timeout=30):
        return self.wait_response(self.request_async(method, params), timeout)

    def wait_notification(self, method, predicate=lambda p: True, timeout=30):
        for i, m in enumerate(self.notifications):
            if m.get("method") == method and predicate(m.get("params")):
                return self.notifications.pop(i)["params"]
        while True:
            m = self.messages.get(timeout=timeout)
            if m is None:
                raise EOFError("server closed its output")
            if m.get("method") == method and predicate(m.get("params")):
                return m["params"]
            self.notifications.append(m)

    def initialize(self, capabilities=None, root_uri=None):
        r = self.request("initialize", {"processId": None, "rootUri": root_uri,
                                        "capabilities": capabilities or {}})
        self.notify("initialized", {})
        return r

    def open(self, uri, text, version=1):
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "cake", "version": version, "text": text}})

    def shutdown(self, timeout=10):
        r = self.request("shutdown")
        self.notify("exit")
        code = self.proc.wait(timeout=timeout)
        return r, code
