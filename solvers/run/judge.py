"""The one judge, which every path asks: which boards a backend is asked (``refusal``), and
whether backends agree on a puzzle (``disagreements``; ``disputed``: the backends those put in
doubt; ``confirmed``). A timeout or a failure (an error) says nothing either way: it leaves a
puzzle unconfirmed, never in disagreement."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from solvers.backends import registry
from solvers.model.board import Board, cell_name
from solvers.run.answer import Answer, Status

COUNT_LIMIT = 2  # check and compare's unique mode count this far: one, and no second


def refusal(label: str, name: str, board: Board) -> Answer | None:
    """The answer of backend ``name`` (shown as ``label``) to a board it is not asked, or None:
    UNSUPPORTED for a rule it does not declare, INVALID for givens that clash
    (``Board.conflicts``: the first). A classic board is every backend's: the registry is
    asked what a backend lacks only for a board with rules beyond the classic ones."""
    if not board.rules.is_classic and (unsupported := registry.lacking(name, board)):
        detail = f"{label} does not support {' and '.join(sorted(unsupported))}"
        return Answer(Status.UNSUPPORTED, label, detail=detail)
    if conflicts := board.conflicts():
        return Answer(Status.INVALID, label, detail=conflicts[0])
    return None


def paired(solved: Answer, counted: Answer) -> Answer:
    """A solve and a count of the same puzzle by one backend as one answer (check's): the
    solve's, with the solve's status unless either call went wrong or failed, and the count
    when counting finished (None otherwise)."""
    status = next(
        (bad for bad in (Status.WRONG, Status.ERROR) if bad in (solved.status, counted.status)),
        solved.status,
    )
    count = counted.count if counted.status.finished else None
    return replace(solved, status=status, count=count, detail=solved.detail or counted.detail)


def disagreements(
    said: Sequence[Answer], known: Board | None = None, limit: int = COUNT_LIMIT
) -> list[str]:
    """Every way the answers on one puzzle disagree (empty when they agree): a wrong answer (a
    ``BUG:`` line, worded as ``solve`` words it), solvability, counts, a status its own count
    contradicts, and a unique puzzle's solution (against ``known``, the file's, or between
    backends). Counts were taken up to ``limit`` (None where one did not count, or did not
    finish). A backend that failed (an error) said nothing, and disagrees with no one."""
    found = [f"BUG: {s.detail}" for s in said if s.status is Status.WRONG]
    finished = [s for s in said if s.status.finished]
    if len({s.status for s in finished}) > 1:
        found.append(
            f"solvability: {_who(finished, Status.SOLVED)}; {_who(finished, Status.UNSOLVABLE)}"
        )
    counted = [s for s in said if s.count is not None]
    if len({s.count for s in counted}) > 1:
        found.append(
            "counts: " + ", ".join(f"{s.backend} {_count_text(s.count, limit)}" for s in counted)
        )
    for s in counted:
        if s.status.finished and (s.count > 0) != (s.status is Status.SOLVED):
            found.append(f"{s.backend}: says {s.status} but counts {_count_text(s.count, limit)}")
    if counted and all(s.count == 1 for s in counted):
        found += _unique_solutions(said, known)
    return found


def disputed(
    said: Sequence[Answer], known: Board | None = None, limit: int = COUNT_LIMIT
) -> frozenset[str]:
    """The backends whose answer on one puzzle the judge disputes (none when all agree).

    First those an answer proves wrong: a solution is verified, so a backend that says there
    is none, counts fewer solutions than the backends found between them, says the puzzle is
    unique with another solution than the file's, or contradicts its own count, is wrong. Then,
    for counts that still differ, those whose count is not the one most backends give; on a
    tie no count can be believed, and every counting backend is disputed.
    """
    if not disagreements(said, known, limit):
        return frozenset()
    found = {s.backend for s in said if s.status is Status.WRONG}
    solved = [s for s in said if s.status is Status.SOLVED and s.solution is not None]
    if solved:
        found |= {s.backend for s in said if s.status is Status.UNSOLVABLE}
    counted = [s for s in said if s.count is not None]
    seen = min(len({s.solution for s in solved}), limit)
    for s in counted:
        unique_elsewhere = s.count == 1 and known is not None and s.solution not in (None, known)
        contradicts = s.status.finished and (s.count > 0) != (s.status is Status.SOLVED)
        if s.count < seen or unique_elsewhere or contradicts:
            found.add(s.backend)
    rest = Counter(s.count for s in counted if s.backend not in found)
    if len(rest) > 1:
        (top, most), (_, second) = rest.most_common(2)
        found |= {s.backend for s in counted if s.count != top or most == second}
    return frozenset(found)


def timed_out(said: Sequence[Answer]) -> list[str]:
    """The backends that said nothing in time (one that does not encode the puzzle's rules
    was not asked; one that failed is ``failed``'s)."""
    asked = (s for s in said if s.status not in (Status.UNSUPPORTED, Status.ERROR))
    return [s.backend for s in asked if s.status is Status.TIMEOUT or s.count is None]


def failed(said: Sequence[Answer]) -> list[str]:
    """The backends that failed on the puzzle (an error: a crash, or an exception)."""
    return [s.backend for s in said if s.status is Status.ERROR]


def confirmed(said: Sequence[Answer]) -> bool:
    """Whether at least two backends answered in full (solved or no solution, and counted):
    where none disagrees, the puzzle is then confirmed whatever else timed out."""
    return sum(s.status.finished and s.count is not None for s in said) >= 2


def _unique_solutions(said: Sequence[Answer], known: Board | None) -> list[str]:
    """A unique puzzle has one solution: each backend's must be the file's, if it gives one,
    or else the first backend's."""
    solved = [s for s in said if s.status is Status.SOLVED and s.solution is not None]
    if known is not None:
        return [
            f"{s.backend}: solution differs from the file's solution {where}"
            for s in solved
            if (where := _difference(s.solution, known))
        ]
    return [
        f"{s.backend}: unique solution differs from {solved[0].backend}'s {where}"
        for s in solved[1:]
        if (where := _difference(s.solution, solved[0].solution))
    ]


def _difference(solution: Board, other: Board) -> str:
    """Where ``solution`` first differs from ``other`` ("at r1c2 (3 vs 4)"), or ""."""
    if solution == other:
        return ""
    first = next(
        i for i, (a, b) in enumerate(zip(other.cells, solution.cells, strict=True)) if a != b
    )
    return f"at {cell_name(first, solution.size)} ({solution.cells[first]} vs {other.cells[first]})"


def _who(said: list[Answer], status: Status) -> str:
    names = [s.backend for s in said if s.status is status]
    return f"{', '.join(names)} {'says' if len(names) == 1 else 'say'} {status}"


def _count_text(count: int, limit: int) -> str:
    return f"{count}+" if count >= limit else str(count)
