"""Loading: where the library is looked for, the version check, the clear error naming every
path tried and the version found; the one table of C signatures matches include/mvvm.h."""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Dict, List, Optional

import pytest

import mvvm
from mvvm import _abi
from mvvm import _library as _lib

PACKAGE = Path(mvvm.__file__).resolve().parent
REPOSITORY = _lib._repository_root(PACKAGE)
HEADER = REPOSITORY / "include" / "mvvm.h" if REPOSITORY else None
CATALOG_HEADER = REPOSITORY / "examples" / "catalog" / "include" / "mvvm_catalog.h" if REPOSITORY else None


def run_import(code: str, env_changes: Dict[str, Optional[str]], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    for key, value in env_changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=str(cwd),
                          timeout=60)


def test_the_library_loaded_is_compatible() -> None:
    parsed = _lib.parse_version(mvvm.library_version)
    assert parsed is not None and _lib.version_is_compatible(parsed)
    assert mvvm.library_path.is_file()
    if os.environ.get("MVVM_LIBRARY"):
        assert mvvm.library_path == _lib.candidates()[0]


def test_version_rules() -> None:
    assert _lib.parse_version("0.1.0") == (0, 1, 0)
    assert _lib.parse_version("1.22.333-dev") == (1, 22, 333)
    assert _lib.parse_version("one") is None
    assert _lib.version_is_compatible((0, 1, 0), (0, 1))
    assert _lib.version_is_compatible((0, 7, 2), (0, 1))
    assert not _lib.version_is_compatible((0, 0, 9), (0, 1))
    assert not _lib.version_is_compatible((1, 1, 0), (0, 1))


GENERATED_BEGIN = "/* @generated typed calls begin"
GENERATED_END = "/* @generated typed calls end */"


def header_functions(part: str = "generic") -> Dict[str, int]:
    """The functions declared with their number of parameters: the generic ones (mvvm.h, the
    fixed ABI, which has no generated part), or the catalog's typed ones (mvvm_catalog.h's
    generated part)."""
    assert HEADER is not None and CATALOG_HEADER is not None
    if part == "typed":
        whole = CATALOG_HEADER.read_text()
        chosen = whole[whole.index(GENERATED_BEGIN):whole.index(GENERATED_END)]
    else:
        chosen = HEADER.read_text()
        assert GENERATED_BEGIN not in chosen
    text = re.sub(r"/\*.*?\*/", "", chosen, flags=re.S)
    found = {}
    for match in re.finditer(r"\b(?:mvvm_status|const char \*|void|uint8_t)\s*(mvvm_\w+)\s*\(([^)]*)\)\s*;", text):
        params = match.group(2).strip()
        found[match.group(1)] = 0 if params in ("", "void") else params.count(",") + 1
    return found


@pytest.mark.skipif(HEADER is None or not HEADER.is_file(), reason="include/mvvm.h is not beside the package")
def test_the_table_declares_every_generic_function_of_the_header_once() -> None:
    declared = header_functions("generic")
    typed = header_functions("typed")
    assert len(declared) > 30 and len(typed) > 60
    for name in ("mvvm_classes", "mvvm_new", "mvvm_service_new", "mvvm_get_string", "mvvm_send", "mvvm_subscribe",
                 "mvvm_call_named", "mvvm_new_named", "mvvm_value_free", "mvvm_library_tag"):
        assert name in declared, name
    # Every generic function, with its parameter count and the status errcheck; none of the
    # typed per-class calls (the classes are made from mvvm_classes over the generic calls).
    assert sorted(_abi.SIGNATURES) == sorted(declared)
    assert not set(_abi.SIGNATURES) & set(typed)
    functions = mvvm.default_library().functions
    for name, count in declared.items():
        restype, argtypes = _abi.SIGNATURES[name]
        assert len(argtypes) == count, name
        function = getattr(functions, name)
        assert function.argtypes == argtypes and function.restype is restype, name
        if restype is _lib.STATUS:
            assert function.errcheck is not None, name
    package = PACKAGE.glob("*.py")
    for source in package:  # no module of the package names a typed call
        for name in typed:
            assert name not in source.read_text(), (source.name, name)


