#!/usr/bin/env bash
# Builds the Python wheel of bindings/python with the self-contained (static Swift runtime)
# libmvvm.so and the package's C extension (the fast path, mvvm/_fast.abi3.so: CPython's limited
# API, one build for every CPython from 3.10) inside, into OUTDIR:
# mvvm-VERSION-cp310-abi3-manylinux_2_N_ARCH.whl (`make wheel`).
#
# Usage: bindings/python/packaging/build_wheel.sh OUTDIR [LIBFILE]
#   Without LIBFILE, builds the library first (bindings/c/build_release.sh static build/release-static).
#
# The repository tree stays clean: bindings/python (pyproject.toml, setup.py, build_fast.py, README.md, mvvm/;
# and tools/mvvm_gen) is copied into a temporary folder, and `pip wheel` builds it there with
# MVVM_LIBRARY=LIBFILE: bindings/python/setup.py bundles that library, builds the extension with the
# system compiler (build_fast.py) and tags the wheel cp310-abi3-manylinux_2_N_ARCH, 2.N from the
# symbol versions the library and the extension need. It fails unless the wheel has that tag (a
# wheel without the extension, py3-none-..., is refused: the build says why it has none).
# `pip wheel` builds in an isolated environment (it fetches setuptools>=77 from the package
# index, or PIP_FIND_LINKS/PIP_INDEX_URL).
set -euo pipefail
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 OUTDIR [LIBFILE]" >&2; exit 2; }
mkdir -p "$1"
outdir=$(cd "$1" && pwd)
libfile=${2:-}
[ -z "$libfile" ] || libfile=$(cd "$(dirname "$libfile")" && pwd)/$(basename "$libfile")
cd "$(dirname "$0")/../../.."
. bindings/c/common.sh
PYTHON=${PYTHON:-python3}

if [ -z "$libfile" ]; then
    bash bindings/c/build_release.sh static build/release-static
    libfile=$PWD/build/release-static/libmvvm.so
fi
[ -f "$libfile" ] || { echo "build_wheel: no library at $libfile" >&2; exit 1; }
needs=$(readelf -d "$libfile" | sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p')
if grep -E "$MVVM_SWIFT_RUNTIME_PATTERN" <<<"$needs" >/dev/null; then
    echo "build_wheel: $libfile needs the Swift runtime ($(grep -E "$MVVM_SWIFT_RUNTIME_PATTERN" <<<"$needs" | tr '\n' ' ')): the wheel takes the static build" >&2
    exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/mvvm-wheel.XXXXXX")
trap 'rm -rf "$work"' EXIT
src=$work/python
mkdir -p "$src"
cp -L bindings/python/pyproject.toml bindings/python/setup.py bindings/python/build_fast.py bindings/python/README.md \
    bindings/python/LICENSE bindings/python/THIRD_PARTY_NOTICES "$src/"
cp -R bindings/python/mvvm "$src/mvvm"
cp -R tools/mvvm_gen "$src/mvvm_gen"
# What `python3 -m mvvm_gen.package` needs without a checkout (setup.py, GENERATOR_DATA): copies.
mkdir -p "$src/mvvm_gen/data"
cp Sources/MVVMExport/exports.map include/mvvm.h "$src/mvvm_gen/data/"
find "$src/mvvm" "$src/mvvm_gen" \( -name __pycache__ -o -name '*.pyc' -o -name '*.so' \) -prune -exec rm -rf {} +

rm -f "$outdir"/mvvm-*.whl
env -u MVVM_BUNDLE_LIBRARY MVVM_LIBRARY="$libfile" "$PYTHON" -m pip wheel --no-deps --wheel-dir "$outdir" "$src"
wheel=$(ls "$outdir"/mvvm-*.whl)
case $wheel in
    *-cp310-abi3-manylinux_2_*.whl) ;;
    *) echo "build_wheel: $wheel is not tagged cp310-abi3-manylinux_2_N (see setup.py's messages above)" >&2; exit 1 ;;
esac
"$PYTHON" - "$wheel" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
missing = [n for n in ("mvvm/__init__.py", "mvvm/_library.py", "mvvm/_abi.py", "mvvm/py.typed", "mvvm/_classes.pyi",
                       "mvvm/libmvvm.so", "mvvm/_fast.abi3.so", "mvvm/_fast.pyi", "mvvm_gen/__main__.py", "mvvm_gen/templates/pyabi.tmpl",
                       "mvvm_gen/package.py", "mvvm_gen/wheel_tag.py", "mvvm_gen/derive/__init__.py",
                       "mvvm_gen/templates/derive.tmpl", "mvvm_gen/data/exports.map", "mvvm_gen/data/mvvm.h") if n not in names]
licences = [n for n in names if n.endswith((".dist-info/licenses/LICENSE", ".dist-info/licenses/THIRD_PARTY_NOTICES"))]
if len(licences) != 2:
    missing.append("the licence files in its dist-info (LICENSE, THIRD_PARTY_NOTICES)")
if missing:
    sys.exit("build_wheel: the wheel lacks " + ", ".join(missing))
PY
echo "wheel: $wheel ($(du -h "$wheel" | cut -f1))"
