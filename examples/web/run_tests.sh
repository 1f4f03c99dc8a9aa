#!/usr/bin/env bash
# make test-web: the server alone under hostile requests over HTTP (test_server.py, a server of its
# own), then TodoMVC in headless Chromium (Debian's chromium and chromium-driver, which `make deps`
# installs) driven by Selenium (PyPI, in the virtualenv build/venv-web), over
# examples/web/server.js on a private port and a fresh SQLite database. Screenshots in
# build/screenshots/web_*.png. Needs MVVM_TODO_LIBRARY (make todo) and the mvvm npm package (make
# node-package), which it installs into examples/web as its package.json says, as a user does
# (`npm install`, offline): the server imports it as any program does.
#   bash examples/web/run_tests.sh build/node/mvvm-VERSION.tgz
# The last line is "web: N passed, N failed", the two parts' counts summed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$PWD
me=run_tests.sh
library=${MVVM_TODO_LIBRARY:-$root/build/todo/libtodo.so}
package=${1:-}
for needed in "$library" "$package" /usr/bin/chromium /usr/bin/chromedriver; do
    if [ ! -e "$needed" ]; then
        echo "$me: ${needed:-the package} is missing (make todo node-package deps)"
        echo "web: 0 passed, 1 failed"
        exit 1
    fi
done

# The example's dependency is the package `make node-package` writes: installed afresh (npm keeps an
# installed package of the same version otherwise), offline.
wanted=$(node -p "require('./examples/web/package.json').dependencies.mvvm")
if [ "$(cd examples/web && realpath -m "${wanted#file:}")" != "$(realpath "$package")" ]; then
    echo "$me: examples/web/package.json depends on $wanted, but the package is $package: make them agree"
    echo "web: 0 passed, 1 failed"
    exit 1
fi
rm -rf examples/web/node_modules
if ! (cd examples/web && npm install --offline --no-audit --no-fund --no-package-lock --silent); then
    echo "$me: npm install in examples/web failed"
    echo "web: 0 passed, 1 failed"
    exit 1
fi

venv=$root/build/venv-web
if ! "$venv/bin/python" -c 'import selenium' >/dev/null 2>&1; then
    rm -rf "$venv"
    python3 -m venv "$venv" >&2 && "$venv/bin/python" -m pip --disable-pip-version-check -q install selenium >&2 || {
        echo "$me: cannot install Selenium from PyPI into $venv"
        echo "web: 0 passed, 1 failed"
        exit 1
    }
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/mvvm-web.XXXXXX")
# "server: N passed, N failed" and "browser: N passed, N failed": each part's counts.
count() { grep -E "^$1: [0-9]+ passed, [0-9]+ failed" "$2" | tail -1 | grep -oE '[0-9]+' | sed -n "$3p"; }
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; fi
    rm -rf "$scratch"
}
trap cleanup EXIT

MVVM_TODO_LIBRARY=$library python3 examples/web/test_server.py | tee "$scratch/server_tests.log"
server_passed=$(count server "$scratch/server_tests.log" 1)
server_failed=$(count server "$scratch/server_tests.log" 2)
# A part that printed no counts counts as one failed test.
[ -n "$server_passed" ] || { server_passed=0; server_failed=1; }

node examples/web/server.js --port 0 --storage "$scratch/todos.sqlite" --library "$library" >"$scratch/server.log" 2>&1 &
server_pid=$!
url=
for _ in $(seq 100); do
    url=$(grep -oE 'http://127\.0\.0\.1:[0-9]+/' "$scratch/server.log" | head -1)
    [ -n "$url" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$url" ]; then
    echo "$me: the server did not start:"; cat "$scratch/server.log"
    echo "web: ${server_passed:-0} passed, $(( ${server_failed:-1} + 1 )) failed"
    exit 1
fi

mkdir -p build/screenshots
# Selenium Manager would look for drivers online: the paths are given and it is told it is offline.
SE_OFFLINE=true MVVM_WEB_URL=$url MVVM_WEB_PROFILE=$scratch/profile MVVM_WEB_SCREENSHOTS=$root/build/screenshots \
    "$venv/bin/python" examples/web/test_web.py | tee "$scratch/browser_tests.log"
browser_passed=$(count browser "$scratch/browser_tests.log" 1)
browser_failed=$(count browser "$scratch/browser_tests.log" 2)
[ -n "$browser_passed" ] || { browser_passed=0; browser_failed=1; }
failed=$((server_failed + browser_failed))
if [ "$failed" != 0 ]; then echo "== the server's log:"; cat "$scratch/server.log"; fi
echo "web: $((server_passed + browser_passed)) passed, $failed failed"
[ "$failed" = 0 ]
