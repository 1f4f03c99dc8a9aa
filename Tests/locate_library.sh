# Sourced by the scripts that run a suite against a library (bindings/python/run_tests.sh,
# bindings/ruby/run_tests.sh, examples/lua/run.sh, bindings/lua/run_tests.sh, examples/python/run_tk_tests.sh).
#
# mvvm_locate_library ME PATH: prints the absolute path of the library PATH names, PATH being
# the library file or the folder holding the catalog's libcatalog.so, relative to the current
# folder unless absolute. When there is no such file, prints "ME: no library at ... (build it
# first: make catalog)" on stderr and returns 2. Use: library=$(mvvm_locate_library "$me" "$1") || exit 2
mvvm_locate_library() {
    local me=$1 library=$2
    case $library in
        /*) ;;
        *) library=$PWD/$library ;;
    esac
    if [ -d "$library" ]; then library=${library%/}/libcatalog.so; fi
    if [ ! -f "$library" ]; then
        echo "$me: no library at $library (build it first: make catalog)" >&2
        return 2
    fi
    printf '%s\n' "$library"
}
