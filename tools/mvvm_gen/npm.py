"""A user's typed npm package (``python3 -m mvvm_gen.package --npm``): ``NAME-VERSION.tgz``, as
``npm pack`` makes one, holding the library, a CommonJS module that loads it with the ``mvvm``
package (which it depends on: that package carries the prebuilt addon) and exports its classes and
records, the same module for ES modules with real named exports, and their declarations (the
classes' as ``python3 -m mvvm_gen --dts`` writes them, named by the JavaScript naming rule
bindings/node/naming.json). Installed with ``npm install ./mvvm-X.tgz ./NAME-VERSION.tgz``, it
needs no Swift. The text is ``templates/npm.tmpl``'s."""

from __future__ import annotations

import gzip
import io
import json
import tarfile
from pathlib import Path
from typing import Dict, List, Tuple

from . import dts
from .model import Library
from .templates import Templates

t = Templates("npm")

__all__ = ["NODE_ARCHITECTURES", "mvvm_requirement", "write_package"]

#: The ELF machine (wheel_tag.MACHINES) -> Node's process.arch, which npm checks against `cpu`.
NODE_ARCHITECTURES = {"x86_64": "x64", "aarch64": "arm64", "i686": "ia32", "armv7l": "arm", "ppc64le": "ppc64",
                      "s390x": "s390x", "riscv64": "riscv64"}
#: The Node.js versions the mvvm package's addon serves: those with Node-API 9.
NODE_ENGINES = "^18.17.0 || >=20.3.0"


def mvvm_requirement(mvvm_version: str) -> str:
    """The mvvm package of this release series: ``^0.5.0`` (0.x: 0.5 only), ``^1.2.0``."""
    major, minor = mvvm_version.split(".")[:2]
    return "^%s.%s.0" % (major, minor)


def _files(name: str, version: str, library_file: str, library_bytes: bytes, library: Library, architecture: str,
           module: str, mvvm_version: str) -> List[Tuple[str, bytes, int]]:
    classes, records = dts.JsNaming.load().library(library)
    exported = ["library", "Loop"] + list(classes.values()) + list(records.values())
    values = {"name": name, "library": library_file, "module": module}
    manifest = {
        "name": name,
        "version": version,
        "description": t("description", module=module),
        "type": "commonjs",
        "main": "./index.js",
        "types": "./index.d.ts",
        "exports": {
            ".": {
                "import": {"types": "./index.d.mts", "default": "./index.mjs"},
                "require": {"types": "./index.d.ts", "default": "./index.js"},
            },
            "./package.json": "./package.json",
        },
        "files": ["index.js", "index.mjs", "index.d.ts", "index.d.mts", "classes.d.ts", library_file, "README.md"],
        "dependencies": {"mvvm": mvvm_requirement(mvvm_version)},
        "engines": {"node": NODE_ENGINES},
        "os": ["linux"],
        "cpu": [NODE_ARCHITECTURES.get(architecture, architecture)],
    }
    readme = t("readme", version=version, mvvm_version=mvvm_version, node=NODE_ENGINES,
               first=(list(classes.values()) or ["Loop"])[0], **values)
    return [
        ("package.json", (json.dumps(manifest, indent=2) + "\n").encode(), 0o644),
        ("index.js", (t("index_js", **values) + "\n").encode(), 0o644),
        ("index.mjs", (t("index_mjs", names=", ".join(exported), **values) + "\n").encode(), 0o644),
        ("index.d.ts", (t("index_d_ts", **values) + "\n").encode(), 0o644),
        ("index.d.mts", (t("index_d_mts", **values) + "\n").encode(), 0o644),
        ("classes.d.ts", dts.generate_dts(library, library_file, "mvvm").encode(), 0o644),
        (library_file, library_bytes, 0o755),
        ("README.md", (readme + "\n").encode(), 0o644),
    ]


def write_package(path: Path, name: str, version: str, library_file: str, library_bytes: bytes, library: Library,
                  architecture: str, module: str, mvvm_version: str) -> Dict[str, str]:
    """Writes the tarball at ``path`` (each file under ``package/``, as npm packs them, with a fixed
    time: the same input makes the same bytes); gives its package.json."""
    files = _files(name, version, library_file, library_bytes, library, architecture, module, mvvm_version)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for file_name, data, mode in files:
            info = tarfile.TarInfo("package/" + file_name)
            info.size = len(data)
            info.mode = mode
            info.mtime = 499162500  # npm's own fixed time (1985-10-26)
            tar.addfile(info, io.BytesIO(data))
    path.write_bytes(gzip.compress(buffer.getvalue(), mtime=0))
    manifest: Dict[str, str] = json.loads(files[0][1])
    return manifest
