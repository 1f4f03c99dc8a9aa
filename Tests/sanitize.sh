#!/usr/bin/env bash
# Builds libmvvm and its tests with a sanitizer, and the catalog (examples/catalog) with its tests,
# runs the Swift tests of both and the C tests (Tests/C/test_*.c, compiled by the toolchain's clang
# with the matching -fsanitize and linked against that build's libcatalog.so), and fails on any
# test failure or any sanitizer report.
#
#   bash Tests/sanitize.sh address    # AddressSanitizer + LeakSanitizer, scratch .build-asan
#   bash Tests/sanitize.sh thread     # ThreadSanitizer, scratch .build-tsan
#
# Run from the repository root (or anywhere: it goes there). Never touches .build: the scratch
# folder is .build-asan or .build-tsan, the root's, which examples/catalog builds into too, so that
# libmvvm and OpenCombine are compiled once for both packages (their commands are the same from
# either root, so the second build finds them done); logs go to
# build/sanitize-<kind>/. The last line is "sanitize-<kind>: N passed, N failed", summing the
# Swift tests and the C tests (a sanitizer report, or a suite that did not finish, counts as a
# failure of its own).
#
# Suppressions: Tests/lsan.supp (Swift tests only, each entry says what and why); the C tests run
# with none. The C tests run in-process (CHECK_NO_FORK=1) so that LeakSanitizer checks each
# program at its exit and ThreadSanitizer sees every thread of it; each program runs under a
# time limit (SANITIZE_TIMEOUT_S, default 900 s).
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.."

KIND="${1:-}"
case "$KIND" in
    address) SHORT=asan ;;
    thread) SHORT=tsan ;;
    *)
        echo "usage: bash Tests/sanitize.sh {address|thread}" >&2
        exit 2
        ;;
esac
SWIFT="${SWIFT:-swift}"
CLANG="${CLANG:-$(dirname "$(readlink -f "$(command -v "$SWIFT")")")/clang}"
SCRATCH="$PWD/.build-$SHORT"
LOGS="build/sanitize-$KIND"
mkdir -p "$LOGS"
LABEL="sanitize-$KIND"
passed=0
failed=0
notes=()

# Sanitizer reports in a log: the lines that start one.
REPORT_PATTERN='(ERROR: (AddressSanitizer|LeakSanitizer)|WARNING: ThreadSanitizer|SUMMARY: (AddressSanitizer|ThreadSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer)|runtime error:)'

# Shows the reports in LOG (how many of each kind) and notes them; false when it has none.
has_reports() {
    local log="$1" what="$2"
    grep -qE "$REPORT_PATTERN" "$log" || return 1
    grep -E "$REPORT_PATTERN" "$log" | sort | uniq -c | head -n 10
    notes+=("sanitizer reports in $what (log $log)")
}

finish() {
    echo
    for n in "${notes[@]+"${notes[@]}"}"; do echo "note: $n"; done
    echo "$LABEL: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}

if [ ! -x "$CLANG" ]; then
    echo "sanitize.sh: no clang at $CLANG (set CLANG to the Swift toolchain's clang)" >&2
    failed=$((failed + 1))
    finish
fi

case "$KIND" in
    address)
        export ASAN_OPTIONS="detect_leaks=1:malloc_context_size=100:abort_on_error=0:${ASAN_OPTIONS:-}"
        export LSAN_OPTIONS="print_suppressions=0:${LSAN_OPTIONS:-}"
        SWIFT_TEST_LSAN="suppressions=$PWD/Tests/lsan.supp"
        C_FLAGS="-fsanitize=address -fno-omit-frame-pointer -g -fuse-ld=lld"
        ;;
    thread)
        # Report every race (halt_on_error=0); a process with reports exits 66.
        export TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1:${TSAN_OPTIONS:-}"
        SWIFT_TEST_LSAN=""
        # The toolchain's TSan runtime carries libdispatch interceptors, so a C program linked
        # with it needs libdispatch and the blocks runtime (which libmvvm.so loads anyway).
        SWIFT_LIBS="$(dirname "$(dirname "$(readlink -f "$(command -v "$SWIFT")")")")/lib/swift/linux"
        C_FLAGS="-fsanitize=thread -g -fuse-ld=lld -L$SWIFT_LIBS -ldispatch -lBlocksRuntime -Wl,-rpath,$SWIFT_LIBS"
        # test_library_copies opens 16 copies, not 256: each dlopen of the instrumented library
        # takes about a second here (260 s for 256), and the limit of 255 copies, which one
        # thread reaches, is checked natively and under AddressSanitizer.
        export LIBRARY_COPIES="${LIBRARY_COPIES:-16}"
        ;;
esac
# The Swift runtime's crash backtracer would hide a sanitizer's own report.
export SWIFT_BACKTRACE=enable=no
# The race of mvvm_complete and a release (test_complete_race.c): a million rounds natively, fewer here.
export COMPLETE_RACE_ROUNDS="${COMPLETE_RACE_ROUNDS:-20000}" VIEW_MODEL_RACE_ROUNDS="${VIEW_MODEL_RACE_ROUNDS:-2000}"
# Two releases of one handle (test_release_race.c): 100,000 per kind natively.
export RELEASE_RACE_ROUNDS="${RELEASE_RACE_ROUNDS:-10000}"

