#!/usr/bin/env python3
"""End-to-end JSON-RPC transcripts against cake-lsp (CTest `lsp.transcript`).

Usage: transcript_test.py PATH/TO/cake-lsp [CASE...]

Each case starts a fresh server over stdio (or TCP), plays one exchange and
checks the answers. Feature methods (hover, definition, ...) are exercised
only when `initialize` advertises their capability, so the file keeps
passing while features land; a skipped case prints why. Add a case by
writing a function `case_<name>(server)` (or, for a feature, adding it to
FEATURE_CASES) - every `case_` function runs, in file order.
Exits 0 when every case passes or skips, 1 otherwise.
"""
import inspect
import os
import pathlib
import socket
import subprocess
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import LspClient  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.cake"))
KMEANS = (ROOT / "docs" / "examples" / "kmeans_assign.cake").read_text(encoding="utf-8")
URI = "file:///tmp/cake-transcript/kmeans.cake"

# Error codes (LSP 3.17).
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602
SERVER_NOT_INITIALIZED, REQUEST_CANCELLED = -32002, -32800


class Skip(Exception):
    pass


def check(condition, what, detail=None):
    if not condition:
        raise AssertionError(what + ("" if detail is None else f": {detail!r}"[:600]))


def line_of(text, needle):
    """0-based line of the first line containing `needle`."""
    for i, line in enumerate(text.split("\n")):
        if needle in line:
            return i
    raise ValueError(needle)


def utf16_len(s):
    return len(s.encode("utf-16-le")) // 2


# A broken copy: an undefined barrier name (CAKE-E0101) on a known line.
BROKEN = KMEANS.replace("wait x_full parity(0)", "wait bogus parity(0)", 1)
BROKEN_LINE = line_of(BROKEN, "wait bogus parity(0)")
# A copy with non-ASCII text before a name on the same line, for position
# encodings: `é` is 2 UTF-8 bytes / 1 UTF-16 unit, the emoji 4 / 2.
UNICODE_PREFIX = "    wait /* é😀 */ "
UNICODE = KMEANS.replace("    wait x_full parity(0)", UNICODE_PREFIX + "x_full parity(0)", 1)
UNICODE_LINE = line_of(UNICODE, "é😀")


class Server:
    """Starts cake-lsp for one case and always stops it."""

    def __init__(self, binary):
        self.binary = binary
        self.clients = []

    def start(self, capabilities=None, initialize=True):
        c = LspClient([self.binary])
        self.clients.append(c)
        if initialize:
            r = c.initialize(capabilities)
            check("result" in r, "initialize answers with a result", r)
            c.capabilities = r["result"]["capabilities"]
            c.server_info = r["result"].get("serverInfo")
        return c

    def close(self):
        for c in self.clients:
            c.kill()


def diagnostics_for(client, uri, version=None, timeout=30):
    return client.wait_notification(
        "textDocument/publishDiagnostics",
        lambda p: p["uri"] == uri and (version is None or p.get("version") == version), timeout)


def error_code(response):
    return response.get("error", {}).get("code")


def alive(client):
    """The server still answers requests (an unknown one: MethodNotFound)."""
    r = client.request("cake/ping", {}, timeout=30)
    check(error_code(r) == METHOD_NOT_FOUND, "server still answers after the bad input", r)


def one_diagnostic(params, code, line):
    codes = [(d.get("code"), d["range"]["start"]["line"]) for d in params["diagnostics"]]
    check((code, line) in codes, f"a {code} diagnostic on line {line}", codes)
    return next(d for d in params["diagnostics"] if d.get("code") == code and d["range"]["start"]["line"] == line)


# Section - Lifecycle

def case_initialize_capabilities(server):
    c = server.start()
    caps = c.capabilities
    check(caps.get("positionEncoding") == "utf-16", "utf-16 is the default position encoding", caps)
    sync = caps.get("textDocumentSync")
    check(isinstance(sync, dict) and sync.get("openClose") and sync.get("change") == 2,
          "incremental text sync with open/close", sync)
    check("diagnosticProvider" not in caps, "no pull diagnostics unless the client asks", caps)
    version = subprocess.run([server.binary, "--version"], capture_output=True, text=True).stdout
    check(c.server_info == {"name": "cake-lsp", "version": version.split()[1]} and version.startswith("cake-lsp "),
          "serverInfo names cake-lsp and the version --version prints", (c.server_info, version))
    r = c.request("initialize", {"capabilities": {}})
    check(error_code(r) == INVALID_REQUEST, "a second initialize is refused", r)


def case_initialize_utf8(server):
    c = server.start({"general": {"positionEncodings": ["utf-8", "utf-16"]}})
    check(c.capabilities.get("positionEncoding") == "utf-8", "utf-8 is chosen when offered", c.capabilities)


def case_shutdown_exit_code_0(server):
    c = server.start()
    r, code = c.shutdown()
    check(r.get("result", "missing") is None, "shutdown answers null", r)
    check(code == 0, "exit after shutdown exits 0", code)


def case_exit_without_shutdown_code_1(server):
    c = server.start()
    c.notify("exit")
    check(c.wait_exit() == 1, "exit without shutdown exits 1")


def case_client_gone_without_shutdown(server):
    c = server.start()
    c.open(URI, KMEANS)
    c.close_input()
    check(c.wait_exit() == 1, "the end of input without shutdown exits 1")
    check(b"Sanitizer" not in c.proc.stderr.read(), "a clean exit (no sanitizer report)")


def case_request_after_shutdown(server):
    c = server.start()
    c.request("shutdown")
    r = c.request("textDocument/diagnostic", {"textDocument": {"uri": URI}})
    check(error_code(r) == INVALID_REQUEST, "requests after shutdown are refused", r)
    c.notify("exit")
    check(c.wait_exit() == 0, "exit after shutdown exits 0")


def case_request_before_initialize(server):
    c = server.start(initialize=False)
    r = c.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}})
    check(error_code(r) == SERVER_NOT_INITIALIZED, "a request before initialize gets -32002", r)
    r = c.request("shutdown")
    check(error_code(r) == SERVER_NOT_INITIALIZED, "even shutdown", r)
    c.initialize()
    alive(c)


