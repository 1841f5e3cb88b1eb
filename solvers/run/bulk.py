"""Many puzzles at once: ``solve_many`` over a NumPy array, one batch, every answer
verified twice: in the kernel, and by the verifier (``verify.failing_rows``), which shares no
code with the kernel.

>>> import numpy as np
>>> from solvers import solve_many
>>> puzzles = np.zeros((2, 81), np.uint8)  # two empty 9x9 boards, one row of values each
>>> found = solve_many(puzzles, limit=2)
>>> found.counts, found.flags  # (array([2, 2]), array([0, 0], dtype=uint8)): 0 is Flag.SOLVED

It runs the ``native`` backend's kernel (numba's, or its copy built ahead of time, which loads
without numba: ``native.aot``): what ``sudoku solve FILE`` and ``sudoku count
FILE`` use on line files (``tools.linefile`` calls it). Unlike ``solve`` it does not go through
a ``Runner``: a solution that fails either check is flagged WRONG, not raised.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solvers.backends import registry
from solvers.backends.contract import limit_of
from solvers.base.deadline import Deadline, timeout_of
from solvers.base.errors import BackendUnavailable, InputError, UsageError
from solvers.model.board import Board
from solvers.model.geometry import Shape
from solvers.model.variants import CLASSIC, Rules
from solvers.model.verify import failing_rows

if TYPE_CHECKING:
    import numpy as np

    from solvers.backends.handwritten.native.outcome import Batch


def solve_many(
    puzzles: np.ndarray,
    limit: int = 1,
    *,
    shape: Shape | None = None,
    rules: Rules = CLASSIC,
    budget: int | None = None,
    timeout: float | None = None,
) -> Batch:
    """Solve (``limit`` 1) or count up to ``limit`` the solutions of every row of ``puzzles``.

    ``puzzles`` is a (P, N*N) array of values (0 empty, uint8 or any integers), boards of one
    ``shape`` (default: the most square box for N, as everywhere) under one ``rules``.
    ``budget`` caps each puzzle's work (work units, docs/native.md; None: no cap), for callers with
    a deadline: a puzzle over it is flagged ``Flag.UNFINISHED``. ``timeout`` caps the whole
    call, in seconds (None: no cap): SolveTimeout once it has passed, looked at every 20-60 ms.

    Returns ``Batch(counts, solutions, flags, guesses, nodes)``, one entry per puzzle:
    solutions found (up to ``limit``), the first of them ((P, N*N) uint8, zeros when none),
    and a ``Flag``: SOLVED, UNSOLVABLE, UNFINISHED, WRONG (the kernel's check or the
    verifier's failed: a bug) or BAD_VALUE. Raises BackendUnavailable without numba,
    InputError for a bad shape or values that are not whole numbers, UsageError for a limit or
    budget that is not a whole number from 1 to 2**62, or a timeout that is not a number of
    seconds above 0.
    """
    if shape is not None and not isinstance(shape, Shape):
        raise UsageError(f"shape {shape!r} is not a Shape: give Shape(3, 3), say, or None")
    if not isinstance(rules, Rules):
        raise UsageError(f"rules {rules!r} are not a Rules: give Rules(regions=...), say")
    deadline = Deadline(timeout_of(timeout))
    import numpy as np

    from solvers.backends.handwritten.native import door as native

    solve_batch, plan_for, Flag, UNLIMITED = native.load()

    puzzles = np.asarray(puzzles)
    if puzzles.ndim != 2:
        raise InputError(f"puzzles must be a (P, N*N) array, not of shape {puzzles.shape}")
    limit = limit_of(limit)
    if budget is not None:
        budget = limit_of(budget, "budget")
    whole = puzzles.dtype.kind in "iub" or (
        puzzles.dtype.kind == "f" and bool(np.all(np.isfinite(puzzles) & (puzzles % 1 == 0)))
    )
    if not whole:  # 1.5, NaN or "3" is no cell value
        raise InputError(f"puzzles must hold whole numbers, not {puzzles.dtype} values like these")
    size = round(puzzles.shape[1] ** 0.5)
    shape = shape or Shape.for_size(size)
    if shape.cell_count != puzzles.shape[1]:
        raise InputError(f"{puzzles.shape[1]} cells per row, expected {shape.cell_count}")
    if puzzles.dtype == np.uint8:  # a line file's rows: nothing to clip
        values = puzzles
    else:
        values = np.clip(puzzles, 0, 255).astype(np.uint8)  # below 0 or over N: BAD_VALUE
        values[puzzles < 0] = 255
    board = Board.empty(shape, rules)
    if unsupported := registry.lacking("native", board):  # the judge's word, as ever
        raise UsageError(f"solve_many: native does not support {' and '.join(sorted(unsupported))}")
    try:
        budget = UNLIMITED if budget is None else budget
        found = solve_batch(plan_for(board), values, limit, budget, deadline=deadline)
    except ImportError as error:  # numba's kernel, needed and not installed
        raise BackendUnavailable(f"solve_many needs numba: {error}") from None
    solved = found.flags == Flag.SOLVED
    if solved.all():  # the verifier's own check, independent of the kernel's (the usual case:
        # every row, with no copy of the rows picked out: docs/startup.md)
        found.flags[failing_rows(board, values, found.solutions)] = Flag.WRONG
    elif solved.any():
        rows = np.flatnonzero(solved)
        failing = rows[failing_rows(board, values[rows], found.solutions[rows])]
        found.flags[failing] = Flag.WRONG
    return found
