#!/usr/bin/env bash
# Installs libmvvm for C programs:
#   PREFIX/lib/libmvvm.so.MAJOR.MINOR.PATCH, with the links libmvvm.so.MAJOR (the soname, what
#   programs load) and libmvvm.so (what `cc -lmvvm` finds); PREFIX/include/mvvm.h (the fixed ABI)
#   and mvvm_catalog.h (the typed calls of the catalog, which libmvvm.so carries);
#   PREFIX/lib/pkgconfig/mvvm.pc (from bindings/c/mvvm.pc.in); the licence and the third-party notices
#   in PREFIX/share/doc/libmvvm.
# The version is include/mvvm.h's; the library's soname must be libmvvm.so.MAJOR (as
# bindings/c/build_release.sh makes it). DESTDIR, when set, is prepended to every installed
# path but not to the prefix written into mvvm.pc (staged installs, as for a distribution package).
#
# Usage: bindings/c/install.sh PREFIX LIBFILE
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 PREFIX LIBFILE" >&2; exit 2; }
libfile=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
prefix=$1
case $prefix in /*) ;; *) prefix=$(pwd)/$prefix ;; esac
prefix=${prefix%/}
cd "$(dirname "$0")/../.."
. bindings/c/common.sh

[ -f "$libfile" ] || { echo "install: no library at $libfile" >&2; exit 1; }
major=$(mvvm_header_version major)
version=$(mvvm_header_version full)
soname=$(mvvm_soname "$libfile")
if [ "$soname" != "libmvvm.so.$major" ]; then
    echo "install: $libfile has the soname \"$soname\", not libmvvm.so.$major: build it with bindings/c/build_release.sh" >&2
    exit 1
fi

root=${DESTDIR:-}$prefix
install -d "$root/lib" "$root/lib/pkgconfig" "$root/include" "$root/share/doc/libmvvm"
install -m 0755 "$libfile" "$root/lib/libmvvm.so.$version"
ln -sfn "libmvvm.so.$version" "$root/lib/libmvvm.so.$major"
ln -sfn "libmvvm.so.$major" "$root/lib/libmvvm.so"
install -m 0644 include/mvvm.h include/mvvm_catalog.h "$root/include/"
install -m 0644 LICENSE THIRD_PARTY_NOTICES "$root/share/doc/libmvvm/"
sed -e "s|@PREFIX@|$prefix|g" -e "s|@VERSION@|$version|g" bindings/c/mvvm.pc.in \
    | grep -v '^# pkg-config file of libmvvm' > "$root/lib/pkgconfig/mvvm.pc"
chmod 0644 "$root/lib/pkgconfig/mvvm.pc"

echo "installed libmvvm $version into ${DESTDIR:+$DESTDIR}$prefix:"
echo "  $root/lib/libmvvm.so.$version (links libmvvm.so.$major, libmvvm.so)"
echo "  $root/include/mvvm.h, mvvm_catalog.h"
echo "  $root/lib/pkgconfig/mvvm.pc"
echo "  $root/share/doc/libmvvm/LICENSE, THIRD_PARTY_NOTICES"
case $prefix in
    /usr/local|/usr) [ -n "${DESTDIR:-}" ] || echo "  (run ldconfig if programs do not find libmvvm.so.$major)" ;;
    *) echo "  build with: PKG_CONFIG_PATH=$prefix/lib/pkgconfig cc app.c \$(pkg-config --cflags --libs mvvm) -Wl,-rpath,$prefix/lib" ;;
esac