# Section - Push diagnostics and document sync

def case_diagnostics_broken_file(server):
    c = server.start()
    c.open(URI, BROKEN, version=7)
    p = diagnostics_for(c, URI)
    check(p.get("version") == 7, "publishDiagnostics carries the version", p.get("version"))
    d = one_diagnostic(p, "CAKE-E0101", BROKEN_LINE)
    check(d.get("severity") == 1 and "bogus" in d.get("message", ""), "an error naming `bogus`", d)
    check(d.get("source") == "cake", "source is cake", d)


def case_examples_are_clean(server):
    c = server.start()
    for path in EXAMPLES:
        uri = path.as_uri()
        c.open(uri, path.read_text(encoding="utf-8"))
        p = diagnostics_for(c, uri)
        errors = [d for d in p["diagnostics"] if d.get("severity") == 1]
        check(not errors, f"{path.name} draws no error", errors)


def case_incremental_change_utf16(server):
    c = server.start()
    c.open(URI, UNICODE, version=1)
    check(not diagnostics_for(c, URI, 1)["diagnostics"], "the unicode copy is clean")
    # Replace `x_full` after the comment: the range is in UTF-16 units.
    start = utf16_len(UNICODE_PREFIX)
    c.change(URI, 2, [{"range": {"start": {"line": UNICODE_LINE, "character": start},
                                 "end": {"line": UNICODE_LINE, "character": start + len("x_full")}},
                       "text": "bogus"}])
    d = one_diagnostic(diagnostics_for(c, URI, 2), "CAKE-E0101", UNICODE_LINE)
    check(d["range"]["start"]["character"] == start, "the diagnostic starts at the UTF-16 column", d["range"])
    check(d["range"]["end"]["character"] == start + len("bogus"), "and ends after `bogus`", d["range"])
    # Undo it: diagnostics go away with the next version.
    c.change(URI, 3, [{"range": {"start": {"line": UNICODE_LINE, "character": start},
                                 "end": {"line": UNICODE_LINE, "character": start + len("bogus")}},
                       "text": "x_full"}])
    check(not diagnostics_for(c, URI, 3)["diagnostics"], "the fix clears the diagnostics")


def case_incremental_change_utf8(server):
    c = server.start({"general": {"positionEncodings": ["utf-8"]}})
    c.open(URI, UNICODE, version=1)
    diagnostics_for(c, URI, 1)
    start = len(UNICODE_PREFIX.encode("utf-8"))
    c.change(URI, 2, [{"range": {"start": {"line": UNICODE_LINE, "character": start},
                                 "end": {"line": UNICODE_LINE, "character": start + len("x_full")}},
                       "text": "bogus"}])
    d = one_diagnostic(diagnostics_for(c, URI, 2), "CAKE-E0101", UNICODE_LINE)
    check(d["range"]["start"]["character"] == start, "the diagnostic starts at the byte column", d["range"])


def case_full_change_and_close(server):
    c = server.start()
    c.open(URI, KMEANS, version=1)
    diagnostics_for(c, URI, 1)
    c.change(URI, 2, [{"text": BROKEN}])
    one_diagnostic(diagnostics_for(c, URI, 2), "CAKE-E0101", BROKEN_LINE)
    c.notify("textDocument/didClose", {"textDocument": {"uri": URI}})
    check(diagnostics_for(c, URI)["diagnostics"] == [], "closing clears the diagnostics")


# Section - Pull diagnostics

PULL = {"textDocument": {"diagnostic": {"dynamicRegistration": False}}}


def case_pull_diagnostics(server):
    c = server.start(PULL)
    check("diagnosticProvider" in c.capabilities, "diagnosticProvider advertised to a pulling client", c.capabilities)
    c.open(URI, BROKEN, version=4)
    r = c.request("textDocument/diagnostic", {"textDocument": {"uri": URI}})
    check(r.get("result", {}).get("kind") == "full", "a full report", r)
    one_diagnostic({"diagnostics": r["result"]["items"]}, "CAKE-E0101", BROKEN_LINE)
    again = c.request("textDocument/diagnostic", {"textDocument": {"uri": URI},
                                                  "previousResultId": r["result"]["resultId"]})
    check(again.get("result", {}).get("kind") == "unchanged", "unchanged for the same resultId", again)
    pushed = [m for m in c.drain(0.3) if m.get("method") == "textDocument/publishDiagnostics"]
    check(not pushed, "no push diagnostics in pull mode", pushed)
    r = c.request("textDocument/diagnostic", {"textDocument": {"uri": "file:///not/open.cake"}})
    check(error_code(r) == INVALID_PARAMS, "a document that is not open is InvalidParams", r)


# Section - Cancellation

def case_cancel_request(server):
    c = server.start(PULL)
    c.open(URI, BROKEN)
    # Cancel before the server reaches it: a burst keeps it busy on the first.
    rids = [c.request_async("textDocument/diagnostic", {"textDocument": {"uri": URI}}) for _ in range(3)]
    c.notify("$/cancelRequest", {"id": rids[-1]})
    answers = [c.wait_response(rid) for rid in rids]
    for a in answers:
        check("result" in a or error_code(a) == REQUEST_CANCELLED, "a result or RequestCancelled", a)
    # Cancelling an unknown or answered id is harmless.
    c.notify("$/cancelRequest", {"id": 12345})
    c.notify("$/cancelRequest", {"id": rids[0]})
    r = c.request("textDocument/diagnostic", {"textDocument": {"uri": URI}})
    check("result" in r, "the next request is answered", r)


