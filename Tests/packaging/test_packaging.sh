#!/usr/bin/env bash
# The packaging test: C and Python programs use a libmvvm library without the Swift toolchain.
#
#  (a) C: builds the catalog's static-runtime release library (build_release.sh static
#      build/release-static: examples/catalog, libcatalog.so, soname libcatalog.so.MAJOR), installs
#      what a C developer needs into a temporary PREFIX (install.sh: mvvm.h, mvvm.pc, the
#      generator; no library), checks the layout and mvvm.pc, copies the catalog's library where an
#      app's own library goes (PREFIX/lib/libcatalog.so.VERSION and its links, docs/install.md),
#      compiles examples/c/mvvm_view.c with `pkg-config --cflags mvvm` and `-lcatalog` and an rpath
#      to PREFIX/lib only, runs examples/c/demo.script, comparing with examples/c/demo.expected, and
#      runs the installed mvvm-gen on the installed library (the catalog's typed C calls, as
#      committed).
#  (b) Python: builds the mvvm wheel (bindings/python/packaging/build_wheel.sh: the binding, the
#      generator and the C extension, no library), checks its cp310-abi3-manylinux tag against the
#      GLIBC versions the extension needs and `auditwheel show` (PyPI); ships the catalog as any
#      user's package is shipped, with `python3 -m mvvm_gen.package` run from a virtualenv holding
#      the mvvm wheel (the release library above: its typed wheel, `import catalog`); installs both
#      into a fresh virtualenv with `pip install --no-index`, and runs
#      Tests/packaging/check_wheel.py from a temporary folder, twice: with the extension, and over
#      ctypes alone (MVVM_FASTPATH=0). Then bindings/python's setup.py as `pip install
#      ./bindings/python` meets it without a compiler: a pure wheel (no stale extension of an
#      earlier build, no library) that loads the catalog installed in PREFIX/lib by its path.
#
#  (c) A user's package: `python3 -m mvvm_gen.package`, run from that virtualenv (the mvvm wheel
#      carries it), ships Tests/outside (product sample, module Sample) as a wheel and C files;
#      the wheel is installed beside mvvm's and the catalog's into a fresh virtualenv (`pip install
#      --no-index`) and imported (its classes on the mvvm wheel's C extension); mypy --strict and
#      pyright (strict), from PyPI, run against the installed wheels on
#      Tests/packaging/typing/typed_installed.py (clean) and installed_errors.py (its five
#      mistakes on their lines); the C files are copied into a prefix, and
#      Tests/packaging/use_sample.c is compiled with `pkg-config --cflags --libs sample` and run.
#  (d) The same user's package for Node.js (mvvm_gen.package --npm over the library (c) built:
#      sample-0.1.0.tgz; the repository's generator, which reads the JavaScript naming rule beside
#      the Node binding, bindings/node/naming.json) and the mvvm npm package
#      (bindings/node/package.sh, over build/node/mvvm.node: `make node`), installed
#      together with `npm install --offline` into an empty folder; Tests/packaging/npm/greet.mjs and
#      greet.cjs run (the library's classes from `import { Greeter } from 'sample'`, nothing of
#      Swift mapped), and app.ts, an ES module in TypeScript, passes `tsc --strict` against the
#      installed types, runs, and has each of its planted mistakes reported on its line.
#
# Everything after the builds runs under `env -i` with a PATH and LD_LIBRARY_PATH that hold nothing
# of /opt/swift (the toolchain: its bin folder and its runtime folder /opt/swift/usr/lib/swift/linux),
# no MVVM_LIBRARY, and HOME in the temporary folder; ldd and /proc/self/maps show that nothing of
# the Swift toolchain is loaded. The last line is "packaging: N passed, N failed"; the exit status
# is non-zero when a check failed. Needs cc, pkg-config (Debian: pkgconf), python3 with venv, and
# for `pip wheel` setuptools, and auditwheel, from the package index (or PIP_FIND_LINKS).
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
# In the root's .build-static, which (c) builds Tests/outside into too: libmvvm and OpenCombine, whose
# release commands are the same from either package, are compiled once for both.
check "build_release.sh static: the catalog's library, self-contained, soname, only mvvm_* exported" \
    env MVVM_SCRATCH="$repo/.build-static" bash bindings/c/build_release.sh static build/release-static
build_seconds=$((SECONDS - start))
lib=$repo/build/release-static/libcatalog.so
[ "$failed" -eq "$failed_before" ] && [ -f "$lib" ] || finish  # never test a stale library

