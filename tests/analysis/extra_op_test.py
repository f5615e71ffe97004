#!/usr/bin/env python3
"""build.extra_op: adding an op to ops.def breaks the build where it must.

Compiles the C++ sources of the project's libraries and programs (the
compile commands of this build, analysis/, exec/, server/ and codegen/
when it exists) with -DCAKE_EXTRA_TEST_OP, which adds one op to ops.def, and
-fsyntax-only: every source that names an op in a case label (`case Op::`)
or says `using enum Op`, outside comments, itself or in a project header it
includes (the build's dependency record, `ninja -t deps`). A switch over Op
names its ops so (a switch whose only label is `default:` is not looked
for); compiling only those sources takes a sixth of the time of every
source with a `switch`. Without that record every source is compiled. A
unity build's batches are compiled source by source, with the batch's
command. A precompiled header of the build is left out: it
was made without the extra op. The op is in the enum and the op table, so
every exhaustive `switch (op)` that does not handle it is an error (-Werror=switch). The
test passes when the build fails, only with such errors, and exactly in the
files listed as the ones that must handle a new op; a `default:` in a switch
over Op (found by -Wswitch-enum), or a new switch not listed here, fails it.

usage: extra_op_test.py BUILD_DIR SOURCE_DIR FILE...
"""
import concurrent.futures
import functools
import json
import os
import re
import shlex
import subprocess
import sys

NOT_HANDLED = re.compile(
    r"^(?P<file>[^:\s]+):(?P<line>\d+):\d+: (?P<kind>error|warning): enumeration values? .*'ExtraTestOp'.* handled in switch")
ERROR = re.compile(r"^(?P<file>[^:\s]+):\d+:\d+: (fatal )?error: ")
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
OP_SWITCH = re.compile(r"\bcase\s+Op\s*::|\busing\s+enum\s+Op\b")


@functools.lru_cache(maxsize=None)
def names_ops(path):
    """Whether the file holds a case label of Op (or `using enum Op`)."""
    try:
        with open(path, errors="replace") as f:
            return bool(OP_SWITCH.search(COMMENT.sub(" ", f.read())))
    except OSError:
        return True  # unreadable: compile it


def recorded_deps(build):
    """{object path: [its source and headers]} from Ninja's record, or None."""
    try:
        run = subprocess.run(["ninja", "-C", build, "-t", "deps"], capture_output=True, text=True)
    except OSError:
        return None
    if run.returncode != 0:
        return None
    deps, current = {}, None
    for line in run.stdout.splitlines():
        if line and not line[0].isspace():
            current = deps.setdefault(os.path.normpath(os.path.join(build, line.split(":")[0])), [])
        elif line.strip() and current is not None:
            current.append(os.path.realpath(os.path.join(build, line.strip())))
    return deps or None


UNITY_INCLUDE = re.compile(r'^#include "(?P<path>[^"]+)"', re.M)


def unity_sources(entries):
    """A unity build's batches (`unity_N_cxx.cxx`, CMake's UNITY_BUILD) as
    their sources, each with the batch's command (its own file as the input)
    and a note of the batch's other sources, which its dependency record
    also lists."""
    out = []
    for e in entries:
        if not re.search(r"unity_\d+_cxx\.cxx$", e["file"]):
            out.append(e)
            continue
        with open(e["file"]) as f:
            members = UNITY_INCLUDE.findall(f.read())
        for m in members:
            one = dict(e)
            one["file"] = m
            if "command" in e:
                one["command"] = e["command"].replace(e["file"], m)
            else:
                one["arguments"] = [m if a == e["file"] else a for a in e["arguments"]]
            one["batch"] = [os.path.realpath(x) for x in members if x != m]
            out.append(one)
    return out


def object_of(entry):
    args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    if "-o" in args and args.index("-o") + 1 < len(args):
        return os.path.normpath(os.path.join(entry["directory"], args[args.index("-o") + 1]))
    return entry.get("output")


def syntax_only(entry):
    args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    out = []
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-include"):  # the output; a precompiled header
            skip = True
            continue
        if a in ("-c", "-Winvalid-pch"):
            continue
        out.append(a)
    out += ["-fsyntax-only", "-DCAKE_EXTRA_TEST_OP", "-Werror=switch", "-Wswitch-enum"]
    run = subprocess.run(out, cwd=entry["directory"], capture_output=True, text=True,
                         env=dict(os.environ, LC_ALL="C"))
    return entry["directory"], run.returncode, run.stderr


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    build, source = os.path.realpath(sys.argv[1]), os.path.realpath(sys.argv[2])
    expected = {os.path.normpath(f) for f in sys.argv[3:]}
    with open(os.path.join(build, "compile_commands.json")) as f:
        entries = unity_sources(json.load(f))
    roots = [os.path.join(source, d) + os.sep for d in ("analysis", "exec", "server", "codegen")]
    chosen = [e for e in entries
              if e["file"].endswith(".cpp") and any(os.path.realpath(e["file"]).startswith(r) for r in roots)]
    if not chosen:
        print("extra_op: no sources in compile_commands.json")
        return 77
    deps = recorded_deps(build)
    if deps is not None:
        project = [os.path.join(source, d) + os.sep for d in ("analysis", "exec", "server", "codegen", "grammar")]

        def may_switch_on_op(entry):
            files = deps.get(object_of(entry))
            if files is None:
                return True  # not built yet: compile it
            if entry.get("batch") is not None:
                files = files + [os.path.realpath(entry["file"])]
            batch = set(entry.get("batch", []))
            return any(names_ops(f) for f in files if any(f.startswith(r) for r in project) and f not in batch)

        total = len(chosen)
        chosen = [e for e in chosen if may_switch_on_op(e)]
        print(f"extra_op: {len(chosen)} of {total} sources name an op in a case label, in themselves or a project header")
    failing, hidden, other = set(), set(), []
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for directory, rc, err in pool.map(syntax_only, chosen):
            for line in err.splitlines():
                m = NOT_HANDLED.match(line)
                if m:
                    where = os.path.relpath(os.path.realpath(os.path.join(directory, m["file"])), source)
                    if m["kind"] == "error":
                        failing.add(where)
                    else:  # -Wswitch-enum: a switch over Op that a default: lets pass
                        hidden.add(f"{where}:{m['line']}")
                elif ERROR.match(line):
                    other.append(line)
    print(f"extra_op: {len(chosen)} sources compiled with CAKE_EXTRA_TEST_OP")
    print("extra_op: the build fails, naming " + (", ".join(sorted(failing)) or "no file"))
    ok = True
    if other:
        print("extra_op: errors other than an unhandled op:\n  " + "\n  ".join(other[:20]))
        ok = False
    if hidden:
        print("extra_op: a switch over Op has a default: that hides the new op at " + ", ".join(sorted(hidden)))
        ok = False
    if not failing:
        print("extra_op: the build with an extra op succeeded")
        ok = False
    if failing - expected:
        print("extra_op: also fails in (add to tests/CMakeLists.txt's list): " + ", ".join(sorted(failing - expected)))
        ok = False
    if expected - failing:
        print("extra_op: does not fail in (a switch there has a default:, or it moved): " + ", ".join(sorted(expected - failing)))
        ok = False
    print("1 passed, 0 failed" if ok else "0 passed, 1 failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
