#!/usr/bin/env bash
# Proves include/mvvm.h (the fixed ABI), examples/catalog/include/mvvm_catalog.h (the catalog's typed
# calls, generated as any package's are) and the catalog's library, libcatalog.so, agree:
#  1. each header compiles alone, cleanly, as C11 and as C++ with -Wall -Wextra -Werror -pedantic;
#  2. every function they declare is exported, every exported mvvm_ symbol is declared, and no
#     function is declared by both (mvvm.h holds no typed call);
#  3. mvvm.h's prototypes match what the Swift compiler itself emits for MVVMExport's @_cdecl
#     functions: the emitted declarations are compiled after the header, so any difference in a
#     parameter or return type is a "conflicting types" error;
#  4. mvvm_catalog.h's match MVVMCatalog's, which are written as any package's are, in plain
#     Swift types (Int32 for mvvm_status, raw pointers for mvvm_value): the same functions, each
#     with the same number of parameters, each of the same machine type (pointer, 32- or 64-bit
#     integer, bool, double).
# Usage: Tests/C/check_header.sh BIN_DIR [LIBRARY]   (BIN_DIR: the catalog's build folder,
# examples/catalog/.build/debug, whose Swift-emitted headers are read; LIBRARY: its libcatalog.so)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:?usage: check_header.sh BIN_DIR [LIBRARY]}
lib=${2:-$bin/libcatalog.so}
emitted_header="$bin/MVVMExport.build/include/MVVMExport-Swift.h"
catalog_emitted_header="$bin/MVVMCatalog.build/include/MVVMCatalog-Swift.h"
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
printf '#include "mvvm_catalog.h"\nint main(void) { return mvvm_counter_new(0, 0) == MVVM_OK; }\n' > "$work/use_catalog.c"
check catalog-header-compiles-as-c11 cc -std=c11 -Wall -Wextra -Werror -pedantic -Iinclude -Iexamples/catalog/include -fsyntax-only "$work/use_catalog.c"
check catalog-header-compiles-as-c++ c++ -std=c++17 -x c++ -Wall -Wextra -Werror -pedantic -Iinclude -Iexamples/catalog/include -fsyntax-only \
    "$work/use_catalog.c"

grep -oE '\bmvvm_[a-z0-9_]+\(' include/mvvm.h | tr -d '(' | sort -u > "$work/declared"
grep -oE '\bmvvm_[a-z0-9_]+\(' examples/catalog/include/mvvm_catalog.h | tr -d '(' | sort -u > "$work/declared_catalog"
sort -u "$work/declared" "$work/declared_catalog" > "$work/declared_all"
readelf --dyn-syms -W "$lib" | awk '$7 != "UND" && ($5 == "GLOBAL" || $5 == "WEAK") { sub(/@.*/, "", $8); print $8 }' \
    | sort -u > "$work/exported"
check only-mvvm-symbols-exported bash -c "! grep -v '^mvvm_' '$work/exported'"
check declared-equals-exported diff "$work/declared_all" "$work/exported"
check mvvm-h-declares-no-typed-call bash -c "[ -s '$work/declared_catalog' ] && ! comm -12 '$work/declared' '$work/declared_catalog' | grep ."

# Swift puts C declarations of @_cdecl functions in its generated header, behind macros.
grep -E '^SWIFT_EXTERN .*\bmvvm_' "$emitted_header" \
    | sed -E 's/^SWIFT_EXTERN //; s/ SWIFT_[A-Z_]+//g' > "$work/emitted.h"
grep -oE '\bmvvm_[a-z0-9_]+\(' "$work/emitted.h" | tr -d '(' | sort -u > "$work/emitted"
check swift-emits-every-declared-function diff "$work/declared" "$work/emitted"
# Swift's generated header is an Objective-C one and prints Swift's Bool as BOOL; the @_cdecl
# ABI of Bool is C's _Bool, so BOOL is read as bool here; likewise UInt (NSUInteger there) is size_t.
printf '#include "mvvm.h"\n#define BOOL bool\n#define NSUInteger size_t\n#include "emitted.h"\n' > "$work/agree.c"
check prototypes-match-swift clang -std=c11 -Wall -Werror -Wno-nullability-completeness -Iinclude -I"$work" -fsyntax-only "$work/agree.c"

# The catalog's typed calls, machine type by machine type (4. above).
grep -E '^SWIFT_EXTERN .*\bmvvm_' "$catalog_emitted_header" \
    | sed -E 's/^SWIFT_EXTERN //; s/ SWIFT_[A-Z_]+//g' > "$work/emitted_catalog.h"
check catalog-prototypes-match-swift python3 - examples/catalog/include/mvvm_catalog.h "$work/emitted_catalog.h" <<'PY'
import re, sys

def split(params):
    """Top-level parameters (a function pointer's own are inside parentheses)."""
    out, depth, part = [], 0, ""
    for ch in params:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            out.append(part)
            part = ""
        else:
            part += ch
    return [p.strip() for p in out + [part] if p.strip() and p.strip() != "void"]

def machine(c_type):
    if "*" in c_type or "(" in c_type or c_type.strip().endswith("_fn"):  # mvvm_request_fn, ...
        return "pointer"
    words = c_type.replace("const", "").split()
    kinds = {"mvvm_status": "int32", "int32_t": "int32", "mvvm_handle": "int64", "uint64_t": "int64",
             "int64_t": "int64", "bool": "bool", "BOOL": "bool", "double": "double"}
    return kinds.get(words[0] if words else "", "unknown " + c_type)

def prototypes(path):
    text = re.sub(r"/\*.*?\*/", " ", open(path).read(), flags=re.S)
    found = {}
    for m in re.finditer(r"(\w+)\s+(mvvm_\w+)\s*\(((?:[^()]|\([^()]*\))*)\)\s*;", text):
        params = split(m.group(3))
        # A parameter's type is what precedes its name (a function pointer is a pointer whole).
        found[m.group(2)] = [machine(m.group(1))] + [machine(p if "(" in p else re.sub(r"\w+$", "", p)) for p in params]
    return found

declared, emitted = prototypes(sys.argv[1]), prototypes(sys.argv[2])
problems = ["%s: declared %s, emitted %s" % (name, declared.get(name), emitted.get(name))
            for name in sorted(set(declared) | set(emitted)) if declared.get(name) != emitted.get(name)]
print("\n".join(problems) or "%d typed calls agree" % len(declared))
sys.exit(1 if problems or not declared else 0)
PY

echo "header-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
