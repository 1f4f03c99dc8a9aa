"""Writing what the generator makes, or, with ``--check``, saying what is stale."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path
from typing import List, Tuple


def write(outputs: List[Tuple[Path, str]], check: bool, regenerate: str) -> int:
    """Writes each file whose text differs; with ``check``, writes nothing and shows each
    difference (``regenerate`` says how to make the files again). 1 when one was stale."""
    stale = 0
    for path, text in outputs:
        current = path.read_text() if path.exists() else ""
        if current == text and path.exists():
            print("mvvm_gen: %s is up to date" % path)
            continue
        if check:
            stale += 1
            print("mvvm_gen: %s is stale (regenerate: %s)" % (path, regenerate))
            sys.stdout.writelines(difflib.unified_diff(current.splitlines(True), text.splitlines(True),
                                                       str(path), "%s (generated)" % path, n=1))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)  # (a typed package's folder, the first time)
            path.write_text(text)
            print("mvvm_gen: wrote %s" % path)
    return 1 if stale else 0