# Section - TCP

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def case_tcp(server):
    port = free_port()
    proc = subprocess.Popen([server.binary, "--listen", f"127.0.0.1:{port}"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        c = LspClient.connect("127.0.0.1", port)
        server.clients.append(c)
        r = c.initialize()
        check("capabilities" in r.get("result", {}), "initialize over TCP", r)
        c.open(URI, BROKEN)
        one_diagnostic(diagnostics_for(c, URI), "CAKE-E0101", BROKEN_LINE)
        c.request("shutdown")
        c.notify("exit")
        check(proc.wait(timeout=10) == 0, "exit 0 after shutdown over TCP")
        check(f":{port}".encode() in proc.stderr.read(), "the port is reported on stderr")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# Section - Robustness: bad input never ends the session

def expect_error(c, code, what):
    m = c.wait_message(lambda m: "error" in m and m.get("id") is None, timeout=60)
    check(m["error"]["code"] == code, what, m)


def case_malformed_header(server):
    c = server.start()
    c.send_raw(b"Content-Lenght: 2\r\n\r\n")
    expect_error(c, PARSE_ERROR, "a header without Content-Length is a parse error")
    c.send_raw(b"Content-Length: twelve\r\n\r\n")
    expect_error(c, PARSE_ERROR, "a non-numeric Content-Length is a parse error")
    c.send_raw(b"x" * 9000)
    expect_error(c, PARSE_ERROR, "8 KiB without a header end is a parse error")
    c.send_raw(b"\r\n\r\n")  # ends the junk header
    c.drain(0.2)
    alive(c)


def case_invalid_json(server):
    c = server.start()
    for body in (b"{not json", b"[1, 2", b"\xff\xfe"):
        c.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        expect_error(c, PARSE_ERROR, f"invalid JSON {body!r} is a parse error")
    for message in ([1, 2], "text", {"jsonrpc": "2.0", "id": {"a": 1}, "method": "x"}):
        c.send(message)
        expect_error(c, INVALID_REQUEST, f"{message!r} is an invalid request")
    r = c.request_async("x")
    c.send({"jsonrpc": "2.0", "id": 99, "method": 5})
    m = c.wait_message(lambda m: m.get("id") == 99)
    check(error_code(m) == INVALID_REQUEST, "a non-string method is an invalid request", m)
    check(error_code(c.wait_response(r)) == METHOD_NOT_FOUND, "unknown method x")


def case_wrong_param_types(server):
    c = server.start(PULL)
    for params in ({"textDocument": 5}, {"textDocument": {"uri": 5}}, [1, 2], "x", None):
        r = c.request("textDocument/diagnostic", params)
        check(error_code(r) == INVALID_PARAMS, f"params {params!r} are InvalidParams", r)
    # Notifications with bad params are logged, never answered, never fatal.
    c.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "text": 5}})
    c.notify("textDocument/didChange", {"textDocument": {"uri": URI}, "contentChanges": "x"})
    c.notify("textDocument/didOpen", [])
    c.notify("$/setTrace", {"value": 3})
    alive(c)


def case_unknown_method(server):
    c = server.start()
    r = c.request("textDocument/noSuchThing", {})
    check(error_code(r) == METHOD_NOT_FOUND, "an unknown request is MethodNotFound", r)
    c.notify("$/unknownNotification", {})
    c.notify("workspace/noSuchNotification", {})
    alive(c)


def case_position_out_of_range(server):
    c = server.start()
    c.open(URI, KMEANS, version=1)
    diagnostics_for(c, URI, 1)
    far = {"line": 100000, "character": 100000}
    c.change(URI, 2, [{"range": {"start": far, "end": far}, "text": "\n// appended\n"}])
    check(not diagnostics_for(c, URI, 2)["diagnostics"], "an edit past the end is clamped (stays valid)")
    c.change(URI, 3, [{"range": {"start": {"line": 0, "character": 500}, "end": {"line": 0, "character": 900}},
                       "text": ""}])
    diagnostics_for(c, URI, 3)
    c.change(URI, 4, [{"range": {"start": {"line": -1, "character": 0}, "end": far}, "text": "x"}])
    alive(c)
    if c.capabilities.get("hoverProvider"):
        r = c.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": far})
        check("result" in r or error_code(r) == INVALID_PARAMS, "hover past the end answers", r)


def case_huge_message(server):
    c = server.start()
    size = 50 << 20
    body = b'{"jsonrpc":"2.0","id":1000,"method":"x","params":"' + b"a" * (size - 60)
    body += b'"}'
    c.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    expect_error(c, INVALID_REQUEST, "a 50 MB message is refused")
    alive(c)
    r, code = c.shutdown()
    check(code == 0, "and the session ends normally", code)


