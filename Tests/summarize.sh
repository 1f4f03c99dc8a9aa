#!/usr/bin/env bash
# Sums the closing lines of the suites' logs into one "N passed, N failed" line. make runs it
# only after every suite has passed; a failing suite stops make with its own closing line.
# Swift Testing closes with "Test run with N tests in M suites passed ..."; the other suites
# close with "<name>: N passed, N failed".
set -euo pipefail
passed=0 failed=0
for log in "$@"; do
    if swift=$(grep -oE 'Test run with [0-9]+ tests?' "$log" | tail -1) && [ -n "$swift" ]; then
        passed=$((passed + $(grep -oE '[0-9]+' <<<"$swift")))
        continue
    fi
    counts=$(grep -oE '[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
    [ -n "$counts" ] || { echo "no closing line in $log" >&2; exit 1; }
    read -r p _ f _ <<<"${counts//,/}"
    passed=$((passed + p)) failed=$((failed + f))
done
echo "total: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
