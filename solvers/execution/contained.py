"""An outside backend as its worker process serves it (``registry.contained``): what its
search raises beyond an Exception (a bare BaseException, a KeyboardInterrupt of its own: the
worker ignores Ctrl-C, so no signal raised it) fails that puzzle, named in one line, instead
of ending the worker."""

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
    """``inner``, with what it raises beyond an Exception or a SystemExit (which the worker
    takes as a failure already) made a BackendCrashed."""

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
        raise BackendCrashed(raised(error)) from None


def raised(error: BaseException) -> str:
    return f"backend raised {type(error).__name__}: {error}"


def _sendable(found: object) -> Found:
    if isinstance(found, Found):
        return found
    return NotAFound(type(found).__name__)  # type: ignore[return-value]  # judged malformed
