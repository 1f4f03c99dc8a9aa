#!/usr/bin/env bash
# The packages suite: packages as users write them, from the code of README.md, docs/packages.md,
# docs/glib-bridge.md and bindings/python/README.md, built and run as written
# (Tests/packages/code_blocks.py extracts it).
#
# In a temporary folder:
#   libmvvm/   a copy of this working tree, a Git repository tagged with the header's version
#              (how a dependent meets a release);
#   greeter/   the README's package, beside it, depending on it by path;
#   badges/, notes/, board/   docs/packages.md's two packages, each depending on libmvvm by version,
#              `from:` the tag (docs/packages.md's URL mapped to the copy with a SwiftPM mirror,
#              `swift package config set-mirror`, as a user maps a server they cannot reach), and
#              the library composing them with the catalog, an example package of the copy
#              (libmvvm/examples/catalog), both by path.
# Then every whole block runs (the rest are fragments, excerpts of a program): each C program
# compiles, links to the catalog's library, runs and prints what its `prints` comments say (a GTK one
# compiles); each Python block with its imports runs and prints so (over the README's greeter
# too: bindings/python/README.md's first example); each sh block that starts
# with `cd` runs in the temporary folder (the README's greeter sessions: build; build the C file
# the README writes, greeter/app.c, run it, generate the typed calls; load from Python), and the
# program a session built from a C file the page names (greeter/app) prints what that block's
# `prints` comments say;
# the libraries built export only mvvm_*; the README's shipping command (`python3 -m
# mvvm_gen.package`) ships greeter, and its wheel and C files work. Ruby and LuaJIT blocks are run
# by their own suites.
# Needs the catalog's library (make catalog: build/catalog/libcatalog.so, what a whole C block links),
# build/todo and build/gtk (make todo gtk) for the GTK blocks.
# The last line is "packages: N passed, N failed". MVVM_KEEP_TMP=1 keeps the temporary folder.
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
. bindings/c/common.sh
PYTHON=${PYTHON:-python3}

passed=0 failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mvvm-packages.XXXXXX")
if [ "${MVVM_KEEP_TMP:-0}" = 1 ]; then echo "temporary folder: $tmp"; else trap 'rm -rf "$tmp"' EXIT; fi
log=$tmp/log

