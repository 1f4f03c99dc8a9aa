"""Reads a valgrind XML report (--xml=yes) of a GTK test and says whether it is clean in our code.

    python3 examples/gtk/valgrind_verdict.py REPORT.xml OBJECT_PATTERN...

Every memory error (invalid read or write, use of uninitialised values, bad free...) that the
suppressions let through fails. A definite leak fails when it is ours: walking its allocation
stack outward from the allocator, past the allocators and constructors every object goes through
(malloc, g_malloc, g_type_create_instance, g_object_new, gtk_*_new...), the first frame is in an
object whose path matches one of OBJECT_PATTERN (substrings: the test program, the bridge, the
view models' library). A leak whose first such frame is in another library (fontconfig's and
Pango's caches, the dynamic loader's own bookkeeping) is that library's, and is listed, not
failed. Prints each failure with its stack; exits 1 when there is one, 2 when the report cannot be
read. A report may hold several <valgrindoutput> documents (errors after the leak summary).
"""
from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from typing import List, Sequence, Tuple

# Libraries whose frames only carry an allocation through to its caller.
PASS_THROUGH_OBJECTS = ("vgpreload_memcheck", "/libc.so", "/libglib-2.0.so", "/libgobject-2.0.so")
# Functions of any library that only allocate for their caller: constructors and copies.
PASS_THROUGH_FUNCTIONS = re.compile(
    r"^(g_object_new\w*|g_type_create_instance|g_\w*(alloc|dup|new)\w*|"
    r"(g|gtk|gdk|gsk|pango|graphene)_\w+_new(_\w+)?|\w+_ref)$")

Frame = Tuple[str, str]   # (function, object path)


def frames_of(error: ET.Element) -> List[Frame]:
    stack = error.find("stack")
    frames: List[Frame] = []
    for frame in stack.findall("frame") if stack is not None else []:
        function = frame.findtext("fn") or "?"
        path = frame.findtext("obj") or ""
        frames.append((function, path))
    return frames


def owner(frames: Sequence[Frame]) -> Frame:
    """The first frame, from the allocation outward, that is not a pass-through."""
    for function, path in frames:
        if any(name in path for name in PASS_THROUGH_OBJECTS):
            continue
        if PASS_THROUGH_FUNCTIONS.match(function):
            continue
        return function, path
    return ("?", "")


def main(argv: Sequence[str]) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    report, patterns = argv[1], argv[2:]
    try:
        text = open(report, encoding="utf-8", errors="replace").read()
    except OSError as error:
        print("valgrind_verdict: %s" % error)
        return 2
    if "<valgrindoutput>" not in text:
        print("valgrind_verdict: %s is no valgrind XML report" % report)
        return 2
    failures = theirs = 0
    for block in re.findall(r"<error>.*?</error>", text, re.S):
        error = ET.fromstring(block)
        kind = error.findtext("kind") or "?"
        what = error.findtext("what") or error.findtext("xwhat/text") or ""
        frames = frames_of(error)
        if kind.startswith("Leak_"):
            if kind != "Leak_DefinitelyLost":
                continue
            function, path = owner(frames)
            if not any(pattern in path for pattern in patterns):
                theirs += 1
                print("  not ours (%s in %s): %s" % (function, path.rsplit("/", 1)[-1], what))
                continue
        failures += 1
        print("FAILED %s: %s" % (kind, what))
        for function, path in frames[:24]:
            print("      %s (%s)" % (function, path.rsplit("/", 1)[-1]))
    print("valgrind: %d error(s) or definite leak(s) in our code; %d definite leak(s) of other libraries"
          % (failures, theirs))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
