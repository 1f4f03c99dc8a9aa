#!/usr/bin/env bash
# make node-package: the npm package of the Node binding, OUT/mvvm-VERSION.tgz (`npm pack`): the
# prebuilt addon (Node-API 9: one build serves every Node that has it, 18.17 and 20.3 on), the
# modules (index.js, index.mjs), their declarations (index.d.ts, index.d.mts), what they read
# (names.js, naming.json), the licence and the README; nothing outside the package. Installed with
# `npm install ./mvvm-VERSION.tgz`, it needs no Swift, no compiler and no registry.
#   bash bindings/node/package.sh OUT ADDON      (ADDON: build/node/mvvm.node, `make node`)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
addon=$2
[ -f "$addon" ] || { echo "package.sh: no addon at $addon (make node)" >&2; exit 1; }
version=$(node -p "require('$here/package.json').version")
header=$(sed -n 's/^#define MVVM_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' "$root/include/mvvm.h" | paste -sd.)
[ "$version" = "$header" ] || { echo "package.sh: bindings/node/package.json is $version, include/mvvm.h $header: make them agree" >&2; exit 1; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/mvvm-npm.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
stage=$scratch/mvvm
mkdir -p "$stage"
# The files the package lists, each from its one home: the addon from the build, the licence from
# the top of the repository, the rest from here.
for file in $(node -p "require('$here/package.json').files.join(' ')"); do
    case $file in
        mvvm.node) cp "$addon" "$stage/mvvm.node"; ! command -v strip >/dev/null || strip --strip-debug "$stage/mvvm.node" ;;
        LICENSE) cp "$root/LICENSE" "$stage/LICENSE" ;;
        *) cp "$here/$file" "$stage/$file" ;;
    esac
done
cp "$here/package.json" "$stage/package.json"
# The addon is built for this machine's processor: the package says so, and npm refuses it elsewhere.
node -e "
const fs = require('node:fs');
const file = process.argv[1];
const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
pkg.cpu = [process.arch];
delete pkg.scripts; // its tests live in the repository
fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + '\n');" "$stage/package.json"
rm -f "$out/mvvm-$version.tgz"
(cd "$stage" && npm pack --offline --silent --cache "$scratch/npm-cache" --pack-destination "$out" >/dev/null)
echo "$out/mvvm-$version.tgz"
