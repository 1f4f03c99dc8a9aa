"""The C extension's interface (mvvm/_fast.c), for the type checkers; see mvvm._fastpath."""

from typing import Any, Callable, Dict, Optional

#: The address of the C ``mvvm_callback`` and ``mvvm_done_fn``.
EVENT_TRAMPOLINE: int
DONE_TRAMPOLINE: int

class PendingInterrupts:
    count: int

pending_interrupts: PendingInterrupts

class Functions:
    def __init__(self, handle: int) -> None: ...

class PropertyBase:
    def _bind_fast_path(self, functions: Functions, encoded: bytes, read_kind: int, write_kind: int,
                        read: Callable[[int], Any], write: Callable[[int, Any], None],
                        read_value: Callable[[int], Any], check: Callable[[int, str], None], deferred: Any) -> None: ...

def configure(entries: Dict[int, Any], keep_this_thread_state: Callable[[], None], late_call: Callable[[], None],
              event_of: Callable[[Optional[int], Any], Any], event_failed: Callable[[BaseException, Any], None],
              finish_call: Callable[[Any, int, Optional[int], Optional[bytes]], None]) -> None: ...
def callback_depth() -> int: ...
def enter_callback() -> None: ...
def leave_callback() -> None: ...
