"""Build hook of the mvvm package: ``pip install ./bindings/python``, ``pip wheel``, ``make wheel``.
Everything but the C extension, the generator's data and the wheel's tag is in pyproject.toml.

**No library.** The package is the binding, the generator (``mvvm_gen``) and the C extension: it
carries no libmvvm library. A host loads its own with ``mvvm.load(path)``, or through a typed
package of its library (``python3 -m mvvm_gen.package``), which carries the library beside it.

**The C extension.** A build builds the package's C extension, ``mvvm/_fast.abi3.so`` (the fast
path: ``build_fast.py``, CPython's limited API for 3.10, with the system compiler). Where it
cannot be built (no compiler, no Python.h, Python 3.9, a free-threaded Python) the build says why
and the package is built without it: it runs over ctypes. An editable install (``pip install
-e``) builds it in place (``mvvm/_fast.abi3.so`` beside its source), the same way. An extension
left in the build folder by an earlier build is removed first, so a build packages only what it
built.

**The tag.** With the extension inside, the wheel is a platform wheel, ``cp310-abi3-PLATFORM``
(one wheel for every CPython from 3.10). PLATFORM is ``manylinux_2_N_ARCH``, 2.N being the oldest
manylinux policy (auditwheel's) that has every GLIBC symbol version the extension needs (read
from its ELF version-needs table, as ``readelf -V`` shows it; ``make test-packaging`` checks that
``auditwheel show`` agrees). Without it the wheel is ``py3-none-any``: any Python 3, over ctypes.

**The generator's data.** ``python3 -m mvvm_gen.package`` needs ``exports.map`` and ``mvvm.h``
where there is no checkout: they are copied into ``mvvm_gen/data`` of the build (below).
"""

from __future__ import annotations

import atexit
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

#: The C extension's file (build_fast.py): the stable ABI's suffix, for every CPython from 3.10.
EXTENSION_NAME = "_fast.abi3.so"
HERE = Path(__file__).resolve().parent
#: The generator the wheel ships as ``mvvm_gen``: in a checkout a link to its home, tools/mvvm_gen
#: (it imports no binding; the binding imports its model and Python naming rule), or a copy
#: beside this file (build_wheel.sh stages one there).
GENERATOR = (HERE / "mvvm_gen").resolve()


def repository_root(start: Path = HERE) -> Optional[Path]:
    """The libmvvm checkout holding ``start`` (the first folder above with ``Package.swift``), or None."""
    for folder in [start, *start.parents]:
        if (folder / "Package.swift").is_file():
            return folder
    return None


# --- What the generator needs without a checkout -------------------------------------------------

#: Files of the repository that ``python3 -m mvvm_gen.package`` (a user's wheel and C files) needs
#: where there is no checkout: mvvm_gen/data/ in the built package. The repository's files stay the
#: one source: they are copied at build time (build_wheel.sh copies them into its copy of this
#: folder; a build inside the repository takes them from it), never committed under mvvm_gen.
GENERATOR_DATA = {"exports.map": "Sources/MVVMExport/exports.map", "mvvm.h": "include/mvvm.h",
                  # JavaScript's naming rule lives beside the Node binding (mvvm_gen.naming.js_data)
                  "naming-js.json": "bindings/node/naming.json"}


def ship_generator_data(target: Path) -> None:
    """Copies them into the build; a source folder outside the repository without them builds a
    package whose mvvm_gen.package says, when run, that they are missing (with a warning here)."""
    root = repository_root()
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

    staged: Dict[str, Optional[Path]] = {}

    def extension() -> Optional[Path]:
        """The C extension, built once into a scratch folder: bdist_wheel asks first (whether the
        wheel is pure), build_py then copies it into the package."""
        if "path" not in staged:
            scratch = Path(tempfile.mkdtemp(prefix="mvvm-extension."))
            atexit.register(shutil.rmtree, scratch, True)
            staged["path"] = build_extension(scratch / EXTENSION_NAME)
        return staged["path"]

    class MvvmDistribution(Distribution):
        def has_ext_modules(self) -> bool:  # a platform (not pure) wheel when the extension is inside
            return extension() is not None

    class build_py_with_extension(build_py):
        def run(self) -> None:
            inside = Path(self.build_lib) / "mvvm" / EXTENSION_NAME
            if inside.exists() or inside.is_symlink():
                inside.unlink()  # an earlier build's: never packaged again
            super().run()
            if getattr(self, "editable_mode", False):
                build_extension(HERE / "mvvm" / EXTENSION_NAME)  # in place, beside its source
                return  # (the generator finds the repository's files itself)
            ship_generator_data(Path(self.build_lib) / "mvvm_gen" / "data")
            built = extension()
            if built is not None:
                shutil.copyfile(built, inside)
                inside.chmod(0o755)
                tag, why = platform_tag(inside)
                print("mvvm: the C extension inside (wheel platform %s: %s)" % (tag, why))

    class platform_bdist_wheel(bdist_wheel):
        def get_tag(self):  # type: ignore[no-untyped-def]
            python, abi, platform = super().get_tag()
            built = extension()
            if built is None:
                return python, abi, platform  # py3-none-any
            return "cp310", "abi3", newest_platform([platform_tag(built)])[0]  # the limited API: CPython 3.10+

    setup(distclass=MvvmDistribution, package_dir={"mvvm_gen": "mvvm_gen"},
          cmdclass={"build_py": build_py_with_extension, "bdist_wheel": platform_bdist_wheel})


if __name__ == "__main__":
    main()
