"""The catalog: one Python class per C class, named as in Swift.

Properties are Python properties over the typed C calls (``snake_case`` as in DESIGN.md):
bindings are settable, outputs raise :class:`~mvvm.ReadOnlyError` (an ``AttributeError``) when
set. Commands are methods. Children are attributes returning a cached object that keeps its
parent alive and is closed with it.
"""

from __future__ import annotations

import weakref
from typing import Any, Callable, Optional, Union

from ._core import (
    Binding,
    Child,
    Loop,
    MvvmObject,
    Output,
    SignUpRequest,
    WelcomeRequest,
    _check_int64,
    _construct,
    _construct_with_service,
    _encode,
    _model_handle,
)
from ._errors import InvalidArgumentError, TypeMismatchError
from ._lib import lib

__all__ = [
    "CountDownTimer",
    "TimerViewModel",
    "DisplayViewModel",
    "PlayerViewModel",
    "StopWatch",
    "StopWatchViewModel",
    "InputEchoViewModel",
    "SignUpViewModel",
    "WelcomeViewModel",
    "Counter",
    "RandomCounter",
    "CounterViewModel",
    "CounterPageViewModel",
]


def _check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeMismatchError("seed must be an int, not %s" % type(seed).__name__)
    if not 0 <= seed < 2**64:
        raise InvalidArgumentError("seed must be in 0 ... 2**64 - 1, not %d" % seed)
    return seed


# --- the timer --------------------------------------------------------------------------------


class CountDownTimer(MvvmObject):
    """Counts down ``full_count`` seconds, ticking once a second while running; at 0 it stops
    and resets (count 0)."""

    __slots__ = ()
    c_class = "count_down_timer"

    full_count: Output[int] = Output("int", "The seconds to count down from.")
    count: Output[int] = Output("int", "Seconds counted so far.")
    remaining_time: Output[int] = Output("int", "full_count - count.")
    is_doing: Output[bool] = Output("bool", "Running.")

    def __init__(self, loop: Loop, full_count: int) -> None:
        if isinstance(full_count, bool) or not isinstance(full_count, int):
            raise TypeMismatchError("full_count must be an int, not %s" % type(full_count).__name__)
        handle = _construct(lib.mvvm_count_down_timer_new, loop, _check_int64(full_count, "full_count"))
        self._adopt(handle, loop)

    def start(self) -> None:
        """Starts or resumes; does nothing while running."""
        lib.mvvm_count_down_timer_start(self._h())

    def pause(self) -> None:
        """Pauses, keeping the count; does nothing while paused."""
        lib.mvvm_count_down_timer_pause(self._h())

    def stop(self) -> None:
        """Stops and resets the count to 0."""
        lib.mvvm_count_down_timer_stop(self._h())

    def reset(self) -> None:
        """Resets the count to 0 without starting or stopping."""
        lib.mvvm_count_down_timer_reset(self._h())


class DisplayViewModel(MvvmObject):
    """The timer screen's display (a child of :class:`TimerViewModel`)."""

    __slots__ = ()
    c_class = "display_view_model"

    remaining_time: Output[int] = Output("int", "Seconds left.")


class PlayerViewModel(MvvmObject):
    """The timer screen's buttons (a child of :class:`TimerViewModel`). Taps go through
    ``throttle(for: 1 s, latest: false)``: a tap acts on the loop's next dispatch."""

    __slots__ = ()
    c_class = "player_view_model"

    is_stop_enabled: Output[bool] = Output("bool", "remaining_time < full_count.")
    is_play_timer: Output[bool] = Output("bool", "The timer is running.")

    def tapped(self, action: str) -> None:
        """``action`` is ``"start"``, ``"pause"`` or ``"stop"`` (else InvalidArgumentError)."""
        lib.mvvm_player_view_model_tapped(self._h(), _encode(action, "action"))


class TimerViewModel(MvvmObject):
    """The timer screen over a :class:`CountDownTimer` of the same loop."""

    __slots__ = ()
    c_class = "timer_view_model"

    is_show_alert: Binding[bool] = Binding("bool", "True when the timer ran out; set False to dismiss.")
    display: Child[DisplayViewModel] = Child("The display child.")
    player: Child[PlayerViewModel] = Child("The buttons child.")

    def __init__(self, loop: Loop, timer: CountDownTimer) -> None:
        handle = _construct(lib.mvvm_timer_view_model_new, loop, _model_handle(timer, "timer"))
        self._adopt(handle, loop, (timer,))

    @property
    def timer(self) -> CountDownTimer:
        """The model this view model was made over."""
        return self._refs[0]  # type: ignore[no-any-return]


# --- the stopwatch ----------------------------------------------------------------------------


