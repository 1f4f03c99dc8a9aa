#!/usr/bin/env bash
# The LuaJIT binding's tests (make test-lua): bash bindings/lua/run_tests.sh [FOLDER_OF_libcatalog.so]
# (default: build/catalog): the demo, examples/lua/mvvm_demo.lua, which checks every result
# exactly (examples/lua/run.sh). Its last line is "lua: N passed, N failed".
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
exec bash "$root/examples/lua/run.sh" "$@"
