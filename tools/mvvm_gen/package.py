"""Ships a package of your own: its self-contained library as a typed Python wheel, as C files,
and with ``--npm`` as a typed npm package.

    python3 -m mvvm_gen.package --package-path PATH --product PRODUCT [--module MODULE ...] \\
        [--name NAME] [--version 0.1.0] [--out dist] [--prefix PREFIX] [--library FILE] [--npm]

1. Builds the product (a ``.dynamic`` library that links MVVMExport) as every shipped libmvvm is
   built: ``swift build -c release`` with the release flags (``RELEASE_SWIFT_FLAGS``, as
   bindings/c/common.sh gives them), the Swift runtime linked in (``-static-stdlib``), only
   ``mvvm_*`` exported (the linker version script ``exports.map``, which the mvvm wheel carries)
   and the soname ``libNAME.so.MAJOR``. It must need nothing of the Swift toolchain. (``--library
   FILE`` packages a library built already, instead.)
2. Writes ``OUT/NAME-VERSION-py3-none-PLATFORM.whl``: the Python package NAME (``import NAME``)
   with the library (``NAME/libNAME.so``), an ``__init__.py`` that loads it with ``mvvm.load``
   on first use and gives its classes, records and request classes as module
   attributes (with the library's own ``Loop`` and ``Service``), their stubs (``__init__.pyi``)
   and ``py.typed``, as ``python3 -m mvvm_gen --py-package`` writes them; it depends on ``mvvm``.
   PLATFORM is computed as the mvvm wheel's (mvvm_gen/wheel_tag.py): ``manylinux_2_N_ARCH``.
3. Writes ``OUT/NAME-c/``, a tree to copy into a prefix (``cp -a OUT/NAME-c/. PREFIX/``):
   ``lib/libNAME.so.VERSION`` with the links ``libNAME.so.MAJOR`` (the soname) and
   ``libNAME.so``, ``include/NAME.h`` (the typed C calls of its classes, as ``mvvm_gen
   --header`` writes them), ``include/mvvm.h`` and ``lib/pkgconfig/NAME.pc``: ``cc app.c
   $(pkg-config --cflags --libs NAME)``. The .pc finds the prefix from its own place
   (``${pcfiledir}``), so the tree works wherever it is copied; ``--prefix`` writes a fixed one.
4. With ``--npm``, writes ``OUT/NAME-VERSION.tgz``, an npm package (as ``npm pack`` makes one;
   :mod:`mvvm_gen.npm`): the library, a module that loads it with the ``mvvm`` npm package (which
   it depends on, and which carries the prebuilt addon) and exports its classes and records, for
   ``require`` and ``import`` alike, and their TypeScript declarations. ``npm install
   ./mvvm-X.tgz ./NAME-VERSION.tgz``, then ``import { Loop, Greeter } from 'NAME'``.

The classes shipped are those of every Swift module the library registers classes of but the
catalog's (a library composed of several packages, as docs/packages.md composes them, ships one
wheel, one stub file and one header); ``--module`` (repeatable, or a comma-separated list) chooses.

The typed C calls the header declares are defined in Swift by the file ``python3 -m mvvm_gen
--module MODULE --swift ...`` writes into each package: the command fails when the library lacks
one. Needs the Swift toolchain for step 1 only; standard library only.
"""

from __future__ import annotations

import argparse
import base64
import ctypes
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from .model import GenerationError, Library, descriptions_json

from . import c, modules, npm, python
from .templates import Templates
from .wheel_tag import elf_needs, platform_tag

__all__ = ["main", "RELEASE_SWIFT_FLAGS", "data_file"]

t = Templates("package")

#: The release flags of every shipped library: bindings/c/common.sh's MVVM_RELEASE_SWIFT_FLAGS
#: without the version script (added here with the shipped exports.map); Tests/packaging checks
#: that the two agree.
RELEASE_SWIFT_FLAGS = ["-c", "release", "-Xswiftc", "-cross-module-optimization",
                       "-Xswiftc", "-enforce-exclusivity=unchecked"]
