#!/usr/bin/env bash
# Builds the C ABI fuzzer: libmvvm.so with AddressSanitizer and libFuzzer's coverage
# instrumentation (into .build-fuzz, never the main .build), then Tests/fuzz/fuzz_abi.c with the
# Swift toolchain's clang and -fsanitize=fuzzer,address, into build/fuzz/fuzz_abi.
#
#   bash Tests/fuzz/build.sh
#
# Run from the repository root. The toolchain's clang is found next to `swift` (override: CLANG).
set -eu
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

SWIFT="${SWIFT:-swift}"
CLANG="${CLANG:-$(dirname "$(readlink -f "$(command -v "$SWIFT")")")/clang}"
SCRATCH=.build-fuzz
OUT=build/fuzz

if [ ! -x "$CLANG" ]; then
    echo "build.sh: no clang at $CLANG (set CLANG to the Swift toolchain's clang)" >&2
    exit 2
fi

# The library: ASan, and SanitizerCoverage as libFuzzer reads it (inline 8-bit counters and a PC
# table for coverage, trace-cmp so comparisons with names and values guide the mutations).
"$SWIFT" build --scratch-path "$SCRATCH" --sanitize=address --product mvvm \
    -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
    2>&1 | grep -v "Cannot export local symbol '__asan" || true
LIBDIR="$(cd "$("$SWIFT" build --scratch-path "$SCRATCH" --sanitize=address --show-bin-path)" && pwd)"
if [ ! -f "$LIBDIR/libmvvm.so" ]; then
    echo "build.sh: the build gave no $LIBDIR/libmvvm.so" >&2
    exit 1
fi

mkdir -p "$OUT"
"$CLANG" -std=c11 -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address -fno-omit-frame-pointer -fuse-ld=lld \
    -I include Tests/fuzz/fuzz_abi.c -o "$OUT/fuzz_abi" \
    -L "$LIBDIR" -lmvvm -Wl,-rpath,"$LIBDIR" -pthread
echo "build.sh: built $OUT/fuzz_abi against $LIBDIR/libmvvm.so"
