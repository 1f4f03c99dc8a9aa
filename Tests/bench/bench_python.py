"""The Python side of the benchmarks: the SignUp flip through the mvvm package, against the
ctypes floor (one ctypes call with a string argument plus one CFUNCTYPE callback, measured in the
same run) and against a pure-Python view model with plain callbacks; and stopwatch ticks on a
virtual loop. Prints "<case> <ns per op> <deliveries>" per repetition, as bench_c does."""
import ctypes
import sys
import time

import mvvm


#: While warming up (first-use costs in Python and in the library), nothing is reported.
warming_up = False


def report(name: str, elapsed_ns: int, operations: int, deliveries: int) -> None:
    if not warming_up:
        print(f"{name} {elapsed_ns / operations:.1f} {deliveries}", flush=True)


def round_trip(n: int) -> None:
    with mvvm.Loop.virtual() as loop, mvvm.SignUpViewModel(loop) as form:
        form.user_id, form.confirm_password, form.agreed = "newuser", "password1", True
        seen = [0]

        def changed(name, value):
            seen[0] += 1

        with form.subscribe("is_sign_up_enabled", changed):
            passwords = ("password1", "short")
            start = time.perf_counter_ns()
            for i in range(n):
                form.password = passwords[i & 1]
            elapsed = time.perf_counter_ns() - start
    assert seen[0] == n, f"lost deliveries: {seen[0]} of {n}"
    report("py_round_trip_sign_up", elapsed, n, seen[0])


def ctypes_floor(n: int) -> None:
    """One ctypes call with a string argument, plus one CFUNCTYPE callback into Python."""
    libc = ctypes.CDLL(None)
    callback_type = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
    seen = [0]

    def compare(a, b):
        seen[0] += 1
        return 0

    compare_c = callback_type(compare)
    libc.qsort.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t, callback_type]
    libc.strlen.argtypes = [ctypes.c_char_p]
    two = (ctypes.c_int * 2)(1, 2)
    passwords = (b"password1", b"short")
    start = time.perf_counter_ns()
    for i in range(n):
        libc.strlen(passwords[i & 1])
        libc.qsort(two, 2, ctypes.sizeof(ctypes.c_int), compare_c)  # sorting two calls back once
    elapsed = time.perf_counter_ns() - start
    assert seen[0] == n, f"qsort called back {seen[0]} times for {n}"
    report("py_ctypes_floor", elapsed, n, seen[0])


class PurePythonSignUp:
    """The seed's sign-up rules with plain callbacks: what a Python-only view model costs."""

    def __init__(self):
        self._user_id = self._password = self._confirm = ""
        self._agreed = False
        self.is_sign_up_enabled = False
        self.listeners = []

    def _update(self):
        enabled = (len(self._user_id) >= 6 and len(self._password) >= 8
                   and self._password == self._confirm and self._agreed)
        if enabled != self.is_sign_up_enabled:
            self.is_sign_up_enabled = enabled
            for listener in self.listeners:
                listener("is_sign_up_enabled", enabled)

    def set(self, user_id=None, password=None, confirm=None, agreed=None):
        if user_id is not None: self._user_id = user_id
        if password is not None: self._password = password
        if confirm is not None: self._confirm = confirm
        if agreed is not None: self._agreed = agreed
        self._update()


def pure_python(n: int) -> None:
    form = PurePythonSignUp()
    form.set(user_id="newuser", confirm="password1", agreed=True)
    seen = [0]

    def changed(name, value):
        seen[0] += 1

    form.listeners.append(changed)
    passwords = ("password1", "short")
    start = time.perf_counter_ns()
    for i in range(n):
        form.set(password=passwords[i & 1])
    elapsed = time.perf_counter_ns() - start
    assert seen[0] == n
    report("py_pure_python_view_model", elapsed, n, seen[0])


def stopwatch_ticks(n: int) -> None:
    with mvvm.Loop.virtual() as loop, mvvm.StopWatchViewModel(loop) as watch:
        seen = [0]

        def ticked(name, value):
            seen[0] += 1

        with watch.subscribe("time", ticked):
            watch.main_action()
            start = time.perf_counter_ns()
            loop.advance(n * 10)
            elapsed = time.perf_counter_ns() - start
    assert seen[0] == n, f"{seen[0]} ticks of {n}"
    report("py_stopwatch_tick", elapsed, n, seen[0])


def main() -> None:
    repetitions = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    global warming_up
    for repetition in range(-1, repetitions):  # -1: every case once, a tenth as long, unreported
        warming_up = repetition < 0
        ops = n // 10 if warming_up else n
        round_trip(ops)
        ctypes_floor(ops)
        pure_python(ops)
        stopwatch_ticks(ops)


if __name__ == "__main__":
    main()