#: What a self-contained library must not need (bindings/c/common.sh: MVVM_SWIFT_RUNTIME_PATTERN).
SWIFT_RUNTIME = re.compile(r"libswift|libFoundation|lib_Foundation|libCoreFoundation|libdispatch|libBlocksRuntime|libicu"
                           r"|/opt/swift")
#: Where the repository keeps the files the wheel carries in mvvm_gen/data (setup.py copies them).
_REPOSITORY_FILES = {"exports.map": "Sources/MVVMExport/exports.map", "mvvm.h": "include/mvvm.h"}


class PackageError(Exception):
    """Why the package cannot be made; the message says what to do."""


def data_file(name: str) -> Path:
    """``exports.map`` or ``mvvm.h``: the installed package's copy (mvvm_gen/data), else the
    repository's (a checkout on PYTHONPATH, or an editable install)."""
    shipped = Path(__file__).resolve().parent / "data" / name
    if shipped.is_file():
        return shipped
    repository = Path(__file__).resolve().parents[2] / _REPOSITORY_FILES[name]
    if repository.is_file():
        return repository
    raise PackageError("no %s: neither %s (the mvvm wheel's copy) nor %s" % (name, shipped, repository))


def header_version(header: Path) -> Tuple[int, int, int]:
    text = header.read_text()
    found = [re.search(r"^#define MVVM_VERSION_%s (\d+)" % part, text, re.M) for part in ("MAJOR", "MINOR", "PATCH")]
    if not all(found):
        raise PackageError("cannot read MVVM_VERSION_MAJOR/MINOR/PATCH from %s" % header)
    major, minor, patch = (int(m.group(1)) for m in found if m is not None)
    return major, minor, patch


# --- 1. The library ----------------------------------------------------------------------------


def swift_build(package_path: Path, product: str, soname: str, swift: str, scratch: Optional[str]) -> Path:
    flags = RELEASE_SWIFT_FLAGS + ["--product", product, "-Xswiftc", "-static-stdlib",
                                   "-Xlinker", "--version-script=%s" % data_file("exports.map"),
                                   "-Xlinker", "-soname=%s" % soname]
    base = [swift, "build", "--package-path", str(package_path)] + (["--scratch-path", scratch] if scratch else [])
    print("== %s" % " ".join(base + flags), flush=True)
    try:
        subprocess.run(base + flags, check=True)
        bin_path = subprocess.run(base + flags + ["--show-bin-path"], check=True, capture_output=True,
                                  text=True).stdout.strip().splitlines()[-1]
    except FileNotFoundError:
        raise PackageError("%s not found: building the library needs the Swift toolchain (or give --library FILE)"
                           % swift) from None
    except subprocess.CalledProcessError as error:
        raise PackageError("swift build failed (exit status %d)" % error.returncode) from None
    built = Path(bin_path) / ("lib%s.so" % product)
    if not built.is_file():
        raise PackageError("swift build made no %s: is %s a .dynamic library product?" % (built, product))
    return built


def check_library(path: Path) -> None:
    """It loads without the Swift toolchain: nothing of it among what it needs."""
    _arch, needed, _versions = elf_needs(path)
    swift = [name for name in needed if SWIFT_RUNTIME.search(name)]
    if swift:
        raise PackageError("%s needs the Swift runtime (%s): build it with -static-stdlib (as this command does)"
                           % (path, ", ".join(swift)))


# --- 2. The wheel ------------------------------------------------------------------------------


def requirement(version: str) -> str:
    """``mvvm`` of this release series: ``mvvm>=0.5,<0.6`` (0.x), ``mvvm>=1.2,<2``."""
    major, minor = (int(part) for part in version.split(".")[:2])
    upper = "0.%d" % (minor + 1) if major == 0 else "%d" % (major + 1)
    return "mvvm>=%d.%d,<%s" % (major, minor, upper)


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (name, digest, len(data))


def write_wheel(path: Path, files: Sequence[Tuple[str, bytes, int]], dist_info: str) -> None:
    """A wheel (a zip with RECORD, as pip checks it) of ``files``: (name, data, mode)."""
    record: List[str] = []
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as wheel:
        for name, data, mode in files:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
            record.append(_record_line(name, data))
        name = "%s/RECORD" % dist_info
        info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
        info.external_attr = 0o100644 << 16
        wheel.writestr(info, "\n".join(record + ["%s,," % name]) + "\n")


