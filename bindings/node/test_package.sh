#!/usr/bin/env bash
# make test-node-package: the npm package (make node-package) as a user meets it.
#   bash bindings/node/test_package.sh build/node/mvvm-VERSION.tgz    (MVVM_SAMPLE_LIBRARY: libsample.so)
# The tarball holds what the package lists and nothing it reads lies outside it; installed with
# `npm install --offline` into an empty folder outside the repository, by an environment whose PATH
# holds no Swift toolchain (and no MVVM_* variable), it runs a greeter program from an .mjs file and
# from a .cjs file (tests/package/greet.*: Tests/outside's libsample.so loaded by its path), loading
# the installed addon; an ES module in TypeScript (tests/package/app.ts) passes `tsc --strict`
# against the installed types and the declarations mvvm_gen writes of the library, reports each
# mistake planted in it, and runs. The last line is "node-package: N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
tarball=${1:?usage: test_package.sh PACKAGE.tgz}
library=${MVVM_SAMPLE_LIBRARY:?MVVM_SAMPLE_LIBRARY names Tests/outside/.build/debug/libsample.so (make sample)}

passed=0 failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mvvm-node-package.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
log=$tmp/log
pass() { passed=$((passed + 1)); echo "PASS $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; [ ! -s "$log" ] || sed 's/^/    /' "$log" | tail -40; }
# check NAME COMMAND...: runs the command with its output in $log; passes when it succeeds.
check() { local name=$1; shift; if "$@" >"$log" 2>&1; then pass "$name"; else fail "$name"; fi; }
finish() {
    echo "node-package: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}

# The environment of a machine without Swift: PATH minus every Swift toolchain folder, nothing else.
clean_path=$(tr ':' '\n' <<<"$PATH" | grep -v -e '^$' -e '/opt/swift' | while read -r dir; do
    [ -x "$dir/swift" ] || [ -x "$dir/swiftc" ] || echo "$dir"; done | paste -sd:)
noswift() { env -i HOME="$tmp/home" PATH="$clean_path" LANG=C.UTF-8 "$@"; }
mkdir -p "$tmp/home" "$tmp/app"
check "the environment's PATH reaches no Swift toolchain" noswift sh -c '! command -v swift && ! command -v swiftc'

# --- The tarball ----------------------------------------------------------------------------------
[ -f "$tarball" ] || { echo "no $tarball (make node-package)"; failed=1; finish; }
mkdir -p "$tmp/unpacked" && tar -xzf "$tarball" -C "$tmp/unpacked"
package=$tmp/unpacked/package
contents() {
    local want got
    want=$(node -p "[...require('$here/package.json').files, 'package.json'].sort().join('\n')")
    got=$(cd "$package" && find . -type f | sed 's|^\./||' | sort)
    echo "want:"; echo "$want"; echo "got:"; echo "$got"
    [ "$want" = "$got" ]
}
check "the tarball holds the files package.json lists and nothing else" contents
manifest() {
    node -e "
const assert = require('node:assert/strict');
const pkg = require('$package/package.json');
const header = require('node:fs').readFileSync('$root/include/mvvm.h', 'utf8');
const version = ['MAJOR', 'MINOR', 'PATCH'].map((p) => new RegExp('#define MVVM_VERSION_' + p + ' (\\\\d+)').exec(header)[1]).join('.');
assert.equal(pkg.name, 'mvvm');
assert.equal(pkg.version, version, 'the version is the header\\'s');
assert.equal(require('node:path').basename('$tarball'), 'mvvm-' + version + '.tgz');
assert.deepEqual(pkg.exports['.'], {
  import: { types: './index.d.mts', default: './index.mjs' },
  require: { types: './index.d.ts', default: './index.js' },
});
assert.equal(pkg.license, 'MIT');
assert.equal(pkg.engines.node, '^18.17.0 || >=20.3.0', 'Node-API 9: one build serves every Node that has it');
assert.deepEqual(pkg.cpu, [process.arch]);
assert.equal(pkg.scripts, undefined);
assert.ok(!pkg.dependencies, 'it depends on nothing');
console.log(JSON.stringify(pkg, null, 2));"
}
check "package.json: the header's version, exports with import/require/types, MIT, Node >= 18, this processor" manifest
# What the modules read (require, import, JSON) is inside the package, or Node's own.
self_contained() {
    local missing=0 file target
    for file in "$package"/*.js "$package"/*.mjs; do
        while read -r target; do
            echo "$(basename "$file") reads $target"
            case $target in
                node:*) ;;
                ./*) [ -f "$package/${target#./}" ] || { echo "  missing: $target"; missing=1; } ;;
                *) echo "  outside the package: $target"; missing=1 ;;
            esac
        done < <(grep -vE '^\s*(//|\*)' "$file" | grep -oE "(require\(|from )'[^']+'" | sed -E "s/^(require\(|from )'//; s/'$//")
    done
    # the addon's fallbacks into a checkout are only tried when the package's own is missing
    grep -q "path.join(__dirname, 'mvvm.node')" "$package/index.js" && [ "$missing" = 0 ]
}
check "everything the modules read is in the package (names.js's naming.json too)" self_contained
addon_check() {
    file "$package/mvvm.node" | tee /dev/stderr | grep -q 'shared object' &&
    ! readelf -d "$package/mvvm.node" | grep -E 'NEEDED|RPATH|RUNPATH' | grep -iE 'swift|libmvvm|libnode' &&
    readelf -d "$package/mvvm.node" | grep NEEDED
}
check "the prebuilt addon: a shared object needing no Swift, no libmvvm, no libnode (Node-API)" addon_check

# --- Installed into an empty folder -----------------------------------------------------------
cp "$tarball" "$tmp/app/"
install() {
    (cd "$tmp/app" && printf '{ "name": "greeter-app", "private": true, "type": "module" }\n' >package.json &&
     noswift npm install --offline --no-audit --no-fund --cache "$tmp/npm-cache" "./$(basename "$tarball")" &&
     ls node_modules/mvvm && [ -f node_modules/mvvm/mvvm.node ])
}
check "npm install --offline ./$(basename "$tarball") into an empty folder, no Swift on PATH" install
cp "$here/tests/package/greet.mjs" "$here/tests/package/greet.cjs" "$here/tests/package/app.ts" \
   "$here/tests/package/tsconfig.json" "$tmp/app/"
greets() {
    (cd "$tmp/app" && noswift node "$1" "$library") >"$tmp/$1.out" 2>&1
    local status=$?
    cat "$tmp/$1.out"
    [ "$status" = 0 ] && diff -u "$here/tests/package/greet.expected" "$tmp/$1.out"
}
check "greet.mjs (import { load } from 'mvvm') prints greet.expected" greets greet.mjs
check "greet.cjs (const { load } = require('mvvm')) prints greet.expected" greets greet.cjs
installed_addon() {
    (cd "$tmp/app" && noswift node --input-type=module -e "
import { load } from 'mvvm';
import { readFileSync } from 'node:fs';
load(process.argv[1]);
const mapped = readFileSync('/proc/self/maps', 'utf8').split('\n').map((line) => line.split(/\s+/)[5]).filter(Boolean);
const addons = [...new Set(mapped.filter((file) => file.endsWith('.node')))];
console.log(addons.join('\n'));
process.exit(addons.length === 1 && addons[0] === process.argv[2] ? 0 : 1);" "$library" "$tmp/app/node_modules/mvvm/mvvm.node")
}
check "the addon loaded is the installed package's, not a checkout's" installed_addon

# --- TypeScript, as an ES module -----------------------------------------------------------------
generated() {
    PYTHONPATH="$root/tools" python3 -m mvvm_gen --library "$library" --dts "$tmp/app/sample.d.ts" &&
    grep -q 'from "mvvm";' "$tmp/app/sample.d.ts"
}
check "python3 -m mvvm_gen --dts sample.d.ts (importing the binding's types from 'mvvm')" generated
typed() { (cd "$tmp/app" && noswift tsc -p tsconfig.json && [ -f out/app.js ]); }
check "tsc --strict (module nodenext) on app.ts against the installed types: no error" typed
runs() {
    (cd "$tmp/app" && noswift node out/app.js "$library") >"$tmp/app.out" 2>&1
    local status=$?
    cat "$tmp/app.out"
    [ "$status" = 0 ] && diff -u "$here/tests/package/app.expected" "$tmp/app.out"
}
check "the compiled ES module runs and prints app.expected" runs
planted() { (cd "$tmp/app" && noswift node "$here/tests/planted.js" . app.ts 7); }
check "tsc --strict reports each mistake planted in app.ts, on its line" planted

finish
