"""The one interface: ``solve`` and ``count_solutions`` over any backend, every answer verified."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from solvers import registry
from solvers.board import Board, Shape
from solvers.deadline import Deadline, OutOfTime
from solvers.errors import InputError, SolveTimeout
from solvers.formats import parse
from solvers.isolation import Worker
from solvers.verify import verify

REFERENCE_BACKEND = "dfs"
Grid = Board | str | Sequence[Sequence[int]]


class Status(StrEnum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    TIMEOUT = "timeout"


@dataclass(frozen=True)
class Result:
    """A verified answer: ``solution`` is set only when ``status`` is SOLVED."""

    status: Status
    solution: Board | None
    seconds: float
    backend: str
    stats: dict = field(default_factory=dict)


def as_board(grid: Grid, shape: Shape | None = None) -> Board:
    """A Board from a Board, a string in any format, or a list of rows of ints."""
    if isinstance(grid, Board):
        return grid
    if isinstance(grid, str):
        return parse(grid, shape=shape)
    if isinstance(grid, Sequence):
        return Board.from_rows(grid, shape)
    raise InputError(f"cannot read a board from {type(grid).__name__}")


def solve(
    grid: Grid, backend: str | None = None, *, timeout: float | None = None, **options: object
) -> Result:
    """Solve ``grid`` with ``backend``; the solution is verified before it is returned.

    ``backend`` None is the fastest available one (``registry.default_backend``).

    Givens that already break a rule give UNSOLVABLE without a search, the conflict in
    ``stats["conflict"]``. Raises WrongAnswer if the backend returns a grid that is not a
    solution, UsageError or BackendUnavailable for a backend that cannot be used.
    """
    board = as_board(grid)
    backend = backend or registry.default_backend()
    registry.load(backend, **options)  # fail early on an unknown backend or option
    conflicts = board.conflicts()
    if conflicts:
        return Result(Status.UNSOLVABLE, None, 0.0, backend, {"conflict": conflicts[0]})
    start = time.perf_counter()
    try:
        outcome = _run(backend, options, "solve", (board,), timeout)
    except OutOfTime as out:
        return Result(Status.TIMEOUT, None, time.perf_counter() - start, backend, out.stats)
    seconds = time.perf_counter() - start
    if outcome.solution is None:
        return Result(Status.UNSOLVABLE, None, seconds, backend, outcome.stats)
    verify(board, outcome.solution, backend)
    return Result(Status.SOLVED, outcome.solution, seconds, backend, outcome.stats)


def count_solutions(
    grid: Grid,
    limit: int = 2,
    backend: str | None = None,
    *,
    timeout: float | None = None,
    **options: object,
) -> int:
    """The number of solutions of ``grid``, where ``limit`` means "limit or more".

    Raises SolveTimeout when the deadline passes before the count is known.
    """
    if limit < 1:
        raise InputError(f"limit must be at least 1, not {limit}")
    board = as_board(grid)
    backend = backend or registry.default_backend()
    registry.load(backend, **options)
    if board.conflicts():
        return 0
    try:
        tally = _run(backend, options, "count", (board, limit), timeout)
    except OutOfTime:
        raise SolveTimeout(f"backend {backend} could not count within {timeout} s") from None
    return min(tally.count, limit)


# Worker processes for backends that cannot stop at a deadline by themselves, one per backend
# and options, kept between calls so that a persistent solver in one lives on (a deliberate
# cache: each worker serves one call at a time and is replaced when it is killed).
_workers: dict[tuple[str, tuple], Worker] = {}


def _run(backend: str, options: dict, method: str, args: tuple, timeout: float | None):
    engine = registry.load(backend, **options)
    if timeout is None or engine.native_deadline(method):
        return getattr(engine, method)(*args, Deadline(timeout))
    key = (backend, registry.options_key(options))
    worker = _workers.setdefault(key, Worker(backend, dict(key[1])))
    return worker.call(method, args, timeout)
