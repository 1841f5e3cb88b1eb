"""Signals held off while a library loads its compiled part: Ctrl-C, SIGTERM and SIGHUP noted,
then acted on as their handlers would have once the import is done (``held``); and what keeps
the command's stop a stop where Python or a library swallows the exception its handler raised
(``stopped_by``, ``redeliver_swallowed``, ``backstop``)."""

from __future__ import annotations

import _thread
import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

HELD = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


# What the command does at once with a signal held off, beside noting it (``held``): an
# import may go on for seconds at load (numba's), and the run must end within 2 s of it.
when_held: Callable[[int], None] | None = None


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
        if not noted and when_held is not None:
            when_held(number)
        noted.append(number)

    # one ignored stays ignored: the command's stop has begun, or SIGHUP under ``nohup``
    before = {
        number: signal.signal(number, note)
        for number in HELD
        if signal.getsignal(number) != signal.SIG_IGN
    }
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


# The signal that asked the command to end (``ending``), once its handler has run: where a
# library makes an exception of its own from the handler's (NumPy's import, cut by Ctrl-C,
# raises ImportError "bad install"), the run still ends as that signal asks.
stopped_by: int | None = None
# Past this many seconds after the first signal, a program that has not ended is ended
# (``backstop``): the contract is 2 s, clean-up included.
BACKSTOP_SECONDS = 1.5


def redeliver_swallowed(
    handler: Callable[[int, object], None], raised: tuple[type[BaseException], ...]
) -> Callable[[], None]:
    """Have a stop (one of ``raised``, from ``handler``) that Python swallowed where no
    exception can go on (an at-fork callback: logging's, as a worker is forked; a ``__del__``)
    delivered again, with ``handler`` back in place, so that it ends the run after all: the
    handler had set the signals to be ignored, and the run went on deaf to every later one.
    Returns what puts the previous hook back."""
    previous = sys.unraisablehook

    def hook(unraisable: Any) -> None:
        number = stopped_by
        if number is None or not isinstance(unraisable.exc_value, raised):
            previous(unraisable)
            return
        with contextlib.suppress(ValueError):  # only the main thread sets handlers
            for each in HELD:
                signal.signal(each, handler)
        # as if the signal came again, a moment from now (from here its handler would run
        # in this hook, at its next line): in another at-fork callback it is this again
        threading.Thread(target=_again, args=(number,), daemon=True).start()

    sys.unraisablehook = hook

    def restore() -> None:
        if sys.unraisablehook is hook:
            sys.unraisablehook = previous

    return restore


def _again(number: int) -> None:
    time.sleep(0.01)
    _thread.interrupt_main(number)


def backstop(number: int, before_exit: Callable[[], None]) -> None:
    """End this process with 128 + ``number`` if it is still running ``BACKSTOP_SECONDS``
    from now (a thread of its own): a library that swallows the stop and goes on, or an exit
    that waits on a thread that never ends, cannot keep a stopped program alive.
    ``before_exit`` (kill what is left under it) runs first; the output is flushed."""

    def end() -> None:
        time.sleep(BACKSTOP_SECONDS)
        for step in (sys.stdout.flush, sys.stderr.flush, before_exit):
            helper = threading.Thread(target=_quietly, args=(step,), daemon=True)
            helper.start()
            helper.join(0.2)  # a stream whose lock the stuck run holds is given up
        os._exit(128 + number)

    threading.Thread(target=end, name="sudoku-backstop", daemon=True).start()


def _quietly(step: Callable[[], None]) -> None:
    with contextlib.suppress(Exception):
        step()