@pytest.mark.skipif(HEADER is None or not HEADER.is_file(), reason="include/mvvm.h is not beside the package")
def test_the_limits_are_the_headers() -> None:
    assert HEADER is not None
    defined = re.search(r"#define MVVM_LOOP_TIME_LIMIT_MS INT64_C\((\d+)\)", HEADER.read_text())
    assert defined is not None
    assert mvvm.Loop.TIME_LIMIT_MS == _abi.LOOP_TIME_LIMIT_MS == int(defined.group(1))
    nested = re.search(r"#define MVVM_MAX_NESTED_CALLS (\d+)", HEADER.read_text())
    assert nested is not None and mvvm.MAX_NESTED_CALLS == int(nested.group(1))


def test_the_flat_event_reads_mvvm_event_as_laid_out() -> None:
    flat, event, value = _abi.FlatEvent, _abi.Event, _abi.Value
    assert ctypes.sizeof(flat) == ctypes.sizeof(event)
    assert flat.name.offset == event.name.offset
    for field in ("type", "boolean", "integer", "number", "string", "object"):
        assert getattr(flat, field).offset == event.value.offset + getattr(value, field).offset, field


def test_candidates_in_order(tmp_path: Path) -> None:
    library = tmp_path / "lib" / "libmvvm.so"
    library.parent.mkdir()
    assert _lib.candidates({"MVVM_LIBRARY": str(library)}) == [library]
    assert _lib.candidates({"MVVM_LIBRARY": str(library.parent)}) == [library]
    repo = tmp_path / "repo"
    package = repo / "bindings" / "python" / "mvvm"
    package.mkdir(parents=True)
    (repo / "Package.swift").write_text("// swift-tools-version:5.9\n")
    debug, release = repo / ".build" / "debug" / "libmvvm.so", repo / ".build" / "release" / "libmvvm.so"
    assert _lib.candidates({}, package) == [package / "libmvvm.so", debug, release, _lib.SONAME]
    for built in (debug, release):
        built.parent.mkdir(parents=True)
        built.write_bytes(b"")
    os.utime(release, ns=(1, 1_000_000_000))
    os.utime(debug, ns=(1, 2_000_000_000))
    assert _lib.candidates({}, package)[1:3] == [debug, release], "the one built last comes first"
    os.utime(release, ns=(1, 3_000_000_000))
    assert _lib.candidates({}, package)[1:3] == [release, debug], "the one built last comes first"
    alone = tmp_path / "alone" / "mvvm"
    alone.mkdir(parents=True)
    assert _lib.candidates({}, alone) == [alone / "libmvvm.so", _lib.SONAME]


def test_a_missing_library_names_every_path_tried(tmp_path: Path) -> None:
    paths = [tmp_path / "a" / "libmvvm.so", tmp_path / "b" / "libmvvm.so"]
    with pytest.raises(mvvm.MvvmLibraryError) as raised:
        _lib.load_library(paths)
    assert isinstance(raised.value, ImportError)
    message = str(raised.value)
    for path in paths:
        assert "%s: not found" % path in message
    assert raised.value.tried == [(str(p), "not found") for p in paths]
    assert raised.value.version_found is None


def test_a_missing_library_raises_a_clear_import_error_at_first_use(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "libmvvm.so"
    done = run_import("import mvvm", {"MVVM_LIBRARY": str(missing)}, tmp_path)
    assert (done.returncode, done.stderr) == (0, "")  # importing loads nothing
    done = run_import("import mvvm\nmvvm.CountDownTimer", {"MVVM_LIBRARY": str(missing)}, tmp_path)
    assert done.returncode != 0
    assert "MvvmLibraryError" in done.stderr
    assert str(missing) in done.stderr and "not found" in done.stderr
    done = run_import("import mvvm\nmvvm.Loop.virtual()\nprint('never')", {"MVVM_LIBRARY": str(tmp_path)}, tmp_path)  # a folder without it
    assert str(tmp_path / "libmvvm.so") in done.stderr and "never" not in done.stdout


def compile_fake(tmp_path: Path, name: str, version: str) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        pytest.skip("no C compiler to build a fake library")
    source = tmp_path / (name + ".c")
    source.write_text('const char *mvvm_version(void) { return "%s"; }\n' % version)
    output = tmp_path / name / "libmvvm.so"
    output.parent.mkdir()
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(output), str(source)], check=True)
    return output


@pytest.mark.parametrize("version, reason", [("0.0.9", "incompatible"), ("1.1.0", "incompatible"),
                                             ("0.5.0", "lacks mvvm_")])