DEPTH = 100_000
BOMBS = {
    "objects": '{"a":' * DEPTH + "1" + "}" * DEPTH,
    "arrays": "[" * DEPTH + "]" * DEPTH,
    "mixed": '[{"a":' * (DEPTH // 2) + "0" + "}]" * (DEPTH // 2),
}


def case_depth_bombs(server):
    """Valid JSON nested 100,000 deep, in every field of requests and
    notifications: refused before anything recurses over it, and the
    session goes on (it was a SIGSEGV in hover's params)."""
    c = server.start()
    c.open(URI, KMEANS, version=1)
    diagnostics_for(c, URI, 1)
    position = '{"line":0,"character":0}'
    doc = '{"uri":"%s"}' % URI
    rid = 500
    for name, bomb in BOMBS.items():
        requests = [
            '"method":"textDocument/hover","params":%s' % bomb,
            '"method":"textDocument/hover","params":{"textDocument":%s,"position":%s}' % (bomb, position),
            '"method":"textDocument/hover","params":{"textDocument":%s,"position":%s}' % (doc, bomb),
            '"method":"textDocument/hover","params":{"textDocument":%s,"position":%s,"workDoneToken":%s}'
            % (doc, position, bomb),
            '"method":%s,"params":{}' % bomb,
            '"jsonrpc":%s,"method":"textDocument/hover","params":{}' % bomb,
        ]
        for fields in requests:
            rid += 1
            body = ('{"jsonrpc":"2.0","id":%d,%s}' % (rid, fields)).encode()
            c.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            m = c.wait_message(lambda m, rid=rid: m.get("id") == rid, timeout=60)
            check(error_code(m) == INVALID_REQUEST, f"a request with {name} nested in it is refused", m)
        # In the id itself, and in notifications: refused without an id.
        for body in ('{"jsonrpc":"2.0","id":%s,"method":"x"}' % bomb,
                     '{"jsonrpc":"2.0","method":"textDocument/didChange","params":%s}' % bomb,
                     '{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":%s}}' % bomb,
                     bomb):
            body = body.encode()
            c.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            expect_error(c, INVALID_REQUEST, f"a message with {name} nested in it is refused")
    alive(c)
    r = c.request("textDocument/hover", {"textDocument": {"uri": URI},
                                         "position": {"line": line_of(KMEANS, "wait x_full"), "character": 10}})
    check("result" in r, "hover still answers after the bombs", r)
    r, code = c.shutdown()
    check(code == 0, "and the session ends normally", code)


# Section - Features: a case runs only when its capability is advertised

def hover_case(c):
    c.open(URI, KMEANS)
    line = line_of(KMEANS, "wait x_full parity(0)")
    col = KMEANS.split("\n")[line].index("x_full") + 1
    r = c.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": {"line": line, "character": col}})
    check("result" in r, "hover answers", r)
    check(r["result"] is None or "contents" in r["result"], "a Hover or null", r)
    check(r["result"] is not None, "hover on a barrier name has contents", r)
    # On a diagnostic: its code, the rule page's "What it means" and a link.
    c.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 2},
                                        "contentChanges": [{"text": BROKEN}]})
    d = one_diagnostic(diagnostics_for(c, URI, version=2), "CAKE-E0101", BROKEN_LINE)
    r = c.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": d["range"]["start"]})
    value = (r.get("result") or {}).get("contents", {}).get("value", "")
    check("CAKE-E0101" in value and "rules/CAKE-E0101.md" in value, "hover names the rule and links its page", value)
    meaning = open(os.path.join(ROOT, "docs/rules/CAKE-E0101.md")).read().split("## What it means")[1].split("\n## ")[0]
    check(meaning.strip().split("\n")[0] in value, "hover quotes the rule page", value)
    # Not the message: the editor shows the diagnostic itself beside the hover (issue 16).
    check(d["message"] not in value, "the hover does not repeat the diagnostic's message", value)
    check(value.count("CAKE-E0101") == 2, "the code once, and in the link", value)


def definition_case(c):
    c.open(URI, KMEANS)
    use = line_of(KMEANS, "wait x_full parity(0)")
    col = KMEANS.split("\n")[use].index("x_full") + 1
    r = c.request("textDocument/definition", {"textDocument": {"uri": URI}, "position": {"line": use, "character": col}})
    check("result" in r and r["result"], "definition answers with a location", r)
    loc = r["result"][0] if isinstance(r["result"], list) else r["result"]
    target_range = loc.get("targetSelectionRange") or loc.get("range")
    check(target_range["start"]["line"] == line_of(KMEANS, "mbarrier x_full"), "at the declaration", loc)


def references_case(c):
    c.open(URI, KMEANS)
    decl = line_of(KMEANS, "mbarrier x_full")
    r = c.request("textDocument/references", {"textDocument": {"uri": URI},
                                              "position": {"line": decl, "character": 12},
                                              "context": {"includeDeclaration": True}})
    check(isinstance(r.get("result"), list) and len(r["result"]) >= 3, "x_full is declared and used", r)


def document_symbol_case(c):
    c.open(URI, KMEANS)
    r = c.request("textDocument/documentSymbol", {"textDocument": {"uri": URI}})
    names = [s.get("name") for s in r.get("result") or []]
    check("kmeans_assign" in names, "the kernel is a symbol", r)


def rename_case(c):
    c.open(URI, KMEANS)
    decl = line_of(KMEANS, "mbarrier x_full")
    pos = {"line": decl, "character": KMEANS.split("\n")[decl].index("x_full") + 2}
    p = c.request("textDocument/prepareRename", {"textDocument": {"uri": URI}, "position": pos})
    check(p.get("result", {}).get("placeholder") == "x_full", "prepareRename offers the name", p)
    r = c.request("textDocument/rename", {"textDocument": {"uri": URI}, "position": pos, "newName": "x_ready"})
    edits = r.get("result", {}).get("changes", {}).get(URI, [])
    refs = c.request("textDocument/references", {"textDocument": {"uri": URI}, "position": pos,
                                                 "context": {"includeDeclaration": True}})["result"]
    check(len(edits) == len(refs) >= 3 and all(e["newText"] == "x_ready" for e in edits),
          "rename edits every occurrence", r)
    block = line_of(KMEANS, "block.x")
    builtin = {"line": block, "character": KMEANS.split("\n")[block].index("block.x") + 1}
    for method in ("textDocument/prepareRename", "textDocument/rename"):
        e = c.request(method, {"textDocument": {"uri": URI}, "position": builtin, "newName": "b"})
        check("error" in e, f"{method} refuses a builtin", e)
    e = c.request("textDocument/rename", {"textDocument": {"uri": URI}, "position": pos, "newName": "smem"})
    check("error" in e, "rename refuses a keyword as the new name", e)


