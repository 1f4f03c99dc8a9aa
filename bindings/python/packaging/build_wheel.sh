#!/usr/bin/env bash
# Builds the Python wheel of bindings/python into OUTDIR (`make wheel`):
# mvvm-VERSION-cp310-abi3-manylinux_2_N_ARCH.whl, the binding (the mvvm package), the generator
# (mvvm_gen, with the mvvm.h and exports.map it needs without a checkout) and the package's C
# extension (the fast path, mvvm/_fast.abi3.so: CPython's limited API, one build for every CPython
# from 3.10). No library: a host loads its own (mvvm.load), or installs its typed wheel, which
# `python3 -m mvvm_gen.package` makes of it (examples/catalog's too).
#
# Usage: bindings/python/packaging/build_wheel.sh OUTDIR
#
# The repository tree stays clean: bindings/python (pyproject.toml, setup.py, build_fast.py,
# README.md, mvvm/) and tools/mvvm_gen are copied into a temporary folder, and `pip wheel` builds
# it there: bindings/python/setup.py builds the extension with the system compiler (build_fast.py)
# and tags the wheel cp310-abi3-manylinux_2_N_ARCH, 2.N from the symbol versions the extension
# needs. It fails unless the wheel has that tag (a wheel without the extension, py3-none-any, is
# refused: the build says why it has none). `pip wheel` builds in an isolated environment (it
# fetches setuptools>=77 from the package index, or PIP_FIND_LINKS/PIP_INDEX_URL).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
mkdir -p "$1"
outdir=$(cd "$1" && pwd)
cd "$(dirname "$0")/../../.."
PYTHON=${PYTHON:-python3}

work=$(mktemp -d "${TMPDIR:-/tmp}/mvvm-wheel.XXXXXX")
trap 'rm -rf "$work"' EXIT
src=$work/python
mkdir -p "$src"
cp -L bindings/python/pyproject.toml bindings/python/setup.py bindings/python/build_fast.py bindings/python/README.md \
    bindings/python/LICENSE bindings/python/THIRD_PARTY_NOTICES "$src/"
cp -R bindings/python/mvvm "$src/mvvm"
cp -R tools/mvvm_gen "$src/mvvm_gen"   # (bindings/python/mvvm_gen is a link to it)
# What `python3 -m mvvm_gen.package` needs without a checkout (setup.py, GENERATOR_DATA): copies.
mkdir -p "$src/mvvm_gen/data"
cp Sources/MVVMExport/exports.map include/mvvm.h "$src/mvvm_gen/data/"
cp bindings/node/naming.json "$src/mvvm_gen/data/naming-js.json"
find "$src/mvvm" "$src/mvvm_gen" \( -name __pycache__ -o -name '*.pyc' -o -name '*.so' \) -prune -exec rm -rf {} +

rm -f "$outdir"/mvvm-*.whl
"$PYTHON" -m pip wheel --no-deps --wheel-dir "$outdir" "$src"
wheel=$(ls "$outdir"/mvvm-*.whl)
case $wheel in
    *-cp310-abi3-manylinux_2_*.whl) ;;
    *) echo "build_wheel: $wheel is not tagged cp310-abi3-manylinux_2_N (see setup.py's messages above)" >&2; exit 1 ;;
esac
"$PYTHON" - "$wheel" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
missing = [n for n in ("mvvm/__init__.py", "mvvm/_library.py", "mvvm/_abi.py", "mvvm/py.typed",
                       "mvvm/_fast.abi3.so", "mvvm/_fast.pyi", "mvvm_gen/__main__.py", "mvvm_gen/py.typed",
                       "mvvm_gen/model.py", "mvvm_gen/pynames.py", "mvvm_gen/templates/pyabi.tmpl",
                       "mvvm_gen/templates/pypackage.tmpl", "mvvm_gen/package.py", "mvvm_gen/wheel_tag.py",
                       "mvvm_gen/derive/__init__.py", "mvvm_gen/templates/derive.tmpl", "mvvm_gen/data/exports.map",
                       "mvvm_gen/data/mvvm.h", "mvvm_gen/data/naming-js.json") if n not in names]
licences = [n for n in names if n.endswith((".dist-info/licenses/LICENSE", ".dist-info/licenses/THIRD_PARTY_NOTICES"))]
if len(licences) != 2:
    missing.append("the licence files in its dist-info (LICENSE, THIRD_PARTY_NOTICES)")
problems = ["lacks " + ", ".join(missing)] if missing else []
libraries = [n for n in names if n.endswith(".so") and n != "mvvm/_fast.abi3.so"]
if libraries:
    problems.append("carries a library (%s), where it must carry none" % ", ".join(libraries))
if problems:
    sys.exit("build_wheel: the wheel " + "; ".join(problems))
PY
echo "wheel: $wheel ($(du -h "$wheel" | cut -f1))"
