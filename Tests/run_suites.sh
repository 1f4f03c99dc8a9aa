#!/usr/bin/env bash
# Runs test suites one after another, each under a time limit that cannot be ignored, and closes
# with one line that sums them all. `make test` runs it; README.md lists the suites.
#
#   bash Tests/run_suites.sh NAME:SECONDS [NAME:SECONDS ...]
#
# Each suite is `make test-NAME` (SUITE_MAKE overrides the make command, for the runner's own
# test), its output shown and kept in build/logs/NAME.log. A suite still running after SECONDS
# gets SIGTERM, and SIGKILL 30 s later (SUITE_KILL_AFTER) (`timeout --kill-after`, sent to its whole process group:
# a test that ignores or never sees SIGTERM, as under valgrind, still ends). A failing or killed
# suite does not stop the ones after it. The last lines are "failed suites: …" when any failed,
# then "total: N passed, N failed"; the exit status is non-zero when anything failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
read -r -a make_command <<<"${SUITE_MAKE:-make --no-print-directory}"
logs=${SUITE_LOGS:-build/logs}
mkdir -p "$logs"

log_args=()
for spec in "$@"; do
    name=${spec%%:*}
    limit=${spec#*:}
    log="$logs/$name.log"
    echo "=== suite $name (limit ${limit} s)"
    start=$(date +%s)
    timeout --kill-after="${SUITE_KILL_AFTER:-30}" "$limit" "${make_command[@]}" "test-$name" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    took=$(( $(date +%s) - start ))
    case $status in
        0) echo "=== suite $name passed in ${took} s" ;;
        124|137) echo "=== suite $name KILLED after ${took} s: over its limit of ${limit} s (hung?)" | tee -a "$log" ;;
        *) echo "=== suite $name FAILED (exit $status) in ${took} s" ;;
    esac
    log_args+=("$name=$status=$log")
done

echo
bash Tests/summarize.sh "${log_args[@]}"
