#!/usr/bin/env python3
"""cake and cake-lsp as a user installs them (CTest `lsp.installed`).

Usage: installed_test.py BUILD_DIR

Installs the build (`cmake --install BUILD_DIR --prefix TMP`, the default
component: bin/ and share/cake/docs) into a scratch prefix and runs the
installed binaries: every rule link (JSON `codeDescription.href`, the
hover's link, `cake/rulePage`'s `uri`) is a file under the prefix that
exists, and `--version` matches initialize's serverInfo. Then cake-lsp
copied on its own into an empty directory (a server packaged without its
docs): its links are null or name files that exist, and the hover and
`cake/rulePage` still give the rule's page, built into the binary.
Exits 0 when every check passes, 1 otherwise.
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import LspClient  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
BROKEN = "target sm_90a\nconst T = 1\nconst T = 2\n"  # CAKE-E0102 on line 3
URI = "file:///tmp/cake-installed/broken.cake"
failures = 0


def check(ok, what, detail=None):
    global failures
    if ok:
        print(f"ok   {what}")
    else:
        failures += 1
        print(f"FAIL {what}" + ("" if detail is None else f": {detail!r}"[:800]))


def path_of(uri):
    return pathlib.Path(urllib.request.url2pathname(urllib.parse.urlparse(uri).path))


def session(binary, prefix_docs):
    """One cake-lsp session: serverInfo, the diagnostic's link, the hover, cake/rulePage."""
    c = LspClient([str(binary)])
    try:
        r = c.initialize()["result"]
        version = subprocess.run([str(binary), "--version"], capture_output=True, text=True).stdout.strip()
        check(version == f"cake-lsp {r['serverInfo']['version']}" and r["serverInfo"]["name"] == "cake-lsp",
              f"{binary.parent.name}/cake-lsp: --version and serverInfo agree ({version})", r.get("serverInfo"))
        c.open(URI, BROKEN)
        p = c.wait_notification("textDocument/publishDiagnostics", lambda p: p["uri"] == URI)
        d = next(d for d in p["diagnostics"] if d["code"] == "CAKE-E0102")
        href = d.get("codeDescription", {}).get("href")
        hover = c.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": d["range"]["start"]})
        value = hover["result"]["contents"]["value"]
        page = c.request("cake/rulePage", {"code": "CAKE-E0102"})["result"]
        source = (ROOT / "docs" / "rules" / "CAKE-E0102.md").read_text(encoding="utf-8")
        check(page["markdown"] == source, "cake/rulePage gives the page, built in")
        meaning = source.split("## What it means\n")[1].split("\n## ")[0].strip()
        check(meaning.split("\n")[0] in value, "the hover explains the rule", value)
        links = [href, page["uri"]] + [part.split(")")[0] for part in value.split("](")[1:]]
        if prefix_docs is not None:
            check(all(links), "every link is there when the docs are installed", links)
        for link in filter(None, links):
            target = path_of(link)
            check(target.is_file(), f"{link} is a file", link)
            if prefix_docs is not None:
                check(prefix_docs in target.parents, f"{link} is under {prefix_docs}", link)
        check(c.shutdown()[1] == 0, "shutdown and exit")
    finally:
        c.kill()


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    build = pathlib.Path(sys.argv[1]).resolve()
    with tempfile.TemporaryDirectory(prefix="cake-installed-") as tmp:
        prefix = pathlib.Path(tmp) / "prefix"
        subprocess.run(["cmake", "--install", str(build), "--prefix", str(prefix), "--component", "Unspecified"],
                       check=True, stdout=subprocess.DEVNULL)
        docs = prefix / "share" / "cake" / "docs"
        check((docs / "rules" / "CAKE-E0102.md").is_file(), "cmake --install puts the rule pages in share/cake/docs")
        for tool in ("cake", "cake-lsp"):
            check((prefix / "bin" / tool).is_file(), f"bin/{tool} installed")

        # The installed cake: JSON links into the prefix.
        broken = pathlib.Path(tmp) / "broken.cake"
        broken.write_text(BROKEN)
        out = subprocess.run([str(prefix / "bin" / "cake"), "check", "--format", "json", str(broken)],
                             capture_output=True, text=True)
        href = json.loads(out.stdout)["files"][0]["diagnostics"][0]["codeDescription"]["href"]
        check(path_of(href).is_file() and docs in path_of(href).parents, "installed cake links into the prefix", href)

        # The installed cake-lsp.
        session(prefix / "bin" / "cake-lsp", docs)

        # cake-lsp alone, without docs beside it.
        alone = pathlib.Path(tmp) / "alone" / "bin"
        alone.mkdir(parents=True)
        shutil.copy2(prefix / "bin" / "cake-lsp", alone / "cake-lsp")
        session(alone / "cake-lsp", None)
    print(f"{failures} failure(s)" if failures else "installed: all ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
