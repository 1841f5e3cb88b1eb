"""Sudoku solvers behind one interface: a handwritten DFS reference and library adapters.

>>> from solvers import solve
>>> result = solve(puzzle_text, backend="dfs", timeout=5)
>>> result.status, result.solution
"""

from solvers.api import REFERENCE_BACKEND, Result, Status, as_board, count_solutions, solve
from solvers.board import Board, Shape
from solvers.errors import (
    BackendCrashed,
    BackendUnavailable,
    ConflictingGivens,
    InputError,
    SolveTimeout,
    SudokuError,
    UsageError,
    WrongAnswer,
)
from solvers.formats import format_board, parse, read_puzzles
from solvers.verify import verify

__all__ = [
    "REFERENCE_BACKEND",
    "BackendCrashed",
    "BackendUnavailable",
    "Board",
    "ConflictingGivens",
    "InputError",
    "Result",
    "Shape",
    "SolveTimeout",
    "Status",
    "SudokuError",
    "UsageError",
    "WrongAnswer",
    "as_board",
    "count_solutions",
    "format_board",
    "parse",
    "read_puzzles",
    "solve",
    "verify",
]
