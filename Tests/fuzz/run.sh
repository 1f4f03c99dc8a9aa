#!/usr/bin/env bash
# Runs the C ABI fuzzer for a bounded time, or replays its corpus.
#
#   bash Tests/fuzz/run.sh SECONDS    # fuzz for SECONDS, starting from Tests/fuzz/corpus/
#   bash Tests/fuzz/run.sh 0          # replay: run every committed seed once, no fuzzing
#
# Run from the repository root. Builds first (Tests/fuzz/build.sh; FUZZ_NO_BUILD=1 skips that).
# New corpus entries go to build/fuzz-corpus/ (git-ignored; kept between runs, so runs add up);
# a crash, leak, timeout or broken invariant leaves its input in build/fuzz-artifacts/ and fails
# the run. The last line is "fuzz: ..." with the outcome. A finding is replayed with
#   FUZZ_TRACE=1 build/fuzz/fuzz_abi build/fuzz-artifacts/crash-...
# and then belongs in Tests/fuzz/corpus/ (so `run.sh 0` replays it) and in a C test.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

SECONDS_TO_RUN="${1:-}"
if ! [[ "$SECONDS_TO_RUN" =~ ^[0-9]+$ ]]; then
    echo "usage: bash Tests/fuzz/run.sh SECONDS (0: replay the corpus only)" >&2
    exit 2
fi
FUZZER=build/fuzz/fuzz_abi
SEEDS=Tests/fuzz/corpus
CORPUS=build/fuzz-corpus
ARTIFACTS=build/fuzz-artifacts

if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
    bash Tests/fuzz/build.sh || { echo "fuzz: the build failed"; exit 1; }
fi
[ -x "$FUZZER" ] || { echo "fuzz: no $FUZZER (build it: bash Tests/fuzz/build.sh)"; exit 2; }
mkdir -p "$CORPUS" "$ARTIFACTS"

# The Swift runtime's own crash backtracer would get in libFuzzer's way (and trips ASan).
export SWIFT_BACKTRACE=enable=no
# libFuzzer's default RSS limit (2 GiB) is the memory-growth check across inputs.
OPTIONS=(-max_len=1024 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -artifact_prefix="$ARTIFACTS/"
         -print_final_stats=1)

if [ "$SECONDS_TO_RUN" -eq 0 ]; then
    seeds=("$SEEDS"/*)
    failed=0
    for seed in "${seeds[@]}"; do
        if "$FUZZER" "${OPTIONS[@]}" "$seed" > "$ARTIFACTS/replay.log" 2>&1; then
            echo "  ok   $(basename "$seed")"
        else
            echo "  FAIL $(basename "$seed")"
            grep -E "invariant broken|ERROR:|SUMMARY:" "$ARTIFACTS/replay.log" | head -5 | sed 's/^/       /'
            failed=$((failed + 1))
        fi
    done
    echo "fuzz: replayed ${#seeds[@]} seeds, $((${#seeds[@]} - failed)) passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
fi

before=$(ls "$ARTIFACTS" | grep -cE '^(crash|leak|timeout|oom|slow-unit)-' || true)
entries_before=$(ls "$CORPUS" | wc -l)
log="$ARTIFACTS/fuzz-$(date +%Y%m%d-%H%M%S).log"
"$FUZZER" "${OPTIONS[@]}" -max_total_time="$SECONDS_TO_RUN" "$CORPUS" "$SEEDS" > "$log" 2>&1
status=$?
after=$(ls "$ARTIFACTS" | grep -cE '^(crash|leak|timeout|oom|slow-unit)-' || true)
entries_after=$(ls "$CORPUS" | wc -l)
runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
rss=$(grep -E '^stat::peak_rss_mb' "$log" | awk '{print $2}')
if [ "$status" -ne 0 ] || [ "$after" -gt "$before" ]; then
    grep -E "invariant broken|ERROR:|SUMMARY:|Test unit written" "$log" | head -10
    echo "fuzz: FAILED after ${runs:-?} runs (exit $status; log $log; inputs in $ARTIFACTS/)"
    exit 1
fi
echo "fuzz: ${SECONDS_TO_RUN} s, ${runs:-?} runs, $((entries_after - entries_before)) new corpus entries ($entries_after in $CORPUS), peak RSS ${rss:-?} MiB, no crash"
