"""Build hook of the mvvm package: ``pip install ./bindings/python``, ``pip wheel``, ``make wheel``.
Everything but the library and the wheel's tag is in pyproject.toml.

**The library.** A non-editable build puts one ``libmvvm.so`` into the package (``mvvm/libmvvm.so``,
where the package looks first), chosen as follows:

1. ``MVVM_LIBRARY``: the file, or the folder holding ``libmvvm.so``; it must exist.
2. Else, in the repository holding this folder (the first folder above with ``Package.swift``),
   the newest of ``.build/debug/libmvvm.so`` (``make lib``), ``.build/release/libmvvm.so``
   (``swift build -c release``) and ``build/release-static/libmvvm.so`` (``make release``).

When there is none, the build fails with what was tried and what to do: pip shows it without
``-v``. ``MVVM_BUNDLE_LIBRARY=0`` builds the package without a library, on purpose: a
``py3-none-any`` wheel that loads the installed ``libmvvm.so.MAJOR`` (``make install``) by its
soname. A library left in the build folder by an earlier build is removed first, so a build
packages the library it chose and nothing else. An editable install (``pip install -e``) copies
nothing: the package finds the repository's build folders itself.

**The C extension.** A build that bundles a library also builds the package's C extension,
``mvvm/_fast.abi3.so`` (the fast path: ``build_fast.py``, CPython's limited API for 3.10, with the
system compiler). Where it cannot be built (no compiler, no Python.h, Python 3.9, a free-threaded
Python) the build says why and the package is built without it: it runs over ctypes. An editable
install builds it in place (``mvvm/_fast.abi3.so`` beside its source), the same way.
``MVVM_BUNDLE_LIBRARY=0`` builds neither: the pure package.

**The tag.** With a library inside, the wheel is a platform wheel: ``cp310-abi3-PLATFORM`` with
the extension (one wheel for every CPython from 3.10), ``py3-none-PLATFORM`` without it (any
Python 3). PLATFORM is ``manylinux_2_N_ARCH`` when the library and the extension need only
libraries every manylinux system has (libc, libm, libstdc++, libgcc_s...), 2.N being the oldest
manylinux policy (auditwheel's) that has every GLIBC, GLIBCXX, CXXABI and GCC symbol version they
need (read from their ELF version-needs tables, as ``readelf -V`` shows them); the static build of
``make release`` is such a library, and ``auditwheel show`` agrees (``make test-packaging`` checks
it). Otherwise (a debug build that needs the Swift toolchain's libraries) PLATFORM is
``linux_ARCH``, with a warning: such a wheel works only where that toolchain is.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Dict, List, Optional, Tuple

LIBRARY_NAME = "libmvvm.so"
#: The C extension's file (build_fast.py): the stable ABI's suffix, for every CPython from 3.10.
EXTENSION_NAME = "_fast.abi3.so"
HERE = Path(__file__).resolve().parent
#: The generator the wheel ships as ``mvvm_gen``: its home in the repository, tools/mvvm_gen
#: (it imports no binding), or a copy beside this file (build_wheel.sh stages one there).
GENERATOR_DIR = "mvvm_gen" if (HERE / "mvvm_gen" / "__init__.py").is_file() else "../../tools/mvvm_gen"
GENERATOR = (HERE / GENERATOR_DIR).resolve()


class LibraryNotFound(Exception):
    """No library to bundle: the message says what was tried and what to do."""


def _explicit_library(value: str) -> Path:
    path = Path(value).expanduser()
    if path.is_dir():
        path = path / LIBRARY_NAME
    if not path.is_file():
        raise LibraryNotFound(
            "MVVM_LIBRARY=%s: no library at %s.\n"
            "Set MVVM_LIBRARY to libmvvm.so or the folder holding it (e.g. .build/debug after `make lib`), "
            "or unset it to use the repository's newest build." % (value, path.absolute()))
    return path.absolute()


def repository_libraries(start: Path = HERE) -> Tuple[Optional[Path], List[Path]]:
    """(the repository's folder or None, the library paths looked at there, in the order listed above)."""
    for folder in [start, *start.parents]:
        if (folder / "Package.swift").is_file():
            return folder, [folder / ".build" / "debug" / LIBRARY_NAME, folder / ".build" / "release" / LIBRARY_NAME,
                            folder / "build" / "release-static" / LIBRARY_NAME]
    return None, []


def find_library(environ: Optional[Dict[str, str]] = None, start: Path = HERE) -> Optional[Path]:
    """The library to bundle; None when MVVM_BUNDLE_LIBRARY=0; raises LibraryNotFound otherwise."""
    env = os.environ if environ is None else environ
    if env.get("MVVM_BUNDLE_LIBRARY", "1") == "0":
        return None
    explicit = env.get("MVVM_LIBRARY")
    if explicit:
        return _explicit_library(explicit)
    root, paths = repository_libraries(start)
    present = [path for path in paths if path.is_file()]
    if present:
        # The newest: the one just built (make lib builds .build/debug), not an old release copy.
        return max(present, key=lambda path: path.stat().st_mtime_ns)
    if root is None:
        where = "this source folder (%s) is not inside the libmvvm repository (no Package.swift above it)" % start
    else:
        where = "none of these exists:\n" + "".join("  %s\n" % path for path in paths)
    raise LibraryNotFound(
        "mvvm: no libmvvm.so to put into the package: MVVM_LIBRARY is not set and %s\n"
        "Do one of:\n"
        "  make lib            (in the repository; then pip install ./bindings/python again)\n"
        "  make wheel          (a self-contained wheel in build/wheel, no Swift needed where it is installed)\n"
        "  MVVM_LIBRARY=/path/to/libmvvm.so pip install ./bindings/python\n"
        "  MVVM_BUNDLE_LIBRARY=0 pip install ./bindings/python   (no library inside: it loads the\n"
        "                      libmvvm.so.0 that `make install` installed, by its soname)" % where)


# --- What the generator needs without a checkout -------------------------------------------------

#: Files of the repository that ``python3 -m mvvm_gen.package`` (a user's wheel and C files) needs
#: where there is no checkout: mvvm_gen/data/ in the built package. The repository's files stay the
#: one source: they are copied at build time (build_wheel.sh copies them into its copy of this
#: folder; a build inside the repository takes them from it), never committed under mvvm_gen.
GENERATOR_DATA = {"exports.map": "Sources/MVVMExport/exports.map", "mvvm.h": "include/mvvm.h"}


def ship_generator_data(target: Path) -> None:
    """Copies them into the build; a source folder outside the repository without them builds a
    package whose mvvm_gen.package says, when run, that they are missing (with a warning here)."""
    root, _paths = repository_libraries()
    for name, relative in GENERATOR_DATA.items():
        given = GENERATOR / "data" / name
        source = given if given.is_file() else (root / relative if root is not None else None)
        if source is None or not source.is_file():
            sys.stderr.write("warning: mvvm: no %s (the repository's %s) for mvvm_gen/data: python3 -m "
                             "mvvm_gen.package will need a checkout of libmvvm\n" % (name, relative))
            continue
        target.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target / name)


