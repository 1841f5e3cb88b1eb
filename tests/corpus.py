"""Puzzles the tests build themselves, deterministically: no one else's data.

Complete boards come from the classic pattern (``Board.pattern``) shuffled by the transforms
``sudoku compare --shuffle`` uses (values, rows within bands, bands, columns within stacks,
stacks; no transpose, so that the draws stay those the corpus was made with); puzzles are
made by removing clues while a counter from a different backend than the one under test
(pysat) says the solution stays unique.
"""

from __future__ import annotations

import random

from solvers import Board, Shape, count_solutions
from solvers.formats.variant_text import variants
from solvers.generation.shuffle import random_transform
from solvers.model.constraints.model import Constraint
from solvers.model.variants import Rules

# A 4x4 killer without givens: its cages leave four solutions.
KILLER4 = """# rules: killer
cages:
aabb
ccdb
eedf
ggdf
sums: 3 8 7 7 7 5 3
"""


def complete_board(shape: Shape, rng: random.Random) -> Board:
    return random_transform(shape, rng, transpose=False).forward(Board.pattern(shape))


def unique_puzzle(shape: Shape, rng: random.Random, keep: int | None = None) -> Board:
    """Remove clues in random order while the solution stays unique, down to ``keep`` givens
    (or as few as possible when None)."""
    cells = list(complete_board(shape, rng).cells)
    for cell in rng.sample(range(len(cells)), len(cells)):
        if keep is not None and sum(1 for v in cells if v) <= keep:
            break
        value, cells[cell] = cells[cell], 0
        if count_solutions(Board(shape, tuple(cells)), 2, "pysat") != 1:
            cells[cell] = value
    return Board(shape, tuple(cells))


def several_solutions(puzzle: Board, rng: random.Random) -> Board:
    """A puzzle with more than one solution: a unique puzzle with givens taken away."""
    cells = list(puzzle.cells)
    givens = [i for i, v in enumerate(cells) if v]
    for cell in rng.sample(givens, len(givens)):
        cells[cell] = 0
        board = Board(puzzle.shape, tuple(cells))
        if count_solutions(board, 2, "pysat") == 2:
            return board
    raise AssertionError("no several-solution puzzle found")


def no_solution(puzzle: Board, rng: random.Random) -> Board:
    """A puzzle with no solution whose givens break no rule: one more given, chosen among the
    values no peer holds, that the unique solution does not have there."""
    solution = next(iter(_solutions(puzzle)))
    empties = [i for i, v in enumerate(puzzle.cells) if not v]
    peers = puzzle.geometry.peers
    for cell in rng.sample(empties, len(empties)):
        taken = {puzzle.cells[p] for p in peers[cell]}
        for value in range(1, puzzle.size + 1):
            if value not in taken and value != solution.cells[cell]:
                cells = list(puzzle.cells)
                cells[cell] = value
                board = Board(puzzle.shape, tuple(cells))
                if not board.conflicts() and count_solutions(board, 1, "pysat") == 0:
                    return board
    raise AssertionError("no quietly unsolvable puzzle found")


def _solutions(puzzle: Board):
    from solvers import solve

    yield solve(puzzle, "pysat").solution


def all_solutions(puzzle: Board, cap: int = 10_000) -> list[Board]:
    """Every solution (up to ``cap``), by blocking clauses in a fresh PySAT solver."""
    from pysat.solvers import Solver

    from adapters import cnf

    found = []
    with Solver(name="minisat22", bootstrap_with=cnf.encode(puzzle, "extended")) as solver:
        while len(found) < cap and solver.solve():
            model = solver.get_model()
            found.append(cnf.solution_from_model(puzzle, model))
            solver.add_clause(cnf.blocking_clause(puzzle, model))
    return found


def variant(
    shape: Shape,
    *names: str,
    regions: tuple[int, ...] | None = None,
    cages: tuple[tuple[int, tuple[int, ...]], ...] = (),
) -> Rules:
    """The rules of the classic variants ``names`` (x, windoku) as the text form reads them,
    with jigsaw ``regions`` and killer ``cages`` given as (total, cells) pairs."""
    killer = tuple(
        Constraint("killercage", tuple(sorted(cells)), (("total", total),))
        for total, cells in cages
    )
    return Rules(regions, variants(set(names), shape) + killer)
