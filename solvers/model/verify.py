"""The verifier: does a grid obey the rules and keep the givens?

It shares no code with any backend's search or encoding, nor with the compile step they read:
it checks that each unit of the board itself (rows, columns, boxes or regions) is a
permutation of 1..N, and each constraint with its kind's own check (``solvers.model.constraints``),
which tests hold against the kind's decomposition. ``problems`` checks one grid and says what
is wrong; ``failing_rows`` checks many at once (the bulk path's answers).
"""

from __future__ import annotations

import os
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


CHUNK = 8192  # rows checked at a time: a chunk's arrays stay in the processor's caches
# ... and a chunk that many times larger for every 4 cores: more threads contend for the
# interpreter's lock between a chunk's NumPy calls. Sudoku17 x 100 (4.9 million rows): on a
# 16-core Xeon 0.95 s at 2,048 rows, 0.46 at 8,192, 0.31 at 32,768, 0.45 at 131,072; on this
# project's 2-core VM 32,768 took 2.5 times 8,192's time (docs/gpu.md)
CORES_A_STEP = 4


def failing_rows(board: Board, puzzles: np.ndarray, solutions: np.ndarray) -> np.ndarray:
    """The verifier for many puzzles at once, vectorised with NumPy: a (P,) bool array, True
    where row p of ``solutions`` does not solve row p of ``puzzles`` (values of boards with
    ``board``'s shape and rules, 0 empty): a value outside 1..N, a given changed, a unit that
    is not a permutation of 1..N, or a constraint its kind's check finds broken. It reads the
    same units and checks as ``problems`` and shares nothing with any search.

    Rows are checked ``CHUNK`` at a time (that many times more for every ``CORES_A_STEP``
    cores), the chunks on a thread per core (NumPy lets go of the interpreter's lock in its
    loops): millions of answers (the gpu backend's batches) are
    checked at the rate they are found."""
    import numpy as np

    rows = len(puzzles)
    if rows <= CHUNK:
        return _failing(board, puzzles, solutions)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    size = CHUNK * max(1, (cores or 1) // CORES_A_STEP)
    starts = range(0, rows, size)
    from concurrent.futures import ThreadPoolExecutor

    def chunk(start: int) -> np.ndarray:
        end = start + size
        return _failing(board, puzzles[start:end], solutions[start:end])

    if board.rules.constraints or (cores or 1) < 2:  # the kinds' checks hold the lock
        return np.concatenate([chunk(start) for start in starts])
    with ThreadPoolExecutor(min(cores, len(starts)), "sudoku-verify") as pool:
        return np.concatenate(list(pool.map(chunk, starts)))


def _failing(board: Board, puzzles: np.ndarray, solutions: np.ndarray) -> np.ndarray:
    """``failing_rows`` of one chunk."""
    import numpy as np

    n = board.size
    values = np.asarray(solutions)
    # cell-major (one row per cell): every step below reads whole rows, and each unit's
    # rows are gathered at once
    cells = np.ascontiguousarray(values.T)
    givens = np.ascontiguousarray(np.asarray(puzzles).T)
    failing = ((givens != 0) & (givens != cells)).any(axis=0)  # a given changed
    # bit v for value v; 0 and values over N get bits 0 and N+1, which no unit may hold
    kind = np.uint16 if n < 15 else np.uint32
    bits = np.left_shift(kind(1), np.clip(cells, 0, n + 1).astype(kind))
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
