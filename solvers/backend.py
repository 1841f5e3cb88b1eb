"""What every backend provides, and the small value types it answers with.

A backend is a class registered by name (see ``solvers.registry``). It is built once per set of
options and then answers ``solve`` and ``count`` for any board; the registry may keep it between
calls, so a backend keeps no state about one puzzle after answering it, except deliberate caches
(a persistent incremental solver) that it documents as safe to reuse.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Protocol

from solvers.board import Board
from solvers.deadline import Deadline
from solvers.errors import UsageError


@dataclass
class Outcome:
    """What ``solve`` found: a solution, or None when there is none, and the backend's counters."""

    solution: Board | None
    stats: dict = field(default_factory=dict)


@dataclass
class Tally:
    """What ``count`` found: the number of solutions, stopped at the limit, and the counters."""

    count: int
    stats: dict = field(default_factory=dict)


class Backend(Protocol):
    name: ClassVar[str]
    # Each option's allowed values; the first is the default.
    OPTIONS: ClassVar[Mapping[str, tuple[str, ...]]]

    def native_deadline(self, operation: str) -> bool:
        """Whether ``operation`` ("solve" or "count") stops by itself at its deadline.

        When it cannot, a call with a timeout runs in a worker process that is killed at the
        deadline (``solvers.isolation``).
        """
        ...

    def solve(self, board: Board, deadline: Deadline) -> Outcome: ...

    def count(self, board: Board, limit: int, deadline: Deadline) -> Tally: ...


def choose_options(
    backend: str, allowed: Mapping[str, tuple[str, ...]], given: Mapping[str, object]
) -> dict[str, str]:
    """The backend's options with defaults filled in; UsageError names a bad key or value."""
    chosen = {key: values[0] for key, values in allowed.items()}
    for key, value in given.items():
        if key not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            raise UsageError(f"backend {backend} has no option {key!r} (options: {known})")
        if str(value) not in allowed[key]:
            raise UsageError(
                f"backend {backend}: {key}={value} is not one of {', '.join(allowed[key])}"
            )
        chosen[key] = str(value)
    return chosen


class HandwrittenSearch:
    """Base of the handwritten backends: ``search`` finds up to ``limit`` solutions.

    Subclasses implement ``search(board, deadline, limit) -> (solutions, stats)``, where each
    solution is a tuple of cell values; ``solve`` and ``count`` follow from it. They look at the
    clock themselves, so their deadlines hold in-process.
    """

    name: ClassVar[str]
    OPTIONS: ClassVar[Mapping[str, tuple[str, ...]]] = {}

    def __init__(self, **options: object) -> None:
        choose_options(self.name, self.OPTIONS, options)

    def native_deadline(self, operation: str) -> bool:
        return True

    def search(self, board: Board, deadline: Deadline, limit: int) -> tuple[list, dict]:
        raise NotImplementedError

    def solve(self, board: Board, deadline: Deadline) -> Outcome:
        solutions, stats = self.search(board, deadline, 1)
        return Outcome(board.with_cells(solutions[0]) if solutions else None, stats)

    def count(self, board: Board, limit: int, deadline: Deadline) -> Tally:
        solutions, stats = self.search(board, deadline, limit)
        return Tally(len(solutions), stats)
