"""Signals held off while a library loads its compiled part: Ctrl-C, SIGTERM and SIGHUP noted,
then acted on as their handlers would have once the import is done (``held``)."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

HELD = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Within (in the main thread): Ctrl-C, SIGTERM and SIGHUP are noted, then acted on as the
    block ends, as their handlers would have. An engine's library loading its compiled part
    may take the exception a handler raises for a failure of its own ("initialization
    failed": the backend called unavailable) or swallow it (the run going on)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted: list[int] = []

    def note(number: int, _frame: object) -> None:
        noted.append(number)

    before = {number: signal.signal(number, note) for number in HELD}
    try:
        yield
    finally:
        for number, handler in before.items():
            if signal.getsignal(number) is note:  # unless the library put in one of its own
                signal.signal(number, handler)
        for number in dict.fromkeys(noted):
            handler = before[number]
            if callable(handler):
                handler(number, None)
            elif handler == signal.SIG_DFL:
                signal.raise_signal(number)
