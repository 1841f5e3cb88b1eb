"""Every step of every explanation is sound: replayed on a candidate grid kept here, apart
from the explainer's, no step places a value the puzzle's solution does not hold there, and
none removes the solution's value, on every kind of the vocabulary (each kind's example on a
board of its own), on the shipped variant sets and on variant puzzles made here
(``kind_puzzles``). With several solutions any one of them serves: a sound step keeps all.

And the classic order: a pointing (Sudoku Explainer 2.6) on the board is taken before a
claiming (2.8), so a puzzle that needs no more than pointing rates 2.6.
"""

from __future__ import annotations

import io
import random
from itertools import islice

import pytest
from kind_puzzles import KINDS as MADE
from kind_puzzles import made

from solvers.api import solve
from solvers.formats.boards import read_puzzles
from solvers.formats.datasets import DATASETS
from solvers.model.board import Board
from solvers.model.constraints.kinds import KINDS
from solvers.strength import human
from solvers.strength.rating import rate
from solvers.strength.techniques import Contradiction


def replay(board: Board, solution: list[int] | tuple[int, ...]) -> int:
    """Explain ``board`` and replay each step on candidates kept here (givens placed, each
    placement removed from the cell's row, column and box-mates as the geometry gives them),
    asserting the solution survives every step; the number of steps."""
    geometry = board.geometry
    full = (1 << (board.size + 1)) - 2
    mine = [1 << v if v else full for v in board.cells]

    def place(cell: int, value: int) -> None:
        mine[cell] = 1 << value
        for peer in geometry.peers[cell]:
            mine[peer] &= ~(1 << value)

    for cell, value in enumerate(board.cells):
        if value:
            place(cell, value)
    taken = 0
    try:
        for step in human.steps(human.placed_givens(board)):
            taken += 1
            for cell, value in step.placed:
                assert solution[cell] == value, step.describe(board.size)
                place(cell, value)
            for cell, value in step.eliminated:
                assert solution[cell] != value, step.describe(board.size)
                mine[cell] &= ~(1 << value)
            assert all(mask >> v & 1 for mask, v in zip(mine, solution, strict=True))
    except Contradiction as contradiction:  # a sound explainer meets none on a solvable board
        pytest.fail(f"contradiction on a solvable board: {contradiction}")
    return taken


def example_board(name: str, seed: int) -> tuple[Board, tuple[int, ...] | None]:
    """The kind's example constraint (``sudoku kinds``) on an empty 9x9 board, solved, then
    a third of the solution's cells given, none in the constraint's own cells (so that the
    constraint has something to say); the empty board and None where it has no solution."""
    kind = KINDS[name]
    (puzzle,) = read_puzzles(io.StringIO(f"# rules: {kind.example}\n{'.' * 81}\n"))
    answer = solve(puzzle.board).solution
    if answer is None:
        return puzzle.board, None
    solution = answer.cells
    mine = set() if kind.board_wide else set(puzzle.board.rules.constraints[0].cells)
    rng = random.Random(seed)
    given = set(rng.sample([c for c in range(81) if c not in mine], 27))
    cells = [v if c in given else 0 for c, v in enumerate(solution)]
    return puzzle.board.with_cells(cells), solution


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_kind_s_steps_keep_the_solution(name):
    """Every kind under ``-m heavy``; the default run two of each family of rules, the two whose
    examples explain quickest (tests/conftest.py's HEAVY)."""
    board, solution = example_board(name, seed=len(name))
    # an example a user copies from `sudoku kinds` must have a solution (the palindrome's once
    # mirrored two cells of one row: a count of it searched for minutes)
    assert solution is not None, f"{name}'s example has no solution"
    replay(board, solution)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", MADE)
def test_steps_keep_the_solution_on_puzzles_made_for_each_kind(kind, seed):
    board, solution = made(kind, seed, givens=22)
    replay(board, solution)


VARIANT_SETS = ["killer9", "thermo9", "arrow9", "kropki9", "xv9", "antiknight9", "antiking9",
                "nonconsecutive9", "x9", "jigsaw9", "windoku9", "killer16"]  # fmt: skip


@pytest.mark.parametrize("name", VARIANT_SETS)
def test_steps_keep_the_solution_on_the_shipped_variant_sets(name):
    # the first puzzle (x9's second needs SE's dynamic forcing chains: 11 s); all under heavy
    with DATASETS[name].open() as handle:
        for puzzle in islice(read_puzzles(handle), 1):
            replay(puzzle.board, solve(puzzle.board).solution.cells)


# the sets whose puzzles mostly need SE's dynamic forcing chains (seconds each: all of x9,
# jigsaw9 and windoku9 took 12 min of one worker), or chains across the cages' links (killer9:
# 3-20 s a puzzle where the unit chains stall): their first 15 under heavy; of xv9 and kropki9
# (10 puzzles, 10-12 s each across the dots' links: 104-125 s of CI's heavy run), the first 6
CHAINED = {"x9": 15, "jigsaw9": 15, "windoku9": 15, "killer9": 15, "xv9": 6, "kropki9": 6}


@pytest.mark.heavy
@pytest.mark.parametrize("name", VARIANT_SETS)
def test_steps_keep_the_solution_on_the_variant_sets_at_length(name):
    with DATASETS[name].open() as handle:
        for puzzle in islice(read_puzzles(handle), CHAINED.get(name)):
            replay(puzzle.board, solve(puzzle.board).solution.cells)


def test_a_thermometer_puzzle_is_explained_to_the_end():
    """thermo9's puzzle on line 12: singles alone stall at once (rated search before the
    kinds had steps); with the thermometers' steps the explanation reaches the solution."""
    with DATASETS["thermo9"].open() as handle:
        board = next(p for p in read_puzzles(handle) if p.line == 12).board
    grid = human.placed_givens(board)
    steps = list(human.steps(grid))
    assert any(step.technique == "thermometer" for step in steps)
    assert 0 not in grid.candidates and all(m & (m - 1) == 0 for m in grid.candidates)
    assert (rate(board).level, rate(board).hardest) == ("singles", "thermometer")


def test_pointing_is_taken_before_claiming():
    """hard9's puzzle on line 6: after the singles both a claiming (row 6 and box 4) and a
    pointing are on the board; the pointing comes first (it rated 2.8 when claiming was
    looked for first). On SE's full scale that pointing is a direct one (1.7: it leaves a
    hidden single), and the hardest step is a direct hidden triple (2.5), below pointing's
    2.6, as SE rates it."""
    with DATASETS["hard9"].open() as handle:
        board = next(p for p in read_puzzles(handle) if p.line == 6).board
    grid = human.placed_givens(board)
    kinds = ("pointing", "claiming", "direct pointing", "direct claiming")
    locked = next(s for s in human.steps(grid) if s.technique in kinds)
    assert locked.technique == "direct pointing"
    assert (rate(board).difficulty, rate(board).hardest) == (2.5, "direct hidden triple")