def test_an_incompatible_library_names_the_version_found(tmp_path: Path, version: str, reason: str) -> None:
    fake = compile_fake(tmp_path, "fake", version)
    with pytest.raises(mvvm.MvvmLibraryError) as raised:
        _lib.load_library([fake])
    assert raised.value.version_found == version
    assert "version found: %s" % version in str(raised.value)
    assert reason in str(raised.value) and str(fake) in str(raised.value)
    done = run_import("import mvvm; mvvm.CLASSES", {"MVVM_LIBRARY": str(fake.parent)}, tmp_path)
    assert done.returncode != 0 and "version found: %s" % version in done.stderr


def test_a_library_that_is_not_libmvvm(tmp_path: Path) -> None:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler")
    source = tmp_path / "other.c"
    source.write_text("int other(void) { return 1; }\n")
    other = tmp_path / "libmvvm.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(other), str(source)], check=True)
    garbage = tmp_path / "garbage" / "libmvvm.so"
    garbage.parent.mkdir()
    garbage.write_text("not an ELF file")
    with pytest.raises(mvvm.MvvmLibraryError) as raised:
        _lib.load_library([garbage, other])
    tried = dict(raised.value.tried)
    assert tried[str(garbage)].startswith("cannot be loaded")
    assert "no mvvm_version" in tried[str(other)]


def copy_package(destination: Path) -> Path:
    shutil.copytree(PACKAGE, destination, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    return destination


PRINT_PATH = "import sys; sys.path.insert(0, %r); import mvvm; print(mvvm.__file__); print(mvvm.library_path)"


def test_a_copy_inside_the_package_folder_is_found(tmp_path: Path) -> None:
    package = copy_package(tmp_path / "site" / "mvvm")
    shutil.copy(mvvm.library_path, package / "libmvvm.so")
    done = run_import(PRINT_PATH % str(package.parent), {"MVVM_LIBRARY": None}, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(package / "__init__.py"), str(package / "libmvvm.so")]


def test_the_repository_build_folder_is_found_walking_up(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    package = copy_package(repo / "bindings" / "python" / "mvvm")
    (repo / "Package.swift").write_text("// swift-tools-version:5.9\n")
    build = repo / ".build" / "debug"
    build.mkdir(parents=True)
    (build / "libmvvm.so").symlink_to(mvvm.library_path)
    done = run_import(PRINT_PATH % str(package.parent), {"MVVM_LIBRARY": None}, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[1] == str(build / "libmvvm.so")
    (build / "libmvvm.so").unlink()
    done = run_import(PRINT_PATH % str(package.parent), {"MVVM_LIBRARY": None}, tmp_path)
    tried: List[str] = [str(package / "libmvvm.so"), str(build / "libmvvm.so"),
                        str(repo / ".build" / "release" / "libmvvm.so")]
    assert done.returncode != 0
    positions = [done.stderr.find(path + ": not found") for path in tried]
    assert -1 not in positions and positions == sorted(positions), done.stderr


def test_the_package_is_typed() -> None:
    assert (PACKAGE / "py.typed").is_file()
    assert textwrap.dedent(mvvm.__doc__ or "").strip()


def test_the_package_docstring_example_runs() -> None:
    import doctest

    failures, attempted = doctest.testmod(mvvm, verbose=False, report=True)
    assert (failures, attempted > 0) == (0, True)


def test_the_256th_copy_of_the_library_is_refused(tmp_path: Path) -> None:
    """A process holds 255 copies of libmvvm, each with its own tag in its handles: the 256th
    has none, and mvvm.load of it raises, naming the limit. In a process of its own."""
    code = textwrap.dedent("""
        import ctypes, os, shutil, sys
        import mvvm
        source, folder = sys.argv[1], sys.argv[2]
        def copy(index):
            path = os.path.join(folder, "libmvvm-%03d.so" % index)
            shutil.copyfile(source, path)
            return path
        for index in range(255):
            path = copy(index)
            ctypes.CDLL(path)  # RTLD_LOCAL, as mvvm.load opens one
            os.unlink(path)  # the mapping keeps it
        try:
            mvvm.load(copy(255))
        except mvvm.BadRegistrationError as error:
            print("refused:", error)
        else:
            print("loaded")
        """)
    source = str(_lib.default_library().path)
    done = subprocess.run([sys.executable, "-c", code, source, str(tmp_path)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("refused:") and "255 copies" in done.stdout, done.stdout