major=$(mvvm_header_version major)
version=$(mvvm_header_version full)
prefix=$tmp/prefix
check "install.sh PREFIX" bash bindings/c/install.sh "$prefix"

# (The check functions chain their steps with &&: `set -e` does not apply inside `if`.)
layout() {
    find "$prefix" | sort &&
    cmp include/mvvm.h "$prefix/include/mvvm.h" && [ -f "$prefix/lib/pkgconfig/mvvm.pc" ] &&
    [ -x "$prefix/bin/mvvm-gen" ] && [ -f "$prefix/share/libmvvm/mvvm_gen/__main__.py" ] &&
    cmp Sources/MVVMExport/exports.map "$prefix/share/libmvvm/mvvm_gen/data/exports.map" &&
    cmp include/mvvm.h "$prefix/share/libmvvm/mvvm_gen/data/mvvm.h" &&
    cmp LICENSE "$prefix/share/doc/libmvvm/LICENSE" &&
    cmp THIRD_PARTY_NOTICES "$prefix/share/doc/libmvvm/THIRD_PARTY_NOTICES" &&
    # What a host needs, and no demo: no library, no catalog header.
    [ -z "$(find "$prefix" -name '*.so*' -o -name 'mvvm_catalog.h')" ]
}
check "layout: mvvm.h, mvvm.pc, bin/mvvm-gen and the generator with its data, licences; no library, no catalog" layout

# pkg-config in the restricted environment, its output without the trailing space pkgconf adds.
pc() { local out; out=$(noswift env PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config "$@") && echo "${out% }"; }
pkgconfig() {
    cat "$prefix/lib/pkgconfig/mvvm.pc" &&
    [ "$(pc --modversion mvvm)" = "$version" ] &&
    [ "$(pc --variable=prefix mvvm)" = "$prefix" ] &&
    [ "$(pc --cflags mvvm)" = "-I$prefix/include" ] &&
    [ -z "$(pc --libs mvvm)" ] &&
    grep -qx 'License: MIT' "$prefix/lib/pkgconfig/mvvm.pc"
}
check "pkg-config: version $version, cflags, no libs" pkgconfig

# The catalog's library where an app's own library goes (docs/install.md): PREFIX/lib, by its
# soname, with the link `cc -lcatalog` finds.
app_library() {
    cp "$lib" "$prefix/lib/libcatalog.so.$version" &&
    ln -s "libcatalog.so.$version" "$prefix/lib/libcatalog.so.$major" &&
    ln -s "libcatalog.so.$major" "$prefix/lib/libcatalog.so" &&
    [ "$(mvvm_soname "$prefix/lib/libcatalog.so")" = "libcatalog.so.$major" ] &&
    ! mvvm_exported_symbols "$prefix/lib/libcatalog.so" | grep -v '^mvvm_' &&
    [ "$(mvvm_exported_symbols "$prefix/lib/libcatalog.so" | grep -c '^mvvm_')" -gt 0 ]
}
check "the catalog's library where an app's goes: PREFIX/lib/libcatalog.so.$version, links .so.$major and .so, exports" app_library

library_ldd() {
    noswift ldd "$prefix/lib/libcatalog.so.$major" | tee /dev/stderr | grep -E "$MVVM_SWIFT_RUNTIME_PATTERN|not found" && return 1
    ! readelf -d "$prefix/lib/libcatalog.so.$major" | grep -E '(NEEDED|RPATH|RUNPATH)' | grep -E "$MVVM_SWIFT_RUNTIME_PATTERN"
}
check "ldd of the library: nothing from /opt/swift, no libswift*, libFoundation*, libdispatch" library_ldd

cp examples/c/mvvm_view.c "$tmp/c/"
compile() (
    cd "$tmp/c" &&
    noswift cc -std=c11 -Wall -Wextra -Werror -pedantic mvvm_view.c $(pc --cflags mvvm) -L"$prefix/lib" -lcatalog \
        -Wl,-rpath,"$prefix/lib" -o mvvm_view
)
check "cc mvvm_view.c \$(pkg-config --cflags mvvm) -lcatalog, no Swift on PATH" compile

program_ldd() {
    local out
    out=$(noswift ldd "$tmp/c/mvvm_view") || return 1
    echo "$out"
    grep -qF "libcatalog.so.$major => $prefix/lib/libcatalog.so.$major" <<<"$out" &&
        ! grep -E "$MVVM_SWIFT_RUNTIME_PATTERN|not found" <<<"$out"
}
check "the program loads libcatalog.so.$major from PREFIX/lib and nothing of Swift" program_ldd

