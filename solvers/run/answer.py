"""The one judged answer: what became of one puzzle with one backend, verified."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from solvers.model.board import Board
from solvers.model.geometry import Shape
from solvers.model.variants import CLASSIC, Rules


class Status(StrEnum):
    SOLVED = "solved"  # a solution, verified against the rules and the givens
    UNSOLVABLE = "unsolvable"  # the backend proved there is none
    TIMEOUT = "timeout"  # no answer within the time allowed
    INVALID = "invalid"  # the givens already break a rule: no search was run
    UNSUPPORTED = "unsupported"  # the backend does not encode one of the puzzle's rules
    WRONG = "wrong"  # the backend returned a grid that is not a solution: a bug
    ERROR = "error"  # the backend failed: its process died, or it raised

    @property
    def finished(self) -> bool:
        """Whether the backend said something about the puzzle (solved or unsolvable)."""
        return self in (Status.SOLVED, Status.UNSOLVABLE)


@dataclass(frozen=True)
class Answer:
    """One backend's answer on one puzzle.

    ``solution`` is set only when the status is SOLVED; ``count`` only for a count (solutions
    up to the limit asked for, the limit meaning "that many or more"). ``seconds`` and
    ``cpu_seconds`` are the backend's call alone, taken in the process that ran it.
    """

    status: Status
    backend: str
    solution: Board | None = None
    count: int | None = None
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    stats: Mapping[str, Any] = field(default_factory=dict)
    detail: str = ""

    def __reduce__(self) -> tuple:
        """Pickled compactly: pickling the dataclasses costs more than the fastest backend's
        solve."""
        solution = None if self.solution is None else pack_board(self.solution)
        fields = (self.backend, solution, self.count, self.seconds, self.cpu_seconds)
        return _unpacked, (str(self.status), *fields, dict(self.stats), self.detail)


def _unpacked(status: str, backend: str, solution, *rest: Any) -> Answer:
    board = None if solution is None else unpack_board(solution)
    return Answer(Status(status), backend, board, *rest)


PackedBoard = tuple[int, int, bytes, Rules | None]


def pack_board(board: Board) -> PackedBoard:
    rules = None if board.rules is CLASSIC else board.rules
    return board.shape.box_rows, board.shape.box_cols, bytes(board.cells), rules


def unpack_board(packed: PackedBoard) -> Board:
    rows, cols, cells, rules = packed
    return Board(Shape(rows, cols), tuple(cells), rules or CLASSIC)
