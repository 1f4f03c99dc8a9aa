#!/usr/bin/env bash
# Runs test suites, each under a time limit that cannot be ignored, and closes with one line that
# sums them all. `make test` runs it; README.md lists the suites.
#
#   bash Tests/run_suites.sh [--beside "NAME:SECONDS ..."] NAME:SECONDS [NAME:SECONDS ...]
#
# Each suite is `make test-NAME` (SUITE_MAKE overrides the make command, for the runner's own
# test), kept in build/logs/NAME.log. A suite still running after SECONDS gets SIGTERM, and
# SIGKILL 30 s later (SUITE_KILL_AFTER) (`timeout --kill-after`, sent to its whole process group:
# a test that ignores or never sees SIGTERM, as under valgrind, still ends). A failing or killed
# suite does not stop the ones after it. The last lines are "failed suites: …" when any failed,
# then "total: N passed, N failed"; the exit status is non-zero when anything failed.
#
# The suites named after it run one after another with their output shown. The --beside suites
# run one after another too, at the same time as those: suites that build into scratch folders of
# their own (sanitizers, fuzzers, release builds), so that two processors are both used; each
# one's output is kept in its log and shown, its last lines, only when it failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
read -r -a make_command <<<"${SUITE_MAKE:-make --no-print-directory}"
logs=${SUITE_LOGS:-build/logs}
mkdir -p "$logs"

# run_one NAME SECONDS: runs the suite into its log, its output shown unless QUIET=1; prints its
# closing "=== suite" line and writes its exit status to the log's .status file.
run_one() {
    local name=$1 limit=$2 log="$logs/$1.log" start status took
    rm -f "$log.status"
    start=$(date +%s)
    if [ "${QUIET:-0}" = 1 ]; then
        timeout --kill-after="${SUITE_KILL_AFTER:-30}" "$limit" "${make_command[@]}" "test-$name" > "$log" 2>&1
        status=$?
    else
        timeout --kill-after="${SUITE_KILL_AFTER:-30}" "$limit" "${make_command[@]}" "test-$name" 2>&1 | tee "$log"
        status=${PIPESTATUS[0]}
    fi
    took=$(( $(date +%s) - start ))
    case $status in
        0) echo "=== suite $name passed in ${took} s" ;;
        124|137) echo "=== suite $name KILLED after ${took} s: over its limit of ${limit} s (hung?)" | tee -a "$log" ;;
        *) echo "=== suite $name FAILED (exit $status) in ${took} s" ;;
    esac
    if [ "${QUIET:-0}" = 1 ] && [ "$status" != 0 ]; then
        echo "=== the last lines of $log:"; tail -n 60 "$log"
    fi
    echo "$status" > "$log.status"
}

beside=()
if [ "${1:-}" = --beside ]; then
    read -r -a beside <<<"$2"
    shift 2
fi
beside_pid=
if [ "${#beside[@]}" -gt 0 ]; then
    echo "=== beside the others: ${beside[*]} (each one's output in $logs/NAME.log)"
    (for spec in "${beside[@]}"; do QUIET=1 run_one "${spec%%:*}" "${spec#*:}"; done) &
    beside_pid=$!
fi

for spec in "$@"; do
    echo "=== suite ${spec%%:*} (limit ${spec#*:} s)"
    run_one "${spec%%:*}" "${spec#*:}"
done
if [ -n "$beside_pid" ]; then
    echo "=== waiting for the suites beside: ${beside[*]}"
    wait "$beside_pid"
fi

log_args=()
for spec in "$@" "${beside[@]+"${beside[@]}"}"; do
    name=${spec%%:*}
    log="$logs/$name.log"
    log_args+=("$name=$(cat "$log.status" 2>/dev/null || echo 1)=$log")
done

echo
bash Tests/summarize.sh "${log_args[@]}"
