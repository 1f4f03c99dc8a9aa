#!/usr/bin/env bash
# Sums the closing lines of the suites' logs into one "total: N passed, N failed" line, after a
# "failed suites: …" line naming every suite that failed. Tests/run_suites.sh calls it with one
# NAME=EXIT_STATUS=LOG argument per suite.
# Swift Testing closes with "Test run with N tests in M suites passed ..."; minitest with
# "N runs, N assertions, …"; pytest with "N passed[, N failed] … in X s"; the other suites with
# "<name>: N passed, N failed". A suite that failed with no failed test in its closing line (it
# was killed, crashed, or failed to build) counts as one failure, and so does a suite with no
# closing line at all.
set -uo pipefail
passed=0 failed=0
failed_suites=()

# Prints "P F" from a log's closing line, or nothing.
counts_of() {
    local log=$1 line
    if line=$(grep -oE 'Test run with [0-9]+ tests?' "$log" | tail -1) && [ -n "$line" ]; then
        local total; total=$(grep -oE '[0-9]+' <<<"$line")
        local swift_failed; swift_failed=$(grep -cE '^✘ Test [^r].* failed' "$log" || true)
        echo "$((total - swift_failed)) $swift_failed"; return
    fi
    # minitest: "N runs, N assertions, N failures, N errors, N skips"; skips count as neither.
    if line=$(grep -oE '^[0-9]+ runs, [0-9]+ assertions, [0-9]+ failures, [0-9]+ errors, [0-9]+ skips' "$log" | tail -1) \
            && [ -n "$line" ]; then
        local runs fails errs skips
        read -r runs _ _ _ fails _ errs _ skips _ <<<"${line//,/}"
        echo "$((runs - fails - errs - skips)) $((fails + errs))"; return
    fi
    # pytest: "[N failed, ]N passed[, N skipped]… in X s", between = signs or alone.
    if line=$(grep -E '^=*[[:space:]]*([0-9]+ (failed|passed|skipped|errors?|warnings?|deselected)(, )?)+ in [0-9.]+s' "$log" | tail -1) \
            && [ -n "$line" ]; then
        local p f e
        p=$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+' || echo 0)
        f=$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+' || echo 0)
        e=$(grep -oE '[0-9]+ errors?' <<<"$line" | grep -oE '[0-9]+' || echo 0)
        echo "$p $((f + e))"; return
    fi
    if line=$(grep -oE '[0-9]+ passed, [0-9]+ failed' "$log" | tail -1) && [ -n "$line" ]; then
        local p f
        read -r p _ f _ <<<"${line//,/}"
        echo "$p $f"
    fi
}

for arg in "$@"; do
    name=${arg%%=*}
    rest=${arg#*=}
    status=${rest%%=*}
    log=${rest#*=}
    counts=""
    [ -f "$log" ] && counts=$(counts_of "$log")
    if [ -z "$counts" ]; then
        echo "suite $name: no closing line in $log" >&2
        failed=$((failed + 1))
        failed_suites+=("$name")
        continue
    fi
    read -r p f <<<"$counts"
    passed=$((passed + p)) failed=$((failed + f))
    if [ "$status" != 0 ]; then
        failed_suites+=("$name")
        # Killed, crashed or broken after its tests passed: still a failure.
        [ "$f" -gt 0 ] || failed=$((failed + 1))
    elif [ "$f" -gt 0 ]; then
        failed_suites+=("$name")
    fi
done
if [ ${#failed_suites[@]} -gt 0 ]; then
    (IFS=,; echo "failed suites: ${failed_suites[*]}" | sed 's/,/, /g')
fi
echo "total: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ ${#failed_suites[@]} -eq 0 ]
