#!/usr/bin/env bash
# Runs the Ruby binding's tests: bash bindings/ruby/run_tests.sh [FOLDER_OF_libcatalog.so | PATH_TO_libcatalog.so]
# (default: build/catalog). The binding has no default library: the tests load the catalog's
# (examples/catalog, built by make catalog) from MVVM_CATALOG_LIBRARY, which this sets to the
# library given, then runs every test/test_*.rb in one Ruby process with minitest, whose closing
# line ("N runs, N assertions, 0 failures, 0 errors, 0 skips") is the last line. Needs Debian's
# ruby (Fiddle and minitest come with it). Exits non-zero when a test fails or errs, or when
# nothing ran.
# MVVM_SAMPLE_LIBRARY=PATH_TO_libsample.so (Tests/outside, built by its swift build) also runs the
# tests of its classes (loaded beside the catalog's with Mvvm.load); when unset, it is set to
# Tests/outside/.build/debug/libsample.so if that is built, else those tests do not run (a note
# on stderr says so); set to a path that is no file, their tests fail.
set -u
caller_dir=$(pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ruby=${RUBY:-ruby}
. "$here/../../Tests/locate_library.sh"

root=$(cd "$here/../.." && pwd)
library=$(mvvm_locate_library run_tests.sh "${1:-$root/build/catalog}") || exit 2
export MVVM_CATALOG_LIBRARY="$library"

if [ -z "${MVVM_SAMPLE_LIBRARY:-}" ] && [ -f "$root/Tests/outside/.build/debug/libsample.so" ]; then
    MVVM_SAMPLE_LIBRARY="$root/Tests/outside/.build/debug/libsample.so"
fi
if [ -n "${MVVM_SAMPLE_LIBRARY:-}" ]; then
    case "$MVVM_SAMPLE_LIBRARY" in
        /*) ;;
        *) MVVM_SAMPLE_LIBRARY="$caller_dir/$MVVM_SAMPLE_LIBRARY" ;;
    esac
    export MVVM_SAMPLE_LIBRARY
else
    echo "run_tests.sh: MVVM_SAMPLE_LIBRARY is not set: the tests of Tests/outside's classes do not run" >&2
fi

if ! command -v "$ruby" >/dev/null 2>&1; then
    echo "run_tests.sh: $ruby not found (Debian: apt-get install ruby)" >&2
    exit 2
fi

cd "$here" || exit 2
"$ruby" -w -Ilib -e '
  files = Dir["test/test_*.rb"].sort
  abort "run_tests.sh: no test/test_*.rb" if files.empty?
  files.each { |f| require File.expand_path(f) }
' -- "${@:2}"
