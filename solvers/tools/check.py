"""Cross-validation: every backend on the same puzzle, and what they disagree on.

Each backend solves the puzzle and counts its solutions up to 2. A puzzle passes when every
backend that finished agrees on solvability, every solution verifies, the counts agree, and a
unique puzzle's solution matches the one its file gives (if any). Different valid solutions of
a puzzle with several are agreement. A backend that timed out says nothing either way: such a
puzzle is reported apart, never as agreement.
"""

from __future__ import annotations

from dataclasses import dataclass

from solvers.board import Board, cell_name
from solvers.execution.answer import Answer, Status
from solvers.formats import Puzzle

COUNT_LIMIT = 2


@dataclass(frozen=True)
class Word:
    """One backend's word on one puzzle: its solve, and its count up to ``COUNT_LIMIT``."""

    solved: Answer
    counted: Answer

    @property
    def backend(self) -> str:
        return self.solved.backend

    @property
    def status(self) -> Status:
        """The solve's status, unless either call went wrong or failed."""
        for bad in (Status.WRONG, Status.ERROR):
            if bad in (self.solved.status, self.counted.status):
                return bad
        return self.solved.status

    @property
    def count(self) -> int | None:
        """The count, or None when counting timed out or failed."""
        return self.counted.count if self.counted.status.finished else None

    @property
    def detail(self) -> str:
        return self.solved.detail or self.counted.detail

    @classmethod
    def unpack(cls, packed: tuple) -> Word:
        solved, counted = packed
        return cls(Answer.unpack(solved), Answer.unpack(counted))


@dataclass(frozen=True)
class Verdict:
    puzzle: Puzzle
    words: tuple[Word, ...]
    disagreements: tuple[str, ...]

    @property
    def timed_out(self) -> list[str]:
        """The backends that said nothing in time (a backend that does not support the
        puzzle's rules is not among them: it was not asked)."""
        return [
            w.backend
            for w in self.words
            if w.status is not Status.UNSUPPORTED
            and (w.status is Status.TIMEOUT or w.count is None)
        ]


def verdict_for(puzzle: Puzzle, words: tuple[Word, ...]) -> Verdict:
    """Compare the backends' words, and each solution with the file's, if it gives one."""
    return Verdict(puzzle, words, tuple(_disagreements(puzzle, words)))


def _disagreements(puzzle: Puzzle, words: tuple[Word, ...]) -> list[str]:
    found = [f"{w.backend}: {w.detail}" for w in words if w.status in (Status.WRONG, Status.ERROR)]
    finished = [w for w in words if w.status.finished]
    if len({w.status for w in finished}) > 1:
        found.append(
            f"solvability: {_who(finished, Status.SOLVED)}; {_who(finished, Status.UNSOLVABLE)}"
        )
    counted = [w for w in words if w.count is not None]
    if len({w.count for w in counted}) > 1:
        found.append("counts: " + ", ".join(f"{w.backend} {_count_text(w.count)}" for w in counted))
    for w in counted:
        if w.status.finished and (w.count > 0) != (w.status is Status.SOLVED):
            found.append(f"{w.backend}: says {w.status} but counts {_count_text(w.count)}")
    if counted and all(w.count == 1 for w in counted):
        for w in words:
            if w.status is Status.SOLVED and (differs := _against_known(puzzle, w.solved.solution)):
                found.append(f"{w.backend}: solution {differs}")
    return found


def _against_known(puzzle: Puzzle, solution: Board) -> str:
    known = puzzle.known_solution
    if known is None or known == solution:
        return ""
    first = next(
        i for i, (a, b) in enumerate(zip(known.cells, solution.cells, strict=True)) if a != b
    )
    n = puzzle.board.size
    return (
        f"differs from the file's solution at {cell_name(first, n)} "
        f"({solution.cells[first]} vs {known.cells[first]})"
    )


def _who(words: list[Word], status: Status) -> str:
    names = [w.backend for w in words if w.status is status]
    return f"{', '.join(names)} {'says' if len(names) == 1 else 'say'} {status}"


def _count_text(count: int) -> str:
    return f"{count}+" if count >= COUNT_LIMIT else str(count)
