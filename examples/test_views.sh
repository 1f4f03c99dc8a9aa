#!/usr/bin/env bash
# Builds the terminal view and checks its transcript of examples/c/demo.script, exactly; then
# the Python console view's transcript.
# Usage: examples/test_views.sh LIBDIR   (the folder holding libcatalog.so)
set -euo pipefail
cd "$(dirname "$0")/.."
libdir=$(cd "${1:?usage: test_views.sh LIBDIR}" && pwd)
mkdir -p build
cc -std=c11 -Wall -Wextra -Werror -pedantic examples/c/mvvm_view.c -Iinclude -L"$libdir" -lcatalog \
    -Wl,-rpath,"$libdir" -o build/mvvm_view
passed=0 failed=0
if ./build/mvvm_view --script examples/c/demo.script | diff -u examples/c/demo.expected - ; then
    passed=$((passed + 1))
else
    failed=$((failed + 1)); echo "FAILED: the transcript of demo.script differs (above)"
fi
# The same session given as arguments rather than a file gives the same transcript.
mapfile -t actions < <(sed 's/#.*//' examples/c/demo.script | xargs -n1)
if ./build/mvvm_view --script "${actions[@]}" | diff -q examples/c/demo.expected - >/dev/null; then
    passed=$((passed + 1))
else
    failed=$((failed + 1)); echo "FAILED: the script given as arguments gives another transcript"
fi
# An unknown action is refused with a message and a failure status.
if ! ./build/mvvm_view --script jump >/dev/null 2>build/mvvm_view.err && grep -q 'unknown action "jump"' build/mvvm_view.err; then
    passed=$((passed + 1))
else
    failed=$((failed + 1)); echo "FAILED: an unknown action was not refused"
fi
# Interactive, on the main loop in poll(): keys through a pipe start the stopwatch, stop it about
# 300 ms later, and quit. Its ticks reach the screen while the program only waits in poll(), so
# the last screen shows a time past zero and the stopwatch stopped ("m: Resume").
last_screen=$({ printf m; sleep 0.3; printf m; sleep 0.1; printf q; } | ./build/mvvm_view | tr '\r' '\n' | grep stopwatch | tail -n 1)
if grep -q 'stopwatch 00:00:00\.[0-9][0-9] \[m: Resume\]' <<<"$last_screen" && ! grep -q '00:00:00\.00' <<<"$last_screen"; then
    passed=$((passed + 1))
else
    failed=$((failed + 1)); echo "FAILED: the interactive view on the main loop ended on: $last_screen"
fi
# The todo screen: only a library with the todo app's classes has it (libcatalog.so refuses its
# actions); build/todo/libtodo.so (made here when missing) does not carry the catalog, so there
# the timer actions are refused, and examples/c/todo.script gives examples/c/todo.expected exactly.
if ! ./build/mvvm_view --script "todo-add milk" >/dev/null 2>build/mvvm_view.err && grep -q 'no todo app' build/mvvm_view.err; then
    passed=$((passed + 1))
else
    failed=$((failed + 1)); echo "FAILED: libcatalog.so's view took a todo action"
fi
. bindings/c/common.sh
if [ -f build/todo/libtodo.so ] || { (cd examples/todo && swift build "${MVVM_DEV_SCRATCH_FLAGS[@]}" "${MVVM_EXPORTS_FLAGS[@]}") \
        && mkdir -p build/todo \
        && cp "$(cd examples/todo && swift build "${MVVM_DEV_SCRATCH_FLAGS[@]}" --show-bin-path)/libtodo.so" build/todo/libtodo.so; }; then
    todo_lib=$PWD/build/todo
    cc -std=c11 -Wall -Wextra -Werror -pedantic examples/c/mvvm_view.c -Iinclude -L"$todo_lib" -ltodo \
        -Wl,-rpath,"$todo_lib" -o build/todo/mvvm_view
    if ! ./build/todo/mvvm_view --script start >/dev/null 2>build/todo/mvvm_view.err \
            && grep -q 'this library has no catalog' build/todo/mvvm_view.err; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1)); echo "FAILED: libtodo.so's view took a timer action (it has no catalog)"
    fi
    if ./build/todo/mvvm_view --script examples/c/todo.script | diff -u examples/c/todo.expected - ; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1)); echo "FAILED: the transcript of todo.script differs (above)"
    fi
else
    failed=$((failed + 1)); echo "FAILED: the todo app (examples/todo) did not build"
fi
# The search screen (examples/search, build/search by make search): its C view's transcript.
if ./build/search/search_view | diff -u examples/search/search.expected - ; then
    passed=$((passed + 1))
else
    failed=$((failed + 1)); echo "FAILED: the transcript of the search screen differs (above)"
fi
# The Python console view over the same catalog, through the mvvm package only.
if PYTHONPATH=bindings/python python3 examples/python/console_view.py "$libdir/libcatalog.so" \
        | diff -u examples/python/console_view.expected - ; then
    passed=$((passed + 1))
else
    failed=$((failed + 1)); echo "FAILED: the Python console view's transcript differs (above)"
fi
echo "views: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