transcript() (
    cd "$tmp/c" &&
    noswift ./mvvm_view --script "$repo/examples/c/demo.script" >transcript &&
    diff -u "$repo/examples/c/demo.expected" transcript
)
check "mvvm_view --script demo.script gives demo.expected" transcript

# The installed generator, without a checkout: the typed C calls of the installed library, as the
# catalog's committed header declares them.
installed_generator() (
    cd "$tmp/c" &&
    noswift "$prefix/bin/mvvm-gen" --library "$prefix/lib/libcatalog.so" --module MVVMCatalog,MVVMViewModels,MVVMModels \
        --header catalog.h &&
    diff <(sed -n '/@generated typed calls begin/,/@generated typed calls end/p' "$repo/examples/catalog/include/mvvm_catalog.h") \
         <(sed -n '/@generated typed calls begin/,/@generated typed calls end/p' catalog.h) &&
    noswift "$prefix/bin/mvvm-gen" derive --help | grep -q -- "--target" &&
    noswift "$prefix/bin/mvvm-gen" package --help | grep -q -- "--product"
)
check "PREFIX/bin/mvvm-gen: the installed library's typed calls as committed; derive and package there" installed_generator

# --- (b) Python -----------------------------------------------------------------------------
# The files of bindings/python (not caches: others may run its tests meanwhile), before and after.
python_tree() {
    find bindings/python \( -name __pycache__ -o -name .pytest_cache -o -name .hypothesis \) -prune -o -print | sort
}
python_tree >"$tmp/tree.before"
check "build_wheel.sh: the binding, the generator and the C extension, no library" \
    bash bindings/python/packaging/build_wheel.sh "$tmp/wheel"
wheel=$(ls "$tmp"/wheel/mvvm-*.whl 2>/dev/null | head -1)
package_version=$(sed -n 's/^version = "\(.*\)"$/\1/p' bindings/python/pyproject.toml | head -1)
arch=$(uname -m)
# The platform tag: manylinux_2_N_ARCH, 2.N no older than the newest GLIBC_2.x the extension needs
# (taken out of the wheel).
glibc_minor=none
if [ -n "${wheel:-}" ] && "$PYTHON" -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("mvvm/_fast.abi3.so"))' \
        "$wheel" "$tmp/_fast.abi3.so" 2>/dev/null; then
    glibc_minor=$(readelf -V "$tmp/_fast.abi3.so" | grep -o 'GLIBC_2\.[0-9]*' | sed 's/GLIBC_2\.//' | sort -n | tail -1)
