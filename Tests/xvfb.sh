# Tests/xvfb.sh - a private virtual X server for the GUI tests; sourced by
# examples/python/run_tk_tests.sh and examples/gtk/run_tests.sh.
#
#   . Tests/xvfb.sh
#   trap mvvm_xvfb_stop EXIT
#   mvvm_xvfb_start -screen 0 1024x768x24 [-fbdir "$MVVM_XVFB_DIR"] || exit 2
#   DISPLAY=":$MVVM_XVFB_DISPLAY" ...
#
# MVVM_XVFB_DIR, a new folder made on sourcing, holds Xvfb's log and whatever the options put
# there (-fbdir: the screen as an XWD file, Xvfb_screen0). Xvfb picks a free display and writes
# its number to fd 3 once it accepts connections; mvvm_xvfb_start waits for that (10 s at most)
# and sets MVVM_XVFB_DISPLAY, or prints Xvfb's log on stderr and returns 1. mvvm_xvfb_stop ends
# the server and removes the folder.

MVVM_XVFB_DIR=$(mktemp -d "${TMPDIR:-/tmp}/mvvm-xvfb.XXXXXX")
MVVM_XVFB_PID=
MVVM_XVFB_DISPLAY=

mvvm_xvfb_start() {
    Xvfb -displayfd 3 -nolisten tcp "$@" 3>"$MVVM_XVFB_DIR/display" >"$MVVM_XVFB_DIR/Xvfb.log" 2>&1 </dev/null &
    MVVM_XVFB_PID=$!
    for _ in $(seq 1 200); do
        MVVM_XVFB_DISPLAY=$(tr -dc 0-9 <"$MVVM_XVFB_DIR/display")
        [ -n "$MVVM_XVFB_DISPLAY" ] && return 0
        kill -0 "$MVVM_XVFB_PID" 2>/dev/null || break
        sleep 0.05
    done
    echo "Xvfb did not start:" >&2
    cat "$MVVM_XVFB_DIR/Xvfb.log" >&2
    return 1
}

mvvm_xvfb_stop() {
    if [ -n "$MVVM_XVFB_PID" ]; then
        kill "$MVVM_XVFB_PID" 2>/dev/null
        { wait "$MVVM_XVFB_PID"; } 2>/dev/null
    fi
    rm -rf "$MVVM_XVFB_DIR"
}