def case_lowered_cuda(server):
    """cake/lowered: the CUDA of the kernel under the cursor, or why not."""
    c = server.start()
    check(c.capabilities.get("experimental", {}).get("lowered") is True, "cake/lowered is advertised", c.capabilities)
    path = ROOT / "docs" / "examples" / "row_softmax.cake"
    text = path.read_text(encoding="utf-8")
    uri = path.as_uri()
    c.open(uri, text)
    at = {"line": line_of(text, "reduce.row max pm <- x"), "character": 4}
    r = c.request("cake/lowered", {"textDocument": {"uri": uri}, "position": at})["result"]
    check(r["kernel"] == "row_softmax" and r["target"] == "sm_80" and r["ok"], "row_softmax lowers for sm_80", r)
    check(f'#line {at["line"] + 1} "{path}"' in r["cuda"] and "// reduce.row max pm <- x" in r["cuda"],
          "its CUDA quotes the statement under its #line", r["cuda"][:400])
    # Edited: the answer follows the newest text; a view names its kernel.
    c.change(uri, 2, [{"range": {"start": at, "end": at}, "text": "// "}])
    r = c.request("cake/lowered", {"textDocument": {"uri": uri}, "kernel": "row_softmax"})["result"]
    check(r["ok"] and "// reduce.row max pm <- x" not in r["cuda"], "the CUDA follows the edit", r["cuda"][:400])
    r = c.request("cake/lowered", {"textDocument": {"uri": uri}, "kernel": "nothing"})
    check(error_code(r) == INVALID_PARAMS, "no kernel of that name", r)
    # A kernel that does not lower yet: why, on its lines.
    refused = ROOT / "tests" / "codegen" / "fixtures" / "not_lowered.cake"
    btext = refused.read_text(encoding="utf-8")
    c.open(refused.as_uri(), btext)
    r = c.request("cake/lowered", {"textDocument": {"uri": refused.as_uri()},
                                   "position": {"line": line_of(btext, "tcgen05.cp u"), "character": 4}})["result"]
    check(not r["ok"] and r["cuda"] == "" and r["problems"], "tmem_copy is refused, with its problems", r)
    check(all(p["code"] == "CAKE-E0801" for p in r["problems"]), "the problems are E0801", r["problems"])
    # A file with an error: the error itself, with its code and line.
    broken = text.replace("reduce.row max pm <- x", "reduce.row max pmm <- x", 1)
    c.change(uri, 3, [{"text": broken}])
    r = c.request("cake/lowered", {"textDocument": {"uri": uri}, "kernel": "row_softmax"})["result"]
    check(not r["ok"] and r["cuda"] == "" and [p["code"] for p in r["problems"]] == ["CAKE-E0101"]
          and r["problems"][0]["range"]["start"]["line"] == at["line"],
          "a file with an error: its error, not an E0801", r["problems"])
    # Outside any kernel: an error, and the server serves on.
    r = c.request("cake/lowered", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})
    check(error_code(r) == INVALID_PARAMS, "no kernel at the first line", r)
    alive(c)


def case_compiler_facts_in_the_background(server):
    """After typing pauses, the compiler's facts join the diagnostics (docs/lsp.md)."""
    c = server.start(initialize=False)
    # An NVRTC option that breaks the exp2 of row_softmax's line 37, as a
    # wrong lowering would: its E0802 must come back on that line.
    r = c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {},
                                 "initializationOptions": {"compileOptions": ["--define-macro=exp2f=cake_no_such_function"]}})
    c.notify("initialized", {})
    if not r["result"]["capabilities"].get("experimental", {}).get("compilerFacts"):
        raise Skip("this cake-lsp was built without NVRTC: no compiler facts")
    path = ROOT / "docs" / "examples" / "row_softmax.cake"
    text = path.read_text(encoding="utf-8")
    uri = path.as_uri()
    c.open(uri, text, version=1)
    first = diagnostics_for(c, uri, 1)
    check(not [d for d in first["diagnostics"] if d.get("code") == "CAKE-E0802"], "the verifier's diagnostics come first, without facts")
    def compiler_error(version):
        """The E0802 of the diagnostics published again for `version`."""
        facts = c.wait_notification("textDocument/publishDiagnostics",
                                    lambda p: p["uri"] == uri and p.get("version") == version and
                                    any(d.get("code") == "CAKE-E0802" for d in p["diagnostics"]), 60)
        return next(d for d in facts["diagnostics"] if d.get("code") == "CAKE-E0802")

    e = compiler_error(1)
    check(e["range"]["start"]["line"] == line_of(text, "x = exp2((x - m)"), "E0802 on the exp2 line", e)
    check("cake_no_such_function" in e["message"] and e.get("severity") == 1, "with the compiler's words, as an error", e)
    # An edit: its diagnostics come without the old facts, then with new ones.
    c.change(uri, 2, [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "\n"}])
    p = diagnostics_for(c, uri, 2)
    check(not [d for d in p["diagnostics"] if d.get("code") == "CAKE-E0802"], "an edit drops the old version's facts")
    moved = compiler_error(2)
    check(moved["range"]["start"]["line"] == e["range"]["start"]["line"] + 1, "the new version's facts, one line down", moved)
    alive(c)


def case_hover_shows_ptx(server):
    """Once the background compile of this version is in, hover lists a line's PTX."""
    c = server.start()
    if not c.capabilities.get("experimental", {}).get("compilerFacts"):
        raise Skip("this cake-lsp was built without NVRTC: no compiler facts")
    path = ROOT / "docs" / "examples" / "row_softmax.cake"
    text = path.read_text(encoding="utf-8")
    uri = path.as_uri()
    c.open(uri, text, version=1)
    diagnostics_for(c, uri, 1)
    line = line_of(text, "x = exp2((x - m)")
    at = {"textDocument": {"uri": uri}, "position": {"line": line, "character": 8}}
    value = ""
    deadline = time.monotonic() + 60
    while "**PTX**" not in value and time.monotonic() < deadline:
        r = c.request("textDocument/hover", at)["result"]
        value = r["contents"]["value"] if r else ""
        time.sleep(0.2)
    check("**PTX** for sm_80 on this line" in value and "ex2.approx" in value, "hover lists the exp2 line's PTX", value)
    # Right after an edit (within the 500 ms pause) the old version's PTX
    # is not shown: its lines may have moved.
    c.change(uri, 2, [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "\n"}])
    diagnostics_for(c, uri, 2)
    r = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": line + 1, "character": 8}})["result"]
    check(not r or "**PTX**" not in r["contents"]["value"], "no PTX of an older version after an edit", r)


def case_compile_off(server):
    c = server.start(initialize=False)
    c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {},
                             "initializationOptions": {"compile": False,
                                                       "compileOptions": ["--define-macro=exp2f=cake_no_such_function"]}})
    c.notify("initialized", {})
    path = ROOT / "docs" / "examples" / "row_softmax.cake"
    c.open(path.as_uri(), path.read_text(encoding="utf-8"), version=1)
    diagnostics_for(c, path.as_uri(), 1)
    later = c.drain(1.5)
    check(not [m for m in later if m.get("method") == "textDocument/publishDiagnostics"],
          "with compile off, nothing more is published", later)


