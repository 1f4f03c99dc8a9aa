"""The web example's test programs' one way to run their tests (test_server.py, test_web.py): each
test in turn, "ok N - name" or "not ok N - name" and the traceback for each, then the counts as
"LABEL: N passed, N failed", which run_tests.sh reads."""

import sys
import traceback


def run_tests(label, tests, run, after_failure=lambda test: None):
    """Runs run(test) for each test, reporting each; after_failure(test) follows a failure (a
    screenshot, a restarted server); the exit status: 0 when none failed."""
    passed = failed = 0
    for number, test in enumerate(tests, 1):
        try:
            run(test)
            passed += 1
            print("ok %d - %s" % (number, test.__name__), flush=True)
        except Exception:  # noqa: BLE001 - each failure is reported and the rest still run
            failed += 1
            print("not ok %d - %s" % (number, test.__name__), flush=True)
            traceback.print_exc(file=sys.stdout)
            after_failure(test)
    print("%s: %d passed, %d failed" % (label, passed, failed))
    return 0 if failed == 0 else 1
