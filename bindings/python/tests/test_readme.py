"""The package README's examples run as written (but for their paths): the one loading two libraries
side by side and the async command's, over Tests/outside's libsample.so. Its first example, over
the README's own greeter package, is run by the packages suite (Tests/packages/run.sh), which
builds that package; here, that it shows a library of one's own, loaded by its path, and no class
of the catalog (an example package, not the binding's front door)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import List

from libraries import catalog, library_path

README = Path(__file__).resolve().parent.parent / "README.md"


def blocks() -> List[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def run(code: str) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_the_first_example_loads_a_library_of_ones_own_by_its_path() -> None:
    first = blocks()[0]
    assert first.startswith("import mvvm\n")
    assert 'greeter = mvvm.load("greeter/.build/debug/libgreeter.so")' in first
    assert "greeter.Loop.virtual()" in first and "# prints:" in first
    catalog_classes = set(catalog.names) | set(catalog.classes)
    shown = set(re.findall(r"\b\w+\b", "\n".join(blocks())))
    assert not shown & catalog_classes, "the README shows the catalog's %s" % sorted(shown & catalog_classes)


def test_the_example_loading_two_libraries_runs() -> None:
    (code,) = [block for block in blocks() if "mvvm.load(" in block and "libsample.so" in block]
    code = code.replace('"build/catalog/libcatalog.so"', repr(str(catalog.path)))
    code = code.replace('"Tests/outside/.build/debug/libsample.so"', repr(library_path("MVVM_SAMPLE_LIBRARY")))
    # The sample does not carry the catalog (its hook does not register it).
    code += "    print(profile.address, 'Counter' in catalog.names, 'Counter' in sample.names)\n"
    done = run("import mvvm\n" + code)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Address(street='Main 1', city='Oslo', zip_code=None) True False\n"


def test_the_async_command_example_runs_and_prints_what_it_says() -> None:
    (code,) = [block for block in blocks() if "await profile.load" in block]
    done = run("import asyncio, mvvm, mvvm.aio\nsample = mvvm.load(%r)\n" % library_path("MVVM_SAMPLE_LIBRARY") + code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["['t0', 't1', 't2']", "['t0']"]
