"""Installing (issue 18, item 1; issue 51): the package carries no library and looks for none — a
host loads its own by its path, wherever it is installed, or imports its typed package;
``setup.py`` packages the binding, the generator (with the data it needs without a checkout) and
the C extension, and tags the wheel by what the extension needs. Building real wheels is
Tests/packaging/test_packaging.sh's part (it needs setuptools from the package index)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Dict, Optional

import pytest

import mvvm
from libraries import catalog

PACKAGE = Path(mvvm.__file__).resolve().parent
SETUP = PACKAGE.parent / "setup.py"
REPOSITORY = PACKAGE.parents[2]
GENERATOR = REPOSITORY / "tools" / "mvvm_gen"
LIBRARY = Path(catalog.path)


def load_setup() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mvvm_setup_under_test", SETUP)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # not __main__: setup() does not run
    return module


setup_py = load_setup()


def alone_package(tmp_path: Path) -> Path:
    """Copies of the package and the generator outside any repository, as a wheel installs them,
    with no library anywhere: site/mvvm, site/mvvm_gen."""
    site = tmp_path / "site"
    shutil.copytree(PACKAGE, site / "mvvm", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copytree(GENERATOR, site / "mvvm_gen", ignore=shutil.ignore_patterns("__pycache__"))
    return site


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
        pytest.fail("no C compiler to build a fake library (cc)")
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


# --- The package: no default library, an installed one loaded by its path -------------------------


def test_the_package_has_no_default_library() -> None:
    """PyGObject has no default namespace: the package neither finds nor names a library."""
    for gone in ("default_library", "library_path", "library_version", "CLASSES", "SONAME", "candidates"):
        assert not hasattr(mvvm, gone) and not hasattr(mvvm._library, gone), gone
    with pytest.raises(AttributeError):
        mvvm.Counter  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="a loop belongs to a library"):
        mvvm.Loop.virtual()
    with pytest.raises(TypeError, match="a service belongs to a library"):
        mvvm.Service(lambda request: None)


def test_an_installed_library_is_loaded_by_its_path(tmp_path: Path) -> None:
    """An app's library installed where docs/install.md puts it (PREFIX/lib/libNAME.so.MAJOR and
    its links), loaded by the package alone (as a wheel installs it) by its path, with no
    LD_LIBRARY_PATH and nothing else set."""
    site = alone_package(tmp_path)
    lib = tmp_path / "prefix" / "lib"
    lib.mkdir(parents=True)
    shutil.copy(LIBRARY, lib / "libcatalog.so.0.5.0")
    (lib / "libcatalog.so.0").symlink_to("libcatalog.so.0.5.0")
    done = run_python("import mvvm; library = mvvm.load(%r); print(library.path); print(library.CountDownTimer.__name__)"
                      % str(lib / "libcatalog.so.0"), site, {}, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(lib / "libcatalog.so.0"), "CountDownTimer"]


def test_a_missing_library_names_its_path_and_what_to_do(tmp_path: Path) -> None:
    site = alone_package(tmp_path)
    missing = tmp_path / "nowhere" / "libgreeter.so"
    done = run_python("import mvvm; mvvm.load(%r)" % str(missing), site, {}, tmp_path)
    assert done.returncode != 0
    assert "MvvmLibraryError" in done.stderr and "cannot load %s: not found" % missing in done.stderr
    for fix in ("MVVMExport", "docs/packages.md", "mvvm.load", "typed package"):
        assert fix in done.stderr, fix


def test_the_environment_chooses_no_library(tmp_path: Path) -> None:
    """What the default library was found by (MVVM_LIBRARY, a libmvvm.so on LD_LIBRARY_PATH, in
    the package's folder) loads nothing: the package has no class to give until a library is
    loaded by its path."""
    site = alone_package(tmp_path)
    lib = tmp_path / "prefix" / "lib"
    compile_library(lib, "libmvvm.so.0", "0.5.0", soname="libmvvm.so.0")
    (lib / "libmvvm.so").symlink_to("libmvvm.so.0")
    shutil.copy(LIBRARY, site / "mvvm" / "libmvvm.so")
    done = run_python("import mvvm\n"
                      "def mapped():\n"
                      "    return [l for l in open('/proc/self/maps') if l.split()[-1].rsplit('/', 1)[-1].startswith(('libmvvm', 'libcatalog'))]\n"
                      "try:\n    mvvm.CountDownTimer\nexcept AttributeError:\n    print('no class')\n"
                      "assert not mapped(), mapped()\nprint('nothing loaded')",
                      site, {"LD_LIBRARY_PATH": str(lib), "MVVM_LIBRARY": str(LIBRARY)}, tmp_path)
    assert (done.returncode, done.stdout.split("\n")[:2], done.stderr) == (0, ["no class", "nothing loaded"], ""), \
        done.stderr


# --- setup.py: the binding, the generator and the extension, no library ---------------------------


def test_setup_packages_no_library() -> None:
    text = SETUP.read_text()
    for gone in ("MVVM_LIBRARY", "MVVM_BUNDLE_LIBRARY", "find_library", "libmvvm.so"):
        assert gone not in text, gone
    pyproject = (PACKAGE.parent / "pyproject.toml").read_text()
    data = pyproject[pyproject.index("[tool.setuptools.package-data]"):]
    assert ".so" not in data.split("[tool.pytest")[0], "a library as package data"


def test_setup_ships_the_generators_data_from_the_repository(tmp_path: Path) -> None:
    setup_py.ship_generator_data(tmp_path / "data")
    for name, relative in setup_py.GENERATOR_DATA.items():
        assert (tmp_path / "data" / name).read_bytes() == (REPOSITORY / relative).read_bytes(), name


def test_setup_outside_the_repository_says_the_generators_data_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(setup_py, "repository_root", lambda start=None: None)
    monkeypatch.setattr(setup_py, "GENERATOR", tmp_path / "mvvm_gen")  # a source folder without data
    setup_py.ship_generator_data(tmp_path / "data")
    assert not (tmp_path / "data").exists()
    err = capsys.readouterr().err
    assert "no exports.map" in err and "no mvvm.h" in err and "will need a checkout of libmvvm" in err
    outside = tmp_path / "outside" / "python"
    outside.mkdir(parents=True)
    assert load_setup().repository_root(outside) is None


def test_the_generator_is_one_folder_shipped_once() -> None:
    """The package imports the generator's model and naming rule: in a checkout
    bindings/python/mvvm_gen is a link to tools/mvvm_gen (so PYTHONPATH=bindings/python finds
    both), which setup.py packages as mvvm_gen; build_wheel.sh stages a copy in its place."""
    link = PACKAGE.parent / "mvvm_gen"
    assert link.is_symlink() and link.resolve() == GENERATOR.resolve()
    assert setup_py.GENERATOR == GENERATOR.resolve()
    assert setup_py.repository_root() == REPOSITORY


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
