"""Loading: a library by its path and nothing else (no search), the version check, the clear
error naming the path and the version found; a typed package loading the library beside it; the
one table of C signatures matches include/mvvm.h."""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Dict, Optional

import pytest

import mvvm
from mvvm import _abi
from mvvm import _library as _lib
from libraries import catalog, library_path

PACKAGE = Path(mvvm.__file__).resolve().parent
REPOSITORY = PACKAGE.parents[2]
HEADER = REPOSITORY / "include" / "mvvm.h"
CATALOG_HEADER = REPOSITORY / "examples" / "catalog" / "include" / "mvvm_catalog.h"


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
    parsed = _lib.parse_version(catalog.version)
    assert parsed is not None and _lib.version_is_compatible(parsed)
    assert catalog.path.is_file() and catalog.path == Path(os.environ["MVVM_CATALOG_LIBRARY"]).absolute()


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
    functions = catalog.functions
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


def test_the_limits_are_the_headers() -> None:
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


def test_a_library_is_a_file_given_by_its_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No search: the path is the library's file, relative to the current folder or from ``~``; a
    folder is refused, saying to give the file."""
    with pytest.raises(mvvm.MvvmLibraryError) as folder:
        mvvm.load(catalog.path.parent)
    assert folder.value.reason.startswith("is a folder: give the library's file")
    assert folder.value.path == str(catalog.path.parent)
    monkeypatch.chdir(catalog.path.parent)
    assert mvvm.load(catalog.path.name) is catalog
    home = tmp_path / "home"
    (home / "lib").mkdir(parents=True)
    (home / "lib" / "libcatalog.so").symlink_to(catalog.path)
    monkeypatch.setenv("HOME", str(home))
    assert mvvm.load("~/lib/libcatalog.so") is catalog  # the same file: the same library


def test_a_missing_library_names_its_path(tmp_path: Path) -> None:
    missing = tmp_path / "a" / "libgreeter.so"
    with pytest.raises(mvvm.MvvmLibraryError) as raised:
        mvvm.load(missing)
    assert isinstance(raised.value, ImportError)
    assert (raised.value.path, raised.value.reason, raised.value.version_found) == (str(missing), "not found", None)
    assert str(raised.value).startswith("cannot load %s: not found" % missing)


def test_importing_loads_nothing_and_a_missing_library_raises_where_it_is_loaded(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "libgreeter.so"
    done = run_import("import mvvm", {"MVVM_LIBRARY": str(missing)}, tmp_path)
    assert (done.returncode, done.stderr) == (0, "")  # importing loads nothing, whatever the environment
    done = run_import("import mvvm\nprint('imported')\nmvvm.load(%r)\nprint('never')" % str(missing), {}, tmp_path)
    assert done.returncode != 0 and done.stdout == "imported\n"
    assert "MvvmLibraryError" in done.stderr and "cannot load %s: not found" % missing in done.stderr


def compile_fake(tmp_path: Path, name: str, version: str) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        pytest.fail("no C compiler to build a fake library (cc)")
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
        mvvm.load(fake)
    assert raised.value.version_found == version
    assert "version found: %s" % version in str(raised.value)
    assert reason in raised.value.reason and str(fake) in str(raised.value)


def test_a_library_that_is_not_libmvvm(tmp_path: Path) -> None:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.fail("no C compiler (cc)")
    source = tmp_path / "other.c"
    source.write_text("int other(void) { return 1; }\n")
    other = tmp_path / "libother.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(other), str(source)], check=True)
    garbage = tmp_path / "garbage" / "libgarbage.so"
    garbage.parent.mkdir()
    garbage.write_text("not an ELF file")
    with pytest.raises(mvvm.MvvmLibraryError) as raised:
        mvvm.load(garbage)
    assert raised.value.reason.startswith("cannot be loaded")
    with pytest.raises(mvvm.MvvmLibraryError) as raised:
        mvvm.load(other)
    assert "no mvvm_version" in raised.value.reason


def copy_package(site: Path) -> Path:
    """The package and the generator it imports, as a wheel installs them, in ``site``."""
    shutil.copytree(PACKAGE, site / "mvvm", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copytree(REPOSITORY / "tools" / "mvvm_gen", site / "mvvm_gen", ignore=shutil.ignore_patterns("__pycache__"))
    return site / "mvvm"


def test_a_library_inside_the_package_folder_is_not_loaded(tmp_path: Path) -> None:
    """Where the default library was once looked for first: a copy there is nobody's library."""
    package = copy_package(tmp_path / "site")
    shutil.copy(catalog.path, package / "libmvvm.so")
    done = run_import("import sys; sys.path.insert(0, %r); import mvvm; print(mvvm.__file__); "
                      "print(hasattr(mvvm, 'CountDownTimer'), [l for l in open('/proc/self/maps') if l.split()[-1].rsplit('/', 1)[-1].startswith('libmvvm')])"
                      % str(package.parent), {"PYTHONPATH": None}, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [str(package / "__init__.py"), "False []"]


def test_a_typed_package_loads_the_library_beside_it(tmp_path: Path) -> None:
    """The catalog's typed package (examples/catalog/python/catalog, generated), put where a wheel
    puts it with a copy of the library beside its __init__.py: ``import catalog`` loads that copy
    on the first use of a class, and only then."""
    import catalog as typed

    site = tmp_path / "site"
    copy_package(site)
    shutil.copytree(Path(typed.__file__).parent, site / "catalog", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copy(catalog.path, site / "catalog" / "libcatalog.so")
    code = textwrap.dedent("""
        import catalog
        def mapped():
            return [l.split()[-1] for l in open("/proc/self/maps") if l.split()[-1].rsplit("/", 1)[-1].startswith("libcatalog")]
        assert not mapped(), mapped()
        with catalog.Loop.virtual() as loop, catalog.Counter(loop) as counter:
            counter.increment()
            print(counter.count, catalog.library.path, sorted(set(mapped())))
        """)
    done = run_import(code, {"PYTHONPATH": str(site)}, tmp_path)
    assert done.returncode == 0, done.stderr
    beside = site / "catalog" / "libcatalog.so"
    assert done.stdout.split() == ["1", str(beside), "['%s']" % beside], done.stdout


def test_the_package_is_typed() -> None:
    assert (PACKAGE / "py.typed").is_file()
    assert textwrap.dedent(mvvm.__doc__ or "").strip()


def test_the_package_docstring_example_runs() -> None:
    """Its library of one's own is Tests/outside's libsample.so, whose Greeter has the README's
    greeter's name and greeting."""
    import doctest

    failures, attempted = doctest.testmod(mvvm, verbose=False, report=True,
                                          extraglobs={"path": library_path("MVVM_SAMPLE_LIBRARY")})
    assert (failures, attempted > 0) == (0, True)


def test_the_256th_copy_of_the_library_is_refused(tmp_path: Path) -> None:
    """A process holds 255 copies of libmvvm, each with its own tag in its handles: the 256th
    has none, and mvvm.load of it raises, naming the limit. In a process of its own."""
    code = textwrap.dedent("""
        import ctypes, os, shutil, sys
        import os, mvvm
        catalog = mvvm.load(os.environ["MVVM_CATALOG_LIBRARY"])
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
    source = str(catalog.path)
    done = subprocess.run([sys.executable, "-c", code, source, str(tmp_path)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("refused:") and "255 copies" in done.stdout, done.stdout