# --- The platform tag: mvvm_gen/wheel_tag.py (python3 -m mvvm_gen.package tags a user's wheel
# with it too), loaded by its path (setup.py runs before anything is installed).


def _wheel_tag_module():  # type: ignore[no-untyped-def]
    import importlib.util

    spec = importlib.util.spec_from_file_location("_mvvm_wheel_tag", GENERATOR / "wheel_tag.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_wheel_tag = _wheel_tag_module()
elf_needs = _wheel_tag.elf_needs
platform_tag = _wheel_tag.platform_tag
MANYLINUX_POLICIES = _wheel_tag.MANYLINUX_POLICIES
MANYLINUX_LIBRARIES = _wheel_tag.MANYLINUX_LIBRARIES


def newest_platform(tags: List[Tuple[str, str]]) -> Tuple[str, str]:
    """The platform tag that serves every one of ``tags`` ((tag, why) of each binary): the newest
    manylinux policy among them, or a ``linux_`` tag when one is."""
    for tag, why in tags:
        if not tag.startswith("manylinux"):
            return tag, why
    return max(tags, key=lambda tag_why: int(tag_why[0].split("_")[2]))


# --- The C extension: build_fast.py, loaded by its path (beside this file, as in a wheel's build).


def _build_fast_module():  # type: ignore[no-untyped-def]
    import importlib.util

    path = HERE / "build_fast.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location("_mvvm_build_fast", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build_extension(target: Path) -> Optional[Path]:
    """Builds mvvm/_fast.abi3.so at ``target``; None (and why, on stderr) when it cannot be."""
    build_fast = _build_fast_module()
    try:
        if build_fast is None:
            raise RuntimeError("no build_fast.py beside setup.py")
        print("mvvm: %s" % build_fast.build(target))
    except Exception as why:  # NotBuilt, or a build script that cannot run: the package runs over ctypes
        sys.stderr.write("warning: mvvm: no C extension (the fast path) in this build: %s; the package runs over "
                         "ctypes\n" % why)
        return None
    return target


# --- setuptools --------------------------------------------------------------------------------


def main() -> None:
    from setuptools import setup
    from setuptools.command.build_py import build_py
    from setuptools.dist import Distribution

    try:  # setuptools >= 70.1 has its own bdist_wheel
        from setuptools.command.bdist_wheel import bdist_wheel
    except ImportError:  # older setuptools: the one of the `wheel` package
        from wheel.bdist_wheel import bdist_wheel  # type: ignore[no-redef]

    chosen: Dict[str, Optional[Path]] = {}  # the library; the extension built into the package

    def library() -> Optional[Path]:
        if "path" not in chosen:
            chosen["path"] = find_library()
        return chosen["path"]

    def bundles() -> bool:
        try:
            return library() is not None
        except LibraryNotFound:
            return False  # (metadata only; build_py raises it)

    class MvvmDistribution(Distribution):
        def has_ext_modules(self) -> bool:  # a platform (not pure) wheel when a library is inside
            return bundles()

    class build_py_with_library(build_py):
        def run(self) -> None:
            stale = Path(self.build_lib) / "mvvm" / LIBRARY_NAME
            extension = stale.with_name(EXTENSION_NAME)
            for old in (stale, extension):
                if old.exists() or old.is_symlink():
                    old.unlink()  # an earlier build's: never packaged again
            super().run()
            if getattr(self, "editable_mode", False):
                if bundles():
                    build_extension(HERE / "mvvm" / EXTENSION_NAME)  # in place, beside its source
                return  # (the generator finds the repository's files itself)
            try:
                path = library()
            except LibraryNotFound as error:
                sys.stderr.write("\nerror: %s\n\n" % error)
                raise SystemExit("error: mvvm: no libmvvm.so to bundle (see above)") from None
            ship_generator_data(Path(self.build_lib) / "mvvm_gen" / "data")
            if path is None:
                sys.stderr.write("mvvm: MVVM_BUNDLE_LIBRARY=0: no library inside the package; it loads the "
                                 "installed libmvvm.so.0 (make install), or MVVM_LIBRARY\n")
                return
            stale.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, stale)
            chosen["extension"] = build_extension(extension)
            tag, why = wheel_platform()
            print("mvvm: bundled %s%s (wheel platform %s: %s)"
                  % (path, " and the C extension" if chosen.get("extension") else "", tag, why))
            if not tag.startswith("manylinux"):
                sys.stderr.write("warning: mvvm: the bundled %s works only where what it needs is (%s); "
                                 "`make wheel` builds a self-contained one\n" % (path, why))

    def wheel_platform() -> Tuple[str, str]:
        binaries = [path for path in (library(), chosen.get("extension")) if path is not None]
        return newest_platform([platform_tag(path) for path in binaries])

    class platform_bdist_wheel(bdist_wheel):
        def get_tag(self):  # type: ignore[no-untyped-def]
            python, abi, platform = super().get_tag()
            path = library() if bundles() else None
            if path is None:
                return python, abi, platform  # py3-none-any
            if chosen.get("extension"):
                return "cp310", "abi3", wheel_platform()[0]  # the extension's limited API: CPython 3.10+
            return "py3", "none", wheel_platform()[0]

    setup(distclass=MvvmDistribution, package_dir={"mvvm_gen": GENERATOR_DIR},
          cmdclass={"build_py": build_py_with_library, "bdist_wheel": platform_bdist_wheel})


if __name__ == "__main__":
    main()
