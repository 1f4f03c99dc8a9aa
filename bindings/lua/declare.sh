# Sourced: mvvm_lua_declare OUT writes include/mvvm.h passed through the C preprocessor to OUT,
# what mvvm.declare(OUT) gives ffi.cdef (cpp -P -E; CPP=... to choose another, clang -E -P when
# cpp is missing). -P: no line markers, which ffi.cdef does not read. Nothing else is changed.
mvvm_lua_declare() {
    local root preprocess
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
    command -v luajit >/dev/null 2>&1 || { echo "luajit not found (Debian: apt-get install luajit)" >&2; return 2; }
    if [ -n "${CPP:-}" ]; then
        read -r -a preprocess <<<"$CPP"
    elif command -v cpp >/dev/null 2>&1; then
        preprocess=(cpp)
    elif command -v clang >/dev/null 2>&1; then
        preprocess=(clang -E -x c)
    else
        echo "no C preprocessor (Debian: apt-get install cpp)" >&2
        return 2
    fi
    "${preprocess[@]}" -P -E "$root/include/mvvm.h" >"$1"
}
