#!/usr/bin/env bash
# Tests the test harness's time limits: bash Tests/check_harness.sh LIBDIR
#  1. check.h kills a test that hangs (spinning on two threads, ignoring SIGALRM and SIGTERM)
#     within its limit and reports it, natively and under valgrind's default scheduler, and the
#     program's other tests still run;
#  2. Tests/run_suites.sh kills a suite that hangs (ignoring SIGTERM) and still runs the next
#     suite, and its closing lines name the failed suite and count it.
# The last line is "harness: N passed, N failed".
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
LIBDIR=$(cd "${1:?usage: check_harness.sh LIBDIR}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
pass() { passed=$((passed + 1)); echo "PASS $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }

cc -std=c11 -Wall -Wextra -Werror -pedantic -pthread -I include -I Tests/C Tests/C/harness/hang.c -o "$tmp/hang" \
    -L "$LIBDIR" -lcatalog -Wl,-rpath,"$LIBDIR" || { echo "harness: 0 passed, 1 failed (hang.c did not compile)"; exit 1; }

# Runs the hanging program with a 2 s limit per test; it must end within `within` seconds.
check_killed() {
    local what=$1 within=$2; shift 2
    local start took status
    start=$(date +%s)
    CHECK_TIMEOUT_S=2 timeout --kill-after=5 120 "$@" "$tmp/hang" >"$tmp/out" 2>&1
    status=$?
    took=$(( $(date +%s) - start ))
    sed 's/^/    /' "$tmp/out"
    if [ "$status" -ne 0 ] && grep -q "timed out after 2 s" "$tmp/out" && grep -q "FAIL hangs_spinning" "$tmp/out" \
            && grep -q "ok   passes" "$tmp/out" && grep -qx "hang: 1 passed, 1 failed" "$tmp/out" && [ "$took" -le "$within" ]; then
        pass "$what: the hung test was killed and reported in ${took} s, the next one ran"
    else
        fail "$what: exit $status after ${took} s (expected a reported kill within $within s)"
    fi
}
check_killed "natively" 15
if command -v valgrind >/dev/null 2>&1; then
    # No --fair-sched here: the limit must hold even when the spinning threads starve the rest.
    # The library without DWARF, which valgrind 3.19 cannot read (see Tests/C/run_c_tests.sh).
    mkdir -p "$tmp/valgrind-lib"
    objcopy --strip-debug "$LIBDIR/libcatalog.so" "$tmp/valgrind-lib/libcatalog.so"
    check_killed "under valgrind" 60 env LD_LIBRARY_PATH="$tmp/valgrind-lib" valgrind -q
else
    fail "under valgrind: valgrind is not installed (make deps)"
fi

# A suite that hangs ignoring SIGTERM, then one that passes.
cat >"$tmp/Makefile" <<'MAKE'
test-hangs:
	@echo "hangs: starting"; trap '' TERM; sleep 600
test-after:
	@echo "after: 1 passed, 0 failed"
MAKE
start=$(date +%s)
SUITE_MAKE="make -s -C $tmp" SUITE_LOGS="$tmp/logs" SUITE_KILL_AFTER=3 bash Tests/run_suites.sh hangs:2 after:60 \
    >"$tmp/suites" 2>&1
status=$?
took=$(( $(date +%s) - start ))
sed 's/^/    /' "$tmp/suites"
if [ "$status" -ne 0 ] && grep -q "suite hangs KILLED" "$tmp/suites" && grep -qx "failed suites: hangs" "$tmp/suites" \
        && grep -qx "total: 1 passed, 1 failed" "$tmp/suites" && [ "$took" -le 20 ]; then
    pass "run_suites.sh: the hung suite was killed in ${took} s, the next suite ran, both are counted"
else
    fail "run_suites.sh: exit $status after ${took} s (expected the hung suite killed, named and counted)"
fi
echo "harness: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
