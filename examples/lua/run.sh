#!/usr/bin/env bash
# Runs the LuaJIT demo: bash examples/lua/run.sh [FOLDER_OF_libcatalog.so | PATH_TO_A_LIBRARY] [OTHER_LIBRARY]
# (default: build/catalog). Any library with the mvvm_* ABI will do: given Tests/outside's
# .build/debug/libsample.so, the demo also drives its greeter, tally, profile, wishlist and
# dialog, whose classes it reads from mvvm_classes like every other; given a second library, it
# loads both side by side. Declares the API from include/mvvm.h passed through the C preprocessor
# (bindings/lua/declare.sh), then runs mvvm_demo.lua (over the binding, bindings/lua/mvvm.lua)
# with luajit (Debian: apt-get install luajit).
# Its last line is "lua: N passed, N failed"; the exit status is non-zero when a check failed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

. "$root/Tests/locate_library.sh"
. "$root/bindings/lua/declare.sh"
library=$(mvvm_locate_library run.sh "${1:-$root/build/catalog}") || exit 2
other=()
if [ $# -ge 2 ]; then
    other=("$(mvvm_locate_library run.sh "$2")") || exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mvvm_lua_declare "$work/mvvm.i" || exit 2
luajit "$here/mvvm_demo.lua" "$library" "$work/mvvm.i" "${other[@]}"
