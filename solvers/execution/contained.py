"""An outside backend as its worker process serves it: nothing it raises ends the worker.

An outside package's backend runs contained (``registry.contained``): in a worker process of
its own, which the runner kills at the deadline and replaces after a crash. In that process a
search may still raise what the worker does not take as a backend's failure (a bare
BaseException, a KeyboardInterrupt of its own: the worker ignores Ctrl-C, so no signal raised
it); ``Contained`` turns each into a failure of that puzzle, named in one line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from solvers.backend import Backend, Found, Operation
from solvers.board import Board, Shape
from solvers.deadline import Deadline
from solvers.errors import BackendCrashed

T = TypeVar("T")


class NotAFound:
    """Stands in for an answer that is not a ``Found`` (a generator cannot cross the pipe),
    naming its type for the runner's check of the answer's form."""

    def __init__(self, kind: str) -> None:
        self.kind = kind


class Contained(Backend):
    """``inner``, answering as itself, with whatever it raises beyond an Exception or a
    SystemExit (which the worker already takes as a failure) made a BackendCrashed."""

    def __init__(self, inner: Backend) -> None:
        super().__init__(**inner.options)
        self.inner = inner

    def solve(self, board: Board, deadline: Deadline) -> Found:
        return _sendable(_guarded(self.inner.solve, board, deadline))

    def count(self, board: Board, limit: int, deadline: Deadline) -> Found:
        return _sendable(_guarded(self.inner.count, board, limit, deadline))

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        return _sendable(_guarded(self.inner.search, board, deadline, limit))

    def stops_itself(self, operation: Operation) -> bool:
        return self.inner.stops_itself(operation)

    def prepare(self, shape: Shape) -> None:
        _guarded(self.inner.prepare, shape)

    def close(self) -> None:
        _guarded(self.inner.close)


def _guarded(call: Callable[..., T], *args: object) -> T:
    try:
        return call(*args)
    except (Exception, SystemExit):
        raise
    except BaseException as error:
        raise BackendCrashed(f"backend raised {type(error).__name__}: {error}") from None


def _sendable(found: object) -> Found:
    if isinstance(found, Found):
        return found
    return NotAFound(type(found).__name__)  # type: ignore[return-value]  # judged malformed