def case_workspace_symbol(server):
    c = server.start()
    check(c.capabilities.get("workspaceSymbolProvider"), "workspace symbols are advertised", c.capabilities)
    c.open(URI, KMEANS)
    c.open(URI + ".2.cake", KMEANS.replace("kernel kmeans_assign(", "kernel other_assign(", 1))
    r = c.request("workspace/symbol", {"query": "ASSIGN"})
    names = sorted(s["name"] for s in r.get("result") or [])
    check("kmeans_assign" in names and "other_assign" in names, "kernels of every open document match", r)
    check(all(s["location"]["uri"] in (URI, URI + ".2.cake") for s in r["result"]), "locations name the documents", r)


def case_folding_broken_file(server):
    c = server.start()
    c.open(URI, BROKEN)
    r = c.request("textDocument/foldingRange", {"textDocument": {"uri": URI}})
    ranges = r.get("result") or []
    check(any(f.get("kind") == "comment" for f in ranges), "the header comment folds", r)
    check(any(f["startLine"] == line_of(BROKEN, "kernel kmeans_assign(") for f in ranges), "the kernel folds", r)


def case_definition_broken_file(server):
    c = server.start()
    c.open(URI, BROKEN)
    use = line_of(BROKEN, "store out[")
    pos = {"line": use, "character": BROKEN.split("\n")[use].index("out[") + 1}
    r = c.request("textDocument/definition", {"textDocument": {"uri": URI}, "position": pos})
    check(r.get("result") and r["result"]["range"]["start"]["line"] < use, "definition in a broken file", r)


def generic_case(method, params):
    def run(c):
        c.open(URI, KMEANS)
        r = c.request(method, dict({"textDocument": {"uri": URI}}, **params))
        check("result" in r, f"{method} answers", r)
    return run


def code_action_case(c):
    # A misspelt barrier: the verifier's spelling fix comes back as a quickfix.
    text = KMEANS.replace("wait x_full parity(0)", "wait x_ful parity(0)", 1)
    line = line_of(text, "wait x_ful parity(0)")
    c.open(URI, text)
    d = one_diagnostic(diagnostics_for(c, URI), "CAKE-E0101", line)
    r = c.request("textDocument/codeAction", {"textDocument": {"uri": URI}, "range": d["range"],
                                               "context": {"diagnostics": [d]}})
    actions = r.get("result") or []
    fixes = [a for a in actions if a.get("kind") == "quickfix" and a.get("isPreferred")]
    check(fixes, "a preferred quickfix for the misspelt name", actions)
    edits = fixes[0]["edit"]["changes"][URI]
    check(any(e["newText"] == "x_full" for e in edits), "the fix writes `x_full`", edits)


def formatting_case(c):
    messy = "target sm_90a\nconst T = 1   \n\n\n\nconst U = 2"
    c.open(URI, messy)
    r = c.request("textDocument/formatting", {"textDocument": {"uri": URI},
                                              "options": {"tabSize": 2, "insertSpaces": True}})
    edits = r.get("result")
    check(isinstance(edits, list) and len(edits) == 1, "one formatting edit", r)
    e = edits[0]
    lines = messy.split("\n")
    start, end = e["range"]["start"], e["range"]["end"]
    before = "\n".join(lines[:start["line"]] + [lines[start["line"]][:start["character"]]])
    after = lines[end["line"]][end["character"]:]
    rest = "\n".join([after] + lines[end["line"] + 1:])
    check(before + e["newText"] + rest == "target sm_90a\nconst T = 1\n\nconst U = 2\n",
          "the edit gives the canonical text", e)


def semantic_tokens_case(c):
    c.open(URI, KMEANS)
    r = c.request("textDocument/semanticTokens/full", {"textDocument": {"uri": URI}})
    data = (r.get("result") or {}).get("data", [])
    check(data and len(data) % 5 == 0, "token data in groups of five", len(data))
    legend = c.capabilities["semanticTokensProvider"]["legend"]["tokenTypes"]
    check(all(0 <= data[i + 3] < len(legend) for i in range(0, len(data), 5)), "token types within the legend")


def code_lens_case(c):
    # One lens per kernel and bench: the estimate, its bound and the device.
    c.open(URI, KMEANS)
    r = c.request("textDocument/codeLens", {"textDocument": {"uri": URI}})
    lenses = r.get("result") or []
    titles = [l["command"]["title"] for l in lenses]
    kernels = KMEANS.count("\nkernel ")
    check(len(lenses) >= kernels, f"a lens on each of the {kernels} kernels", titles)
    check(any("µs" in t and "-bound" in t and "H100-SXM5-80GB" in t for t in titles),
          "a lens gives time, bound and device", titles)
    name_lines = {line_of(KMEANS, "kernel " + t.split("(")[0]) for t in KMEANS.split("\nkernel ")[1:]}
    check({l["range"]["start"]["line"] for l in lenses} <= name_lines, "lenses sit on kernel names",
          [l["range"] for l in lenses])


def case_default_targets_setting(server):
    # initializationOptions.targets, then workspace/didChangeConfiguration,
    # name the targets of diagnostics in a file that lists none.
    c = LspClient([server.binary])
    server.clients.append(c)
    r = c.request("initialize", {"capabilities": {}, "initializationOptions": {"targets": ["sm_80"]}})
    check("result" in r, "initialize with initializationOptions", r)
    c.notify("initialized", {})
    c.open(URI, "const T = 1\nconst T = 2\n")
    p = diagnostics_for(c, URI)
    check(all(d["data"]["targets"] == ["sm_80"] for d in p["diagnostics"]), "targets from initializationOptions", p)
    c.notify("workspace/didChangeConfiguration", {"settings": {"cake": {"targets": ["sm_90a"]}}})
    p = diagnostics_for(c, URI)
    check(all(d["data"]["targets"] == ["sm_90a"] for d in p["diagnostics"]), "targets from the settings", p)


def lens_titles(c):
    r = c.request("textDocument/codeLens", {"textDocument": {"uri": URI}})
    return [l["command"]["title"] for l in r.get("result") or []]


