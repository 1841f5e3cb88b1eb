"""What every level starts from and ends with: the units a board's rules flatten to, each
cell's candidates as a bit mask (bit v for value v), and the outcome read off them."""

from __future__ import annotations

from dataclasses import dataclass

from solvers.model.board import Board
from solvers.model.compile import flatten
from solvers.model.geometry import Geometry
from solvers.model.verify import problems
from solvers.strength.alldifferent import bits


@dataclass(frozen=True)
class Outcome:
    """What one level decides on one board with no search: ``candidates`` per cell (bit v for
    value v; 0 where the level found a contradiction), ``fixed`` the cells left with one
    candidate, ``solved`` when every cell is and the grid keeps every rule of the board."""

    solved: bool
    fixed: int
    candidates: tuple[int, ...]

    @property
    def contradiction(self) -> bool:
        return 0 in self.candidates

    @property
    def refuted(self) -> bool:
        """The level proved the board has no solution: it met a contradiction, or filled the
        grid with one that breaks a rule it does not read (every level is sound, so every
        solution would be that grid)."""
        return self.contradiction or (self.fixed == len(self.candidates) and not self.solved)


def units_of(board: Board) -> Geometry:
    """The board's units after the compile step: rows, columns, regions and every all-different
    group of N cells its constraints add (diagonals, windows, extra regions): what every
    level reads (gac and sac read more: ``network``)."""
    return flatten(board).geometry


def start(board: Board) -> list[int]:
    """Every cell's candidates before any inference: its given, or every value."""
    full = board.geometry.full_mask
    return [1 << v if v else full for v in board.cells]


def outcome(board: Board, candidates: list[int] | tuple[int, ...]) -> Outcome:
    """The outcome of candidates a level reached; solved needs the grid to keep every rule
    (its constraints too, which most levels do not read)."""
    fixed = sum(1 for mask in candidates if mask and mask & (mask - 1) == 0)
    solved = fixed == len(candidates) and not problems(board, board.with_cells(grid(candidates)))
    return Outcome(solved, fixed, tuple(candidates))


def grid(candidates: list[int] | tuple[int, ...]) -> list[int]:
    """The value of each decided cell, 0 elsewhere."""
    return [mask.bit_length() - 1 if mask and mask & (mask - 1) == 0 else 0 for mask in candidates]


def values(mask: int) -> list[int]:
    """The values of a candidate mask, ascending."""
    return [bit.bit_length() - 1 for bit in bits(mask)]