# --- The command -------------------------------------------------------------------------------


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m mvvm_gen.package", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--package-path", default=".", help="the Swift package (default: the current folder)")
    parser.add_argument("--product", help="its .dynamic library product that links MVVMExport (needed unless --library)")
    parser.add_argument("--module", action="append",
                        help="a Swift module whose classes to ship (repeatable, or a comma-separated list; "
                             "default: every module of the library but the catalog's)")
    parser.add_argument("--name", help="the Python package, library (libNAME.so) and C header/pkg-config name "
                                       "(default: the product's, lowercased)")
    parser.add_argument("--version", default="0.1.0", help="the package's version, MAJOR.MINOR.PATCH (default 0.1.0)")
    parser.add_argument("--out", default="dist", help="where the wheel and NAME-c/ go (default: dist)")
    parser.add_argument("--prefix", help="a fixed prefix for NAME.pc (default: where the .pc file is, ${pcfiledir}/../..)")
    parser.add_argument("--library", help="package this library, built already, instead of building the product")
    parser.add_argument("--scratch-path", help="swift build's scratch folder (default: the package's .build)")
    parser.add_argument("--npm", action="store_true",
                        help="also write OUT/NAME-VERSION.tgz, a typed npm package of the library (depends on mvvm)")
    args = parser.parse_args(argv)
    try:
        made = make(args)
    except (PackageError, GenerationError, OSError, ValueError) as error:
        print("mvvm_gen.package: %s" % error, file=sys.stderr)
        return 2
    for line in made:
        print(line)
    return 0


def make(args: argparse.Namespace) -> List[str]:
    if not args.product and not args.library:
        raise PackageError("--product is needed (the .dynamic library product to build), or --library FILE")
    name: str = args.name or (args.product or re.sub(r"^lib|\.so(\.\d+)*$", "", Path(args.library).name)).lower()
    if not name.isidentifier() or name != name.lower() or name == "mvvm":
        raise PackageError("--name %r: a lowercase Python identifier other than mvvm is needed (the package "
                           "is imported by it)" % name)
    if not re.fullmatch(r"\d+\.\d+\.\d+", args.version):
        raise PackageError("--version %r: MAJOR.MINOR.PATCH is needed" % args.version)
    major = args.version.split(".")[0]
    library_file = "lib%s.so" % name
    soname = "%s.%s" % (library_file, major)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)

    if args.library:
        built = Path(args.library)
        if not built.is_file():
            raise PackageError("--library %s: no such file" % built)
    else:
        swift = os.environ.get("SWIFT", "swift")
        built = swift_build(Path(args.package_path).resolve(), args.product, soname, swift, args.scratch_path)
    check_library(built)
    with tempfile.TemporaryDirectory(prefix="mvvm-package.") as staging:
        staged = Path(staging) / library_file
        shutil.copyfile(built, staged)
        return _ship(args, name, built, staged, out)