# ---------------------------------------------------------------------------------------------
# Build
# ---------------------------------------------------------------------------------------------
echo "== building with --sanitize=$KIND into $SCRATCH"
# The Swift tests are built without the library's version script: applied to the test
# executable it would make the sanitizer's own interceptors local, and those of libdispatch
# (dispatch_async, dispatch_apply, ...) then never see the calls libdispatch's users make, so
# ThreadSanitizer misses every hand-off through a queue and reports the work on either side as
# racing. The C tests then use libcatalog.so linked with the version script, as every build of a
# library is (the Makefile's EXPORTS): without it the library's C helpers are global symbols, and
# the copies of it that test_library_copies.c loads would bind to the first copy's (one tag for
# all, and an ODR report).
EXPORTS=(-Xlinker "--version-script=$PWD/Sources/MVVMExport/exports.map")
"$SWIFT" build --scratch-path "$SCRATCH" --sanitize="$KIND" --build-tests > "$LOGS/build.log" 2>&1
build_status=$?
tail -n 5 "$LOGS/build.log"
if [ "$build_status" -ne 0 ]; then
    echo "sanitize.sh: the build failed (log: $LOGS/build.log)"
    failed=$((failed + 1))
    finish
fi
echo "== building the catalog with --sanitize=$KIND into $SCRATCH"
(cd examples/catalog && "$SWIFT" build --scratch-path "$SCRATCH" --sanitize="$KIND" --build-tests) \
    > "$LOGS/build-catalog.log" 2>&1
build_status=$?
tail -n 3 "$LOGS/build-catalog.log"
if [ "$build_status" -ne 0 ]; then
    echo "sanitize.sh: the catalog's build failed (log: $LOGS/build-catalog.log)"
    failed=$((failed + 1))
    finish
fi
LIBDIR="$(cd examples/catalog && "$SWIFT" build --scratch-path "$SCRATCH" --sanitize="$KIND" --show-bin-path)"

# ---------------------------------------------------------------------------------------------
# Swift tests
# ---------------------------------------------------------------------------------------------
# swift_tests NAME FOLDER: the Swift tests of the package in FOLDER, counted.
swift_tests() {
    local name=$1 folder=$2 log="$LOGS/swift-test-$1.log"
    echo "== Swift tests of $name ($KIND)"
    (cd "$folder" && LSAN_OPTIONS="${LSAN_OPTIONS:-}:$SWIFT_TEST_LSAN" \
        "$SWIFT" test --scratch-path "$SCRATCH" --sanitize="$KIND" --skip-build) > "$log" 2>&1
    local swift_status=$? total_line swift_failed total
    total_line=$(grep -oE 'Test run with [0-9]+ tests?' "$log" | tail -n 1)
    swift_failed=$(grep -cE '^✘ Test [^r].* failed' "$log" || true)
    if [ -n "$total_line" ]; then
        total=$(grep -oE '[0-9]+' <<<"$total_line")
        passed=$((passed + total - swift_failed))
        failed=$((failed + swift_failed))
        echo "Swift tests of $name: $((total - swift_failed)) passed, $swift_failed failed"
    else
        notes+=("the Swift tests of $name did not finish (exit $swift_status; log $log)")
        failed=$((failed + 1))
    fi
    if has_reports "$log" "the Swift tests of $name"; then
        failed=$((failed + 1))
    elif [ "$swift_status" -ne 0 ] && [ "$swift_failed" -eq 0 ] && [ -n "$total_line" ]; then
        notes+=("swift test of $name exited $swift_status with no failed test (log $log)")
        failed=$((failed + 1))
    fi
}
swift_tests libmvvm .
swift_tests catalog examples/catalog

# ---------------------------------------------------------------------------------------------
# C tests
# ---------------------------------------------------------------------------------------------
echo "== C tests ($KIND)"
(cd examples/catalog && "$SWIFT" build --scratch-path "$SCRATCH" --sanitize="$KIND" --product catalog "${EXPORTS[@]}") \
    > "$LOGS/build-library.log" 2>&1
library_status=$?
grep -v "Cannot export local symbol '__\(a\|t\)san" "$LOGS/build-library.log" | tail -n 3
if [ "$library_status" -ne 0 ]; then
    echo "sanitize.sh: the library's link with its version script failed (log: $LOGS/build-library.log)"
    failed=$((failed + 1))
    finish
fi
# Each test's limit (CHECK_TIMEOUT_S; a program's is 4 times that and 60 s, run_c_tests.sh) twice
# the native one: instrumented, test_library_copies's dlopens and the races' rounds are slow.
CC="$CLANG" EXTRA_CFLAGS="$C_FLAGS" C_TESTS_OUTDIR="build/c-tests-$SHORT" CHECK_NO_FORK=1 \
    CHECK_TIMEOUT_S="${CHECK_TIMEOUT_S:-120}" timeout --kill-after=30 "${SANITIZE_TIMEOUT_S:-900}" bash Tests/C/run_c_tests.sh "$LIBDIR" > "$LOGS/c-tests.log" 2>&1
c_status=$?
grep -E '^(== test_|test_[a-z_]+: |  FAIL|broken:)' "$LOGS/c-tests.log"
counts=$(grep -oE '^[0-9]+ passed, [0-9]+ failed$' "$LOGS/c-tests.log" | tail -n 1)
if [ -n "$counts" ]; then
    read -r p _ f _ <<<"${counts//,/}"
    passed=$((passed + p))
    failed=$((failed + f))
    echo "C tests: $p passed, $f failed"
else
    notes+=("the C tests did not finish (exit $c_status; log $LOGS/c-tests.log)")
    failed=$((failed + 1))
fi
if has_reports "$LOGS/c-tests.log" "the C tests"; then
    # A program with a report also exits non-zero, which the runner already counted; count the
    # reports once more only when it did not.
    [ -n "$counts" ] && [ "${f:-0}" -gt 0 ] || failed=$((failed + 1))
fi

finish
