#!/usr/bin/env bash
# The packaging test: a C program and a Python program use libmvvm without the Swift toolchain.
#
#  (a) C: builds the static-runtime release library (build_release.sh static build/release-static),
#      installs it into a temporary PREFIX (install.sh), checks the layout and mvvm.pc, compiles
#      examples/c/mvvm_view.c with `pkg-config --cflags --libs mvvm` and an rpath to PREFIX/lib
#      only, and runs examples/c/demo.script, comparing with examples/c/demo.expected.
#  (b) Python: builds the wheel (build_wheel.sh), installs it into a fresh virtualenv with
#      `pip install --no-index`, and runs Tests/packaging/check_wheel.py from a temporary folder.
#
# Everything after the build runs under `env -i` with a PATH and LD_LIBRARY_PATH that hold nothing
# of /opt/swift (the toolchain: its bin folder and its runtime folder /opt/swift/usr/lib/swift/linux),
# no MVVM_LIBRARY, and HOME in the temporary folder; ldd and /proc/self/maps show that nothing of
# the Swift toolchain is loaded. The last line is "packaging: N passed, N failed"; the exit status
# is non-zero when a check failed. Needs cc, pkg-config (Debian: pkgconf), python3 with venv, and
# for `pip wheel` setuptools from the package index (or PIP_FIND_LINKS).
# MVVM_KEEP_TMP=1 keeps the temporary folder.
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
. bindings/c/common.sh
PYTHON=${PYTHON:-python3}

passed=0 failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mvvm-packaging.XXXXXX")
if [ "${MVVM_KEEP_TMP:-0}" = 1 ]; then echo "temporary folder: $tmp"; else trap 'rm -rf "$tmp"' EXIT; fi
log=$tmp/log
mkdir -p "$tmp/home" "$tmp/c" "$tmp/run"

