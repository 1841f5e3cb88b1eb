"""The verifier: does a grid obey the rules and keep the givens?

It shares no code with any backend's search or encoding, nor with the compile step they read:
it checks that each unit of the board itself (rows, columns, boxes or regions) is a
permutation of 1..N, and each constraint with its kind's own check (``solvers.model.constraints``),
which tests hold against the kind's decomposition. ``problems`` checks one grid and says what
is wrong; ``failing_rows`` checks many at once (the bulk path's answers).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solvers.base.errors import WrongAnswer
from solvers.model.board import Board, cell_name
from solvers.model.geometry import base_geometry

if TYPE_CHECKING:
    import numpy as np


def problems(puzzle: Board, solution: Board) -> list[str]:
    """Every way ``solution`` fails to solve ``puzzle``; empty when it is a valid solution."""
    if solution.shape != puzzle.shape:
        return [f"shape {solution.shape} differs from the puzzle's {puzzle.shape}"]
    if solution.rules != puzzle.rules:
        return [f"rules {solution.rules.label} differ from the puzzle's {puzzle.rules.label}"]
    n = puzzle.size
    found = [
        f"{cell_name(i, n)} is {v}, not the given {g}"
        for i, (g, v) in enumerate(zip(puzzle.cells, solution.cells, strict=True))
        if g and g != v
    ]
    found += [f"{cell_name(i, n)} is empty" for i, v in enumerate(solution.cells) if not v]
    every_value = set(range(1, n + 1))
    geometry = base_geometry(puzzle.shape, puzzle.rules.regions)
    for name, unit in zip(geometry.unit_names, geometry.units, strict=True):
        values = {solution.cells[cell] for cell in unit}
        if values != every_value:
            missing = sorted(every_value - values)
            found.append(f"{name} lacks {', '.join(map(str, missing))}")
    if puzzle.rules.constraints and all(solution.cells):  # a kind's check reads a full grid
        from solvers.model.constraints.kinds import check
        from solvers.model.constraints.model import describe

        for constraint in puzzle.rules.constraints:
            where = describe(constraint, n)
            found += [f"{where}: {said}" for said in check(constraint, solution.cells, n)]
    return found


def verify(puzzle: Board, solution: Board, backend: str = "?") -> None:
    """Raise WrongAnswer naming the first problems if ``solution`` does not solve ``puzzle``."""
    found = problems(puzzle, solution)
    if found:
        raise WrongAnswer(wrong_solution(backend, found))


def wrong_solution(backend: str, found: list[str]) -> str:
    """What a wrong answer is called, wherever it is caught: the backend and the first three
    of its ``found`` problems."""
    more = len(found) - 3
    shown = "; ".join(found[:3]) + (f"; and {more} more" if more > 0 else "")
    return f"backend {backend} returned a wrong solution: {shown}"


def failing_rows(board: Board, puzzles: np.ndarray, solutions: np.ndarray) -> np.ndarray:
    """The verifier for many puzzles at once, vectorised with NumPy: a (P,) bool array, True
    where row p of ``solutions`` does not solve row p of ``puzzles`` (values of boards with
    ``board``'s shape and rules, 0 empty): a value outside 1..N, a given changed, a unit that
    is not a permutation of 1..N, or a constraint its kind's check finds broken. It reads the
    same units and checks as ``problems`` and shares nothing with any search."""
    import numpy as np

    n = board.size
    values = np.asarray(solutions)
    givens = np.asarray(puzzles)
    failing = ((values < 1) | (values > n)).any(axis=1)
    failing |= ((givens != 0) & (givens != values)).any(axis=1)
    # bit v for value v, one row per cell (cell-major: each gather below reads whole rows)
    kind = np.uint16 if n < 16 else np.uint32
    bits = np.left_shift(kind(1), np.clip(values, 0, n).astype(kind)).T.copy()
    units = np.array(base_geometry(board.shape, board.rules.regions).units, np.intp)
    seen = bits[units[:, 0]]
    for k in range(1, n):
        seen |= bits[units[:, k]]
    failing |= (seen != (1 << (n + 1)) - 2).any(axis=0)  # each of 1..N once in each unit
    if board.rules.constraints:  # the kinds' own checks, row by row
        from solvers.model.constraints.kinds import check

        for row in np.flatnonzero(~failing).tolist():
            grid = values[row].tolist()
            failing[row] = any(check(c, grid, n) for c in board.rules.constraints)
    return failing
