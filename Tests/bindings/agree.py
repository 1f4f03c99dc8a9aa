"""Every binding shows what the description says: each prints, for a library, its classes' (and
records') names and, for Tests/outside's meter, UInt64 values above INT64_MAX
(*/print_names_and_uints.*); this compares each with the description (mvvm_classes' "display")
and the values with the numbers themselves. Python, Ruby, LuaJIT, the GLib bridge (GJS over
its typelib) and Node.js. Usage: python3 Tests/bindings/agree.py LIBRARY...; prints TAP and a closing
"agree: N passed, N failed" line, exits 1 on a difference. A suite of its own: make test-agree, which
builds every binding first (the GLib bridge's typelib, the Node.js addon)."""

import ctypes
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UINTS = "uint 9223372036854775808 9223372036854777856 18446744073709549568"


def described(path: str) -> list:
    library = ctypes.CDLL(path)
    library.mvvm_classes.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
    library.mvvm_string_free.argtypes = [ctypes.c_void_p]
    out = ctypes.c_void_p()
    assert library.mvvm_classes(ctypes.byref(out)) == 0, "mvvm_classes failed"
    text = ctypes.string_at(out.value).decode()
    library.mvvm_string_free(out)
    return json.loads(text)


def expected(classes: list, records: bool) -> list:
    lines = ["class %s %s" % (c["class"], c["display"]) for c in classes]
    if records:
        seen = {}
        for c in classes:
            for name, record in c.get("records", {}).items():
                seen.setdefault(name, record["display"])
        lines += ["record %s %s" % item for item in seen.items()]
    if any(c["class"] == "meter" for c in classes):
        lines.append(UINTS)
    return lines


def run(command: list, env: dict) -> list:
    done = subprocess.run(command, cwd=ROOT, env=dict(os.environ, **env), capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError("%s exited %d: %s" % (command[0], done.returncode, done.stderr.strip()[-2000:]))
    return done.stdout.splitlines()


def main() -> int:
    header = Path(tempfile.mkdtemp()) / "mvvm.i"
    subprocess.run(["bash", "-c", '. bindings/lua/declare.sh && mvvm_lua_declare "$0"', str(header)], cwd=ROOT,
                   check=True)
    bindings = {
        "Python": (lambda lib: [sys.executable, "bindings/python/tests/print_names_and_uints.py", lib],
                   {"PYTHONPATH": str(ROOT / "bindings/python")}, True),
        "Ruby": (lambda lib: ["ruby", "-Ibindings/ruby/lib", "bindings/ruby/test/print_names_and_uints.rb", lib], {}, True),
        "LuaJIT": (lambda lib: ["luajit", "bindings/lua/print_names_and_uints.lua", lib, str(header)], {}, False),
        "GLib": (lambda lib: ["gjs", "bindings/glib/print_names_and_uints.js", lib],
                 {"GI_TYPELIB_PATH": str(ROOT / "build/gtk")}, False),
        "Node.js": (lambda lib: ["node", "bindings/node/print_names_and_uints.js", lib],
                    {"MVVM_NODE_ADDON": str(ROOT / "build/node/mvvm.node")}, True),
    }
    failed, number = 0, 0
    print("1..%d" % (len(bindings) * len(sys.argv[1:])))
    for library in sys.argv[1:]:
        classes = described(library)
        for name, (command, env, records) in bindings.items():
            number += 1
            what = "%s shows %s's names%s as its description gives them" % (
                name, Path(library).name, " and UInt64 values" if any(c["class"] == "meter" for c in classes) else "")
            try:
                got = run(command(library), env)
            except (RuntimeError, subprocess.TimeoutExpired) as error:
                got = ["error: %s" % error]
            want = expected(classes, records)
            if got == want:
                print("ok %d - %s" % (number, what))
            else:
                failed += 1
                print("not ok %d - %s" % (number, what))
                for line in sorted(set(want) - set(got)):
                    print("#   missing: %s" % line)
                for line in sorted(set(got) - set(want)):
                    print("#   got:     %s" % line)
    print("agree: %d passed, %d failed" % (number - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