pass() { passed=$((passed + 1)); echo "PASS $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; [ ! -s "$log" ] || sed 's/^/    /' "$log" | tail -40; }
# check NAME COMMAND...: runs the command with its output in $log; passes when it succeeds.
check() { local name=$1; shift; if "$@" >"$log" 2>&1; then pass "$name"; else fail "$name"; fi; }

version=$(mvvm_header_version full)
libdir=$repo/build/catalog
[ -f "$libdir/libcatalog.so" ] || { echo "no $libdir/libcatalog.so: make catalog"; echo "packages: 0 passed, 1 failed"; exit 1; }

# --- libmvvm as a dependent meets it ---------------------------------------------------------
snapshot() {
    mkdir -p "$tmp/libmvvm" &&
    git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' file; do [ -e "$file" ] && printf '%s\0' "$file"; done |
        tar --null -T - -cf - | tar -xf - -C "$tmp/libmvvm" &&
    (cd "$tmp/libmvvm" && git init -q && git add -A &&
        git -c user.name=packages -c user.email=packages@localhost commit -q -m "libmvvm $version" &&
        git tag "$version")
}
check "a copy of libmvvm, tagged $version" snapshot

blocks() {
    "$PYTHON" Tests/packages/code_blocks.py files "$tmp" $pages &&
    "$PYTHON" Tests/packages/code_blocks.py list "$tmp/blocks" $pages > "$tmp/blocks.list" &&
    cat "$tmp/blocks.list" && [ -f "$tmp/greeter/Package.swift" ] && [ -f "$tmp/greeter/app.c" ] &&
    [ -f "$tmp/board/Package.swift" ]
}
pages="README.md docs/packages.md docs/glib-bridge.md bindings/python/README.md"
check "the code blocks of $pages" blocks

# docs/packages.md's libmvvm URL, mapped to the copy for the packages that depend on it by version
# (and for the board, which composes them: its path dependency takes the place of theirs).
url=$(sed -n 's/.*\.package(url: "\([^"]*libmvvm[^"]*\)", from: .*/\1/p' docs/packages.md | sort -u)
mirror() {
    [ "$(wc -l <<<"$url")" = 1 ] && [ -n "$url" ] &&
    for package in badges board; do
        swift package --package-path "$tmp/$package" config set-mirror --original "$url" --mirror "file://$tmp/libmvvm" || return 1
    done
}
check "docs/packages.md's one libmvvm URL ($url) mirrored to the copy" mirror
ln -s "$repo/build" "$tmp/build"   # the README's paths into build/ (the todo app, the GTK bridge)

# --- the blocks --------------------------------------------------------------------------------
# Output compared with what the block's `prints` comments announce: all of it (C, Python), or, for
# a shell session, those lines in that order among the rest.
same_output() { diff -u "$1" "$2"; }
in_order() { "$PYTHON" - "$1" "$2" <<'EOF'
import sys
expected = open(sys.argv[1]).read().splitlines()
lines = iter(open(sys.argv[2]).read().splitlines())
missing = [line for line in expected if not any(line == got for got in lines)]
print("\n".join("missing, or out of order: " + line for line in missing))
sys.exit(1 if missing else 0)
EOF
}

c_block() {
    local source=$1 binary=${1%.c}
    if grep -q 'mvvm-glib.h' "$source"; then
        # A fragment of a GTK program: it compiles.
        cc -std=c11 -Wall -Wextra -Werror -c "$source" -Ibindings/glib -Iinclude $(pkg-config --cflags gtk4) -o "$binary.o"
    else
        cc -std=c11 -Wall -Wextra -Werror -pedantic "$source" -Iinclude -L"$libdir" -lcatalog -Wl,-rpath,"$libdir" -o "$binary" &&
        (cd "$tmp" && "$binary") > "$binary.out" && same_output "${1%.c}.expected" "$binary.out"
    fi
}
python_block() {
    local out=${1%.py}.out
    if grep -q 'gi.repository' "$1"; then
        (cd "$tmp" && env GI_TYPELIB_PATH="$repo/build/gtk" LD_LIBRARY_PATH="$repo/build/gtk" /usr/bin/python3 "$1") > "$out"
    else
        (cd "$tmp" && env -u MVVM_LIBRARY PYTHONPATH="$repo/bindings/python" "$PYTHON" "$1") > "$out"
    fi && same_output "${1%.py}.expected" "$out"
}
sh_block() {
    (cd "$tmp" && bash -euo pipefail "$1") > "${1%.sh}.out" 2>&1 || { cat "${1%.sh}.out"; return 1; }
    in_order "${1%.sh}.expected" "${1%.sh}.out"
}

# A block without its includes or imports is a fragment (an excerpt of a program): read, not run.
whole() {
    case $1 in
        c) grep -qE '(^|[^A-Za-z0-9_])main\(' "$2" ;;
        python) grep -qE '^(import|from) ' "$2" ;;
        sh) [ "$(head -c 3 "$2")" = "cd " ] ;;
    esac
}
while read -r language file named; do
    [ -z "$named" ] || continue    # a file of a package: its session builds it (below)
    whole "$language" "$file" || continue
    case $language in
        c) check "C block $(basename "$file") compiles$(whole c "$file" && echo ', runs and prints what it says')" c_block "$file" ;;
        python) check "Python block $(basename "$file") runs and prints what it says" python_block "$file" ;;
        sh) check "shell session $(basename "$file"): $(head -1 "$file")" sh_block "$file" ;;
    esac
done < <(grep -v '^swift ' "$tmp/blocks.list" 2>/dev/null)
# A C file a page names (greeter/app.c), built by the page's session into the same path without
# `.c`: run in its folder, it prints what its block's `prints` comments say.
named_c_block() {
    local program=$tmp/${2%.c}
    [ -x "$program" ] && (cd "$(dirname "$program")" && "$program") > "${1%.c}.out" &&
        same_output "${1%.c}.expected" "${1%.c}.out"
}
while read -r language file named; do
    [ "$language" = c ] && [ -n "$named" ] || continue
    check "C file $named, built by its session, runs and prints what it says" named_c_block "$file" "$named"
done < "$tmp/blocks.list"