fi
wheel_tag=$(basename "${wheel:-none}" .whl)
wheel_tag=${wheel_tag##*-}
tag_check() {
    echo "newest GLIBC the extension needs: 2.$glibc_minor; the wheel's platform tag: $wheel_tag"
    [ -f "$tmp/_fast.abi3.so" ] && [[ $wheel_tag =~ ^manylinux_2_([0-9]+)_${arch}$ ]] && [ "${BASH_REMATCH[1]}" -ge "$glibc_minor" ] &&
    [ "$(basename "$wheel")" = "mvvm-$package_version-cp310-abi3-$wheel_tag.whl" ]
}
check "the wheel holds the C extension and is tagged cp310-abi3-manylinux_2_N_$arch, 2.N >= GLIBC_2.$glibc_minor (readelf): $(basename "${wheel:-none}")" tag_check
# auditwheel (PyPI) reads a wheel as PyPI's policies do: the tag must be the one it finds (and, for
# a manylinux tag, the newest its symbol versions allow).
auditwheel_agrees() {  # auditwheel_agrees WHEEL TAG
    local out
    { [ -x "$tmp/tools/bin/auditwheel" ] ||
      { "$PYTHON" -m venv "$tmp/tools" && "$tmp/tools/bin/python" -m pip install -q --disable-pip-version-check auditwheel; }; } &&
    out=$("$tmp/tools/bin/auditwheel" show "$1") && echo "$out" &&
    out=$(tr -s ' \n' '  ' <<<"$out") &&
    grep -qF "is consistent with the following platform tag: \"$2\"" <<<"$out" &&
    { [[ $2 != manylinux* ]] || grep -qF "constrains the platform tag to \"$2\"" <<<"$out"; }
}
# The libraries a binary needs that no manylinux policy allows (auditwheel's: libc, libm, libstdc++,
# libgcc_s...), one a line: a library over MVVMCombine links Foundation's networking, so libcurl.
outside_manylinux() {
    readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p' |
        grep -vE '^(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt|libutil|ld-linux-[a-z0-9_-]+)\.so(\.[0-9]+)*$' || true
}
check "auditwheel show: the mvvm wheel is consistent with $wheel_tag and constrained to it" auditwheel_agrees "$wheel" "$wheel_tag"
tree_clean() {
    python_tree >"$tmp/tree.after" &&
    diff "$tmp/tree.before" "$tmp/tree.after"
}
check "building the wheel adds nothing to bindings/python" tree_clean

venv() {
    "$PYTHON" -m venv "$tmp/venv" &&
    noswift "$tmp/venv/bin/python" -m pip install --no-index --disable-pip-version-check "$wheel" &&
    local files && files=$(noswift "$tmp/venv/bin/python" -m pip show -f mvvm) && echo "$files" &&
    grep -qF 'mvvm/_fast.abi3.so' <<<"$files" && grep -qF 'mvvm_gen/pynames.py' <<<"$files" &&
    [ "$(grep -c '\.so$' <<<"$files")" = 1 ]  # the extension, and no library
}
check "a fresh virtualenv: pip install --no-index the mvvm wheel (the extension, no library)" venv

# The catalog shipped as any user's package is, by the command the mvvm wheel carries, from the
# release library above (no Swift needed with --library).
catalog_dist=$tmp/catalog-dist
ship_catalog() {
    (cd "$tmp/run" && noswift "$tmp/venv/bin/python" -m mvvm_gen.package --library "$lib" --name catalog \
        --version "$package_version" --module MVVMCatalog,MVVMViewModels,MVVMModels --out "$catalog_dist")
}
check "python -m mvvm_gen.package (from the installed mvvm wheel) ships the catalog's release library" ship_catalog
catalog_wheel=$(ls "$catalog_dist"/catalog-*.whl 2>/dev/null | head -1)
library_tag=$(basename "${catalog_wheel:-none}" .whl)
library_tag=${library_tag##*-}
# The library's tag: manylinux_2_N when it needs only what manylinux allows, else linux_ARCH (it
# then installs where what it needs is; mvvm_gen.package warns so).
outside=$(outside_manylinux "$lib" | tr '\n' ' ')
catalog_wheel_check() {
    echo "the library needs, outside manylinux: ${outside:-nothing}; the wheel's tag: $library_tag"
    [ "$(basename "${catalog_wheel:-none}")" = "catalog-$package_version-py3-none-$library_tag.whl" ] &&
    if [ -z "$outside" ]; then [[ $library_tag =~ ^manylinux_2_[0-9]+_${arch}$ ]]; else [ "$library_tag" = "linux_$arch" ]; fi &&
    "$PYTHON" - "$catalog_wheel" <<'PY'
import sys, zipfile
wheel = zipfile.ZipFile(sys.argv[1])
names = sorted(wheel.namelist())
print("\n".join(names))
assert [n for n in names if not n.startswith("catalog-")] == \
    ["catalog/__init__.py", "catalog/__init__.pyi", "catalog/libcatalog.so", "catalog/py.typed"], names
stubs = wheel.read("catalog/__init__.pyi").decode()
assert "class SignUpViewModel(_MvvmObject)" in stubs and "class StopWatchViewModel(_MvvmObject)" in stubs
assert "\nRequires-Dist: mvvm>=" in wheel.read([n for n in names if n.endswith("METADATA")][0]).decode()
PY
}
check "the catalog's typed wheel: catalog-$package_version-py3-none-$library_tag.whl, its package, stubs, library, Requires-Dist: mvvm" catalog_wheel_check
check "auditwheel show: the catalog's wheel is consistent with $library_tag" \
    auditwheel_agrees "${catalog_wheel:-none}" "$library_tag"
catalog_install() {
    noswift "$tmp/venv/bin/python" -m pip install --no-index --disable-pip-version-check --find-links "$tmp/wheel" \
        "$catalog_wheel" &&
    noswift "$tmp/venv/bin/python" -m pip list --disable-pip-version-check | grep -E '^(mvvm|catalog) '
}
check "pip install --no-index the catalog's typed wheel beside mvvm's" catalog_install

cp Tests/packaging/check_wheel.py "$tmp/run/"
# check_wheel WAY MVVM_FASTPATH: check_wheel.py's checks, each a check here named "python (WAY): ...".
check_wheel() {
    if (cd "$tmp/run" && noswift env MVVM_FASTPATH="$2" "$tmp/venv/bin/python" check_wheel.py) >"$log" 2>&1; then :; fi
    grep -v '^wheel check:' "$log" | grep -v -e '^PASS ' -e '^FAIL ' | sed 's/^/    /'
    while IFS= read -r line; do
        case $line in
            "PASS "*) pass "python ($1): ${line#PASS }" ;;
            "FAIL "*) : >"$log"; fail "python ($1): ${line#FAIL }" ;;
        esac
    done < <(grep -e '^PASS ' -e '^FAIL ' "$log")
    grep -q '^wheel check: [0-9]* passed, 0 failed$' "$log" || { : >"$log"; fail "python ($1): check_wheel.py did not finish cleanly"; }
}
check_wheel "the C extension" ""
check_wheel "ctypes alone" 0