class StopWatch(MvvmObject):
    """Integer milliseconds on the loop's clock, published every 10 ms while running."""

    __slots__ = ()
    c_class = "stop_watch"

    time_ms: Output[int] = Output("int", "Elapsed milliseconds (as of the last tick or stop).")
    state: Output[str] = Output("string", '"startable", "stoppable" or "resumable".')

    def __init__(self, loop: Loop) -> None:
        self._adopt(_construct(lib.mvvm_stop_watch_new, loop), loop)

    def start(self) -> None:
        """Starts from zero; only when startable."""
        lib.mvvm_stop_watch_start(self._h())

    def stop(self) -> None:
        """Stops, keeping the time; only when stoppable."""
        lib.mvvm_stop_watch_stop(self._h())

    def resume(self) -> None:
        """Continues; only when resumable."""
        lib.mvvm_stop_watch_resume(self._h())

    def clear(self) -> None:
        """Back to zero and startable; only when resumable."""
        lib.mvvm_stop_watch_clear(self._h())


class StopWatchViewModel(MvvmObject):
    """The stopwatch screen: ``time`` is ``"HH:MM:SS.cc"`` (hours modulo 100)."""

    __slots__ = ()
    c_class = "stop_watch_view_model"

    time: Output[str] = Output("string", '"HH:MM:SS.cc".')
    main_action_title: Output[str] = Output("string", '"Start", "Stop" or "Resume".')
    clear_action_title: Output[str] = Output("string", '"Clear".')
    main_action_enabled: Output[bool] = Output("bool", "")
    clear_action_enabled: Output[bool] = Output("bool", "Only when resumable.")

    def __init__(self, loop: Loop) -> None:
        self._adopt(_construct(lib.mvvm_stop_watch_view_model_new, loop), loop)

    def main_action(self) -> None:
        """Start, stop or resume, as the state allows."""
        lib.mvvm_stop_watch_view_model_main_action(self._h())

    def clear_action(self) -> None:
        """Clears to 00:00:00.00; does nothing unless resumable."""
        lib.mvvm_stop_watch_view_model_clear_action(self._h())


# --- forms ------------------------------------------------------------------------------------


class InputEchoViewModel(MvvmObject):
    """Echoes its input: ``label`` is the input, ``message`` is ``"Your input is '<input>'!"``."""

    __slots__ = ()
    c_class = "input_echo_view_model"

    input: Binding[str] = Binding("string", "The text typed.")
    label: Output[str] = Output("string", "The input.")
    message: Output[str] = Output("string", "\"Your input is '<input>'!\".")

    def __init__(self, loop: Loop) -> None:
        self._adopt(_construct(lib.mvvm_input_echo_view_model_new, loop), loop)


#: A sign-up service: called with a :class:`~mvvm.SignUpRequest`, answered with ``complete(bool)``.
SignUpService = Callable[[SignUpRequest], Any]
#: A welcome API: called with a :class:`~mvvm.WelcomeRequest`, answered with ``complete(str)``.
WelcomeApi = Callable[[WelcomeRequest], Any]


class SignUpViewModel(MvvmObject):
    """The sign-up form. Enabled when user_id has 6 or more characters (grapheme clusters),
    password 8 or more, confirm_password equals password, and agreed.

    ``service``, when given, is called for each sign-up with a :class:`~mvvm.SignUpRequest`
    (``.user_id``, ``.password``), and answered with ``request.complete(True/False)`` at once,
    later, from another thread or from asyncio. It stays alive until the view model is released.
    Without it, the built-in service accepts every sign-up at once.
    """

    __slots__ = ()
    c_class = "sign_up_view_model"

    user_id: Binding[str] = Binding("string", "")
    password: Binding[str] = Binding("string", "")
    confirm_password: Binding[str] = Binding("string", "")
    agreed: Binding[bool] = Binding("bool", "")
    is_completion_alert_presented: Binding[bool] = Binding("bool", "Set by a successful sign-up; set False to dismiss.")
    is_sign_up_enabled: Output[bool] = Output("bool", "")

    def __init__(self, loop: Loop, service: Optional[SignUpService] = None) -> None:
        if service is None:
            self._adopt(_construct(lib.mvvm_sign_up_view_model_new, loop), loop)
            return
        handle, entry = _construct_with_service(lib.mvvm_sign_up_view_model_new_with_service, loop, service,
                                                "sign-up service of SignUpViewModel", SignUpRequest)
        self._adopt(handle, loop)
        entry.owner = weakref.ref(self)

    def sign_up_tapped(self) -> None:
        """Asks the service, when enabled; does nothing otherwise."""
        lib.mvvm_sign_up_view_model_sign_up_tapped(self._h())


