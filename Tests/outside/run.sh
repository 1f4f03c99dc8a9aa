#!/usr/bin/env bash
# Builds Tests/outside (a package outside libmvvm exporting its own view models through the public
# export API: Greeter, Tally, Profile, Wishlist, Dialog, lists, Order of Foundation's values) into
# libsample.so (and app-style view models on the main loop into libappsample.so), then drives its
# classes with no code written for them: from C (test_*.c, plainly and under valgrind) and
# LuaJIT here, and from the Python and Ruby suites (their sample-library cases), all of which
# build their classes from mvvm_classes.
# The last line is "outside: N passed, N failed" (each part counts as one).
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
if ! (cd Tests/outside && swift build "${MVVM_EXPORTS_FLAGS[@]}"); then
    echo "outside: 0 passed, 1 failed (the package did not build)"
    exit 1
fi
libdir=$(cd Tests/outside && swift build "${MVVM_EXPORTS_FLAGS[@]}" --show-bin-path)
library="$libdir/libsample.so"
mkdir -p build/outside
# The package's typed calls, generated from its own classes, are current.
part "generated typed calls of module Sample are current" env PYTHONPATH=tools python3 -m mvvm_gen --library "$library" \
    --module Sample --header Tests/outside/include/sample.h --swift Tests/outside/Sources/Sample/TypedCalls.generated.swift --check
# libappsample.so composes two modules (AppSample's hook registers AppSampleSwift5's class too): each
# module's package defines its own typed calls, and the library has one header of both (mvvm_gen
# takes every module but the catalog's when given none).
appsample="$libdir/libappsample.so"
part "generated typed calls of modules AppSample and AppSampleSwift5 are current" env PYTHONPATH=tools sh -c '
    python3 -m mvvm_gen --library "$1" --module AppSample --swift Tests/outside/Sources/AppSample/TypedCalls.generated.swift --check &&
    python3 -m mvvm_gen --library "$1" --module AppSampleSwift5 --swift Tests/outside/Sources/AppSampleSwift5/TypedCalls.generated.swift --check &&
    python3 -m mvvm_gen --library "$1" --header Tests/outside/include/appsample.h --check' sh "$appsample"