def _ship(args: argparse.Namespace, name: str, built: Path, staged: Path, out: Path) -> List[str]:
    major = args.version.split(".")[0]
    library_file = staged.name
    soname = "%s.%s" % (library_file, major)
    if shutil.which("strip"):
        subprocess.run(["strip", "--strip-debug", str(staged)], check=True)
    library_bytes = staged.read_bytes()

    # The classes, as the library describes them.
    whole = Library.from_json(descriptions_json(staged))
    own = modules.choose(whole, modules.module_list(args.module))
    shipped = modules.modules_of(own)
    module = modules.named(shipped)
    declarations = c.declarations(own)
    cdll = ctypes.CDLL(str(staged))
    cdll.mvvm_version.restype = ctypes.c_char_p
    found = (cdll.mvvm_version() or b"").decode()
    header = header_version(data_file("mvvm.h"))
    # The mvvm package of this release: the header's version (the generator imports no binding).
    mvvm_version = "%d.%d.%d" % header
    if found.split(".")[:2] != [str(header[0]), str(header[1])]:
        raise PackageError("the library is libmvvm %s, this mvvm_gen's mvvm.h is %d.%d.%d: use the mvvm package of "
                           "the libmvvm the Swift package depends on" % (found, *header))
    missing = [call for call in re.findall(r"\b(mvvm_\w+)\(", declarations) if not hasattr(cdll, call)]
    if missing:
        raise PackageError(
            "the library lacks typed calls its header would declare (%s%s): generate their definitions with\n"
            "  python3 -m mvvm_gen --library %s --module %s --swift Sources/%s/TypedCalls.generated.swift\n"
            "(in the package whose module registers the classes, for each such module) and build again"
            % (", ".join(missing[:4]), ", ..." if len(missing) > 4 else "", built, shipped[0], shipped[0]))

    # The wheel.
    tag, why = platform_tag(staged)
    if not tag.startswith("manylinux"):
        print("warning: %s: the wheel is tagged %s (%s): it works only where what the library needs is"
              % (library_file, tag, why), file=sys.stderr)
    typed = python.typed_package(own, whole, name, module)
    dist_info = "%s-%s.dist-info" % (name, args.version)
    metadata = t("metadata", name=name, version=args.version, requires=requirement(mvvm_version),
                 summary=t("summary", module=module)) + "\n"
    wheel_meta = t("wheel", platform=tag, mvvm_version=mvvm_version) + "\n"
    wheel = out / ("%s-%s-py3-none-%s.whl" % (name, args.version, tag))
    for old in out.glob("%s-*.whl" % name):
        old.unlink()
    write_wheel(wheel, [("%s/%s" % (name, file), text.encode(), 0o644) for file, text in typed.items()] +
                       [("%s/%s" % (name, library_file), library_bytes, 0o755),
                        ("%s/METADATA" % dist_info, metadata.encode(), 0o644),
                        ("%s/WHEEL" % dist_info, wheel_meta.encode(), 0o644),
                        ("%s/top_level.txt" % dist_info, (name + "\n").encode(), 0o644)], dist_info)

    # The C files.
    tree = out / ("%s-c" % name)
    if tree.exists():
        shutil.rmtree(tree)
    lib, include, pkgconfig = tree / "lib", tree / "include", tree / "lib" / "pkgconfig"
    for folder in (lib, include, pkgconfig):
        folder.mkdir(parents=True)
    real = lib / ("%s.%s" % (library_file, args.version))
    real.write_bytes(library_bytes)
    real.chmod(0o755)
    (lib / soname).symlink_to(real.name)
    (lib / library_file).symlink_to(soname)
    own_header = include / ("%s.h" % name)
    own_header.write_text(c.splice(c.new_header(own_header, shipped), declarations))
    shutil.copyfile(data_file("mvvm.h"), include / "mvvm.h")
    prefix = args.prefix.rstrip("/") if args.prefix else "${pcfiledir}/../.."
    pc: Dict[str, str] = {"name": name, "module": module, "version": args.version, "prefix": prefix}
    (pkgconfig / ("%s.pc" % name)).write_text(t("pc", **pc) + "\n")

    made = []
    if args.npm:
        architecture, _needed, _versions = elf_needs(staged)
        tarball = out / ("%s-%s.tgz" % (name, args.version))
        npm.write_package(tarball, name, args.version, library_file, library_bytes, own, architecture or "unknown",
                          module, mvvm_version)
        made += ["npm: %s" % tarball,
                 "  npm install ./mvvm-%s.tgz %s   (the mvvm package beside it; then: import { Loop } from '%s')"
                 % (mvvm_version, tarball, name)]
    return made + ["wheel: %s (platform %s: %s)" % (wheel, tag, why),
            "  pip install %s   (with mvvm; then: import %s)" % (wheel, name),
            "C: %s/" % tree,
            "  lib/%s.%s (links %s, %s), include/%s.h, include/mvvm.h, lib/pkgconfig/%s.pc"
            % (library_file, args.version, soname, library_file, name, name),
            "  install: cp -a %s/. PREFIX/   then: cc app.c $(pkg-config --cflags --libs %s)" % (tree, name)]


if __name__ == "__main__":
    sys.exit(main())
