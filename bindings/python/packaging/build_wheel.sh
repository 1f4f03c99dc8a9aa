#!/usr/bin/env bash
# Builds the Python wheel of bindings/python with the self-contained (static Swift runtime)
# libmvvm.so inside, into OUTDIR: mvvm-VERSION-py3-none-linux_x86_64.whl.
#
# Usage: bindings/python/packaging/build_wheel.sh OUTDIR [LIBFILE]
#   Without LIBFILE, builds the library first (build_release.sh static build/release-static).
#
# The repository tree stays clean: bindings/python is copied (pyproject.toml, README.md, mvvm/)
# into a temporary folder, the library goes into the copy's mvvm/ folder, where the loader
# (mvvm/_lib.py) looks for it, and bindings/python/packaging/wheel_setup.py becomes the copy's setup.py,
# which tags the wheel as platform-specific. `pip wheel` builds it in an isolated environment
# (it fetches setuptools>=61 from the package index, or PIP_FIND_LINKS/PIP_INDEX_URL).
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
cp bindings/python/pyproject.toml bindings/python/README.md "$src/"
cp -R bindings/python/mvvm "$src/mvvm"
find "$src/mvvm" \( -name __pycache__ -o -name '*.pyc' -o -name '*.so' \) -prune -exec rm -rf {} +
cp "$libfile" "$src/mvvm/libmvvm.so"
cp bindings/python/packaging/wheel_setup.py "$src/setup.py"

rm -f "$outdir"/mvvm-*.whl
"$PYTHON" -m pip wheel --no-deps --wheel-dir "$outdir" "$src"
wheel=$(ls "$outdir"/mvvm-*.whl)
case $wheel in
    *-py3-none-any.whl) echo "build_wheel: $wheel is tagged pure Python" >&2; exit 1 ;;
esac
"$PYTHON" - "$wheel" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
missing = [n for n in ("mvvm/__init__.py", "mvvm/_lib.py", "mvvm/py.typed", "mvvm/libmvvm.so") if n not in names]
if missing:
    sys.exit("build_wheel: the wheel lacks " + ", ".join(missing))
PY
echo "wheel: $wheel ($(du -h "$wheel" | cut -f1))"