# pip install ./bindings/python as it meets the package: a copy of it (the generator copied in,
# not linked), outside the repository, built where there is no compiler and an earlier build left
# an extension in build/lib: a pure wheel, with no library and not that extension.
source_copy() {
    rm -rf "$1" && mkdir -p "$1" &&
    cp bindings/python/pyproject.toml bindings/python/setup.py bindings/python/build_fast.py bindings/python/README.md "$1/" &&
    cp -R bindings/python/mvvm "$1/mvvm" && cp -R tools/mvvm_gen "$1/mvvm_gen" &&
    find "$1/mvvm" "$1/mvvm_gen" \( -name __pycache__ -o -name '*.so' \) -prune -exec rm -rf {} +
}
pure() {
    source_copy "$tmp/src-pure" &&
    mkdir -p "$tmp/src-pure/build/lib/mvvm" && cp "$tmp/_fast.abi3.so" "$tmp/src-pure/build/lib/mvvm/_fast.abi3.so" &&
    env -u MVVM_LIBRARY CC="$tmp/no-such-cc" "$PYTHON" -m pip wheel --no-deps --disable-pip-version-check \
        -w "$tmp/wheel-pure" "$tmp/src-pure" &&
    [ "$(basename "$(ls "$tmp"/wheel-pure/mvvm-*.whl)")" = "mvvm-$package_version-py3-none-any.whl" ] &&
    "$PYTHON" -c 'import sys, zipfile; n = zipfile.ZipFile(sys.argv[1]).namelist(); print(n); sys.exit(any(x.endswith(".so") for x in n))' \
        "$tmp"/wheel-pure/mvvm-*.whl
}
check "pip wheel bindings/python without a compiler: py3-none-any, no library, no stale build/lib extension" pure
# That package loads the catalog installed in PREFIX/lib (a) by its path, and nothing by itself.
by_path() {
    local pure
    pure=$(ls "$tmp"/wheel-pure/mvvm-*.whl) &&
    "$PYTHON" -m venv "$tmp/venv-pure" &&
    noswift "$tmp/venv-pure/bin/python" -m pip install -q --no-index --disable-pip-version-check "$pure" &&
    (cd "$tmp/run" && noswift env LD_LIBRARY_PATH="$prefix/lib" "$tmp/venv-pure/bin/python" -c '
import sys, mvvm
assert not mvvm.fast_path and not hasattr(mvvm, "Counter"), "a class before a library is loaded"
assert not [l for l in open("/proc/self/maps") if "libcatalog" in l], "a library loaded by itself"
catalog = mvvm.load(sys.argv[1])
with catalog.Loop.virtual() as loop, catalog.Counter(loop) as counter:
    counter.increment()
    count = counter.count
print(catalog.path, catalog.version, count)
sys.exit(str(catalog.path) != sys.argv[1] or count != 1)' "$prefix/lib/libcatalog.so.$major")
}
check "the pure package loads PREFIX/lib/libcatalog.so.$major by its path (over ctypes), and no library by itself" by_path


# --- (c) A user's package: Tests/outside (product sample, module Sample) shipped by the command
# the mvvm wheel carries, python3 -m mvvm_gen.package, run by the virtualenv's Python (not the
# source tree). Building the library needs Swift; everything after runs without it. Its scratch
# folder is the root's .build-static, this suite's own (it runs beside the others), where (a)
# compiled libmvvm already.
user_dist=$tmp/user-dist
user_start=$SECONDS
ship_user_package() {
    local out
    out=$(cd "$tmp/run" && env -u PYTHONPATH -u MVVM_LIBRARY "$tmp/venv/bin/python" -m mvvm_gen.package \
              --package-path "$repo/Tests/outside" --scratch-path "$repo/.build-static" \
              --product sample --module Sample --out "$user_dist" 2>&1)
    local status=$?
    echo "$out"
    [ $status -eq 0 ] &&
    # the wheel's exports.map, not the repository's: no checkout needed
    grep -qF -- "--version-script=$tmp/venv/lib/" <<<"$out" && grep -qF "mvvm_gen/data/exports.map" <<<"$out"
}
check "python -m mvvm_gen.package (from the installed mvvm wheel) builds Tests/outside's sample" ship_user_package
user_build_seconds=$((SECONDS - user_start))
user_wheel=$(ls "$user_dist"/sample-*.whl 2>/dev/null | head -1)

same_flags() {
    local python_flags bash_flags=() i
    python_flags=$(env -u PYTHONPATH "$tmp/venv/bin/python" -c \
        'from mvvm_gen.package import RELEASE_SWIFT_FLAGS as f; print(" ".join(f))') || return 1
    for ((i = 0; i < ${#MVVM_RELEASE_SWIFT_FLAGS[@]}; i++)); do
        case ${MVVM_RELEASE_SWIFT_FLAGS[i]} in
            --version-script=*) unset 'bash_flags[${#bash_flags[@]}-1]'; bash_flags=("${bash_flags[@]}") ;;
            *) bash_flags+=("${MVVM_RELEASE_SWIFT_FLAGS[i]}") ;;
        esac
    done
    echo "mvvm_gen.package: $python_flags"; echo "common.sh:        ${bash_flags[*]}"
    [ "$python_flags" = "${bash_flags[*]}" ] &&
    cmp Sources/MVVMExport/exports.map "$tmp"/venv/lib/python*/site-packages/mvvm_gen/data/exports.map &&
    cmp include/mvvm.h "$tmp"/venv/lib/python*/site-packages/mvvm_gen/data/mvvm.h
}
check "the release flags and the wheel's exports.map and mvvm.h are the repository's" same_flags

user_tag=$(basename "${user_wheel:-none}" .whl)
user_tag=${user_tag##*-}
user_outside=$(outside_manylinux "$user_dist/sample-c/lib/libsample.so.0.1.0" 2>/dev/null | tr '\n' ' ')
user_wheel_check() {
    echo "the library needs, outside manylinux: ${user_outside:-nothing}; the wheel's tag: $user_tag"
    [ "$(basename "${user_wheel:-none}")" = "sample-0.1.0-py3-none-$user_tag.whl" ] &&
    if [ -z "$user_outside" ]; then [[ $user_tag =~ ^manylinux_2_[0-9]+_${arch}$ ]]; else [ "$user_tag" = "linux_$arch" ]; fi &&
    "$PYTHON" - "$user_wheel" <<'PY'
import sys, zipfile
wheel = zipfile.ZipFile(sys.argv[1])
names = sorted(wheel.namelist())
print("\n".join(names))
want = ["sample/__init__.py", "sample/__init__.pyi", "sample/libsample.so", "sample/py.typed",
        "sample-0.1.0.dist-info/METADATA", "sample-0.1.0.dist-info/RECORD", "sample-0.1.0.dist-info/WHEEL",
        "sample-0.1.0.dist-info/top_level.txt"]
assert names == sorted(want), names
metadata = wheel.read("sample-0.1.0.dist-info/METADATA").decode()
print(metadata)
assert "\nRequires-Dist: mvvm>=" in metadata
assert "class Greeter(_MvvmObject)" in wheel.read("sample/__init__.pyi").decode()
PY
}
check "the user's wheel: sample-0.1.0-py3-none-$user_tag.whl (as its library's needs allow), its module, stubs, py.typed, library, Requires-Dist: mvvm" user_wheel_check

user_venv=$tmp/venv-user
user_install() {
    "$PYTHON" -m venv "$user_venv" &&
    noswift "$user_venv/bin/python" -m pip install --no-index --disable-pip-version-check --find-links "$tmp/wheel" \
        "$user_wheel" "$catalog_wheel" &&
    noswift "$user_venv/bin/python" -m pip list --disable-pip-version-check | grep -E '^(mvvm|sample|catalog) '
}
check "a fresh virtualenv: pip install --no-index the user's wheel and the catalog's (mvvm comes from its wheel)" user_install

mkdir -p "$tmp/typing"
cp Tests/packaging/typing/typed_installed.py Tests/packaging/typing/installed_errors.py "$tmp/typing/"
user_runs() (
    cd "$tmp/typing" &&
    noswift "$user_venv/bin/python" - <<'PY'
import sys
import mvvm
import sample
import typed_installed

seen = typed_installed.main()
print(seen)
assert sample.__file__.startswith(sys.prefix), sample.__file__
assert seen[1] == "stoppable" and "Hello, Bob!" in seen and seen[-1] == "libsample.so", seen
assert "Tally" in dir(sample) and sample.library.path.name == "libsample.so"
with open("/proc/self/maps") as maps:
    mapped = {line.split()[-1] for line in maps if len(line.split()) >= 6}
swift = sorted(p for p in mapped if "/opt/swift" in p or "libswift" in p or "libdispatch" in p)
assert not swift, swift
assert any(p.endswith("/sample/libsample.so") for p in mapped) and any(p.endswith("/catalog/libcatalog.so") for p in mapped)
# The user's classes run on the mvvm wheel's C extension: a property's set is its C slot.
assert mvvm.fast_path and mvvm.fast_path_reason.startswith("in use: " + sys.prefix), mvvm.fast_path_reason
greeter = next(c for c in sample.library.classes.values() if c.__name__ == "Greeter")
assert any(type(member).__set__.__qualname__ == "PropertyBase.__set__" for member in vars(greeter).values()
           if type(member).__name__ == "Property")
PY
)
check "import sample from its wheel, beside the catalog's, on mvvm's C extension, without Swift (typed_installed.py runs)" user_runs

# The type checkers (PyPI: mypy, pyright with its own Node.js) over the installed wheels: run from a
# folder outside the repository, on the user virtualenv's site-packages only.
checkers() {
    [ -x "$tmp/tools/bin/python" ] || "$PYTHON" -m venv "$tmp/tools" || return 1
    "$tmp/tools/bin/python" -m pip install -q --disable-pip-version-check mypy "pyright[nodejs]"
}
check "mypy and pyright installed (PyPI)" checkers
type_check() {  # type_check mypy|pyright FILE: the checker's output
    (cd "$tmp/typing" && case $1 in
        mypy) env -u PYTHONPATH -u MYPYPATH "$tmp/tools/bin/mypy" --strict --no-incremental --show-column-numbers \
                  --no-error-summary --python-executable "$user_venv/bin/python" "$2" ;;
        pyright) env -u PYTHONPATH "$tmp/tools/bin/pyright" --pythonpath "$user_venv/bin/python" "$2" ;;
    esac)
}
error_lines() {  # error_lines mypy|pyright FILE < output: the lines with an error, sorted
    case $1 in
        mypy) sed -n "s/^$2:\([0-9]*\):[0-9]*: error:.*/\1/p" ;;
        pyright) sed -n "s/^ *[^ ]*\/$2:\([0-9]*\):[0-9]* - error:.*/\1/p" ;;
    esac | sort -nu
}
for checker in mypy pyright; do
    clean() { type_check "$1" typed_installed.py; }
    check "$checker (strict) on a program importing the installed mvvm, catalog and sample: no error" clean "$checker"
    mistakes() {
        local out expected found
        out=$(type_check "$1" installed_errors.py); echo "$out"
        expected=$(grep -n '# error' "$tmp/typing/installed_errors.py" | cut -d: -f1 | sort -nu)
        found=$(error_lines "$1" installed_errors.py <<<"$out")
        echo "expected lines: $(echo $expected); reported: $(echo $found)"
        [ "$(wc -l <<<"$expected")" -eq 5 ] && [ "$expected" = "$found" ]
    }
    check "$checker (strict): writing an output, a value outside a String enum, a wrong argument type, a missing constructor argument, an unknown member, each on its line" mistakes "$checker"
