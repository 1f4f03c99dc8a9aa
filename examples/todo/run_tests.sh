#!/usr/bin/env bash
# make test-todo: the todo view models' Swift tests (swift test in examples/todo: what one change
# costs them, counted), then the todo app's C tests (examples/todo/test_todo.c) against
# build/todo/libtodo.so (made by `make todo`) through the generic ABI, natively and under valgrind
# (memory errors and definite leaks fail; a copy of the library without DWARF, which valgrind 3.19
# cannot read). The last line is "todo: N passed, N failed" (N counts Swift tests and the C test
# functions of both runs).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$PWD
library=build/todo/libtodo.so
if [ ! -f "$library" ]; then
    echo "todo: 0 passed, 1 failed ($library missing: run make todo)"
    exit 1
fi
out=build/todo
passed=0 failed=0
tally() { # the output of a check.h program: adds its "N passed, N failed"
    local line
    line=$(grep -E '^test_todo: [0-9]+ passed, [0-9]+ failed$' "$1" | tail -1)
    if [ -z "$line" ]; then failed=$((failed + 1)); return; fi
    set -- $line
    passed=$((passed + $2)) failed=$((failed + $4))
}
echo "== Swift tests of the todo view models"
. bindings/c/common.sh
(cd examples/todo && swift test "${MVVM_DEV_SCRATCH_FLAGS[@]}" 2>&1) | tee "$out/swift_test.log"
if [ "${PIPESTATUS[0]}" -eq 0 ] && line=$(grep -E 'Test run with [0-9]+ tests? .*passed' "$out/swift_test.log"); then
    set -- $line
    passed=$((passed + $5))
else
    failed=$((failed + 1))
fi
if ! cc -std=c11 -Wall -Wextra -Werror -pedantic -pthread -I include -I Tests/C examples/todo/test_todo.c \
        -o "$out/test_todo" -L "$out" -ltodo -lsqlite3 -Wl,-rpath,"$root/$out"; then
    echo "todo: 0 passed, 1 failed (test_todo.c did not compile)"
    exit 1
fi
echo "== C tests of the todo app"
"$out/test_todo" | tee "$out/test_todo.log"
tally "$out/test_todo.log"
echo "== C tests of the todo app under valgrind"
mkdir -p "$out/valgrind-lib"
objcopy --strip-debug "$library" "$out/valgrind-lib/libtodo.so"
# The kill test's children (exec'd, not traced) run natively; the parent loads each file.
CHECK_TIMEOUT_S=600 LD_LIBRARY_PATH="$root/$out/valgrind-lib" valgrind -q --fair-sched=yes --error-exitcode=99 \
    --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
    --suppressions=Tests/C/valgrind.supp "$out/test_todo" | tee "$out/test_todo.valgrind.log"
status=${PIPESTATUS[0]}
tally "$out/test_todo.valgrind.log"
if [ "$status" -ne 0 ] && ! grep -q ' [1-9][0-9]* failed$' "$out/test_todo.valgrind.log"; then
    echo "valgrind: exit status $status"; failed=$((failed + 1))
fi
echo "todo: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
