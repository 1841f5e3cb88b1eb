"""Run one call in a forked child that can be killed at a deadline.

For backends whose library has no way to stop at a deadline (CaDiCaL in PySAT ignores
interrupts, for one), the only deadline that holds is a process that can be killed. A fork
shares the parent's memory copy-on-write, so a persistent solver built in the parent is there
in the child at no cost; what the child learns is dropped with it.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from typing import Any

from solvers.deadline import OutOfTime
from solvers.errors import BackendCrashed


def call_with_deadline(function: Callable[..., Any], args: tuple, seconds: float) -> Any:
    """``function(*args)`` in a child process; OutOfTime after ``seconds``, killing the child.

    The child's exceptions are raised here again; a child that dies without answering raises
    BackendCrashed with its exit code.
    """
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_answer, args=(send, function, args), daemon=True)
    child.start()
    send.close()
    try:
        if not receive.poll(seconds):
            raise OutOfTime({"killed_after_s": seconds})
        try:
            kind, payload = receive.recv()
        except EOFError:
            child.join()
            raise BackendCrashed(f"worker died with exit code {child.exitcode}") from None
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()
    if kind == "error":
        raise payload
    return payload


def _answer(send: Any, function: Callable[..., Any], args: tuple) -> None:
    try:
        send.send(("ok", function(*args)))
    except BaseException as error:
        try:
            send.send(("error", error))
        except Exception:
            send.send(("error", BackendCrashed(f"worker failed: {error!r}")))
