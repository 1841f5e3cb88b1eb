"""The one interface: ``solve`` and ``count_solutions`` over any backend, every answer verified.

Both hand the run pipeline (``pipeline.run``, as ``sudoku solve`` and ``count`` do) a run of
one puzzle and a plan, so the default choice is the command's for one puzzle (start-up
included). The answer comes from this process's shared ``Runner`` for the backend and its
options, so a persistent solver lives on between calls, and a backend that cannot stop at a
deadline runs in a worker process that is killed there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from solvers.backends import choice
from solvers.backends.contract import limit_of
from solvers.backends.spec import BackendSpec
from solvers.base.deadline import timeout_of
from solvers.base.errors import BackendCrashed, InputError, SolveTimeout, UsageError, WrongAnswer
from solvers.formats.boards import Puzzle, parse
from solvers.model.board import Board, with_plain_cells
from solvers.model.geometry import Shape
from solvers.run import pipeline
from solvers.run.answer import Answer, Status

Grid = Board | str | Sequence[Sequence[int]]


def as_board(grid: Grid, shape: Shape | None = None) -> Board:
    """A Board from a Board, a string in any format, or rows of ints (lists, or a 2-D NumPy
    array)."""
    if isinstance(grid, Board):
        return with_plain_cells(grid)
    if isinstance(grid, str):
        return parse(grid, shape=shape)
    if shape is not None and not isinstance(shape, Shape):
        raise InputError(f"shape must be a Shape such as Shape(2, 3), not {shape!r}")
    rows = isinstance(grid, Sequence) and not isinstance(grid, bytes | bytearray)
    if rows or (getattr(grid, "ndim", None) == 2 and hasattr(grid, "tolist")):  # NumPy's too
        return Board.from_rows(grid, shape)
    raise InputError(
        f"cannot read a board from {type(grid).__name__}: give a Board, text, or rows of ints"
        + (f" (an array of shape {grid.shape}: give an N x N one)" if hasattr(grid, "ndim") else "")
    )


def solve(
    grid: Grid, backend: str | None = None, *, timeout: float | None = None, **options: object
) -> Answer:
    """Solve ``grid`` with ``backend`` (a name or a spec such as ``sat:encoding=minimal``;
    None: the fastest available that encodes the puzzle's rules, start-up included, as ``sudoku
    solve`` picks for one puzzle); the solution is verified before it is returned.

    The answer's status is SOLVED, UNSOLVABLE or TIMEOUT. Givens that already break a rule
    give UNSOLVABLE without a search, the conflict in ``stats["conflict"]``. Raises WrongAnswer
    if the backend returns a grid that is not a solution, BackendCrashed if it fails, and
    UsageError or BackendUnavailable for a backend that cannot be used (or does not encode
    one of the puzzle's rule variants).
    """
    board = as_board(grid)
    answer = _run_one(board, _plan("solve", 1, timeout, backend, options, board))
    if answer.status is Status.INVALID:
        return replace(answer, status=Status.UNSOLVABLE, stats={"conflict": answer.detail})
    return raise_failures(answer)


def count_solutions(
    grid: Grid,
    limit: int = 2,
    backend: str | None = None,
    *,
    timeout: float | None = None,
    **options: object,
) -> int:
    """The number of solutions of ``grid``, where ``limit`` means "limit or more".

    Raises SolveTimeout when the deadline passes before the count is known.
    """
    limit, timeout = limit_of(limit), timeout_of(timeout)
    board = as_board(grid)
    plan = _plan("count", limit, timeout, backend, options, board)
    answer = _run_one(board, plan)
    if answer.status is Status.INVALID:
        return 0
    if answer.status is Status.TIMEOUT:
        within = f" within {plan.timeout:g} s" if plan.timeout is not None else ""
        raise SolveTimeout(f"backend {answer.backend} could not count{within}")
    return raise_failures(answer).count


def _plan(
    mode: str, limit: int, timeout: float | None, backend: str | None, options: dict, board: Board
) -> pipeline.Plan:
    """The plan of one call: the backend named (None: the default choice, left to the
    pipeline; with options, the default for a run of one puzzle), its options added."""
    if backend is not None and not isinstance(backend, str):
        raise UsageError(
            f"backend {backend!r} is not a name or a spec such as 'sat:encoding=minimal'"
        )
    if backend is None:
        if not options:
            return pipeline.Plan(mode, (), limit, timeout_of(timeout))
        backend = choice.default_backend(board, puzzles=1)
    spec = BackendSpec.parse(backend)
    spec = spec.with_options(options) if options else spec
    return pipeline.Plan(mode, (pipeline.resolved_here(spec),), limit, timeout_of(timeout))


def _run_one(board: Board, plan: pipeline.Plan) -> Answer:
    """The pipeline's answer for a run of one puzzle: the board as an input of one line."""
    ((_, answer),) = pipeline.run((Puzzle(board, 1, "board"),), plan)
    return answer


def raise_failures(answer: Answer) -> Answer:
    """The answer, unless it is a failure the caller must hear of as an error (the library's
    exceptions: a refusal, a wrong answer, a crashed backend)."""
    if answer.status is Status.UNSUPPORTED:
        raise UsageError(answer.detail)
    if answer.status is Status.WRONG:
        raise WrongAnswer(answer.detail)
    if answer.status is Status.ERROR:
        raise BackendCrashed(answer.detail)
    return answer