done

# The C files: copied into a prefix as the command says, compiled with pkg-config, run without Swift.
user_prefix=$tmp/user-prefix
user_c() {
    mkdir -p "$user_prefix" && cp -a "$user_dist/sample-c/." "$user_prefix/" &&
    ls -lR "$user_prefix" &&
    [ "$(readlink "$user_prefix/lib/libsample.so")" = libsample.so.0 ] &&
    [ "$(readlink "$user_prefix/lib/libsample.so.0")" = libsample.so.0.1.0 ] &&
    [ "$(mvvm_soname "$user_prefix/lib/libsample.so.0.1.0")" = libsample.so.0 ] &&
    ! mvvm_exported_symbols "$user_prefix/lib/libsample.so.0.1.0" | grep -v '^mvvm_' &&
    cmp include/mvvm.h "$user_prefix/include/mvvm.h" &&
    diff <(sed -n '/@generated typed calls begin/,$p' Tests/outside/include/sample.h) \
         <(sed -n '/@generated typed calls begin/,$p' "$user_prefix/include/sample.h") &&
    cp Tests/packaging/use_sample.c "$tmp/c/" &&
    (cd "$tmp/c" && flags=$(noswift env PKG_CONFIG_PATH="$user_prefix/lib/pkgconfig" pkg-config --cflags --libs sample) &&
     echo "pkg-config --cflags --libs sample: $flags" &&
     noswift cc -std=c11 -Wall -Wextra -Werror -pedantic use_sample.c $flags -Wl,-rpath,"$user_prefix/lib" -o use_sample &&
     out=$(noswift ./use_sample) && echo "$out" &&
     [ "$out" = "Hello, C! greeted 1; total 13, even no; libmvvm $version" ] &&
     # Read whole first: `grep -q` leaving a pipe early would fail `tee` (pipefail) at random.
     links=$(noswift ldd ./use_sample) && echo "$links" >&2 &&
     grep -qF "libsample.so.0 => $user_prefix/lib/libsample.so.0" <<<"$links" &&
     ! grep -E "$MVVM_SWIFT_RUNTIME_PATTERN|not found" <<<"$links")
}
check "the user's C files: cp -a into a prefix, cc use_sample.c \$(pkg-config --cflags --libs sample), runs without Swift" user_c

