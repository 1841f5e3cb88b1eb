"""Worker processes that answer backend calls and can be killed at a deadline.

For backends whose library has no way to stop at a deadline (CaDiCaL in PySAT ignores
interrupts, for one), the only deadline that holds is a process that can be killed. A worker is
a forked child that serves calls one at a time over a pipe, so a persistent solver lives on in
it from one puzzle to the next; a call that outlives its deadline has the worker killed, and
the next call forks a fresh one. A child that dies without answering (a crash in a C
extension) raises BackendCrashed; it never takes the caller down with it.

Each call is timed inside the worker around the backend's method alone, so the pipe and the
pickling are not part of the time.
"""

from __future__ import annotations

import multiprocessing
import time
from typing import Any

from solvers.board import Shape
from solvers.deadline import Deadline, OutOfTime
from solvers.errors import BackendCrashed


class Worker:
    """One forked process serving ``registry.load(backend, **options).<method>(*args)``."""

    def __init__(self, backend: str, options: dict[str, str]) -> None:
        self.backend, self.options = backend, options
        self._process: Any = None
        self._pipe: Any = None
        self.setup_seconds = 0.0  # loading the backend, and preparing shapes, in the worker
        self.seconds = 0.0  # the last call's time, taken inside the worker

    def call(
        self, method: str, args: tuple, seconds: float | None, inner: float | None = None
    ) -> Any:
        """The method's answer; OutOfTime after ``seconds``, killing the worker.

        ``inner`` is the deadline the backend itself is given (None: none), so that a backend
        that can stop by itself does so, and the kill is only the backstop.
        """
        return self._ask(("call", method, args, inner), seconds)

    def call_each(
        self, method: str, args_list: list[tuple], seconds: float | None, inner: float | None
    ) -> list[tuple[str, float, Any]]:
        """The method on each args in turn, in one round trip: (kind, seconds, answer) for each,
        kind "ok" or "error" (the answer then being the exception), each timed alone. Keeping
        the worker busy keeps its caches warm, as they are when a user solves a file. Raises
        OutOfTime (killing the worker) after ``seconds`` for the whole batch."""
        return self._ask(("each", method, args_list, inner), seconds)

    def prepare(self, shape: Shape) -> None:
        """Build what the backend keeps per board shape (untimed setup, added to setup time)."""
        self._ask(("prepare", shape), None)
        self.setup_seconds += self.seconds

    def _ask(self, request: tuple, seconds: float | None) -> Any:
        if self._process is None or not self._process.is_alive():
            self._start()
        self._pipe.send(request)
        if not self._pipe.poll(seconds):
            self.stop()
            raise OutOfTime({"killed_after_s": seconds})
        try:
            kind, self.seconds, payload = self._pipe.recv()
        except EOFError:
            self._process.join(1)
            code = self._process.exitcode
            self.stop()
            raise BackendCrashed(f"{self.backend} worker died (exit code {code})") from None
        if kind == "error":
            raise payload
        return payload

    def _start(self) -> None:
        context = multiprocessing.get_context("fork")
        self._pipe, child_end = context.Pipe()
        self._process = context.Process(
            target=_serve, args=(child_end, self.backend, self.options), daemon=True
        )
        self._process.start()
        child_end.close()
        _kind, self.setup_seconds, _ = self._pipe.recv()

    def stop(self) -> None:
        if self._process is not None:
            if self._process.is_alive():
                self._process.kill()
            self._process.join()
            self._pipe.close()
        self._process = self._pipe = None


def _serve(pipe: Any, backend: str, options: dict[str, str]) -> None:
    from solvers import registry

    start = time.perf_counter()
    engine = registry.load(backend, **options)
    pipe.send(("ready", time.perf_counter() - start, None))
    while True:
        try:
            request = pipe.recv()
        except EOFError:
            return
        if request[0] == "each":
            _, method, args_list, inner = request
            function = getattr(engine, method)
            answers = [_timed(_with_deadline, function, args, inner) for args in args_list]
            _send(pipe, ("ok", 0.0, answers))
        elif request[0] == "prepare":
            _send(pipe, _timed(getattr(engine, "prepare", lambda shape: None), request[1]))
        else:
            _, method, args, inner = request
            _send(pipe, _timed(_with_deadline, getattr(engine, method), args, inner))


def _with_deadline(function: Any, args: tuple, inner: float | None) -> Any:
    """The backend's method, with a deadline that starts as the call does."""
    return function(*args, Deadline(inner))


def _timed(function: Any, *args: Any) -> tuple[str, float, Any]:
    """("ok", seconds, answer), or ("error", seconds, exception): every failure goes back to
    the caller, who decides what it means."""
    start = time.perf_counter()
    try:
        answer = function(*args)
    except BaseException as error:
        return "error", time.perf_counter() - start, error
    return "ok", time.perf_counter() - start, answer


def _send(pipe: Any, reply: tuple[str, float, Any]) -> None:
    """Send a reply; one that cannot be pickled goes back as a BackendCrashed."""
    try:
        pipe.send(reply)
    except Exception as error:
        pipe.send(("error", reply[1], BackendCrashed(f"worker failed: {reply[2]!r} ({error})")))
