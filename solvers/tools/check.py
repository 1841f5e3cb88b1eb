"""Cross-validation: every backend on the same puzzle, and what they disagree on.

Each backend solves the puzzle and counts its solutions up to 2 (``judge.paired`` makes the two
one answer). The judge (``solvers.execution.judge``) says whether they agree: on solvability,
on counts, every solution verified, and a unique puzzle's solution matching the one its file
gives (if any). Different valid solutions of a puzzle with several are agreement. A backend
that timed out says nothing either way: a puzzle is confirmed when at least two backends
answered in full and none disagrees, and is reported apart, never as agreement, otherwise.
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

    @property
    def confirmed(self) -> bool:
        """At least two backends answered in full (solved or no solution, and counted), and
        the judge found no disagreement: a timeout is no disagreement."""
        full = [a for a in self.answers if a.status.finished and a.count is not None]
        return not self.disagreements and len(full) >= 2


def verdict_for(puzzle: Puzzle, answers: tuple[Answer, ...]) -> Verdict:
    """The judge's word on the backends' answers, the file's solution (if any) included."""
    return Verdict(puzzle, answers, tuple(disagreements(answers, puzzle.known_solution)))
