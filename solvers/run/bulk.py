"""Many puzzles at once: ``solve_many`` over a NumPy array, one batch of a backend's
(``Backend.search_many``), every answer verified by the verifier (``verify.failing_rows``),
which shares no code with any backend; ``native``'s kernel checks each first solution too.

>>> import numpy as np
>>> from solvers import solve_many
>>> puzzles = np.zeros((2, 81), np.uint8)  # two empty 9x9 boards, one row of values each
>>> found = solve_many(puzzles, limit=2)
>>> found.counts, found.flags  # (array([2, 2]), array([0, 0], dtype=uint8)): 0 is Flag.SOLVED

By default it runs the backend the default choice gives a run of many puzzles
(``choice.default_backend``): ``native``'s kernel where numba is there, or its copy built ahead
of time, which loads without numba. ``sudoku solve FILE`` and ``sudoku count FILE`` call it on
line files (``linefile``) for a backend that ``BATCHES``, through the runner this process
keeps for the backend (``Runner.many``). Unlike ``solve`` it does not judge
each puzzle through a ``Runner``: a solution that fails the verifier is flagged WRONG, not
raised.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solvers.backends import choice, registry
from solvers.backends.batch import Batch, Flag
from solvers.backends.contract import limit_of
from solvers.backends.spec import BackendSpec
from solvers.base.deadline import Deadline, timeout_of
from solvers.base.errors import BackendUnavailable, InputError, UsageError
from solvers.model.board import Board
from solvers.model.geometry import Shape
from solvers.model.variants import CLASSIC, Rules
from solvers.model.verify import failing_rows

if TYPE_CHECKING:
    import numpy as np


def solve_many(
    puzzles: np.ndarray,
    limit: int = 1,
    *,
    shape: Shape | None = None,
    rules: Rules = CLASSIC,
    backend: BackendSpec | str | None = None,
    each: float | None = None,
    timeout: float | None = None,
) -> Batch:
    """Solve (``limit`` 1) or count up to ``limit`` the solutions of every row of ``puzzles``.

    ``puzzles`` is a (P, N*N) array of values (0 empty, uint8 or any integers), boards of one
    ``shape`` (default: the most square box for N, as everywhere) under one ``rules``.
    ``backend``: a name or spec (``"cpsat:workers=1"``), None for the default choice of a run
    of many puzzles. ``each`` caps each puzzle's seconds (None: no cap): a puzzle past it is
    flagged ``Flag.UNFINISHED``. ``timeout`` caps the whole call, in seconds (None: no cap):
    SolveTimeout once it has passed.

    Returns ``Batch(counts, solutions, flags, guesses, nodes)``, one entry per puzzle:
    solutions found (up to ``limit``), the first of them ((P, N*N) uint8, zeros when none),
    and a ``Flag``: SOLVED, UNSOLVABLE, UNFINISHED, WRONG (the verifier's check, or the
    backend's own, failed: a bug) or BAD_VALUE. Raises BackendUnavailable for a backend whose
    library is not installed, InputError for a bad shape or values that are not whole
    numbers, UsageError for an unknown backend, one that does not support ``rules``, a limit
    that is not a whole number from 1 to 2**62, or a time that is not a number of seconds
    above 0.
    """
    if shape is not None and not isinstance(shape, Shape):
        raise UsageError(f"shape {shape!r} is not a Shape: give Shape(3, 3), say, or None")
    if not isinstance(rules, Rules):
        raise UsageError(f"rules {rules!r} are not a Rules: give Rules(regions=...), say")
    deadline = Deadline(timeout_of(timeout))
    each = timeout_of(each, "each")
    import numpy as np

    puzzles = np.asarray(puzzles)
    if puzzles.ndim != 2:
        raise InputError(f"puzzles must be a (P, N*N) array, not of shape {puzzles.shape}")
    limit = limit_of(limit)
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
    spec = _spec(backend, board)
    if unsupported := registry.lacking(spec.name, board):  # the judge's word, as ever
        said = " and ".join(sorted(unsupported))
        raise UsageError(f"solve_many: {spec.label} does not support {said}")
    from solvers.run.runner import shared  # its processes and exit hooks: not on ``import solvers``

    try:
        found = shared(spec).many(values, board, limit, deadline, each)
    except ImportError as error:  # a library the backend needs, not installed
        raise BackendUnavailable(f"solve_many: {spec.label} needs {error}") from None
    verified(board, values, found)
    return found


def _spec(backend: BackendSpec | str | None, board: Board) -> BackendSpec:
    if backend is None:
        return BackendSpec(choice.default_backend(board)).resolve()
    if isinstance(backend, str):
        return BackendSpec.parse(backend).resolve()
    if not isinstance(backend, BackendSpec):
        raise UsageError(f"backend {backend!r} is not a backend's name or spec")
    return backend.resolve()


def verified(board: Board, values: np.ndarray, found: Batch) -> None:
    """Every solved row of ``found`` (a batch of ``values``, boards of ``board``'s shape and
    rules) checked by the verifier: a failing one is flagged WRONG."""
    import numpy as np

    solved = found.flags == Flag.SOLVED
    if solved.all():  # every row, with no copy of the rows picked out (the usual case:
        # docs/startup.md)
        found.flags[failing_rows(board, values, found.solutions)] = Flag.WRONG
    elif solved.any():
        rows = np.flatnonzero(solved)
        failing = rows[failing_rows(board, values[rows], found.solutions[rows])]
        found.flags[failing] = Flag.WRONG