def hover_text(c, needle, skip=1, text=KMEANS):
    line = line_of(text, needle)
    character = text.split("\n")[line].index(needle) + skip
    r = c.request("textDocument/hover", {"textDocument": {"uri": URI},
                                         "position": {"line": line, "character": character}})
    return ((r.get("result") or {}).get("contents") or {}).get("value", "")


def case_cost_surfaces(server):
    # The cost model through the server: hover on a kernel's name, a
    # pipeline and an op; inlay hints at the end of costly lines; lenses that
    # follow edits and the `cake.device` setting.
    c = server.start()
    c.open(URI, KMEANS)
    kernel = hover_text(c, "kmeans_assign(")
    check("Estimated cost" in kernel and "H100-SXM5-80GB" in kernel and "Roofline" in kernel,
          "kernel hover: time, bound, roofline position", kernel)
    pipeline = hover_text(c, "pipeline s in ring(3)")
    check("Per iteration" in pipeline and "stages" in pipeline and "Demand per iteration" in pipeline,
          "pipeline hover: per-iteration breakdown", pipeline)
    op = hover_text(c, "wgmma acc =")
    check("Cost of line" in op and "tensor" in op, "op hover: its cost and resource", op)

    lines = KMEANS.split("\n")
    r = c.request("textDocument/inlayHint", {"textDocument": {"uri": URI}, "range": {
        "start": {"line": 0, "character": 0}, "end": {"line": len(lines), "character": 0}}})
    costly = [h for h in r.get("result") or [] if "µs" in h["label"]]
    check(costly, "inlay hints with estimated times", r)
    check(all(h["position"]["character"] == utf16_len(lines[h["position"]["line"]]) for h in costly),
          "cost hints sit at the ends of their lines", costly)
    wgmma_line = line_of(KMEANS, "wgmma acc =")
    check(any(h["position"]["line"] == wgmma_line and "tensor" in h["label"] for h in costly),
          "the wgmma line's hint names the tensor cores", costly)
    # Each hint says what its figure is, after padding (issue 16: `= 0` then
    # ` 64 KB` read "= 0 64 KB").
    hints = r.get("result") or []
    check(all(h.get("paddingLeft") for h in hints), "every hint is padded from the code", hints)
    check(all(h["label"].startswith("time ≈ ") for h in costly), "cost hints say `time`", costly)
    arg_line = line_of(KMEANS, "reg arg:  i32[64] layout(wgmma_acc.row) = 0")
    size = [h for h in hints if h["position"]["line"] == arg_line]
    check([h["label"] for h in size] == ["size 256 B"] and
          size[0]["position"]["character"] == lines[arg_line].index("= 0") + len("= 0"),
          "after `= 0`, a hint that says `size`", size)
    ring_line = line_of(KMEANS, "smem cs:")
    check(any(h["label"] == "size 48 KB, 16 KB per stage" for h in hints if h["position"]["line"] == ring_line),
          "a ring's size per stage", [h for h in hints if h["position"]["line"] == ring_line])

    # A bigger bench: the lens follows the edit.
    before = lens_titles(c)
    bench_line = line_of(KMEANS, "bench kmeans_assign")
    old = lines[bench_line]
    bigger = old.replace("1048576", "2097152")
    check(bigger != old, "the bench line holds N = 1048576", old)
    c.change(URI, 2, [{"range": {"start": {"line": bench_line, "character": 0},
                                 "end": {"line": bench_line, "character": utf16_len(old)}}, "text": bigger}])
    after = lens_titles(c)
    check(after != before and any("N=2097152" in t for t in after), "the lens follows the bench edit", after)
    # Lines inserted above move the hints with them.
    c.change(URI, 3, [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                       "text": "// one\n// two\n"}])
    r = c.request("textDocument/inlayHint", {"textDocument": {"uri": URI}, "range": {
        "start": {"line": 0, "character": 0}, "end": {"line": len(lines) + 2, "character": 0}}})
    check(any(h["position"]["line"] == wgmma_line + 2 and "tensor" in h["label"] for h in r.get("result") or []),
          "hints move with inserted lines", r)
    # Another device from the settings; an unknown one falls back to the default.
    c.notify("workspace/didChangeConfiguration", {"settings": {"cake": {"device": "h200"}}})
    check(all("H200-SXM-141GB" in t for t in lens_titles(c)), "the device setting picks the H200", lens_titles(c))
    c.notify("workspace/didChangeConfiguration", {"settings": {"cake": {"device": "no-such-gpu"}}})
    check(all("H100-SXM5-80GB" in t for t in lens_titles(c)), "an unknown device falls back", lens_titles(c))
    alive(c)


