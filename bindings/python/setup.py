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

**The tag.** With a library inside, the wheel is a platform wheel ``py3-none-PLATFORM``: no
extension module, so any Python 3 and no Python ABI, but machine code for one platform. PLATFORM
is ``manylinux_2_N_ARCH`` when the library needs only libraries every manylinux system has (libc,
libm, libstdc++, libgcc_s...), 2.N being the oldest manylinux policy (auditwheel's) that has every
GLIBC, GLIBCXX, CXXABI and GCC symbol version it needs (read from its ELF version-needs table, as
``readelf -V`` shows it); the static build of ``make release`` is such a library, and ``auditwheel
show`` agrees (``make test-packaging`` checks it). Otherwise (a debug build that needs the Swift
toolchain's libraries) PLATFORM is ``linux_ARCH``, with a warning: such a wheel works only where
that toolchain is.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import sys
import sysconfig
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

LIBRARY_NAME = "libmvvm.so"
HERE = Path(__file__).resolve().parent


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


# --- ELF: what a library needs -------------------------------------------------------------------

SHT_DYNAMIC = 6
SHT_GNU_VERNEED = 0x6FFFFFFE
DT_NEEDED = 1
MACHINES = {3: "i686", 62: "x86_64", 183: "aarch64", 40: "armv7l", 21: "ppc64le", 22: "s390x", 243: "riscv64"}


def elf_needs(path: Path) -> Tuple[Optional[str], List[str], Dict[str, Set[str]]]:
    """(architecture, DT_NEEDED libraries, symbol versions needed per library) of a 64-bit
    little-endian ELF file; raises ValueError for anything else."""
    data = path.read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("%s is not a 64-bit little-endian ELF file" % path)
    (machine,) = struct.unpack_from("<H", data, 18)
    shoff, = struct.unpack_from("<Q", data, 40)
    shentsize, shnum = struct.unpack_from("<HH", data, 58)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]

    def string(section_index: int, offset: int) -> str:
        start = sections[section_index][4] + offset
        return data[start:data.index(b"\0", start)].decode()

    needed: List[str] = []
    versions: Dict[str, Set[str]] = {}
    for _name, kind, _flags, _addr, offset, size, link, info, _align, _entsize in sections:
        if kind == SHT_DYNAMIC:
            for at in range(offset, offset + size, 16):
                tag, value = struct.unpack_from("<qQ", data, at)
                if tag == DT_NEEDED:
                    needed.append(string(link, value))
        elif kind == SHT_GNU_VERNEED:
            at = offset
            for _ in range(info):
                _version, count, file_name, aux, next_need = struct.unpack_from("<HHIII", data, at)
                names = versions.setdefault(string(link, file_name), set())
                aux_at = at + aux
                for _ in range(count):
                    _hash, _vflags, _other, name, next_aux = struct.unpack_from("<IHHII", data, aux_at)
                    names.add(string(link, name))
                    aux_at += next_aux
                at += next_need
    return MACHINES.get(machine), needed, versions


# auditwheel's manylinux policies (x86_64): (tag's N, newest GLIBC 2.x, GLIBCXX 3.4.x, GCC x, CXXABI 1.3.x).
MANYLINUX_POLICIES = [
    (5, 5, 8, (4, 2, 0), 1), (12, 12, 13, (4, 3, 0), 3), (17, 17, 19, (4, 8, 0), 7),
    (24, 24, 22, (4, 8, 0), 10), (26, 26, 22, (4, 8, 0), 10), (27, 27, 24, (7, 0, 0), 11),
    (28, 28, 24, (7, 0, 0), 11), (31, 31, 28, (7, 0, 0), 12), (34, 34, 29, (7, 0, 0), 13),
    (35, 35, 30, (12, 0, 0), 13), (36, 36, 30, (12, 0, 0), 13), (37, 36, 30, (12, 0, 0), 13),
    (38, 38, 30, (12, 0, 0), 13), (39, 39, 33, (14, 0, 0), 15), (40, 40, 33, (14, 0, 0), 15),
    (41, 41, 33, (14, 0, 0), 15),
]
# What every manylinux system has (auditwheel's lib_whitelist), and the dynamic loader.
MANYLINUX_LIBRARIES = {
    "libatomic.so.1", "libgcc_s.so.1", "libstdc++.so.6", "libm.so.6", "libmvec.so.1", "libanl.so.1", "libdl.so.2",
    "librt.so.1", "libc.so.6", "libnsl.so.1", "libutil.so.1", "libpthread.so.0", "libresolv.so.2",
    "libX11.so.6", "libXext.so.6", "libXrender.so.1", "libICE.so.6", "libSM.so.6", "libGL.so.1",
    "libgobject-2.0.so.0", "libgthread-2.0.so.0", "libglib-2.0.so.0", "libexpat.so.1", "libz.so.1",
}


def _numbers(text: str) -> Tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def platform_tag(path: Path) -> Tuple[str, str]:
    """(the wheel's platform tag for this library, why)."""
    fallback = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    try:
        arch, needed, versions = elf_needs(path)
    except (ValueError, OSError, struct.error, IndexError) as error:
        return fallback, "cannot read the library's needs (%s)" % error
    arch = arch or fallback.split("_", 1)[-1]
    foreign = [name for name in needed if name not in MANYLINUX_LIBRARIES and not name.startswith("ld-linux")]
    if foreign:
        return "linux_" + arch, "it needs libraries outside manylinux: %s" % ", ".join(foreign)
    glibc, glibcxx, cxxabi, gcc = (2, 0), (3, 4, 0), (1, 3, 0), (0, 0, 0)
    for name in set().union(*versions.values()) if versions else set():
        match = re.fullmatch(r"(GLIBC|GLIBCXX|CXXABI|GCC)_([0-9.]+)", name)
        if not match:
            continue  # GLIBC_PRIVATE would not be allowed, CXXABI_FLOAT128... are
        kind, number = match.group(1), _numbers(match.group(2))
        if kind == "GLIBC":
            glibc = max(glibc, number)
        elif kind == "GLIBCXX":
            glibcxx = max(glibcxx, number)
        elif kind == "CXXABI":
            cxxabi = max(cxxabi, number)
        else:
            gcc = max(gcc, number)
    for n, glibc_max, glibcxx_max, gcc_max, cxxabi_max in MANYLINUX_POLICIES:
        if (glibc <= (2, glibc_max) and glibcxx <= (3, 4, glibcxx_max) and gcc <= gcc_max
                and cxxabi <= (1, 3, cxxabi_max)):
            return ("manylinux_2_%d_%s" % (n, arch),
                    "newest needed: GLIBC_%s, GLIBCXX_%s, CXXABI_%s, GCC_%s" % tuple(
                        ".".join(map(str, v)) for v in (glibc, glibcxx, cxxabi, gcc)))
    return "linux_" + arch, "it needs symbol versions newer than any manylinux policy known here"


# --- setuptools --------------------------------------------------------------------------------


def main() -> None:
    from setuptools import setup
    from setuptools.command.build_py import build_py
    from setuptools.dist import Distribution

    try:  # setuptools >= 70.1 has its own bdist_wheel
        from setuptools.command.bdist_wheel import bdist_wheel
    except ImportError:  # older setuptools: the one of the `wheel` package
        from wheel.bdist_wheel import bdist_wheel  # type: ignore[no-redef]

    chosen: Dict[str, Optional[Path]] = {}

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
            if stale.exists() or stale.is_symlink():
                stale.unlink()  # an earlier build's: never packaged again
            super().run()
            if getattr(self, "editable_mode", False):
                return
            try:
                path = library()
            except LibraryNotFound as error:
                sys.stderr.write("\nerror: %s\n\n" % error)
                raise SystemExit("error: mvvm: no libmvvm.so to bundle (see above)") from None
            if path is None:
                sys.stderr.write("mvvm: MVVM_BUNDLE_LIBRARY=0: no library inside the package; it loads the "
                                 "installed libmvvm.so.0 (make install), or MVVM_LIBRARY\n")
                return
            stale.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, stale)
            tag, why = platform_tag(path)
            print("mvvm: bundled %s (wheel platform %s: %s)" % (path, tag, why))
            if not tag.startswith("manylinux"):
                sys.stderr.write("warning: mvvm: the bundled %s works only where what it needs is (%s); "
                                 "`make wheel` builds a self-contained one\n" % (path, why))

    class platform_bdist_wheel(bdist_wheel):
        def get_tag(self):  # type: ignore[no-untyped-def]
            python, abi, platform = super().get_tag()
            path = library() if bundles() else None
            if path is None:
                return python, abi, platform  # py3-none-any
            return "py3", "none", platform_tag(path)[0]

    setup(distclass=MvvmDistribution,
          cmdclass={"build_py": build_py_with_library, "bdist_wheel": platform_bdist_wheel})


if __name__ == "__main__":
    main()
