"""Two 2x2 squares of a global entropy read together (solvers.strength.kind_squares).

The board is made here: box 1's top two rows narrowed by hand. Global entropy puts a low
(1-3), a middle (4-6) and a high (7-9) value in every 2x2 square. With r2c2 low (1 or 2):

- r1c2 = 3 (low): the right square r1c2-r1c3-r2c2-r2c3 then needs its high in r1c3 (r2c3 is
  4 or 5), so r1c3 = 8, r1c1 = 5, and the left square r1c1-r1c2-r2c1-r2c2 holds 5, 3, a low
  and r2c1 (1 or 6): no high. Impossible.
- r1c2 = 5 (middle): again r1c3 = 8 for the right square's high, and r1c1 (5 or 8) has
  nothing left in row 1. Impossible.
- so r1c2 = 7; r1c1 = 8 would make r1c3 = 6, r2c1 = 1, r2c2 = 2, and the left square 8, 7,
  1, 2 holds no middle: r1c1 = 5, and r2c3 (in box 1 with it) is not 5.

Each square alone allows every one of these candidates: the left one lets r1c2 be 3 with
r1c1 = 8 and r2c1 = 6; the right one lets r1c2 be 5 or 3 with r1c3 = 8.
"""

from __future__ import annotations

from kind_puzzles import gone, grid_of
from test_kind_soundness import replay

from solvers import solve
from solvers.strength import human, kind_squares, kinds
from solvers.strength.grid import outcome
from solvers.strength.rating import prepared

NARROWED = {
    "r1c1": {5, 8},
    "r1c2": {3, 5, 7},
    "r1c3": {6, 8},
    "r2c1": {1, 6},
    "r2c2": {1, 2},
    "r2c3": {4, 5},
}


def narrowed(rules: str):
    grid = grid_of(rules)
    for name, allowed in NARROWED.items():
        cell = (int(name[1]) - 1) * 9 + int(name[3]) - 1
        grid.candidates[cell] = sum(1 << value for value in allowed)
    return grid


def test_two_squares_read_together_place_the_high_and_the_middle():
    grid = narrowed("globalentropy")
    step = kind_squares.squares_together(grid)
    assert step.technique == "squares together"
    assert step.rating == 2.8
    assert gone(step) == {"r1c1": {8}, "r1c2": {3, 5}, "r2c3": {5}}
    assert step.describe(9).startswith(
        "global entropy: the 2x2 squares at r1c1 and r1c2 read together: each holds a value "
        "of every group, so r1c1 cannot be 8; r1c2 cannot be 3, 5; r2c3 cannot be 5"
    )
    human.apply(grid, step)
    again = kind_squares.squares_together(grid)  # the same two squares have nothing new
    assert again is None or again.where != step.where


def test_each_square_alone_allows_those_candidates():
    assert kinds.kind_step(narrowed("globalentropy")) is None


def test_an_open_grid_and_a_board_without_the_rule_say_nothing():
    assert kind_squares.squares_together(grid_of("globalentropy")) is None
    assert kind_squares.squares_together(narrowed("anti-king")) is None


def test_every_pair_of_squares_that_share_a_cell_is_read():
    # side by side 8 x 7, one above the other 7 x 8, corner to corner 7 x 7 each way
    assert len(kind_squares.pairs(9)) == 56 + 56 + 49 + 49
    cells, first, second = kind_squares.pairs(9)[0]
    assert cells == (0, 1, 2, 9, 10, 11)
    assert (first, second) == ((0, 1, 3, 4), (1, 2, 4, 5))


def test_explain_finishes_iss_entropy_sudoku_soundly(iss):
    """sigh's ISS '[New Constraint] Entropy Sudoku' (the ``iss`` fixture): it
    stalled with 50 cells open before the squares were read together."""
    board = iss("[New Constraint] Entropy Sudoku")
    grid = prepared(board)
    taken = [step.technique for step in human.steps(grid)]
    assert outcome(board, grid.candidates).solved
    assert "squares together" in taken
    assert replay(board, solve(board).solution.cells) == len(taken)
