#!/usr/bin/env bash
# Builds and runs the C tests of libmvvm, over the catalog's library. Run from the repository root:
#
#   bash Tests/C/run_c_tests.sh [LIBDIR] [--valgrind]
#
# LIBDIR holds libcatalog.so (default build/catalog, `make catalog`). Each Tests/C/test_*.c becomes one program in
# build/c-tests/; each prints "<program>: N passed, N failed" and the last line of this script is
# the sum, "N passed, N failed". A program that does not compile, crashes outside its tests or
# prints no summary counts as one failed test. With --valgrind each program runs under valgrind
# (memory errors and definite leaks fail). Exits non-zero when anything failed.
# Optional environment: CC (the compiler, default cc), EXTRA_CFLAGS (added to every compile, e.g.
# -fsanitize=address, as Tests/sanitize.sh does) and C_TESTS_OUTDIR (default build/c-tests).
set -u

LIBDIR="${1:-build/catalog}"
MODE="${2:-}"
SRCDIR="Tests/C"
OUTDIR="${C_TESTS_OUTDIR:-build/c-tests}"
CC="${CC:-cc}"
# Word-split on purpose: several flags may be given.
read -r -a EXTRA_FLAGS <<< "${EXTRA_CFLAGS:-}"

if [ ! -d "$SRCDIR" ] || [ ! -f include/mvvm.h ]; then
    echo "run_c_tests.sh: run it from the repository root (no $SRCDIR or include/mvvm.h here)" >&2
    exit 2
fi
if [ ! -f "$LIBDIR/libcatalog.so" ]; then
    echo "run_c_tests.sh: no libcatalog.so in $LIBDIR (build it first: make catalog)" >&2
    exit 2
fi
LIBDIR="$(cd "$LIBDIR" && pwd)"

RUNNER=()
case "$MODE" in
    "") ;;
    --valgrind)
        if ! command -v valgrind >/dev/null 2>&1; then
            echo "run_c_tests.sh: --valgrind asked, but valgrind is not installed" >&2
            exit 2
        fi
        # valgrind.supp silences two Swift runtime functions only; it says why.
        SUPPRESSIONS="$SRCDIR/valgrind.supp"
        # --fair-sched=yes: valgrind runs one thread at a time, and by default a thread that
        # never blocks (a stress test's racer calling the library in a loop) can keep the
        # processor for minutes while the test's main thread waits to wake from a sleep.
        RUNNER=(valgrind -q --fair-sched=yes --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
                --show-leak-kinds=definite --suppressions="$SUPPRESSIONS")
        # valgrind runs a copy of the library without its DWARF: valgrind 3.19's reader gives up
        # ("possibly corrupted debuginfo") on the debug build's mix of Swift's DWARF 4 and
        # clang's DWARF 5. Symbols stay, so reports and suppressions still name functions.
        VALGRIND_LIBDIR="$OUTDIR/valgrind-lib"
        mkdir -p "$VALGRIND_LIBDIR"
        objcopy --strip-debug "$LIBDIR/libcatalog.so" "$VALGRIND_LIBDIR/libcatalog.so" || exit 2
        export LD_LIBRARY_PATH="$(cd "$VALGRIND_LIBDIR" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
        # Under valgrind everything is slower: give each test longer before it counts as hung.
        export CHECK_TIMEOUT_S="${CHECK_TIMEOUT_S:-300}"
        # Each program runs its tests in-process, as under the sanitizers: valgrind translates
        # code at its first run in a process, so a child forked per test translated the library
        # again for each (test_catalog: 40 s of processor forked, 6 s in-process). A hung
        # program is still killed, by the limit below.
        export CHECK_NO_FORK="${CHECK_NO_FORK:-1}"
        # test_library_copies opens 16 copies, not 256 (47 s of processor here): the limit of 255
        # copies is reached natively and under AddressSanitizer, whose reports cover its paths.
        export LIBRARY_COPIES="${LIBRARY_COPIES:-16}"
        # The race of mvvm_complete and a release: a million rounds natively, fewer here.
        export COMPLETE_RACE_ROUNDS="${COMPLETE_RACE_ROUNDS:-2000}" VIEW_MODEL_RACE_ROUNDS="${VIEW_MODEL_RACE_ROUNDS:-500}"
        # Two releases of one handle: 100,000 per kind natively, fewer here.
        export RELEASE_RACE_ROUNDS="${RELEASE_RACE_ROUNDS:-2000}"
        ;;
    *)
        echo "run_c_tests.sh: unknown option '$MODE' (only --valgrind)" >&2
        exit 2
        ;;
esac

mkdir -p "$OUTDIR"
total_passed=0
total_failed=0
broken=()

for source in "$SRCDIR"/test_*.c; do
    name="$(basename "$source" .c)"
    program="$OUTDIR/$name"
    echo "== $name"
    if ! "$CC" -std=c11 -Wall -Wextra -Werror -pedantic -pthread -I include -I examples/catalog/include \
            "${EXTRA_FLAGS[@]+"${EXTRA_FLAGS[@]}"}" "$source" -o "$program" -L "$LIBDIR" -lcatalog -Wl,-rpath,"$LIBDIR"; then
        echo "$name: did not compile"
        broken+=("$name (did not compile)")
        total_failed=$((total_failed + 1))
        continue
    fi

    log="$OUTDIR/$name.log"
    # Each test has its own limit inside the program (check.h); this one bounds the whole program
    # from outside, with SIGKILL after a grace period, in case the harness itself hangs.
    program_limit=$(( ${CHECK_TIMEOUT_S:-60} * 4 + 60 ))
    timeout --kill-after=20 "$program_limit" "${RUNNER[@]+"${RUNNER[@]}"}" "$program" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        echo "$name: killed after its limit of $program_limit s (hung?)" | tee -a "$log"
    fi

    summary="$(grep -E "^$name: [0-9]+ passed, [0-9]+ failed$" "$log" | tail -n 1)"
    if [ -z "$summary" ]; then
        echo "$name: no summary line (exit status $status): counted as one failure"
        broken+=("$name (no summary, exit $status)")
        total_failed=$((total_failed + 1))
        continue
    fi
    passed="$(echo "$summary" | sed -E 's/^.*: ([0-9]+) passed, ([0-9]+) failed$/\1/')"
    failed="$(echo "$summary" | sed -E 's/^.*: ([0-9]+) passed, ([0-9]+) failed$/\2/')"
    total_passed=$((total_passed + passed))
    total_failed=$((total_failed + failed))
    if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
        # All tests passed but the program failed (valgrind errors at exit...).
        echo "$name: exit status $status with no failed test: counted as one failure"
        broken+=("$name (exit $status)")
        total_failed=$((total_failed + 1))
    fi
done

echo
for b in "${broken[@]+"${broken[@]}"}"; do echo "broken: $b"; done
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
