"""The generator at home (issue 39, item 3): ``python3 -m mvvm_gen`` runs with the standard library
alone, from tools, with no binding importable (no site-packages, the ``mvvm`` package
refused by an import hook) and no ``ruby`` (nor anything else) on ``PATH``, and writes every file
``make generate`` writes exactly as committed (its ``--check`` passes)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import List

from libraries import library_path

ROOT = Path(__file__).resolve().parents[3]
GENERATOR = ROOT / "tools"

# Refuses the mvvm package (and the Ruby bindings' folder is not on any path), then runs the
# generator as ``python3 -m mvvm_gen`` would.
ALONE = r"""
import importlib.abc, runpy, sys

class NoBinding(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "mvvm" or name.startswith("mvvm."):
            raise ImportError("the generator imported the binding: %s" % name)
        return None

sys.meta_path.insert(0, NoBinding())
sys.argv = ["mvvm_gen"] + sys.argv[1:]
runpy.run_module("mvvm_gen", run_name="__main__", alter_sys=True)
"""


def makefile_generated() -> List[str]:
    """The Makefile's ENGINE_GENERATED and CATALOG_GENERATED flags (what ``make generate`` writes),
    the catalog's ``--library $(CATALOG)`` left out (the caller gives the library)."""
    text = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    flags: List[str] = []
    for name in ("ENGINE_GENERATED", "CATALOG_GENERATED"):
        found = re.search(r"^%s := (.*)$" % name, text, flags=re.M)
        assert found is not None, "no %s in the Makefile" % name
        flags += found.group(1).split()
    index = flags.index("--library")
    return flags[:index] + flags[index + 2:]


def test_the_generator_runs_with_no_binding_and_no_ruby_and_its_files_are_current(tmp_path: Path) -> None:
    library = library_path("MVVM_CATALOG_LIBRARY")
    empty = tmp_path / "empty-path"
    empty.mkdir()
    env = {"PATH": str(empty), "PYTHONPATH": str(GENERATOR), "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    command = [sys.executable, "-S", "-c", ALONE, "--library", library] + makefile_generated() + ["--check"]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "--rbs" in command and "--dts" in command and "is up to date" in done.stdout
    assert "mvvm_catalog.d.ts is up to date" in done.stdout, done.stdout
    assert "stale" not in done.stdout, done.stdout


def test_every_generated_file_says_so_in_its_first_lines() -> None:
    """As OpenCombine marks its GENERATED- files: each file ``make generate`` writes says in its
    first lines that it is generated (naming.json, data, says so in its "about")."""
    flags = makefile_generated()
    paths = [ROOT / value for flag, value in zip(flags, flags[1:])
             if flag.startswith("--") and flag not in ("--module", "--merges", "--dts-module", "--py-package")
             and not value.startswith("--")]
    package = ROOT / flags[flags.index("--py-package") + 1]  # a typed package: its modules say so
    paths += [package / "__init__.py", package / "__init__.pyi"]
    merges = flags[flags.index("--merges") + 1]
    paths += [ROOT / merges / ("Publishers.Merge%s.swift" % ("" if n == 2 else n)) for n in range(2, 9)]
    assert len(paths) >= 18 and ROOT / "examples/catalog/mvvm_catalog.d.ts" in paths, paths
    unmarked = [str(path.relative_to(ROOT)) for path in paths
                if "generated" not in "".join(path.read_text().splitlines(True)[:6]).lower()]
    assert not unmarked, "not marked as generated in their first lines: %s" % unmarked
    about = json.loads((GENERATOR / "mvvm_gen" / "naming.json").read_text())["about"]
    assert "make generate" in about
