#!/usr/bin/env bash
# Sums the closing lines of the suites' logs into one "N passed, N failed" line. make runs it
# only after every suite has passed; a failing suite stops make with its own closing line.
# Swift Testing closes with "Test run with N tests in M suites passed ..."; minitest with
# "N runs, N assertions, …"; the other suites with "<name>: N passed, N failed".
set -euo pipefail
passed=0 failed=0
for log in "$@"; do
    if swift=$(grep -oE 'Test run with [0-9]+ tests?' "$log" | tail -1) && [ -n "$swift" ]; then
        passed=$((passed + $(grep -oE '[0-9]+' <<<"$swift")))
        continue
    fi
    # minitest: "N runs, N assertions, N failures, N errors, N skips"; skips count as neither.
    if mt=$(grep -oE '^[0-9]+ runs, [0-9]+ assertions, [0-9]+ failures, [0-9]+ errors, [0-9]+ skips' "$log" | tail -1) \
            && [ -n "$mt" ]; then
        read -r runs _ _ _ fails _ errs _ skips _ <<<"${mt//,/}"
        passed=$((passed + runs - fails - errs - skips)) failed=$((failed + fails + errs))
        continue
    fi
    # pytest: "N passed[, N skipped] in X s" (make stops before this on a failure).
    if py=$(grep -oE '^=*? ?[0-9]+ passed(, [0-9]+ skipped)?(, [0-9]+ warnings?)? in [0-9.]+s' "$log" | tail -1) && [ -n "$py" ]; then
        passed=$((passed + $(grep -oE '^[=[:space:]]*[0-9]+' <<<"$py" | tr -dc '0-9')))
        continue
    fi
    counts=$(grep -oE '[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
    [ -n "$counts" ] || { echo "no closing line in $log" >&2; exit 1; }
    read -r p _ f _ <<<"${counts//,/}"
    passed=$((passed + p)) failed=$((failed + f))
done
echo "total: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