def case_cost_surfaces_per_kernel_with_errors(server):
    # An error in one kernel takes that kernel's estimates only (issue 16):
    # the other kernels keep their lenses and cost hints, the broken one
    # keeps one lens that says why, and all come back with the fix.
    text = (ROOT / "docs" / "examples" / "kmeans_dispatch.cake").read_text(encoding="utf-8")
    uri = "file:///tmp/cake-transcript/dispatch.cake"
    lines = text.split("\n")
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": len(lines) + 5, "character": 0}}

    def surfaces(c):
        lenses = c.request("textDocument/codeLens", {"textDocument": {"uri": uri}})["result"]
        hints = c.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": whole})["result"]
        return ([(l["range"]["start"]["line"], l["command"]["title"]) for l in lenses],
                [(h["position"]["line"], h["label"]) for h in hints if "µs" in h["label"]])

    c = server.start()
    c.open(uri, text, version=1)
    check(not diagnostics_for(c, uri, 1)["diagnostics"], "the example is clean")
    clean_lenses, clean_hints = surfaces(c)
    kernel_line = line_of(text, "kernel kmeans_assign(")
    end_line = line_of(text, "kernel kmeans_assign_generic(")
    inside = lambda line: kernel_line <= line < end_line
    check(any(inside(l) for l, _ in clean_hints), "the kernel has cost hints", clean_hints)
    # An undefined barrier in kmeans_assign's body (one line added).
    body = next(i for i in range(kernel_line, end_line) if "wait x_full parity(0)" in lines[i])
    c.change(uri, 2, [{"range": {"start": {"line": body, "character": 0}, "end": {"line": body, "character": 0}},
                       "text": "    wait nothing parity(0)\n"}])
    one_diagnostic(diagnostics_for(c, uri, 2), "CAKE-E0101", body)
    lenses, hints = surfaces(c)
    moved = lambda line: line + 1 if line > body else line
    expected = [(l, t) for l, t in clean_lenses if not inside(l)]
    check([(l, t) for l, t in lenses if not inside(l)] == [(moved(l), t) for l, t in expected],
          "the other kernels keep their lenses", lenses)
    check([t for l, t in lenses if inside(l)] == ["cost: not estimated while the kernel has errors · H100-SXM5-80GB"],
          "the broken kernel has one lens that says why", lenses)
    check([(l, t) for l, t in hints if not inside(l)] == [(moved(l), t) for l, t in clean_hints if not inside(l)],
          "the other kernels keep their hints", hints)
    check(not [h for h in hints if inside(h[0])], "the broken kernel has no cost hints", hints)
    name = {"line": kernel_line, "character": lines[kernel_line].index("kmeans_assign") + 2}
    hover = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": name})["result"]
    check(hover and "Estimated cost" not in hover["contents"]["value"], "nor a cost hover", hover)
    # The fix brings them back.
    c.change(uri, 3, [{"range": {"start": {"line": body, "character": 0}, "end": {"line": body + 1, "character": 0}},
                       "text": ""}])
    check(not diagnostics_for(c, uri, 3)["diagnostics"], "clean again")
    check(surfaces(c) == (clean_lenses, clean_hints), "every estimate is back")


def case_repeated_targets_listed_once(server):
    # A file that repeats its target (issue 16): each diagnostic's targets,
    # the hover's layout line and its estimate table name sm_90a once.
    text = KMEANS.replace("target sm_90a\n", "target sm_90a, sm_90a\n" + "target sm_90a\n" * 30, 1)
    check(text != KMEANS, "kmeans_assign.cake starts with `target sm_90a`")
    c = server.start()
    c.open(URI, text, version=1)
    p = diagnostics_for(c, URI, 1)
    codes = sorted(d["code"] for d in p["diagnostics"])
    check(codes == ["CAKE-E0102"] + ["CAKE-E0114"] * 30, "one error per repeat", codes)
    check(all(d["data"]["targets"] == ["sm_90a"] for d in p["diagnostics"]), "targets listed once",
          [d["data"]["targets"][:3] for d in p["diagnostics"]][:3])
    hover = hover_text(c, "kmeans_assign(", text=text)
    check(hover.count("| sm_90a |") == 1, "one estimate row for sm_90a", hover)
    check("aligned on `sm_90a`\n" in hover, "the layout names sm_90a once", hover)


POS = {"position": {"line": line_of(KMEANS, "wait x_full parity(0)"), "character": 10}}
# capability -> (method, check). A capability the server does not advertise is skipped.
FEATURE_CASES = {
    "hoverProvider": ("textDocument/hover", hover_case),
    "definitionProvider": ("textDocument/definition", definition_case),
    "referencesProvider": ("textDocument/references", references_case),
    "documentSymbolProvider": ("textDocument/documentSymbol", document_symbol_case),
    "renameProvider": ("textDocument/rename", rename_case),
    "documentHighlightProvider": ("textDocument/documentHighlight", generic_case("textDocument/documentHighlight", POS)),
    "completionProvider": ("textDocument/completion", generic_case("textDocument/completion", POS)),
    "signatureHelpProvider": ("textDocument/signatureHelp", generic_case("textDocument/signatureHelp", POS)),
    "foldingRangeProvider": ("textDocument/foldingRange", generic_case("textDocument/foldingRange", {})),
    "documentFormattingProvider": ("textDocument/formatting", formatting_case),
    "codeActionProvider": ("textDocument/codeAction", code_action_case),
    "inlayHintProvider": ("textDocument/inlayHint", generic_case("textDocument/inlayHint", {
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 200, "character": 0}}})),
    "semanticTokensProvider": ("textDocument/semanticTokens/full", semantic_tokens_case),
    "codeLensProvider": ("textDocument/codeLens", code_lens_case),
}


def feature_cases(binary):
    """One (name, function) per FEATURE_CASES entry, each skipping unless advertised."""
    def make(capability, method, run):
        def case(server):
            c = server.start()
            if not c.capabilities.get(capability):
                raise Skip(f"{capability} not advertised in initialize")
            run(c)
            r = c.request(method, {"textDocument": {"uri": "file:///not/open.cake"}, **POS})
            check("error" in r or r.get("result") is None, f"{method} on a closed document is an error or null", r)
            alive(c)
        return case
    return [(f"feature_{cap[:-len('Provider')]}", make(cap, m, run)) for cap, (m, run) in FEATURE_CASES.items()]


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    binary = os.path.abspath(sys.argv[1])
    wanted = sys.argv[2:]
    cases = [(n[len("case_"):], f) for n, f in inspect.getmembers(sys.modules[__name__], inspect.isfunction)
             if n.startswith("case_")]
    cases.sort(key=lambda nf: inspect.getsourcelines(nf[1])[1])
    cases += feature_cases(binary)
    passed = failed = skipped = 0
    for name, fn in cases:
        if wanted and name not in wanted:
            continue
        server = Server(binary)
        start = time.monotonic()
        try:
            fn(server)
            passed += 1
            print(f"PASS {name} ({time.monotonic() - start:.2f}s)", flush=True)
        except Skip as e:
            skipped += 1
            print(f"SKIP {name}: {e}", flush=True)
        except Exception as e:  # noqa: BLE001 - every failure is reported, then the next case runs
            failed += 1
            print(f"FAIL {name}: {type(e).__name__}: {e}", flush=True)
            traceback.print_exc(limit=3)
            for c in server.clients:
                if c.proc is not None and c.proc.poll() is not None:
                    print("  server stderr:", c.proc.stderr.read().decode(errors="replace")[-2000:])
        finally:
            server.close()
    print(f"{passed} passed, {skipped} skipped, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
