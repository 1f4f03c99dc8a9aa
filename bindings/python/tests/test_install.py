"""Installing (issue 18, item 1): the installed library found by its soname (``make install``),
``ctypes.util.find_library``'s answer named when it is another, a loud error naming every fix;
``setup.py``'s choice of the library to bundle (loud when there is none, the newest build, not a
stale release copy) and the wheel's platform tag. Building real wheels is
Tests/packaging/test_packaging.sh's part (it needs setuptools from the package index)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Dict, Optional

import pytest

import mvvm
from mvvm import _library as _lib

PACKAGE = Path(mvvm.__file__).resolve().parent
SETUP = PACKAGE.parent / "setup.py"
LIBRARY = Path(mvvm.library_path)


def load_setup() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mvvm_setup_under_test", SETUP)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # not __main__: setup() does not run
    return module


setup_py = load_setup()


def alone_package(tmp_path: Path) -> Path:
    """A copy of the package outside any repository, with no library inside: site/mvvm."""
    package = tmp_path / "site" / "mvvm"
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    return package.parent


def run_python(code: str, site: Path, env_changes: Dict[str, Optional[str]], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in ("MVVM_LIBRARY", "LD_LIBRARY_PATH", "PYTHONPATH")}
    env["PYTHONPATH"] = str(site)
    for key, value in env_changes.items():
        if value is not None:
            env[key] = value
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=str(cwd),
                          timeout=120)


def compile_library(tmp_path: Path, name: str, version: str, soname: Optional[str] = None) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        pytest.skip("no C compiler to build a fake library")
    tmp_path.mkdir(parents=True, exist_ok=True)
    source = tmp_path / "fake.c"
    source.write_text('const char *mvvm_version(void) { return "%s"; }\n' % version)
    output = tmp_path / name
    output.parent.mkdir(parents=True, exist_ok=True)
    command = [compiler, "-shared", "-fPIC", "-o", str(output), str(source)]
    if soname:
        command.append("-Wl,-soname," + soname)
    subprocess.run(command, check=True)
    return output


# --- The package: the installed library by its soname -------------------------------------------


def test_the_soname_is_the_headers_major() -> None:
    assert _lib.SONAME == "libmvvm.so.%d" % _lib.EXPECTED_VERSION[0]
    assert _lib.candidates({}, Path("/nowhere/mvvm"))[-1] == _lib.SONAME


def test_after_make_install_the_package_finds_the_library_by_its_soname(tmp_path: Path) -> None:
    site = alone_package(tmp_path)
    lib = tmp_path / "prefix" / "lib"
    lib.mkdir(parents=True)
    shutil.copy(LIBRARY, lib / _lib.SONAME)
    done = run_python("import mvvm; print(mvvm.library_path); print(mvvm.CountDownTimer.__name__)",
                      site, {"LD_LIBRARY_PATH": str(lib)}, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(lib / _lib.SONAME), "CountDownTimer"]


def test_with_no_library_anywhere_the_first_use_names_every_place_and_every_fix(tmp_path: Path) -> None:
    site = alone_package(tmp_path)
    done = run_python("import mvvm; mvvm.Counter", site, {}, tmp_path)  # the first use loads
    assert done.returncode != 0
    assert "MvvmLibraryError" in done.stderr
    assert str(site / "mvvm" / "libmvvm.so") + ": not found" in done.stderr
    assert _lib.SONAME + ": not found by the dynamic loader" in done.stderr
    for fix in ("make lib", "make wheel", "make install", "ldconfig", "LD_LIBRARY_PATH", "MVVM_LIBRARY"):
        assert fix in done.stderr, fix


def test_find_library_s_answer_is_tried_when_the_soname_is_not_found(tmp_path: Path) -> None:
    if shutil.which("ld") is None or shutil.which("objdump") is None:
        pytest.skip("ctypes.util.find_library needs ld and objdump to search LD_LIBRARY_PATH")
    site = alone_package(tmp_path)
    lib = tmp_path / "prefix" / "lib"
    compile_library(lib, "libmvvm.so.1", "1.0.0", soname="libmvvm.so.1")
    (lib / "libmvvm.so").symlink_to("libmvvm.so.1")  # what `cc -lmvvm`, so find_library, finds
    done = run_python("import mvvm; mvvm.Loop.virtual()", site, {"LD_LIBRARY_PATH": str(lib)}, tmp_path)
    assert done.returncode != 0
    assert _lib.SONAME + ": not found by the dynamic loader" in done.stderr
    assert "libmvvm.so.1 (%s): version 1.0.0 is incompatible" % (lib / "libmvvm.so.1") in done.stderr, done.stderr
    assert "version found: 1.0.0" in done.stderr


# --- setup.py: which library is bundled ------------------------------------------------------------


def fake_repository(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "bindings" / "python").mkdir(parents=True)
    (repo / "Package.swift").write_text("// swift-tools-version:5.9\n")
    return repo


def test_setup_without_a_library_fails_loudly_naming_what_to_do(tmp_path: Path) -> None:
    repo = fake_repository(tmp_path)
    with pytest.raises(setup_py.LibraryNotFound) as raised:
        setup_py.find_library({}, repo / "bindings" / "python")
    message = str(raised.value)
    for path in (".build/debug/libmvvm.so", ".build/release/libmvvm.so", "build/release-static/libmvvm.so"):
        assert str(repo / path) in message
    for fix in ("make lib", "make wheel", "MVVM_LIBRARY=", "MVVM_BUNDLE_LIBRARY=0"):
        assert fix in message, fix
    outside = tmp_path / "outside" / "python"
    outside.mkdir(parents=True)
    with pytest.raises(setup_py.LibraryNotFound, match="not inside the libmvvm repository"):
        setup_py.find_library({}, outside)


def test_setup_with_mvvm_library_naming_nothing_fails(tmp_path: Path) -> None:
    with pytest.raises(setup_py.LibraryNotFound, match="MVVM_LIBRARY=.*no library at"):
        setup_py.find_library({"MVVM_LIBRARY": str(tmp_path / "missing.so")}, tmp_path)
    with pytest.raises(setup_py.LibraryNotFound):
        setup_py.find_library({"MVVM_LIBRARY": str(tmp_path)}, tmp_path)  # a folder without it
    assert setup_py.find_library({"MVVM_LIBRARY": str(LIBRARY.parent)}, tmp_path) == LIBRARY.parent / "libmvvm.so"


def test_setup_bundles_nothing_only_when_told(tmp_path: Path) -> None:
    repo = fake_repository(tmp_path)
    assert setup_py.find_library({"MVVM_BUNDLE_LIBRARY": "0"}, repo / "bindings" / "python") is None
    assert setup_py.find_library({"MVVM_BUNDLE_LIBRARY": "0", "MVVM_LIBRARY": str(LIBRARY)}, tmp_path) is None


def test_setup_bundles_the_newest_build_not_an_old_release_copy(tmp_path: Path) -> None:
    repo = fake_repository(tmp_path)
    start = repo / "bindings" / "python"
    release = repo / ".build" / "release" / "libmvvm.so"
    debug = repo / ".build" / "debug" / "libmvvm.so"
    static = repo / "build" / "release-static" / "libmvvm.so"
    for path in (release, debug, static):
        path.parent.mkdir(parents=True)
        path.write_bytes(b"\x7fELF")
    now = time.time()
    os.utime(release, (now - 3600, now - 3600))   # an old release build
    os.utime(static, (now - 1800, now - 1800))
    os.utime(debug, (now, now))                   # what `make lib` just built
    assert setup_py.find_library({}, start) == debug
    os.utime(static, (now + 60, now + 60))
    assert setup_py.find_library({}, start) == static
    debug.unlink()
    static.unlink()
    assert setup_py.find_library({}, start) == release


# --- setup.py: the wheel's platform tag --------------------------------------------------------------


def test_a_library_needing_only_libc_gets_a_manylinux_tag(tmp_path: Path) -> None:
    fake = compile_library(tmp_path, "libmvvm.so", "0.2.0")
    arch, needed, versions = setup_py.elf_needs(fake)
    assert arch == os.uname().machine
    assert set(needed) <= {"libc.so.6"}
    tag, why = setup_py.platform_tag(fake)
    assert tag.startswith("manylinux_2_") and tag.endswith("_" + arch), (tag, why)


def test_the_glibc_version_needed_sets_the_manylinux_tag(tmp_path: Path) -> None:
    compiler = shutil.which("cc") or shutil.which("gcc")
    readelf = shutil.which("readelf")
    if compiler is None or readelf is None:
        pytest.skip("needs cc and readelf")
    source = tmp_path / "needs.c"
    # getrandom: GLIBC_2.25; reallocarray: GLIBC_2.26 (x86_64).
    source.write_text("#define _GNU_SOURCE\n#include <stdlib.h>\n#include <sys/random.h>\n"
                      "long f(void *p, size_t n) { return getrandom(p, n, 0) + (long)reallocarray(p, n, 1); }\n")
    output = tmp_path / "libneeds.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(output), str(source)], check=True)
    shown = subprocess.run([readelf, "-V", str(output)], capture_output=True, text=True, check=True).stdout
    newest = max(tuple(int(n) for n in v.split(".")) for v in __import__("re").findall(r"GLIBC_([0-9.]+)", shown))
    _arch, _needed, versions = setup_py.elf_needs(output)
    assert max(tuple(int(n) for n in v[6:].split(".")) for v in versions["libc.so.6"]
               if v.startswith("GLIBC_2")) == newest
    tag, _why = setup_py.platform_tag(output)
    minor = int(tag.split("_")[2])
    assert minor >= newest[1] and tag.startswith("manylinux_2_"), (tag, newest)
    allowed = [n for n, glibc_max, *_rest in setup_py.MANYLINUX_POLICIES if glibc_max >= newest[1]]
    assert minor == allowed[0], (tag, newest)


def test_a_library_needing_the_swift_toolchain_gets_no_manylinux_tag() -> None:
    _arch, needed, _versions = setup_py.elf_needs(LIBRARY)
    if not any(name.startswith("libswift") for name in needed):
        pytest.skip("%s does not need the shared Swift runtime" % LIBRARY)
    tag, why = setup_py.platform_tag(LIBRARY)
    assert tag == "linux_" + os.uname().machine
    assert "outside manylinux" in why and "libswiftCore.so" in why


# --- setup.py: the C extension in the wheel ----------------------------------------------------------


def test_the_wheel_platform_serves_the_library_and_the_extension() -> None:
    library, extension = ("manylinux_2_35_x86_64", "the library's"), ("manylinux_2_34_x86_64", "the extension's")
    assert setup_py.newest_platform([library, extension]) == library
    assert setup_py.newest_platform([extension]) == extension
    assert setup_py.newest_platform([("manylinux_2_17_x86_64", "a"), ("manylinux_2_28_x86_64", "b")])[1] == "b"
    assert setup_py.newest_platform([library, ("linux_x86_64", "needs libswiftCore.so")]) == \
        ("linux_x86_64", "needs libswiftCore.so")


def test_the_extension_builds_into_a_wheels_folder_and_needs_only_what_manylinux_has(tmp_path: Path) -> None:
    if not mvvm.fast_path:
        pytest.skip("the extension is not in use in this run (%s)" % mvvm.fast_path_reason)
    built = setup_py.build_extension(tmp_path / "mvvm" / setup_py.EXTENSION_NAME)
    assert built is not None and built.is_file()
    tag, why = setup_py.platform_tag(built)
    assert tag.startswith("manylinux_2_"), (tag, why)
    _arch, needed, _versions = setup_py.elf_needs(built)
    assert "libpython3" not in " ".join(needed), needed  # abi3: the interpreter's symbols, not a libpython


def test_without_a_compiler_the_package_is_built_without_the_extension(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    assert setup_py.build_extension(tmp_path / "mvvm" / setup_py.EXTENSION_NAME) is None
    if sys.version_info >= (3, 10):
        assert "no C compiler" in capsys.readouterr().err
