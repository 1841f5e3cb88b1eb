"""CNF encodings of Sudoku: pure functions from a board to clauses, for any SAT engine.

The variable for "cell (r, c) holds v" is ``(r*N + c)*N + v`` with v from 1 to N, so cell index
``i = r*N + c`` and value v give ``i*N + v``, and the variables run from 1 to N**3.

- ``minimal``: every cell holds at least one value; every value at most once per unit.
- ``extended``: minimal plus at most one value per cell and every value at least once per unit
  (Lynce and Ouaknine, "Sudoku as a SAT Problem", 2006).
- ``reduced``: extended with the givens applied first: variables the givens decide and clauses
  they satisfy are left out (Kwon and Jain, "Optimized CNF Encoding for Sudoku Puzzles", 2006).
  An empty clause means the givens leave some cell or unit without a value: unsatisfiable.

Minimal and extended are the geometry's rule clauses (built once per geometry) plus a unit
clause per given; the rule clauses alone are what a persistent incremental solver is loaded
with.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from solvers.board import Board, Geometry

# The default first: reduced is the fastest by measurement (README, "Backends").
ENCODINGS = ("reduced", "extended", "minimal")
Clause = tuple[int, ...]


def variable(cell: int, value: int, size: int) -> int:
    return cell * size + value


def decode(literals, size: int) -> dict[int, int]:
    """Cell -> value for every true cell variable in a model (a list of signed literals)."""
    top = size**3
    return {(lit - 1) // size: (lit - 1) % size + 1 for lit in literals if 0 < lit <= top}


@lru_cache(maxsize=16)
def rule_clauses(geometry: Geometry, encoding: str = "extended") -> tuple[Clause, ...]:
    """The rules alone, valid for every puzzle of ``geometry``: minimal or extended."""
    if encoding not in ("minimal", "extended"):
        raise ValueError(f"rule clauses come in minimal or extended, not {encoding!r}")
    n = geometry.size
    values = range(1, n + 1)
    clauses: list[Clause] = []
    for cell in range(n * n):
        clauses.append(tuple(variable(cell, v, n) for v in values))
        if encoding == "extended":
            clauses += [
                (-variable(cell, a, n), -variable(cell, b, n)) for a, b in combinations(values, 2)
            ]
    for unit in geometry.units:
        for v in values:
            if encoding == "extended":
                clauses.append(tuple(variable(cell, v, n) for cell in unit))
            clauses += [(-variable(a, v, n), -variable(b, v, n)) for a, b in combinations(unit, 2)]
    return tuple(clauses)


def given_literals(board: Board) -> list[int]:
    n = board.size
    return [variable(cell, v, n) for cell, v in enumerate(board.cells) if v]


def encode(board: Board, encoding: str = "extended") -> list[Clause]:
    """The clauses whose models are exactly the solutions of ``board``."""
    if encoding == "reduced":
        return reduced(board)
    return [*rule_clauses(board.geometry, encoding), *((lit,) for lit in given_literals(board))]


def reduced(board: Board) -> list[Clause]:
    """The extended encoding after the givens: only undecided variables, only open clauses.

    Built directly rather than by simplifying the extended CNF: a value is open in an empty
    cell when no unit of the cell holds it (bit masks of the values each unit holds).
    """
    n, geometry, cells = board.size, board.geometry, board.cells
    every = geometry.full_mask
    held = []
    for unit in geometry.units:
        mask = 0
        for cell in unit:
            mask |= 1 << cells[cell]
        held.append(mask & every)
    clauses: list[Clause] = []
    open_in: dict[int, int] = {}  # empty cell -> mask of the values still open there
    for cell in range(n * n):
        if cells[cell]:
            continue
        taken = 0
        for unit in geometry.units_of[cell]:
            taken |= held[unit]
        open_in[cell] = every & ~taken
        literals = [variable(cell, v, n) for v in range(1, n + 1) if open_in[cell] >> v & 1]
        clauses.append(tuple(literals))
        clauses += [(-a, -b) for a, b in combinations(literals, 2)]
    for unit, placed in zip(geometry.units, held, strict=True):
        for v in range(1, n + 1):
            if placed >> v & 1:
                continue
            literals = [variable(c, v, n) for c in unit if open_in.get(c, 0) >> v & 1]
            clauses.append(tuple(literals))
            clauses += [(-a, -b) for a, b in combinations(literals, 2)]
    return clauses


def pin_unused(clauses: list[Clause], variables: int) -> list[Clause]:
    """``clauses`` plus a negative unit clause for each variable none of them mentions.

    The reduced encoding leaves decided variables out; an engine that enumerates models would
    otherwise count each solution once per setting of those free variables.
    """
    used = {abs(literal) for clause in clauses for literal in clause}
    return [*clauses, *((-v,) for v in range(1, variables + 1) if v not in used)]


def solution_from_model(board: Board, model) -> Board:
    """The board filled from a model: the givens, and each empty cell's true variable."""
    chosen = decode(model, board.size)
    return board.with_cells(v or chosen.get(cell, 0) for cell, v in enumerate(board.cells))


def blocking_clause(board: Board, model) -> Clause:
    """A clause that rules out this model's filling of the empty cells, and nothing else."""
    n = board.size
    return tuple(
        -variable(cell, value, n)
        for cell, value in decode(model, n).items()
        if not board.cells[cell]
    )


def dimacs(clauses: list[Clause], variables: int, comments: list[str] = ()) -> str:
    """DIMACS CNF text that any SAT solver reads."""
    lines = [f"c {comment}" for comment in comments]
    lines.append(f"p cnf {variables} {len(clauses)}")
    lines += [" ".join(map(str, clause)) + " 0" for clause in clauses]
    return "\n".join(lines) + "\n"