# --- what the sessions built -------------------------------------------------------------------
only_mvvm() {
    [ -f "$1" ] && [ "$(mvvm_exported_symbols "$1" | grep -c '^mvvm_')" -gt 0 ] && ! mvvm_exported_symbols "$1" | grep -v '^mvvm_'
}
check "the README's libgreeter.so exports only mvvm_*" only_mvvm "$tmp/greeter/.build/debug/libgreeter.so"
check "docs/packages.md's libboard.so exports only mvvm_*" only_mvvm "$tmp/board/.build/debug/libboard.so"
# badges alone (the board takes libmvvm by path): resolved by version, from the tagged copy.
by_version() {
    local tagged
    tagged=$(git -C "$tmp/libmvvm" rev-parse "$version^{commit}") &&
    swift package --package-path "$tmp/badges" resolve &&
    "$PYTHON" - "$tmp/badges/Package.resolved" "$url" "$version" "$tagged" <<'EOF'
import json, sys
resolved, url, version, revision = sys.argv[1:]
pins = [p for p in json.load(open(resolved))["pins"] if p["identity"] == "libmvvm"]
state = pins[0]["state"] if pins else {}
print(pins)
sys.exit(0 if pins and pins[0]["location"] == url and state.get("version") == version
         and state.get("revision") == revision else 1)
EOF
}
check "badges resolved libmvvm $version by version, from the tagged copy" by_version
board_by_path() {
    swift package --package-path "$tmp/board" show-dependencies --format json > "$tmp/board-dependencies.json" &&
    "$PYTHON" - "$tmp/board-dependencies.json" "$tmp/libmvvm" <<'EOF'
import json, sys
tree, checkout = json.load(open(sys.argv[1])), sys.argv[2]
def walk(node):
    yield node
    for child in node.get("dependencies", []):
        yield from walk(child)
found = {(n["identity"], n["path"]) for n in walk(tree) if n["identity"] in ("libmvvm", "catalog")}
print(sorted(found))
sys.exit(0 if found == {("libmvvm", checkout), ("catalog", checkout + "/examples/catalog")} else 1)
EOF
}
check "board takes the catalog (examples/catalog) and libmvvm by path from the copy, for its parts too" board_by_path
generated() {
    (cd "$tmp/greeter" && [ -f include/greeter.h ] && [ -f Sources/Greeter/TypedCalls.generated.swift ] &&
        swift build -Xlinker --version-script="$tmp/libmvvm/Sources/MVVMExport/exports.map" &&
        PYTHONPATH="$tmp/libmvvm/tools" "$PYTHON" -m mvvm_gen --library .build/debug/libgreeter.so --module Greeter \
            --header include/greeter.h --swift Sources/Greeter/TypedCalls.generated.swift --check &&
        readelf --dyn-syms --wide .build/debug/libgreeter.so | grep ' mvvm_greeter_set_name$')
}
check "greeter's generated typed calls build into it and are current (mvvm_gen --check)" generated
# The README's shipping command on the README's package, from the sources (the packaging suite runs
# it from the installed mvvm wheel, on Tests/outside): a release library exporting only mvvm_*,
# a wheel that imports as `greeter` and works, and the C tree, whose header a C compiler takes.
shipped() {
    local wheel c=$tmp/greeter/dist/greeter-c
    (cd "$tmp/greeter" && PYTHONPATH="$tmp/libmvvm/tools" "$PYTHON" -m mvvm_gen.package \
        --product greeter --module Greeter) &&
    wheel=$(ls "$tmp/greeter/dist"/greeter-0.1.0-py3-none-*.whl) &&
    [ -f "$c/include/greeter.h" ] && [ -f "$c/include/mvvm.h" ] && [ -f "$c/lib/pkgconfig/greeter.pc" ] &&
    only_mvvm "$c/lib/libgreeter.so" &&
    printf '#include "greeter.h"\nint main(void) {\n    mvvm_status (*set_name)(mvvm_handle, const char *) = mvvm_greeter_set_name;\n    return set_name(0, "Ada") == MVVM_OK;\n}\n' |
        cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -I"$c/include" -x c - &&
    mkdir -p "$tmp/greeter-wheel" && "$PYTHON" -m zipfile -e "$wheel" "$tmp/greeter-wheel" &&
    [ "$(cd "$tmp" && env -u MVVM_LIBRARY PYTHONPATH="$tmp/greeter-wheel:$repo/bindings/python" "$PYTHON" -c '
import greeter
with greeter.Loop.virtual() as loop:
    g = greeter.Greeter(loop)
    g.name = "Ada"
    print(g.greeting, greeter.library.path.name)
')" = "Hello, Ada. libgreeter.so" ]
}
check "the README's python3 -m mvvm_gen.package ships greeter: a wheel that imports and works, C files" shipped

echo "packages: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
