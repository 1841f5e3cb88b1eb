"""Cross-validation: every backend on the same puzzle, and what they disagree on.

Each backend solves the puzzle and counts its solutions up to 2 (``judge.paired`` makes the two
one answer). The judge (``solvers.execution.judge``) says whether they agree: on solvability,
on counts, every solution verified, and a unique puzzle's solution matching the one its file
gives (if any). Different valid solutions of a puzzle with several are agreement. A backend
that timed out says nothing either way: such a puzzle is reported apart, never as agreement.
"""

from __future__ import annotations

from dataclasses import dataclass

from solvers.execution.answer import Answer, Status
from solvers.execution.judge import disagreements
from solvers.formats import Puzzle


@dataclass(frozen=True)
class Verdict:
    puzzle: Puzzle
    answers: tuple[Answer, ...]
    disagreements: tuple[str, ...]

    @property
    def timed_out(self) -> list[str]:
        """The backends that said nothing in time (a backend that does not support the
        puzzle's rules is not among them: it was not asked)."""
        return [
            a.backend
            for a in self.answers
            if a.status is not Status.UNSUPPORTED
            and (a.status is Status.TIMEOUT or a.count is None)
        ]


def verdict_for(puzzle: Puzzle, answers: tuple[Answer, ...]) -> Verdict:
    """The judge's word on the backends' answers, the file's solution (if any) included."""
    return Verdict(puzzle, answers, tuple(disagreements(answers, puzzle.known_solution)))
