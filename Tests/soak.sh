#!/usr/bin/env bash
# Builds Tests/C/soak.c against the catalog's libcatalog.so and runs it: a million (or CYCLES)
# create / subscribe / notify / release cycles with flat memory, then an hour of stopwatch ticks
# compressed on a virtual loop. See the top of Tests/C/soak.c for what it checks.
#
#   bash Tests/soak.sh LIBDIR [CYCLES]    # LIBDIR holds libcatalog.so, e.g. build/catalog
#
# Run from anywhere. The closing lines are the program's "soak: N passed, N failed" (its two
# parts) and "soak: took N s".
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.."

LIBDIR="${1:-}"
CYCLES="${2:-1000000}"
if [ -z "$LIBDIR" ] || [ ! -f "$LIBDIR/libcatalog.so" ]; then
    echo "usage: bash Tests/soak.sh LIBDIR [CYCLES]  (LIBDIR holds libcatalog.so: make catalog, then build/catalog)" >&2
    exit 2
fi
LIBDIR="$(cd "$LIBDIR" && pwd)"
OUT=build/soak
mkdir -p "$OUT"
if ! "${CC:-cc}" -std=c11 -O1 -Wall -Wextra -Werror -pedantic -pthread -I include -I examples/catalog/include Tests/C/soak.c -o "$OUT/soak" \
        -L "$LIBDIR" -lcatalog -Wl,-rpath,"$LIBDIR"; then
    echo "soak: 0 passed, 1 failed (did not compile)"
    exit 1
fi
start=$(date +%s)
"$OUT/soak" "$CYCLES"
status=$?
took=$(( $(date +%s) - start ))
echo "soak: took $took s (exit $status)"
exit "$status"
