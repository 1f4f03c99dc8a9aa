#!/usr/bin/env bash
# make check: the inner loop, a fast subset of `make test` for the edit-build-test cycle (under
# 3 minutes on a warm tree, docs/testing.md). It builds what changed and runs, stopping at the
# first failure: the generated files' check, the docs' citations, the engine's Swift tests, the
# C tests, and the Python suite's fast-path pass without its slow modules (type checkers, the
# generator's text under each language's tools, fork and signal edges). `make test` runs all.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
make=(make --no-print-directory)
start=$SECONDS
step() {  # step NAME COMMAND...: runs it, timed; a failure stops the loop, naming the step
    local began=$SECONDS
    echo "== check: $1"
    if ! "${@:2}"; then
        echo "check: $1 FAILED (make test-$1 runs it alone)" >&2
        exit 1
    fi
    echo "== check: $1 passed in $(( SECONDS - began )) s"
}
step generated "${make[@]}" test-generated
step docs "${make[@]}" test-docs
step swift "${make[@]}" test-swift
step c "${make[@]}" test-c
step python env PASSES=fast PYTEST_ARGS="-x --ignore=bindings/python/tests/test_typing.py \
--ignore=bindings/python/tests/test_generator_text.py --ignore=bindings/python/tests/test_process_edges.py" \
    "${make[@]}" test-python
echo "check: 5 steps passed in $(( SECONDS - start )) s (make test runs every suite)"
