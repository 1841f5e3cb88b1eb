"""Cross-validation: every backend on the same puzzle, and what they disagree on.

Each backend solves the puzzle and counts its solutions up to 2. The judge
(``solvers.execution.judge``) says whether they agree: on solvability, on counts, every
solution verified, and a unique puzzle's solution matching the one its file gives (if any).
Different valid solutions of a puzzle with several are agreement. A backend that timed out says
nothing either way: such a puzzle is reported apart, never as agreement.
"""

from __future__ import annotations

from dataclasses import dataclass

from solvers.execution.answer import Answer, Status
from solvers.execution.judge import COUNT_LIMIT, Said, disagreements
from solvers.formats import Puzzle

__all__ = ["COUNT_LIMIT", "Verdict", "Word", "verdict_for"]


@dataclass(frozen=True)
class Word:
    """One backend's word on one puzzle: its solve, and its count up to ``COUNT_LIMIT``."""

    solved: Answer
    counted: Answer

    @property
    def said(self) -> Said:
        return Said.of_pair(self.solved, self.counted)

    @property
    def backend(self) -> str:
        return self.solved.backend

    @property
    def status(self) -> Status:
        """The solve's status, unless either call went wrong or failed."""
        return self.said.status

    @property
    def count(self) -> int | None:
        """The count, or None when counting timed out or failed."""
        return self.said.count

    @property
    def detail(self) -> str:
        return self.said.detail

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
    """The judge's word on the backends' words, the file's solution (if any) included."""
    said = [word.said for word in words]
    return Verdict(puzzle, words, tuple(disagreements(said, puzzle.known_solution)))
