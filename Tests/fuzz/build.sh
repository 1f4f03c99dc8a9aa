#!/usr/bin/env bash
# Builds the C ABI fuzzers, each a library built with AddressSanitizer and libFuzzer's coverage
# instrumentation (in one scratch folder of their own, .build-fuzz at the root, never the main
# .build: libmvvm and the catalog, the same for the three, are compiled once) and
# Tests/fuzz/fuzz_abi.c built against it with the Swift toolchain's clang and
# -fsanitize=fuzzer,address:
#
#   abi     build/fuzz/fuzz_abi     examples/catalog's libcatalog.so
#   sample  build/fuzz/fuzz_sample  Tests/outside's libsample.so
#   todo    build/fuzz/fuzz_todo    examples/todo's libtodo.so (SQLite)
#
# Every target drives the catalog's classes beside the library's own, so the sample and the todo
# libraries are built here with MVVM_WITH_CATALOG=1: their hooks then register the catalog too
# (their Package.swift), which their ordinary builds do not carry.
#
#   bash Tests/fuzz/build.sh [TARGET...]     # default: abi sample todo (or $FUZZ_TARGETS)
#
# Run from the repository root. The toolchain's clang is found next to `swift` (override: CLANG).
set -eu
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROOT="$(pwd)"

SWIFT="${SWIFT:-swift}"
CLANG="${CLANG:-$(dirname "$(readlink -f "$(command -v "$SWIFT")")")/clang}"
OUT=build/fuzz
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || read -r -a TARGETS <<< "${FUZZ_TARGETS:-abi sample todo}"

if [ ! -x "$CLANG" ]; then
    echo "build.sh: no clang at $CLANG (set CLANG to the Swift toolchain's clang)" >&2
    exit 2
fi

# One library: ASan, and SanitizerCoverage as libFuzzer reads it (inline 8-bit counters and a
# PC table for coverage, trace-cmp so comparisons with names and values guide the mutations).
# build_library PACKAGE_DIR PRODUCT -> prints the folder of lib<PRODUCT>.so
build_library() {
    local dir=$1 product=$2
    (cd "$dir" && MVVM_WITH_CATALOG=1 "$SWIFT" build --scratch-path "$ROOT/.build-fuzz" --sanitize=address --product "$product" \
        -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
        2>&1 | grep -v "Cannot export local symbol '__asan" >&2 || true)
    local libdir
    libdir="$(cd "$dir" && cd "$(MVVM_WITH_CATALOG=1 "$SWIFT" build --scratch-path "$ROOT/.build-fuzz" --sanitize=address --show-bin-path)" && pwd)"
    if [ ! -f "$libdir/lib$product.so" ]; then
        echo "build.sh: the build gave no $libdir/lib$product.so" >&2
        return 1
    fi
    echo "$libdir"
}

mkdir -p "$OUT"
for target in "${TARGETS[@]}"; do
    case "$target" in
    abi) dir=examples/catalog product=catalog number=0 ;;
    sample) dir=Tests/outside product=sample number=1 ;;
    todo) dir=examples/todo product=todo number=2 ;;
    *) echo "build.sh: unknown target $target (abi, sample, todo)" >&2; exit 2 ;;
    esac
    libdir="$(build_library "$dir" "$product")"
    "$CLANG" -DFUZZ_TARGET=$number -std=c11 -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address -fno-omit-frame-pointer \
        -fuse-ld=lld -I include -I examples/catalog/include Tests/fuzz/fuzz_abi.c -o "$OUT/fuzz_$target" \
        -L "$libdir" -l"$product" -Wl,-rpath,"$libdir" -pthread -lm
    echo "build.sh: built $OUT/fuzz_$target against $libdir/lib$product.so"
done
