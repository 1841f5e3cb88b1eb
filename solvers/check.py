"""Cross-validation: every backend on the same puzzle, and what they disagree on.

A puzzle passes when every backend that finished agrees on solvability, every solution
verifies, the counts up to 2 agree, and a unique puzzle's solution matches the one its file
gives (if any). Different valid solutions of a puzzle with several are agreement. A backend
that timed out says nothing either way: such a puzzle is reported apart, never as agreement.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from solvers.api import count_solutions, solve
from solvers.board import Board, cell_name
from solvers.errors import BackendCrashed, SolveTimeout, WrongAnswer
from solvers.formats import Puzzle

COUNT_LIMIT = 2


@dataclass
class Answer:
    """One backend's word on one puzzle."""

    backend: str
    status: str  # solved, unsolvable, timeout, wrong, error
    count: int | None = None  # up to COUNT_LIMIT; None when the count timed out or failed
    seconds: float = 0.0
    detail: str = ""
    solution: Board | None = None


@dataclass
class Verdict:
    puzzle: Puzzle
    answers: list[Answer]
    disagreements: list[str] = field(default_factory=list)

    @property
    def timed_out(self) -> list[str]:
        return [a.backend for a in self.answers if a.status == "timeout" or a.count is None]

    @property
    def agrees(self) -> bool:
        return not self.disagreements and not self.timed_out


def cross_check(puzzle: Puzzle, backends: list[str], timeout: float | None = None) -> Verdict:
    """Run each backend on ``puzzle`` (solve, then count up to 2) and compare their answers."""
    return verdict_for(puzzle, ask_all(puzzle.board, backends, timeout))


def ask_all(board: Board, backends: list[str], timeout: float | None = None) -> list[Answer]:
    """Each backend's answers on ``board``; runs in any process."""
    return [_ask(backend, board, timeout) for backend in backends]


def verdict_for(puzzle: Puzzle, answers: list[Answer]) -> Verdict:
    """Compare the answers, and each solution with the file's, if it gives one."""
    for answer in answers:
        if answer.status == "solved" and not answer.detail:
            answer.detail = _against_known(puzzle, answer.solution)
    return Verdict(puzzle, answers, _disagreements(puzzle, answers))


def _ask(backend: str, board: Board, timeout: float | None) -> Answer:
    answer = Answer(backend, "error")
    try:
        result = solve(board, backend, timeout=timeout)
        answer.status, answer.seconds = str(result.status), result.seconds
        answer.solution = result.solution
        answer.count = count_solutions(board, COUNT_LIMIT, backend, timeout=timeout)
    except WrongAnswer as error:
        answer.status, answer.detail = "wrong", str(error)
    except SolveTimeout:
        answer.count = None
    except BackendCrashed as error:
        answer.status, answer.detail = "error", str(error)
    return answer


def _against_known(puzzle: Puzzle, solution) -> str:
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


def _disagreements(puzzle: Puzzle, answers: list[Answer]) -> list[str]:
    found = []
    for a in answers:
        if a.status in ("wrong", "error"):
            found.append(f"{a.backend}: {a.detail}")
    finished = [a for a in answers if a.status in ("solved", "unsolvable")]
    if len({a.status for a in finished}) > 1:
        found.append(f"solvability: {_who(finished, 'solved')}; {_who(finished, 'unsolvable')}")
    counted = [a for a in answers if a.count is not None]
    if len({a.count for a in counted}) > 1:
        found.append("counts: " + ", ".join(f"{a.backend} {_count_text(a.count)}" for a in counted))
    for a in counted:
        if a.status in ("solved", "unsolvable") and (a.count > 0) != (a.status == "solved"):
            found.append(f"{a.backend}: says {a.status} but counts {_count_text(a.count)}")
    unique = counted and all(a.count == 1 for a in counted)
    if unique:
        found += [
            f"{a.backend}: solution {a.detail}"
            for a in answers
            if a.detail and a.status == "solved"
        ]
    return found


def _who(answers: list[Answer], status: str) -> str:
    names = [a.backend for a in answers if a.status == status]
    return f"{', '.join(names)} {'says' if len(names) == 1 else 'say'} {status}"


def _count_text(count: int) -> str:
    return f"{count}+" if count >= COUNT_LIMIT else str(count)
