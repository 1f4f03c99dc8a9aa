"""A wheel's platform tag for the library it carries: ``manylinux_2_N_ARCH`` when the library
needs only what every manylinux system has, 2.N the oldest policy (auditwheel's) with every
GLIBC, GLIBCXX, CXXABI and GCC symbol version it needs (read from its ELF version-needs table, as
``readelf -V`` shows it); ``linux_ARCH`` otherwise. Used by the mvvm wheel's build
(bindings/python/setup.py, which loads this file by its path) and by ``python3 -m
mvvm_gen.package`` for a user's wheel. Standard library only, no imports of the package.
"""

from __future__ import annotations

import re
import struct
import sysconfig
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

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
    glibc: Tuple[int, ...] = (2, 0)
    glibcxx: Tuple[int, ...] = (3, 4, 0)
    cxxabi: Tuple[int, ...] = (1, 3, 0)
    gcc: Tuple[int, ...] = (0, 0, 0)
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
