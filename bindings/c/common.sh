# Shared by the packaging scripts (sourced, not run). Run from the repository root.

# What every release build of the library is built with, the shipped ones and the benchmarked:
# cross-module optimisation, so OpenCombine's generic code can be specialised for the catalog;
# and no run-time exclusivity checks, which cost a sixth of the instructions of a change
# (swift_beginAccess on every class property access OpenCombine and the catalog make). The
# debug build, which every test, sanitizer and the fuzzer run, keeps those checks.
MVVM_RELEASE_SWIFT_FLAGS=(-c release -Xswiftc -cross-module-optimization -Xswiftc -enforce-exclusivity=unchecked)

# What every library we build links with: only mvvm_* leaves it (the Swift runtime, OpenCombine and
# the engine stay inside), so two libraries in one process never lend each other their symbols.
# Given here, not in Package.swift, whose unsafe flags would keep packages from depending on
# libmvvm by version. A user's package gives the same to its own build (docs/packages.md).
MVVM_EXPORTS_MAP="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/Sources/MVVMExport/exports.map"
MVVM_EXPORTS_FLAGS=(-Xlinker "--version-script=$MVVM_EXPORTS_MAP")
MVVM_RELEASE_SWIFT_FLAGS+=("${MVVM_EXPORTS_FLAGS[@]}")

# The source tree's debug builds: the root and the packages in it that depend on libmvvm by path
# (examples/catalog, examples/todo, examples/search, Tests/derive) build into one scratch folder,
# the root's .build, where libmvvm and OpenCombine are compiled once for all of them (their compile
# commands are the same from each, so SwiftPM finds them done). The physical path: one folder
# reached by two paths would hold two module caches that clang takes for two modules. Tests/outside
# keeps its own .build, where the docs show a user's package's library.
MVVM_DEV_SCRATCH_FLAGS=(--scratch-path "$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)/.build")

# The library's version, from include/mvvm.h: mvvm_header_version major|minor|patch|full
mvvm_header_version() {
    local major minor patch
    major=$(sed -n 's/^#define MVVM_VERSION_MAJOR \([0-9][0-9]*\).*/\1/p' include/mvvm.h)
    minor=$(sed -n 's/^#define MVVM_VERSION_MINOR \([0-9][0-9]*\).*/\1/p' include/mvvm.h)
    patch=$(sed -n 's/^#define MVVM_VERSION_PATCH \([0-9][0-9]*\).*/\1/p' include/mvvm.h)
    if [ -z "$major" ] || [ -z "$minor" ] || [ -z "$patch" ]; then
        echo "cannot read MVVM_VERSION_MAJOR/MINOR/PATCH from include/mvvm.h" >&2
        return 1
    fi
    case $1 in
        major) echo "$major" ;;
        minor) echo "$minor" ;;
        patch) echo "$patch" ;;
        full) echo "$major.$minor.$patch" ;;
    esac
}

# The dynamic symbols a library defines and exports (GLOBAL or WEAK, not UND), one a line.
mvvm_exported_symbols() {
    readelf --dyn-syms --wide "$1" |
        awk '($5 == "GLOBAL" || $5 == "WEAK") && $7 != "UND" { sub(/@.*/, "", $8); print $8 }' | sort -u
}

# The SONAME of a library, or nothing.
mvvm_soname() {
    readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p'
}

# What a self-contained library must not need: the Swift runtime and the toolchain's libraries.
MVVM_SWIFT_RUNTIME_PATTERN='libswift|libFoundation|lib_Foundation|libCoreFoundation|libdispatch|libBlocksRuntime|libicu|/opt/swift'
