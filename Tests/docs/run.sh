#!/usr/bin/env bash
# The docs-citations suite (`make test-docs`): every file, folder, Swift target and `make` target
# the docs cite exists (check_citations.py); and the check can fail — in a copy of the repository
# where a cited source file, a cited `make` target and a cited doc are renamed, it names each.
set -euo pipefail
cd "$(dirname "$0")/../.."
passed=0
python3 Tests/docs/check_citations.py
passed=$((passed + 1))

copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
git ls-files -co --exclude-standard -z | tar --null -cf - -T - 2>/dev/null | tar -xf - -C "$copy"
# The renames a contributor might make without reading the docs.
mv "$copy/Tests/bench/main_loop_latency.c" "$copy/Tests/bench/latency.c"
sed -i 's/^bench-main-loop:/bench-latency:/' "$copy/Makefile"
mv "$copy/docs/loops-and-threads.md" "$copy/docs/threads.md"
if python3 Tests/docs/check_citations.py "$copy" > "$copy/report.txt"; then
    echo "FAIL: the renamed files and target went unnoticed"; cat "$copy/report.txt"; exit 1
fi
for expected in '`Tests/bench/main_loop_latency.c` is no file' '`make bench-main-loop` names no target' \
                'loops-and-threads.md'; do
    if ! grep -qF -- "$expected" "$copy/report.txt"; then
        echo "FAIL: the report does not say: $expected"; cat "$copy/report.txt"; exit 1
    fi
done
passed=$((passed + 1))
echo "docs: $passed passed, 0 failed"