# --- (d) The user's package for Node.js -----------------------------------------------------------
npm_app=$tmp/npm-app
npm_dist=$tmp/user-npm
mkdir -p "$npm_app"
ship_npm() {
    local built
    built=$(swift build --package-path Tests/outside --scratch-path "$repo/.build-static" -c release --show-bin-path)/libsample.so &&
    env -u MVVM_LIBRARY PYTHONPATH="$repo/tools" "$PYTHON" -m mvvm_gen.package --library "$built" --name sample \
        --module Sample --out "$npm_dist" --npm
}
check "python3 -m mvvm_gen.package --npm ships the library (c) built as an npm package" ship_npm
cp Tests/packaging/npm/greet.mjs Tests/packaging/npm/greet.cjs Tests/packaging/npm/app.ts Tests/packaging/npm/tsconfig.json "$npm_app/"
user_npm_check() {
    local tarball=$npm_dist/sample-0.1.0.tgz
    [ -f "$tarball" ] && tar -tzf "$tarball" | sort | tee /dev/stderr | diff - <(printf 'package/%s\n' README.md classes.d.ts \
        index.d.mts index.d.ts index.js index.mjs libsample.so package.json | sort) &&
    tar -xzOf "$tarball" package/package.json | node -e "
const pkg = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
const assert = require('node:assert/strict');
assert.equal(pkg.name, 'sample');
assert.equal(pkg.dependencies.mvvm, '^$(mvvm_header_version major).$(mvvm_header_version minor).0');
assert.deepEqual(pkg.cpu, [process.arch]);
assert.ok(pkg.exports['.'].import && pkg.exports['.'].require);"
}
check "the user's npm package: sample-0.1.0.tgz, its modules, declarations and library, depending on mvvm ^$(mvvm_header_version major).$(mvvm_header_version minor).0" user_npm_check
npm_install() {
    bash bindings/node/package.sh "$tmp/npm" build/node/mvvm.node &&
    (cd "$npm_app" && printf '{ "name": "app", "private": true, "type": "module" }\n' >package.json &&
     noswift npm install --offline --no-audit --no-fund --cache "$tmp/npm-cache" "$tmp/npm/mvvm-$version.tgz" \
         "$npm_dist/sample-0.1.0.tgz" && ls node_modules/mvvm/mvvm.node node_modules/sample/libsample.so)
}
check "npm install --offline mvvm-$version.tgz and sample-0.1.0.tgz into an empty folder, without Swift" npm_install
npm_greets() {
    local out status
    out=$(cd "$npm_app" && noswift node "$1" 2>&1); status=$?
    echo "$out"
    [ "$status" = 0 ] && diff -u Tests/packaging/npm/greet.expected - <<<"$out"
}
check "greet.mjs: import { Loop, Greeter } from 'sample', without Swift (nothing of it mapped)" npm_greets greet.mjs
check "greet.cjs: require('sample'), without Swift (nothing of it mapped)" npm_greets greet.cjs
npm_typed() {
    local out status
    (cd "$npm_app" && noswift tsc -p tsconfig.json) && out=$(cd "$npm_app" && noswift node out/app.js 2>&1); status=$?
    echo "$out"
    [ "$status" = 0 ] && diff -u Tests/packaging/npm/app.expected - <<<"$out"
}
check "tsc --strict (ES module, nodenext) on app.ts against the installed sample and mvvm types; it runs" npm_typed
npm_mistakes() { (cd "$npm_app" && noswift node "$repo/bindings/node/tests/planted.js" . app.ts 4); }
check "tsc --strict reports each of the mistakes planted in app.ts (four at least), on its line" npm_mistakes

echo "time: static release build ${build_seconds} s, user package build ${user_build_seconds} s, whole test $((SECONDS)) s"
finish
