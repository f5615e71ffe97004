#!/usr/bin/env python3
"""editors.agents: docs/agents/lsp_client_example.py keeps working.

    agents_test.py CAKE_LSP

Runs the example over stdio on docs/examples (clean: exit 0), on a broken
copy of an example over stdio and over TCP (exit 1, a CAKE-E0101 line with
its rule page), and with --json (the Diagnostic objects).
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

root = Path(__file__).resolve().parents[2]
example = root / "docs/agents/lsp_client_example.py"
server = sys.argv[1]
failures = 0


def run(*args):
    p = subprocess.run([sys.executable, str(example), "--server", server, *map(str, args)],
                       capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def check(ok, what, detail=""):
    global failures
    print(("PASS " if ok else "FAIL ") + what + ("" if ok else f"\n{detail}"))
    failures += not ok


examples = sorted((root / "docs/examples").glob("*.cake"))
rc, out, err = run(root / "docs/examples")
check(rc == 0 and f"{len(examples)} file(s), 0 error(s)" in out, f"docs/examples: {len(examples)} files, no errors, exit 0", out + err)

src = (root / "docs/examples/hopper_gemm.cake").read_text()
assert "wait full[s] parity" in src
with tempfile.TemporaryDirectory() as tmp:
    broken = Path(tmp) / "broken.cake"
    broken.write_text(src.replace("wait full[s] parity", "wait bogus[s] parity", 1))
    line = src.splitlines().index(next(l for l in src.splitlines() if "wait full[s] parity" in l)) + 1
    for mode in ([], ["--tcp"]):
        rc, out, err = run(*mode, broken)
        want = f"{broken}:{line}:"
        hit = [l for l in out.splitlines() if l.startswith(want) and "error CAKE-E0101" in l and "CAKE-E0101.md" in l]
        check(rc == 1 and hit, f"broken file over {'TCP' if mode else 'stdio'}: CAKE-E0101 on line {line}, exit 1", out + err)
    rc, out, err = run("--json", broken)
    try:
        diags = json.loads(out)[str(broken)]
        ok = any(d["code"] == "CAKE-E0101" and d["range"]["start"]["line"] == line - 1 and d["source"] == "cake" for d in diags)
    except (ValueError, KeyError) as e:
        ok, out = False, f"{e}\n{out}"
    check(ok, "--json: the Diagnostic objects", out + err)

sys.exit(1 if failures else 0)