pass() { passed=$((passed + 1)); echo "PASS $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; [ ! -s "$log" ] || sed 's/^/    /' "$log" | tail -40; }
# check NAME COMMAND...: runs the command with its output in $log; passes when it succeeds.
check() { local name=$1; shift; if "$@" >"$log" 2>&1; then pass "$name"; else fail "$name"; fi; }
finish() {
    echo "packaging: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}

# The environment without the Swift toolchain: PATH and LD_LIBRARY_PATH minus every /opt/swift entry.
without_swift() { tr ':' '\n' <<<"$1" | grep -v -e '^$' -e '/opt/swift' | paste -sd: -; }
clean_path=$(without_swift "$PATH")
clean_ld=$(without_swift "${LD_LIBRARY_PATH:-}")
noswift() { env -i HOME="$tmp/home" PATH="$clean_path" LANG=C.UTF-8 ${clean_ld:+LD_LIBRARY_PATH="$clean_ld"} "$@"; }

check "the environment reaches nothing of /opt/swift (PATH, LD_LIBRARY_PATH, swift, ld.so cache)" \
    noswift sh -c '! command -v swift && ! command -v swiftc &&
                   ! printenv PATH LD_LIBRARY_PATH | grep -q /opt/swift &&
                   ! /sbin/ldconfig -p | grep -q -e /opt/swift -e libswiftCore'

# --- (a) C ----------------------------------------------------------------------------------
start=$SECONDS failed_before=$failed
check "build_release.sh static: self-contained, soname, only mvvm_* exported" \
    bash bindings/c/build_release.sh static build/release-static
build_seconds=$((SECONDS - start))
lib=$repo/build/release-static/libmvvm.so
[ "$failed" -eq "$failed_before" ] && [ -f "$lib" ] || finish  # never test a stale library

major=$(mvvm_header_version major)
version=$(mvvm_header_version full)
prefix=$tmp/prefix
check "install.sh PREFIX LIBFILE" bash bindings/c/install.sh "$prefix" "$lib"

# (The check functions chain their steps with &&: `set -e` does not apply inside `if`.)
layout() {
    ls -l "$prefix/lib" &&
    [ -f "$prefix/lib/libmvvm.so.$version" ] && [ ! -L "$prefix/lib/libmvvm.so.$version" ] &&
    [ "$(readlink "$prefix/lib/libmvvm.so.$major")" = "libmvvm.so.$version" ] &&
    [ "$(readlink "$prefix/lib/libmvvm.so")" = "libmvvm.so.$major" ] &&
    cmp include/mvvm.h "$prefix/include/mvvm.h" &&
    [ "$(mvvm_soname "$prefix/lib/libmvvm.so")" = "libmvvm.so.$major" ] &&
    ! mvvm_exported_symbols "$prefix/lib/libmvvm.so" | grep -v '^mvvm_' &&
    [ "$(mvvm_exported_symbols "$prefix/lib/libmvvm.so" | grep -c '^mvvm_')" -gt 0 ] &&
    [ -f "$prefix/lib/pkgconfig/mvvm.pc" ]
}
check "layout: libmvvm.so.$version, links .so.$major and .so, mvvm.h, soname, exports" layout

# pkg-config in the restricted environment, its output without the trailing space pkgconf adds.
pc() { local out; out=$(noswift env PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config "$@") && echo "${out% }"; }
pkgconfig() {
    cat "$prefix/lib/pkgconfig/mvvm.pc" &&
    [ "$(pc --modversion mvvm)" = "$version" ] &&
    [ "$(pc --variable=prefix mvvm)" = "$prefix" ] &&
    [ "$(pc --cflags mvvm)" = "-I$prefix/include" ] &&
    [ "$(pc --libs mvvm)" = "-L$prefix/lib -lmvvm" ]
}
check "pkg-config: version $version, cflags, libs" pkgconfig

library_ldd() {
    noswift ldd "$prefix/lib/libmvvm.so.$major" | tee /dev/stderr | grep -E "$MVVM_SWIFT_RUNTIME_PATTERN|not found" && return 1
    ! readelf -d "$prefix/lib/libmvvm.so.$major" | grep -E '(NEEDED|RPATH|RUNPATH)' | grep -E "$MVVM_SWIFT_RUNTIME_PATTERN"
}
check "ldd of the installed library: nothing from /opt/swift, no libswift*, libFoundation*, libdispatch" library_ldd

cp examples/c/mvvm_view.c "$tmp/c/"
compile() (
    cd "$tmp/c" &&
    noswift cc -std=c11 -Wall -Wextra -Werror -pedantic mvvm_view.c $(pc --cflags --libs mvvm) \
        -Wl,-rpath,"$prefix/lib" -o mvvm_view
)
check "cc mvvm_view.c \$(pkg-config --cflags --libs mvvm), no Swift on PATH" compile

program_ldd() {
    local out
    out=$(noswift env LD_LIBRARY_PATH="$prefix/lib" ldd "$tmp/c/mvvm_view") || return 1
    echo "$out"
    grep -qF "libmvvm.so.$major => $prefix/lib/libmvvm.so.$major" <<<"$out" &&
        ! grep -E "$MVVM_SWIFT_RUNTIME_PATTERN|not found" <<<"$out"
}
check "the program loads libmvvm.so.$major from PREFIX/lib and nothing of Swift" program_ldd

transcript() (
    cd "$tmp/c" &&
    noswift env LD_LIBRARY_PATH="$prefix/lib" ./mvvm_view --script "$repo/examples/c/demo.script" >transcript &&
    diff -u "$repo/examples/c/demo.expected" transcript
)
check "mvvm_view --script demo.script gives demo.expected (LD_LIBRARY_PATH=PREFIX/lib only)" transcript

# --- (b) Python -----------------------------------------------------------------------------
# The files of bindings/python (not caches: others may run its tests meanwhile), before and after.
python_tree() {
    find bindings/python \( -name __pycache__ -o -name .pytest_cache -o -name .hypothesis \) -prune -o -print | sort
}
python_tree >"$tmp/tree.before"
check "build_wheel.sh (the static library inside)" bash bindings/python/packaging/build_wheel.sh "$tmp/wheel" "$lib"
wheel=$(ls "$tmp"/wheel/mvvm-*.whl 2>/dev/null | head -1)
platform=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_platform().replace("-", "_").replace(".", "_"))')
package_version=$(sed -n 's/^version = "\(.*\)"$/\1/p' bindings/python/pyproject.toml | head -1)
check "the wheel is tagged py3-none-$platform: $(basename "${wheel:-none}")" \
    test "$(basename "${wheel:-none}")" = "mvvm-$package_version-py3-none-$platform.whl"
tree_clean() {
    python_tree >"$tmp/tree.after" &&
    diff "$tmp/tree.before" "$tmp/tree.after" &&
    [ ! -e bindings/python/mvvm/libmvvm.so ]
}
check "building the wheel adds nothing to bindings/python" tree_clean

venv() {
    "$PYTHON" -m venv "$tmp/venv" &&
    noswift "$tmp/venv/bin/python" -m pip install --no-index --disable-pip-version-check "$wheel" &&
    noswift "$tmp/venv/bin/python" -m pip show -f mvvm | grep -F 'mvvm/libmvvm.so'
}
check "a fresh virtualenv: pip install --no-index the wheel" venv

cp Tests/packaging/check_wheel.py "$tmp/run/"
if (cd "$tmp/run" && noswift "$tmp/venv/bin/python" check_wheel.py) >"$log" 2>&1; then :; fi
grep -v '^wheel check:' "$log" | grep -v -e '^PASS ' -e '^FAIL ' | sed 's/^/    /'
while IFS= read -r line; do
    case $line in
        "PASS "*) pass "python: ${line#PASS }" ;;
        "FAIL "*) : >"$log"; fail "python: ${line#FAIL }" ;;
    esac
done < <(grep -e '^PASS ' -e '^FAIL ' "$log")
grep -q '^wheel check: [0-9]* passed, 0 failed$' "$log" || { : >"$log"; fail "python: check_wheel.py did not finish cleanly"; }

echo "time: static release build ${build_seconds} s, whole test $((SECONDS)) s"
finish
