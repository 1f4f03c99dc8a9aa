#!/usr/bin/env bash
# Runs the C ABI fuzzers for a bounded time, or replays their committed inputs.
#
#   bash Tests/fuzz/run.sh SECONDS [TARGET...]   # fuzz for SECONDS in all, split evenly over the
#                                                # targets (default: abi sample todo, or $FUZZ_TARGETS)
#   bash Tests/fuzz/run.sh 0 [TARGET...]         # replay: run every committed input once
#
# Targets (Tests/fuzz/build.sh): abi (libcatalog.so, inputs in Tests/fuzz/corpus/), sample
# (Tests/outside's libsample.so, Tests/fuzz/corpus-sample/), todo (examples/todo's libtodo.so,
# Tests/fuzz/corpus-todo/). Run from the repository root. Builds first (FUZZ_NO_BUILD=1 skips
# that). New corpus entries go to build/fuzz-corpus[-TARGET]/ (git-ignored; kept between runs, so
# runs add up); a crash, leak, timeout or broken invariant leaves its input in
# build/fuzz-artifacts/ (named TARGET-crash-...) and fails the run. The last line is "fuzz: ..."
# with the outcome. A finding is replayed with
#   FUZZ_TRACE=1 build/fuzz/fuzz_TARGET build/fuzz-artifacts/TARGET-crash-...
# and then belongs in the target's corpus folder (so `run.sh 0` replays it) and in a C test.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

SECONDS_TO_RUN="${1:-}"
if ! [[ "$SECONDS_TO_RUN" =~ ^[0-9]+$ ]]; then
    echo "usage: bash Tests/fuzz/run.sh SECONDS [abi|sample|todo...] (0: replay the corpora only)" >&2
    exit 2
fi
shift
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || read -r -a TARGETS <<< "${FUZZ_TARGETS:-abi sample todo}"
ARTIFACTS=build/fuzz-artifacts

if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
    bash Tests/fuzz/build.sh "${TARGETS[@]}" || { echo "fuzz: the build failed"; exit 1; }
fi
mkdir -p "$ARTIFACTS"

# The Swift runtime's own crash backtracer would get in libFuzzer's way (and trips ASan).
export SWIFT_BACKTRACE=enable=no
# libFuzzer's default RSS limit (2 GiB) is the memory-growth check across inputs.
options() {
    echo -max_len=1024 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -artifact_prefix="$ARTIFACTS/$1-" \
        -print_final_stats=1
}
seeds_of() { [ "$1" = abi ] && echo Tests/fuzz/corpus || echo "Tests/fuzz/corpus-$1"; }
corpus_of() { [ "$1" = abi ] && echo build/fuzz-corpus || echo "build/fuzz-corpus-$1"; }

for target in "${TARGETS[@]}"; do
    [ -x "build/fuzz/fuzz_$target" ] || { echo "fuzz: no build/fuzz/fuzz_$target (build it: bash Tests/fuzz/build.sh $target)"; exit 2; }
done

if [ "$SECONDS_TO_RUN" -eq 0 ]; then
    total=0 failed=0
    for target in "${TARGETS[@]}"; do
        for seed in "$(seeds_of "$target")"/*; do
            total=$((total + 1))
            # shellcheck disable=SC2046
            if "build/fuzz/fuzz_$target" $(options "$target") "$seed" > "$ARTIFACTS/replay.log" 2>&1; then
                echo "  ok   $target $(basename "$seed")"
            else
                echo "  FAIL $target $(basename "$seed")"
                grep -E "invariant broken|ERROR:|SUMMARY:" "$ARTIFACTS/replay.log" | head -5 | sed 's/^/       /'
                failed=$((failed + 1))
            fi
        done
    done
    echo "fuzz: replayed $total inputs, $((total - failed)) passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
fi

share=$((SECONDS_TO_RUN / ${#TARGETS[@]}))
[ "$share" -gt 0 ] || share=1
outcome=0
for target in "${TARGETS[@]}"; do
    corpus=$(corpus_of "$target")
    mkdir -p "$corpus"
    before=$(ls "$ARTIFACTS" | grep -cE "^$target-(crash|leak|timeout|oom|slow-unit)-" || true)
    entries_before=$(ls "$corpus" | wc -l)
    log="$ARTIFACTS/fuzz-$target-$(date +%Y%m%d-%H%M%S).log"
    # shellcheck disable=SC2046
    "build/fuzz/fuzz_$target" $(options "$target") -max_total_time="$share" "$corpus" "$(seeds_of "$target")" > "$log" 2>&1
    status=$?
    after=$(ls "$ARTIFACTS" | grep -cE "^$target-(crash|leak|timeout|oom|slow-unit)-" || true)
    entries_after=$(ls "$corpus" | wc -l)
    runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
    rss=$(grep -E '^stat::peak_rss_mb' "$log" | awk '{print $2}')
    if [ "$status" -ne 0 ] || [ "$after" -gt "$before" ]; then
        grep -E "invariant broken|ERROR:|SUMMARY:|Test unit written" "$log" | head -10
        echo "fuzz: $target FAILED after ${runs:-?} runs (exit $status; log $log; inputs in $ARTIFACTS/)"
        outcome=1
        continue
    fi
    echo "fuzz: $target ${share} s, ${runs:-?} runs, $((entries_after - entries_before)) new corpus entries ($entries_after in $corpus), peak RSS ${rss:-?} MiB, no crash"
done
exit $outcome
