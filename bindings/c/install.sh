#!/usr/bin/env bash
# Installs what a C developer building a host needs, and no library (a host links its app's own
# library, which carries the whole ABI: docs/install.md says where it goes):
#   PREFIX/include/mvvm.h                 the fixed C ABI;
#   PREFIX/lib/pkgconfig/mvvm.pc          its Cflags (from bindings/c/mvvm.pc.in): `pkg-config
#                                         --cflags mvvm`; no Libs, there being no libmvvm to link;
#   PREFIX/share/libmvvm/mvvm_gen/        the generator (tools/mvvm_gen), with the mvvm.h and
#                                         exports.map it needs without a checkout (mvvm_gen/data),
#   PREFIX/bin/mvvm-gen                   which runs it: `mvvm-gen --library libapp.so --header
#                                         app.h ...`, `mvvm-gen derive ...`, `mvvm-gen package ...`
#                                         (python3 and its standard library);
#   PREFIX/share/doc/libmvvm/             the licence and the third-party notices.
# The version is include/mvvm.h's. DESTDIR, when set, is prepended to every installed path but not
# to the prefix written into mvvm.pc (staged installs, as for a distribution package); mvvm-gen
# finds the generator from its own place.
#
# Usage: bindings/c/install.sh PREFIX
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 PREFIX" >&2; exit 2; }
prefix=$1
case $prefix in /*) ;; *) prefix=$(pwd)/$prefix ;; esac
prefix=${prefix%/}
cd "$(dirname "$0")/../.."
. bindings/c/common.sh

version=$(mvvm_header_version full)
root=${DESTDIR:-}$prefix
share=$root/share/libmvvm
install -d "$root/include" "$root/lib/pkgconfig" "$root/bin" "$share" "$root/share/doc/libmvvm"
install -m 0644 include/mvvm.h "$root/include/"
sed -e "s|@PREFIX@|$prefix|g" -e "s|@VERSION@|$version|g" bindings/c/mvvm.pc.in \
    | grep -v '^# pkg-config file of libmvvm' > "$root/lib/pkgconfig/mvvm.pc"
chmod 0644 "$root/lib/pkgconfig/mvvm.pc"

# The generator: tools/mvvm_gen without its caches, and the repository's files it needs (the one
# source: copied here, never committed under mvvm_gen).
rm -rf "$share/mvvm_gen"
(cd tools && find mvvm_gen \( -name __pycache__ -o -name '*.pyc' \) -prune -o -type f -print) |
    while IFS= read -r file; do install -D -m 0644 "tools/$file" "$share/$file"; done
install -D -m 0644 Sources/MVVMExport/exports.map "$share/mvvm_gen/data/exports.map"
install -D -m 0644 include/mvvm.h "$share/mvvm_gen/data/mvvm.h"
install -D -m 0644 bindings/node/naming.json "$share/mvvm_gen/data/naming-js.json"
cat > "$root/bin/mvvm-gen" <<'SH'
#!/bin/sh
# libmvvm's generator (python3 -m mvvm_gen), installed by bindings/c/install.sh: typed C calls and
# Python packages of a library (mvvm-gen --library ...), derived registrations (mvvm-gen derive ...),
# a package shipped as a wheel and C files (mvvm-gen package ...).
here=$(dirname "$(readlink -f "$0")")
PYTHONPATH="$here/../share/libmvvm${PYTHONPATH:+:$PYTHONPATH}" exec "${PYTHON:-python3}" -m mvvm_gen "$@"
SH
chmod 0755 "$root/bin/mvvm-gen"
install -m 0644 LICENSE THIRD_PARTY_NOTICES "$root/share/doc/libmvvm/"

echo "installed libmvvm $version into ${DESTDIR:+$DESTDIR}$prefix:"
echo "  $root/include/mvvm.h"
echo "  $root/lib/pkgconfig/mvvm.pc"
echo "  $root/bin/mvvm-gen, $share/mvvm_gen/"
echo "  $root/share/doc/libmvvm/LICENSE, THIRD_PARTY_NOTICES"
echo "  an app's own library: PREFIX/lib/libAPP.so.MAJOR (+ libAPP.so), its header PREFIX/include/APP.h (docs/install.md)"
case $prefix in
    /usr/local|/usr) ;;
    *) echo "  build with: PKG_CONFIG_PATH=$prefix/lib/pkgconfig cc app.c \$(pkg-config --cflags mvvm) -lAPP" ;;
esac
