"""The Python side of the benchmarks: the SignUp flip through the mvvm package (the Combine SignUp
and the @Observable one), against its PyGObject twin (the same SignUp as a GObject.Object
subclass, what a Python UI programmer would write instead; run under Debian's python3, which sees
python3-gi), against the ctypes floor (one ctypes call with a string argument plus one CFUNCTYPE
callback, measured in the same run) and against a pure-Python view model with plain callbacks; and
stopwatch ticks on a virtual loop. Prints "<case> <ns per op> <deliveries>" per repetition, as
bench_c does. The mvvm cases' names end in "_ctypes" when the package runs without its C
extension (MVVM_FASTPATH=0): run.sh runs them both ways, taking turns, in one run.

Usage: bench_python.py [REPS [N [CASE | --mvvm-only]]]: CASE runs that case once, unreported (for
callgrind_python.sh); --mvvm-only runs the mvvm cases alone, reported. The catalog's library is
loaded by its path, MVVM_CATALOG_LIBRARY (run.sh gives it)."""
import ctypes
import os
import sys
import time

import mvvm

try:
    import gi
    gi.require_version("GObject", "2.0")
    from gi.repository import GObject
except (ImportError, ValueError):  # no python3-gi for this python: no PyGObject rows
    GObject = None


#: The catalog's library (examples/catalog), whose SignUp and stopwatch are measured.
catalog = mvvm.load(os.environ["MVVM_CATALOG_LIBRARY"])
#: While warming up (first-use costs in Python and in the library), nothing is reported.
warming_up = False
#: The end of the mvvm cases' names: which way the package runs them (mvvm.fast_path).
WAY = "" if mvvm.fast_path else "_ctypes"


def report(name: str, elapsed_ns: int, operations: int, deliveries: int) -> None:
    if not warming_up:
        print(f"{name} {elapsed_ns / operations:.1f} {deliveries}", flush=True)


def round_trip(n: int, view_model: str = "SignUpViewModel", case: str = "py_round_trip_sign_up") -> None:
    with catalog.Loop.virtual() as loop, getattr(catalog, view_model)(loop) as form:
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
    report(case + WAY, elapsed, n, seen[0])


def observable_round_trip(n: int) -> None:
    """The same flip on the @Observable SignUp (is_sign_up_enabled computed)."""
    round_trip(n, "ObservableSignUpViewModel", "py_round_trip_observable_sign_up")


def make_pygobject_sign_up():
    """The SignUp as a PyGObject programmer writes it: GObject properties, notify only on a real
    change (EXPLICIT_NOTIFY), is_sign_up_enabled updated before anything is notified."""
    explicit = GObject.ParamFlags.READWRITE | GObject.ParamFlags.EXPLICIT_NOTIFY

    class SignUpForm(GObject.Object):
        __gtype_name__ = "BenchPySignUpForm"

        def __init__(self):
            super().__init__()
            self._user_id = self._password = self._confirm_password = ""
            self._agreed = self._enabled = False

        def _update(self) -> bool:
            enabled = (len(self._user_id) >= 6 and len(self._password) >= 8
                       and self._password == self._confirm_password and self._agreed)
            if enabled == self._enabled:
                return False
            self._enabled = enabled
            return True

        def _changed(self, name: str) -> None:
            enabled_changed = self._update()
            self.notify(name)
            if enabled_changed:
                self.notify("is-sign-up-enabled")

        @GObject.Property(type=str, default="", flags=explicit)
        def user_id(self):
            return self._user_id

        @user_id.setter
        def user_id(self, value):
            if value != self._user_id:
                self._user_id = value
                self._changed("user-id")

        @GObject.Property(type=str, default="", flags=explicit)
        def password(self):
            return self._password

        @password.setter
        def password(self, value):
            if value != self._password:
                self._password = value
                self._changed("password")

        @GObject.Property(type=str, default="", flags=explicit)
        def confirm_password(self):
            return self._confirm_password

        @confirm_password.setter
        def confirm_password(self, value):
            if value != self._confirm_password:
                self._confirm_password = value
                self._changed("confirm-password")

        @GObject.Property(type=bool, default=False, flags=explicit)
        def agreed(self):
            return self._agreed

        @agreed.setter
        def agreed(self, value):
            if value != self._agreed:
                self._agreed = value
                self._changed("agreed")

        @GObject.Property(type=bool, default=False, flags=GObject.ParamFlags.READABLE)
        def is_sign_up_enabled(self):
            return self._enabled

    return SignUpForm


def pygobject_round_trip(n: int, form_class) -> None:
    """`form.password = …` to a notify::is-sign-up-enabled handler that reads the new value (a
    notify carries none; the mvvm callback gets it)."""
    form = form_class()
    form.user_id, form.confirm_password, form.agreed = "newuser", "password1", True
    seen = [0]
    last = [None]

    def changed(obj, pspec):
        last[0] = obj.is_sign_up_enabled
        seen[0] += 1

    form.connect("notify::is-sign-up-enabled", changed)
    passwords = ("password1", "short")
    start = time.perf_counter_ns()
    for i in range(n):
        form.password = passwords[i & 1]
    elapsed = time.perf_counter_ns() - start
    assert seen[0] == n and last[0] is False, f"lost deliveries: {seen[0]} of {n}"
    report("pygobject_round_trip_sign_up", elapsed, n, seen[0])


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
    with catalog.Loop.virtual() as loop, catalog.StopWatchViewModel(loop) as watch:
        seen = [0]

        def ticked(name, value):
            seen[0] += 1

        with watch.subscribe("time", ticked):
            watch.main_action()
            start = time.perf_counter_ns()
            loop.advance(n * 10)
            elapsed = time.perf_counter_ns() - start
    assert seen[0] == n, f"{seen[0]} ticks of {n}"
    report("py_stopwatch_tick" + WAY, elapsed, n, seen[0])


#: The cases of the mvvm package, by name (without the way's suffix).
MVVM_CASES = {"py_round_trip_sign_up": round_trip, "py_round_trip_observable_sign_up": observable_round_trip,
              "py_stopwatch_tick": stopwatch_ticks}


def main() -> None:
    repetitions = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    choice = sys.argv[3] if len(sys.argv) > 3 else None
    global warming_up
    if choice is not None and choice != "--mvvm-only":  # one case, run once unreported: for callgrind
        warming_up = True
        if choice in MVVM_CASES:
            MVVM_CASES[choice](n)
        elif choice == "pygobject_round_trip_sign_up" and GObject is not None:
            pygobject_round_trip(n, make_pygobject_sign_up())
        else:
            sys.exit("bench_python: no case %r here" % choice)
        return
    mvvm_only = choice == "--mvvm-only"
    pygobject_form = make_pygobject_sign_up() if GObject is not None and not mvvm_only else None
    if pygobject_form is None and not mvvm_only:
        print("bench_python: no PyGObject (python3-gi) for this python: no PyGObject rows", file=sys.stderr)
    for repetition in range(-1, repetitions):  # -1: every case once, a tenth as long, unreported
        warming_up = repetition < 0
        ops = n // 10 if warming_up else n
        round_trip(ops)
        observable_round_trip(ops)
        if pygobject_form is not None:
            pygobject_round_trip(ops, pygobject_form)
        if not mvvm_only:
            ctypes_floor(ops)
            pure_python(ops)
        stopwatch_ticks(ops)


if __name__ == "__main__":
    main()
