#!/usr/bin/env bash
# Runs the LuaJIT demo: bash examples/lua/run.sh [FOLDER_OF_libmvvm.so | PATH_TO_A_LIBRARY] [OTHER_LIBRARY]
# (default: .build/debug). Any library with the mvvm_* ABI will do: given Tests/outside's
# .build/debug/libsample.so, the demo also drives its greeter, tally, profile, wishlist and
# dialog, whose classes it reads from mvvm_classes like every other; given a second library, it
# loads both side by side. Declares the API from include/mvvm.h passed through the C preprocessor
# (cpp -P -E; CPP=... to choose another, clang -E -P when cpp is missing), then runs
# mvvm_demo.lua (over the mvvm module beside it) with luajit (Debian: apt-get install luajit).
# Its last line is "lua: N passed, N failed"; the exit status is non-zero when a check failed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

. "$root/Tests/locate_library.sh"
library=$(mvvm_locate_library run.sh "${1:-$root/.build/debug}") || exit 2
other=()
if [ $# -ge 2 ]; then
    other=("$(mvvm_locate_library run.sh "$2")") || exit 2
fi
command -v luajit >/dev/null 2>&1 || { echo "run.sh: luajit not found (Debian: apt-get install luajit)" >&2; exit 2; }

if [ -n "${CPP:-}" ]; then
    read -r -a preprocess <<<"$CPP"
elif command -v cpp >/dev/null 2>&1; then
    preprocess=(cpp)
elif command -v clang >/dev/null 2>&1; then
    preprocess=(clang -E -x c)
else
    echo "run.sh: no C preprocessor (Debian: apt-get install cpp)" >&2
    exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# -P: no line markers, which ffi.cdef does not read. Nothing else is changed.
"${preprocess[@]}" -P -E "$root/include/mvvm.h" >"$work/mvvm.i"
luajit "$here/mvvm_demo.lua" "$library" "$work/mvvm.i" "${other[@]}"
