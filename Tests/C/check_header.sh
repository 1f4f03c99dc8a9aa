#!/usr/bin/env bash
# Proves include/mvvm.h and libmvvm.so agree:
#  1. the header compiles cleanly as C11 and as C++ with -Wall -Wextra -Werror -pedantic;
#  2. every function it declares is exported, and every exported mvvm_ symbol is declared;
#  3. each prototype matches what the Swift compiler itself emits for the @_cdecl functions:
#     the emitted declarations are compiled after the header, so any difference in a parameter
#     or return type is a "conflicting types" error.
# Usage: Tests/C/check_header.sh BIN_DIR   (the folder holding libmvvm.so, from `swift build --show-bin-path`)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:?usage: check_header.sh BIN_DIR}
lib="$bin/libmvvm.so"
emitted_header="$bin/MVVMExport.build/include/MVVMExport-Swift.h"
work=build/header-check
mkdir -p "$work"
passed=0 failed=0
check() { # name, command...
    local name=$1; shift
    if "$@" >"$work/$name.log" 2>&1; then passed=$((passed + 1)); echo "ok: $name"
    else failed=$((failed + 1)); echo "FAILED: $name"; sed 's/^/    /' "$work/$name.log"; fi
}

printf '#include "mvvm.h"\nint main(void) { return mvvm_version() == 0; }\n' > "$work/use.c"
check header-compiles-as-c11 cc -std=c11 -Wall -Wextra -Werror -pedantic -Iinclude -fsyntax-only "$work/use.c"
check header-compiles-as-c++ c++ -std=c++17 -x c++ -Wall -Wextra -Werror -pedantic -Iinclude -fsyntax-only "$work/use.c"

grep -oE '\bmvvm_[a-z0-9_]+\(' include/mvvm.h | tr -d '(' | sort -u > "$work/declared"
readelf --dyn-syms -W "$lib" | awk '$7 != "UND" && ($5 == "GLOBAL" || $5 == "WEAK") { sub(/@.*/, "", $8); print $8 }' \
    | sort -u > "$work/exported"
check only-mvvm-symbols-exported bash -c "! grep -v '^mvvm_' '$work/exported'"
check declared-equals-exported diff "$work/declared" "$work/exported"

# Swift puts C declarations of @_cdecl functions in its generated header, behind macros.
grep -E '^SWIFT_EXTERN .*\bmvvm_' "$emitted_header" \
    | sed -E 's/^SWIFT_EXTERN //; s/ SWIFT_[A-Z_]+//g' > "$work/emitted.h"
grep -oE '\bmvvm_[a-z0-9_]+\(' "$work/emitted.h" | tr -d '(' | sort -u > "$work/emitted"
check swift-emits-every-declared-function diff "$work/declared" "$work/emitted"
# Swift's generated header is an Objective-C one and prints Swift's Bool as BOOL; the @_cdecl
# ABI of Bool is C's _Bool, so BOOL is read as bool here; likewise UInt (NSUInteger there) is size_t.
printf '#include "mvvm.h"\n#define BOOL bool\n#define NSUInteger size_t\n#include "emitted.h"\n' > "$work/agree.c"
check prototypes-match-swift clang -std=c11 -Wall -Werror -Wno-nullability-completeness -Iinclude -I"$work" -fsyntax-only "$work/agree.c"

echo "header-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