# A library carries the catalog only when its hook registers it: libsample.so exports none of the
# catalog's typed calls (examples/catalog/include/mvvm_catalog.h) and lists none of its classes;
# libcatalog.so, whose hook registers it, exports every one and lists them all.
catalog_library=$root/build/catalog/libcatalog.so
no_catalog() {
    local calls
    calls=$(grep -oE '\bmvvm_[a-z0-9_]+\(' examples/catalog/include/mvvm_catalog.h | tr -d '(' | sort -u)
    [ "$(echo "$calls" | wc -l)" -gt 50 ] || { echo "too few typed calls in mvvm_catalog.h"; return 1; }
    exported() { nm -D --defined-only "$1" | awk '{print $3}' | sort -u; }
    local in_sample missing_in_mvvm
    in_sample=$(comm -12 <(echo "$calls") <(exported "$library"))
    missing_in_mvvm=$(comm -23 <(echo "$calls") <(exported "$catalog_library"))
    [ -z "$in_sample" ] || { echo "libsample.so exports catalog calls:" $in_sample; return 1; }
    [ -z "$missing_in_mvvm" ] || { echo "libcatalog.so lacks catalog calls:" $missing_in_mvvm; return 1; }
    PYTHONPATH=tools python3 -m mvvm_gen --library "$catalog_library" --json build/outside/catalog.json \
        >/dev/null &&
    PYTHONPATH=tools python3 -m mvvm_gen --library "$library" --json build/outside/sample.json >/dev/null &&
    python3 - build/outside/catalog.json build/outside/sample.json <<'PY'
import json, sys
catalog = {c["class"] for c in json.load(open(sys.argv[1]))}
sample = {c["class"] for c in json.load(open(sys.argv[2]))}
print("libcatalog.so lists %d classes, libsample.so %d: %s" % (len(catalog), len(sample), ", ".join(sorted(sample))))
sys.exit(0 if len(catalog) >= 13 and "greeter" in sample and not catalog & sample else 1)
PY
}
part "libsample.so carries no catalog symbol or class; libcatalog.so carries them all" no_catalog
# Without DWARF, which valgrind 3.19 cannot read here (see Tests/C/run_c_tests.sh).
mkdir -p build/outside/valgrind-lib
objcopy --strip-debug "$library" build/outside/valgrind-lib/libsample.so
objcopy --strip-debug "$libdir/libbadsample.so" build/outside/valgrind-lib/libbadsample.so
objcopy --strip-debug "$libdir/libappsample.so" build/outside/valgrind-lib/libappsample.so
# The catalog's libcatalog.so, which test_libraries.c opens beside libsample.so.
export MVVM_CATALOG_LIBRARY="$catalog_library"
objcopy --strip-debug "$MVVM_CATALOG_LIBRARY" build/outside/valgrind-lib/libcatalog.so
for source in Tests/outside/test_*.c; do
    name=$(basename "$source" .c)
    program="build/outside/$name"
    # A test may say what it links ("LINK: -lsample -lcatalog"); by default, libsample.so.
    link=$(sed -n 's/^ \* LINK: //p' "$source")
    part "C: compile $name" cc -std=c11 -Wall -Wextra -Werror -pedantic -pthread -I include -I examples/catalog/include \
        -I Tests/outside/include -I Tests/C "$source" -o "$program" -L "$libdir" -L "$root/build/catalog" ${link:--lsample} \
        -Wl,-rpath,"$libdir" -Wl,-rpath,"$root/build/catalog" || continue
    part "C: $name" "$program"
    # The races of test_cancel_race.c: 100,000 calls per mode natively, fewer under valgrind; so
    # for test_agenda.c's handles and test_main_actor.c's ends from another thread. Tests run
    # in-process under valgrind (CHECK_NO_FORK, as Tests/C/run_c_tests.sh says why).
    part "C: $name under valgrind" env LD_LIBRARY_PATH="$root/build/outside/valgrind-lib" CHECK_NO_FORK=1 \
        CANCEL_RACE_ROUNDS="${CANCEL_RACE_ROUNDS:-1000}" HANDLE_ROUNDS="${HANDLE_ROUNDS:-5000}" MAIN_ACTOR_END_ROUNDS="${MAIN_ACTOR_END_ROUNDS:-100}" MVVM_CATALOG_LIBRARY="$root/build/outside/valgrind-lib/libcatalog.so" valgrind -q --fair-sched=yes \
        --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
        --suppressions=Tests/C/valgrind.supp "$program"
done
# The Python and Ruby suites run their cases of these classes themselves (make test-python,
# test-ruby: MVVM_SAMPLE_LIBRARY); the LuaJIT demo has a section for them, and loads libcatalog.so
# beside libsample.so.
part "LuaJIT: greeter, tally, profile, wishlist, dialog; two libraries" bash examples/lua/run.sh "$library" \
    "$catalog_library"
# docs/lua.md's example, as written but for its paths.
lua_doc_example() {
    cpp -P -E include/mvvm.h >build/outside/mvvm.i || return 1
    python3 - "$library" "$root/build/outside/mvvm.i" >build/outside/lua_doc_example.lua <<'PY' || return 1
import json, re, sys
code = re.search(r"```lua\n(.*?)```", open("docs/lua.md").read(), re.S).group(1)
code = code.replace('"Tests/outside/.build/debug/libsample.so"', json.dumps(sys.argv[1]))
print(code.replace('mvvm.declare("mvvm.i")', 'mvvm.declare("%s")' % sys.argv[2]))
PY
    local out
    out=$(LUA_PATH="bindings/lua/?.lua;;" luajit build/outside/lua_doc_example.lua) || return 1
    [ "$out" = "$(printf 'full_name\tAda\nParis\nnil\tprofile.move_tag failed: no tag at 0 (there are 0)\tMVVM_ERR_COMMAND_FAILED\n2\tnil')" ] \
        || { echo "unexpected output: $out"; return 1; }
}
part "LuaJIT: docs/lua.md's example" lua_doc_example
echo "outside: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
