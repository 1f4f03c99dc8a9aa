#!/usr/bin/env bash
# Builds a package's library in release mode (MVVM_RELEASE_SWIFT_FLAGS of common.sh) and copies it
# into OUTDIR: by default the catalog's (examples/catalog, product catalog: OUTDIR/libcatalog.so);
# any package that links MVVMExport and has a .dynamic library product builds so.
#
# Usage: bindings/c/build_release.sh [static|shared] OUTDIR [PACKAGE_PATH PRODUCT]
#
#   static  (the default) links the Swift runtime into the library: it needs only libc, libm,
#           libstdc++ and libgcc_s, for C, Python or any other host without Swift.
#   shared  links the toolchain's shared Swift runtime (libswiftCore.so...), for hosts that already
#           load Swift: one Swift runtime in the process. Its RUNPATH names the toolchain's folder.
#
# Both set the soname libPRODUCT.so.MAJOR, MAJOR being include/mvvm.h's (the catalog's version is
# libmvvm's: libcatalog.so.0; a package of your own ships with its own version through
# `python3 -m mvvm_gen.package --version`), and export only mvvm_* symbols
# (Sources/MVVMExport/exports.map); the script checks both, and for `static` that nothing of the
# Swift toolchain is needed, and fails otherwise. The copy in OUTDIR has its DWARF debug
# information stripped (MVVM_KEEP_DEBUG=1 keeps it); the unstripped library stays in the scratch
# folder. Scratch folders, in the package: .build-static (static), .build-shared (shared), or
# $MVVM_SCRATCH.
set -euo pipefail
cd "$(dirname "$0")/../.."
. bindings/c/common.sh

case $# in
    1) variant=static outdir=$1 package=examples/catalog product=catalog ;;
    2) variant=$1 outdir=$2 package=examples/catalog product=catalog ;;
    4) variant=$1 outdir=$2 package=$3 product=$4 ;;
    *) echo "usage: $0 [static|shared] OUTDIR [PACKAGE_PATH PRODUCT]" >&2; exit 2 ;;
esac
SWIFT=${SWIFT:-swift}
major=$(mvvm_header_version major)
soname=lib$product.so.$major

flags=("${MVVM_RELEASE_SWIFT_FLAGS[@]}" --product "$product" -Xlinker "-soname=$soname")
case $variant in
    static) scratch=${MVVM_SCRATCH:-$package/.build-static}; flags+=(-Xswiftc -static-stdlib) ;;
    shared) scratch=${MVVM_SCRATCH:-$package/.build-shared} ;;
    *) echo "usage: $0 [static|shared] OUTDIR [PACKAGE_PATH PRODUCT] (not \"$variant\")" >&2; exit 2 ;;
esac

echo "== swift build --package-path $package ${flags[*]} --scratch-path $scratch"
start=$SECONDS
"$SWIFT" build --package-path "$package" --scratch-path "$scratch" "${flags[@]}"
bin=$("$SWIFT" build --package-path "$package" --scratch-path "$scratch" "${flags[@]}" --show-bin-path)
echo "== built in $((SECONDS - start)) s: $bin/lib$product.so"

mkdir -p "$outdir"
out=$outdir/lib$product.so
rm -f "$out"
cp "$bin/lib$product.so" "$out"
if [ "${MVVM_KEEP_DEBUG:-0}" != 1 ]; then
    strip --strip-debug "$out"
fi

problems=0
problem() { echo "ERROR: $*" >&2; problems=$((problems + 1)); }

found_soname=$(mvvm_soname "$out")
[ "$found_soname" = "$soname" ] || problem "soname is \"$found_soname\", not \"$soname\""

symbols=$(mvvm_exported_symbols "$out")
count=$(grep -c . <<<"$symbols" || true)
others=$(grep -v '^mvvm_' <<<"$symbols" || true)
[ "$count" -gt 0 ] || problem "no exported symbols"
[ -z "$others" ] || problem "symbols other than mvvm_* are exported: $(head -5 <<<"$others" | tr '\n' ' ')"

needed=$(readelf -d "$out" | sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p')
ldd_output=$(ldd "$out")
if [ "$variant" = static ]; then
    if grep -E "$MVVM_SWIFT_RUNTIME_PATTERN" <<<"$needed" >/dev/null; then
        problem "the static library still needs: $(grep -E "$MVVM_SWIFT_RUNTIME_PATTERN" <<<"$needed" | tr '\n' ' ')"
    fi
    if grep -E "$MVVM_SWIFT_RUNTIME_PATTERN" <<<"$ldd_output" >/dev/null; then
        problem "ldd shows the Swift toolchain's libraries (above)"
    fi
fi
if grep -q 'not found' <<<"$ldd_output"; then problem "ldd: a needed library is not found"; fi

echo "== $out ($variant Swift runtime, $(du -h "$out" | cut -f1))"
echo "soname: $found_soname"
echo "ldd:"
echo "$ldd_output"
echo "exported symbols: $count (all mvvm_*: $([ -z "$others" ] && echo yes || echo no))"
[ "$problems" -eq 0 ]
