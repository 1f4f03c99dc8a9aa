#!/usr/bin/env bash
# The Node.js binding's tests (make test-node): node --test over bindings/node/tests, with the
# addon built by `make node`. MVVM_CATALOG_LIBRARY (the catalog's libcatalog.so), MVVM_SAMPLE_LIBRARY (Tests/outside's
# libsample.so) and MVVM_TODO_LIBRARY (the todo app, its tests skipped when it is not built) name
# the libraries. The last line is "node: N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cd "$here"
# TAP, so that the counts can be read; each file runs in a process of its own.
node --test --test-reporter=tap tests/ 2>&1 | tee "$log" | grep -E '^(not ok|ok|#)|^ +(error|message|expected|actual|stack|location):|^ {4,}at ' || true
pass=$(grep -E '^# pass [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo 0)
fail=$(grep -E '^# fail [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo 0)
cancelled=$(grep -E '^# cancelled [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo 0)
fail=$((fail + cancelled))
[ "$pass" = 0 ] && [ "$fail" = 0 ] && fail=1
echo "node: $pass passed, $fail failed"
[ "$fail" = 0 ]
