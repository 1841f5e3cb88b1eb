"""A worker process that answers a backend's calls and can be killed at a deadline.

For backends whose library has no way to stop at a deadline (CaDiCaL in PySAT ignores
interrupts, for one), the only deadline that holds is a process that can be killed; and
``sudoku compare`` runs every backend in one, so that a crash costs one puzzle. A worker is a
forked child that serves calls one at a time over a pipe, so a persistent solver lives on in it
from one puzzle to the next; a call that outlives its deadline has the worker killed, and the
next call forks a fresh one. A child that dies without answering (a crash in a C extension)
becomes a BackendCrashed; it never takes the caller down with it.

Each call is timed inside the worker around the backend's method alone, so the pipe and the
pickling are not part of the time.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from solvers.backend import Backend, Found, Operation
from solvers.board import Board, Shape
from solvers.deadline import Deadline
from solvers.errors import BackendCrashed, SolveTimeout


class Attempt(NamedTuple):
    """What one call of a backend came to, before it is judged: what it found, or the
    exception it raised; and its wall and CPU seconds."""

    found: Found | None
    error: BaseException | None
    seconds: float
    cpu_seconds: float


def attempt(
    engine: Backend, operation: Operation, board: Board, limit: int, timeout: float | None
) -> Attempt:
    """One call of the backend with a deadline that starts as the call does, timed alone;
    every failure is caught and handed back for the caller to judge."""
    start, cpu = time.perf_counter(), time.process_time()
    try:
        deadline = Deadline(timeout)
        if operation is Operation.SOLVE:
            found = engine.solve(board, deadline)
        else:
            found = engine.count(board, limit, deadline)
    except BaseException as error:
        if isinstance(error, KeyboardInterrupt):
            raise
        return Attempt(None, error, time.perf_counter() - start, time.process_time() - cpu)
    return Attempt(found, None, time.perf_counter() - start, time.process_time() - cpu)


class Worker:
    """One forked process serving the backend that ``build`` makes (in the child)."""

    def __init__(self, build: Callable[[], Backend], name: str) -> None:
        self.build, self.name = build, name
        self._process: Any = None
        self._pipe: Any = None
        self.setup_seconds = 0.0  # building the backend and preparing shapes, in the worker

    def attempt(
        self,
        operation: Operation,
        board: Board,
        limit: int,
        inner: float | None,
        kill_after: float | None,
    ) -> Attempt:
        """The call's attempt; a timeout after ``kill_after`` seconds (the worker is killed),
        a crash if the worker dies. ``inner`` is the deadline the backend itself is given."""
        try:
            return self._ask(("one", operation, board, limit, inner), kill_after)
        except SolveTimeout as error:
            return Attempt(None, error, kill_after or 0.0, 0.0)
        except BackendCrashed as error:
            return Attempt(None, error, 0.0, 0.0)

    def attempt_each(
        self,
        operation: Operation,
        boards: list[Board],
        limit: int,
        inner: float | None,
        kill_after: float | None,
    ) -> list[Attempt]:
        """Each board in turn in one round trip, each timed alone: a worker kept busy keeps
        its caches warm, as a user's process solving a file does. If the batch has to be
        killed or the worker dies, each board again on its own, so that the timeout or the
        crash is pinned on the puzzle that caused it."""
        whole = None if kill_after is None else kill_after * len(boards)
        try:
            return self._ask(("each", operation, boards, limit, inner), whole)
        except (SolveTimeout, BackendCrashed):
            return [self.attempt(operation, board, limit, inner, kill_after) for board in boards]

    def prepare(self, shape: Shape) -> None:
        """Build what the backend keeps per board shape (untimed setup, added to setup)."""
        seconds = self._ask(("prepare", shape), None)
        self.setup_seconds += seconds

    def _ask(self, request: tuple, seconds: float | None) -> Any:
        if self._process is None or not self._process.is_alive():
            self._start()
        self._pipe.send(request)
        if not self._pipe.poll(seconds):
            self.stop()
            raise SolveTimeout(stats={"killed_after_s": seconds})
        try:
            kind, payload = self._pipe.recv()
        except EOFError:
            self._process.join(1)
            code = self._process.exitcode
            self.stop()
            raise BackendCrashed(f"{self.name} worker died (exit code {code})") from None
        if kind == "error":
            raise payload
        return payload

    def _start(self) -> None:
        context = multiprocessing.get_context("fork")
        self._pipe, child_end = context.Pipe()
        self._process = context.Process(target=_serve, args=(child_end, self.build), daemon=True)
        self._process.start()
        child_end.close()
        try:
            kind, payload = self._pipe.recv()
        except EOFError:
            self.stop()
            raise BackendCrashed(f"{self.name} worker died while starting") from None
        if kind == "error":
            self.stop()
            raise payload
        self.setup_seconds += payload

    def stop(self) -> None:
        if self._process is not None:
            if self._process.is_alive():
                self._process.kill()
            self._process.join()
            self._pipe.close()
        self._process = self._pipe = None


def _serve(pipe: Any, build: Callable[[], Backend]) -> None:
    start = time.perf_counter()
    try:
        engine = build()
    except BaseException as error:
        _send(pipe, ("error", error))
        return
    pipe.send(("ready", time.perf_counter() - start))
    while True:
        try:
            request = pipe.recv()
        except EOFError:
            return
        kind, *args = request
        if kind == "one":
            operation, board, limit, inner = args
            _send(pipe, ("ok", attempt(engine, operation, board, limit, inner)))
        elif kind == "each":
            operation, boards, limit, inner = args
            _send(pipe, ("ok", [attempt(engine, operation, b, limit, inner) for b in boards]))
        else:
            start = time.perf_counter()
            try:
                engine.prepare(args[0])
            except Exception as error:
                _send(pipe, ("error", error))
                continue
            _send(pipe, ("ok", time.perf_counter() - start))


def _send(pipe: Any, reply: tuple[str, Any]) -> None:
    """Send a reply; one that cannot be pickled goes back as a BackendCrashed."""
    try:
        pipe.send(reply)
    except Exception as error:
        pipe.send(("error", BackendCrashed(f"worker could not send {reply[1]!r}: {error}")))
