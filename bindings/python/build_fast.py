"""Builds the mvvm package's C extension: ``mvvm/_fast.c`` -> ``mvvm/_fast.abi3.so``, on CPython's
limited API for 3.10 (abi3: one build loads in every CPython from 3.10), with the system compiler.

    python3 bindings/python/build_fast.py [--out FILE] [--include DIR]

Without ``--out`` it builds in place, beside ``_fast.c`` (what the tests, the benchmarks and an
editable install use); ``setup.py`` builds one into each wheel that bundles a library. It is
built again only when ``_fast.c``, ``mvvm.h`` or this file is newer than it, and replaced by a
rename (a process that loaded the old one keeps it). ``mvvm.h`` is the repository's
``include/mvvm.h``, or the copy beside the generator (``mvvm_gen/data``, in a wheel's build), or
``--include DIR``. A build in place, a development build, makes a warning an error (``-Werror``);
one elsewhere (``--out``: a wheel's) does not. ``CC`` names the compiler (default ``cc``).

The package works without it (mvvm/_fastpath.py), so a Python that cannot take it (3.9, a
free-threaded build, another implementation) is no failure of the package: this command says why
and exits 1, and setup.py then builds the package without it. Standard library only.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import List, Optional

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "mvvm" / "_fast.c"
#: The file name every CPython from 3.10 imports as mvvm._fast (its stable-ABI suffix).
FILE_NAME = "_fast.abi3.so"
#: The limited API's version: the oldest CPython the extension loads in.
LIMITED_API = (3, 10)


class NotBuilt(Exception):
    """Why the extension is not built here; the package works without it."""


def unsupported_python() -> Optional[str]:
    """Why this Python cannot build (or load) the extension, or None."""
    if sys.implementation.name != "cpython":
        return "%s is not CPython" % sys.implementation.name
    if sys.version_info[:2] < LIMITED_API:
        return "Python %d.%d: the extension needs CPython %d.%d or newer" % (sys.version_info[:2] + LIMITED_API)
    if sysconfig.get_config_var("Py_GIL_DISABLED"):
        return "a free-threaded CPython: the limited API (abi3) is not for it"
    return None


def header_folder(given: Optional[Path] = None) -> Path:
    """The folder of mvvm.h: ``given``, the repository's include/, or mvvm_gen/data beside this file
    (build_wheel.sh stages the generator there, with the header)."""
    candidates = [given] if given is not None else \
        [folder / "include" for folder in [HERE, *HERE.parents] if (folder / "Package.swift").is_file()][:1] + \
        [HERE / "mvvm_gen" / "data"]
    for folder in candidates:
        if folder is not None and (folder / "mvvm.h").is_file():
            return folder
    raise NotBuilt("no mvvm.h (looked in %s)" % ", ".join(str(c) for c in candidates))


def command(target: Path, include: Path, strict: bool) -> List[str]:
    """The compiler's command line."""
    python_include = sysconfig.get_paths()["include"]
    if not (Path(python_include) / "Python.h").is_file():
        raise NotBuilt("no Python.h in %s (Debian: apt-get install python3-dev)" % python_include)
    compiler = shlex.split(os.environ.get("CC") or "cc")
    return compiler + ["-std=gnu11", "-O2", "-g0", "-fPIC", "-shared", "-fvisibility=hidden", "-Wall", "-Wextra"] + \
        (["-Werror"] if strict else []) + \
        ["-I" + python_include, "-I" + str(include), str(SOURCE), "-o", str(target), "-ldl"]


def build(target: Optional[Path] = None, include: Optional[Path] = None) -> str:
    """Builds the extension at ``target`` (default: in place) unless it is up to date; says what it
    did. Raises :class:`NotBuilt` with why not."""
    why = unsupported_python()
    if why:
        raise NotBuilt(why)
    in_place = SOURCE.with_name(FILE_NAME).resolve()
    target = (target or in_place).resolve()
    strict = target == in_place
    folder = header_folder(include)
    inputs = [SOURCE, folder / "mvvm.h", Path(__file__).resolve()]
    if target.is_file() and all(target.stat().st_mtime_ns >= path.stat().st_mtime_ns for path in inputs):
        return "%s is up to date" % target
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, scratch = tempfile.mkstemp(prefix=".%s." % FILE_NAME, dir=str(target.parent))
    os.close(handle)
    try:
        line = command(Path(scratch), folder, strict)
        try:
            done = subprocess.run(line, capture_output=True, text=True)
        except OSError as error:
            raise NotBuilt("no C compiler (%s: %s)" % (line[0], error)) from None
        if done.returncode != 0:
            raise NotBuilt("%s failed:\n%s%s" % (" ".join(line), done.stdout, done.stderr))
        os.chmod(scratch, 0o755)
        os.replace(scratch, target)
    finally:
        if os.path.exists(scratch):
            os.unlink(scratch)
    return "built %s" % target


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, help="the file to build (default: mvvm/%s, in place)" % FILE_NAME)
    parser.add_argument("--include", type=Path, help="the folder holding mvvm.h")
    args = parser.parse_args(argv)
    try:
        print("build_fast: %s" % build(args.out, args.include))
    except NotBuilt as why:
        print("build_fast: mvvm._fast is not built: %s" % why, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
