"""Sudoku solvers behind one interface: a handwritten DFS reference and library adapters.

>>> from solvers import solve
>>> answer = solve(puzzle_text, backend="dfs", timeout=5)
>>> answer.status, answer.solution
"""

from solvers.analysis.candidates import Candidates, candidates
from solvers.api import as_board, count_solutions, solve
from solvers.backends import registry
from solvers.backends.registry import REFERENCE as REFERENCE_BACKEND
from solvers.backends.spec import BackendSpec
from solvers.base.errors import (
    BackendCrashed,
    BackendUnavailable,
    InputError,
    SolveTimeout,
    SudokuError,
    UsageError,
    WrongAnswer,
)
from solvers.formats.boards import format_board, parse, read_puzzles
from solvers.model.board import Board
from solvers.model.geometry import Shape
from solvers.model.verify import verify
from solvers.run.answer import Answer, Status
from solvers.run.bulk import solve_many

# The portfolio races backends in the execution layer's workers, building them through the
# catalog: were it a row of ``registry.BUILT_IN``, the catalog would name a module that imports
# it back (a circle, tests/test_layers.py). The package, above both, adds it as one.
registry.register(
    "portfolio",
    "solvers.run.portfolio:Portfolio",
    summary="propagate for 0.3 s, then native and cms raced in two processes: the first proof wins",
    built_in=True,
)


def __getattr__(name: str) -> str:
    """``__version__``, read when asked: importing importlib.metadata is a part of a bulk
    run's start-up worth saving (docs/startup.md)."""
    if name != "__version__":
        raise AttributeError(f"module 'solvers' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sudoku-solvers")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


__all__ = [
    "REFERENCE_BACKEND",
    "Answer",
    "BackendCrashed",
    "BackendSpec",
    "BackendUnavailable",
    "Board",
    "Candidates",
    "InputError",
    "Shape",
    "SolveTimeout",
    "Status",
    "SudokuError",
    "UsageError",
    "WrongAnswer",
    "as_board",
    "candidates",
    "count_solutions",
    "format_board",
    "parse",
    "read_puzzles",
    "solve",
    "solve_many",
    "verify",
]