class WelcomeViewModel(MvvmObject):
    """The ``transform(input) -> output`` screen. Signals: ``on_show_welcome`` (str),
    ``on_show_text`` (str, ``"<text> show!!"``), ``on_show_only_first`` (None), the last pairing
    loads with taps as Combine's ``zip`` does.

    ``api``, when given, is called for each ``view_did_load`` with a
    :class:`~mvvm.WelcomeRequest`, answered with ``request.complete("message")``. Without it the
    built-in API answers ``"Welcome!"`` on the loop's next dispatch.
    """

    __slots__ = ()
    c_class = "welcome_view_model"

    def __init__(self, loop: Loop, api: Optional[WelcomeApi] = None) -> None:
        if api is None:
            self._adopt(_construct(lib.mvvm_welcome_view_model_new, loop), loop)
            return
        handle, entry = _construct_with_service(lib.mvvm_welcome_view_model_new_with_api, loop, api,
                                                "welcome API of WelcomeViewModel", WelcomeRequest)
        self._adopt(handle, loop)
        entry.owner = weakref.ref(self)

    def view_did_load(self) -> None:
        """Asks the API for the welcome message."""
        lib.mvvm_welcome_view_model_view_did_load(self._h())

    def tap_button(self, text: str) -> None:
        """Emits ``on_show_text("<text> show!!")``."""
        lib.mvvm_welcome_view_model_tap_button(self._h(), _encode(text, "text"))


# --- counters ---------------------------------------------------------------------------------


class Counter(MvvmObject):
    """Counts one at a time."""

    __slots__ = ()
    c_class = "counter"

    count: Output[int] = Output("int", "")

    def __init__(self, loop: Loop) -> None:
        self._adopt(_construct(lib.mvvm_counter_new, loop), loop)

    def increment(self) -> None:
        lib.mvvm_counter_increment(self._h())

    def decrement(self) -> None:
        lib.mvvm_counter_decrement(self._h())


class RandomCounter(MvvmObject):
    """Each increment or decrement draws a count from 1 to 10 from a generator seeded with
    ``seed``: a seed always repeats its sequence."""

    __slots__ = ()
    c_class = "random_counter"

    count: Output[int] = Output("int", "")

    def __init__(self, loop: Loop, seed: int) -> None:
        self._adopt(_construct(lib.mvvm_random_counter_new, loop, _check_seed(seed)), loop)

    def increment(self) -> None:
        lib.mvvm_random_counter_increment(self._h())

    def decrement(self) -> None:
        lib.mvvm_random_counter_decrement(self._h())


class CounterViewModel(MvvmObject):
    """A counter screen over a :class:`Counter` or a :class:`RandomCounter` of the same loop
    (or a child of :class:`CounterPageViewModel`)."""

    __slots__ = ()
    c_class = "counter_view_model"

    label: Output[str] = Output("string", '"Counter" or "Random Counter".')
    count: Output[str] = Output("string", "The model's count, as text.")

    def __init__(self, loop: Loop, model: Union[Counter, RandomCounter]) -> None:
        handle = _construct(lib.mvvm_counter_view_model_new, loop, _model_handle(model, "model"))
        self._adopt(handle, loop, (model,))

    @property
    def model(self) -> Optional[Union[Counter, RandomCounter]]:
        """The model this view model was made over (None for a page's child)."""
        for kept in self._refs:
            if isinstance(kept, (Counter, RandomCounter)):
                return kept
        return None

    def increment(self) -> None:
        lib.mvvm_counter_view_model_increment(self._h())

    def decrement(self) -> None:
        lib.mvvm_counter_view_model_decrement(self._h())


class CounterPageViewModel(MvvmObject):
    """A page of two counters: ``first_counter`` over a Counter, ``second_counter`` over a
    RandomCounter seeded with ``seed`` (from the system's random source when None)."""

    __slots__ = ()
    c_class = "counter_page_view_model"

    read_me: Output[str] = Output("string", "")
    first_counter: Child[CounterViewModel] = Child("Over a Counter.")
    second_counter: Child[CounterViewModel] = Child("Over a RandomCounter.")

    def __init__(self, loop: Loop, seed: Optional[int] = None) -> None:
        if seed is None:
            handle = _construct(lib.mvvm_counter_page_view_model_new, loop)
        else:
            handle = _construct(lib.mvvm_counter_page_view_model_new_with_seed, loop, _check_seed(seed))
        self._adopt(handle, loop)


# Every C class has its Python class (checked by the tests against the library).
CLASSES = {cls.c_class: cls for cls in (
    CountDownTimer, TimerViewModel, DisplayViewModel, PlayerViewModel, StopWatch, StopWatchViewModel,
    InputEchoViewModel, SignUpViewModel, WelcomeViewModel, Counter, RandomCounter, CounterViewModel,
    CounterPageViewModel,
)}

