#!/usr/bin/env bash
# make test-derive: registrations derived from the code (`python3 -m mvvm_gen derive`).
#  - the derived files of Tests/derive, the todo app, the search screen and the catalog are what
#    their code derives now (--check, on the builds `make todo search catalog` made: the same flags,
#    nothing relinked);
#  - --check fails on a stale file, and a stale file that breaks the build is derived around;
#  - Tests/derive's view models, registered by derivation (libderived.so) and by hand
#    (libhand.so), are described alike and behave alike under one script, from C and from Python;
#  - the generator's own parts (types, names, the control file) without Swift.
# The last line is "derive: N passed, N failed" (each part counts as one).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$PWD
passed=0 failed=0
part() { # name, command...
    local name=$1; shift
    echo "== $name"
    if "$@"; then passed=$((passed + 1)); echo "ok: $name"; else failed=$((failed + 1)); echo "FAILED: $name"; fi
}
. bindings/c/common.sh
export PYTHONPATH=$root/tools
derive() { python3 -m mvvm_gen derive "$@" "${MVVM_DEV_SCRATCH_FLAGS[@]}" "${MVVM_EXPORTS_FLAGS[@]}"; }
out=build/derive
mkdir -p "$out"

if ! (cd Tests/derive && swift build "${MVVM_DEV_SCRATCH_FLAGS[@]}" "${MVVM_EXPORTS_FLAGS[@]}"); then
    echo "derive: 0 passed, 1 failed (the package did not build)"
    exit 1
fi
libdir=$(cd Tests/derive && swift build "${MVVM_DEV_SCRATCH_FLAGS[@]}" "${MVVM_EXPORTS_FLAGS[@]}" --show-bin-path)

part "Tests/derive's derived file is current" derive --package Tests/derive --target Expenses --check
part "the todo app's derived file is current" derive --package examples/todo --target TodoViewModels \
    --output examples/todo/Sources/TodoExport/Exports.derived.swift --check
part "the search screen's derived file is current" derive --package examples/search --target Search --check
# The catalog's two modules (models, view models) into one file of its registration target.
part "the catalog's derived file is current" derive --package examples/catalog --target MVVMModels --target MVVMViewModels \
    --output examples/catalog/Sources/MVVMCatalog/Catalog.derived.swift --check

# A control file that names a member otherwise: the committed file is stale, and the check says how.
stale_is_told() {
    mkdir -p "$out/stale" &&
    python3 - examples/search/mvvm-derive.json "$out/stale/mvvm-derive.json" <<'PY' &&
import json, sys
control = json.load(open(sys.argv[1]))
control["types"]["SearchViewModel"]["members"]["query"] = {"name": "search_query"}
json.dump(control, open(sys.argv[2], "w"))
PY
    ! derive --package examples/search --target Search --control "$out/stale/mvvm-derive.json" --check \
        >"$out/stale/check.log" 2>&1 &&
    grep -q 'is stale' "$out/stale/check.log" && grep -q '^+.*c.binding("search_query"' "$out/stale/check.log"
}
part "--check fails on a stale derived file, showing the difference" stale_is_told

# A derived file that no longer compiles (a property renamed under it): derived around with a stub
# for the build, told as stale, and left as it was.
derived=Tests/derive/Sources/Expenses/Exports.derived.swift
cp "$derived" "$out/Exports.derived.swift.kept"
trap 'cp "$out/Exports.derived.swift.kept" "$root/$derived"' EXIT
broken_is_derived_around() {
    sed 's/\$0\.searchText/$0.searchTerm/g' "$out/Exports.derived.swift.kept" >"$derived" &&
    ! derive --package Tests/derive --target Expenses --check >"$out/broken.log" 2>&1 &&
    grep -q "does not build with .*Exports.derived.swift (stale?): derived with a stub" "$out/broken.log" &&
    grep -q '^-.*searchTerm' "$out/broken.log" && grep -q searchTerm "$derived"
}
part "a derived file that breaks the build is derived around, told stale and left as it was" broken_is_derived_around
cp "$out/Exports.derived.swift.kept" "$derived"
trap - EXIT
(cd Tests/derive && swift build "${MVVM_DEV_SCRATCH_FLAGS[@]}" "${MVVM_EXPORTS_FLAGS[@]}" >/dev/null) || part "Tests/derive builds again" false

# One C script on both libraries: each passes its checks, and their transcripts are the same.
for lib in derived hand; do
    part "C: compile the script for lib$lib.so" cc -std=c11 -Wall -Wextra -Werror -pedantic -pthread -Iinclude -ITests/C \
        -include stdarg.h Tests/derive/test_derive.c -o "$out/test_derive_$lib" -L"$libdir" -l"$lib" -Wl,-rpath,"$libdir" &&
    part "C: the script on lib$lib.so" env CHECK_NO_FORK=1 DERIVE_TRANSCRIPT="$out/c_$lib.txt" "$out/test_derive_$lib"
done
same_transcripts() { [ -s "$out/c_derived.txt" ] && diff -u "$out/c_derived.txt" "$out/c_hand.txt"; }
part "C: both libraries describe the same classes and behave the same (transcripts equal)" same_transcripts

part "Python: the script on both libraries, transcripts equal" env PYTHONPATH="$root/bindings/python" \
    python3 Tests/derive/test_derive.py "$libdir/libderived.so" "$libdir/libhand.so"
part "the generator's parts (types, names, the control file)" python3 -m unittest discover -s Tests/derive -p 'test_generator.py'

echo "derive: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
