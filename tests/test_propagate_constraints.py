"""propagate on constraints of the vocabulary: the primitives propagate (values are taken out
before any guess), not just checked once a constraint's cells are filled. Puzzles here are
made by hand, their answers worked out in the comments; the counts are cross-checked against
dfs (the kinds' own checks) in test_vocabulary.py."""

from __future__ import annotations

import pytest

from solvers import Board, Shape, Status, count_solutions, solve
from solvers.backends import choice, registry
from solvers.backends.handwritten import propagators
from solvers.backends.handwritten.constrained import ConstrainedTables, settle
from solvers.formats.boards import parse
from solvers.formats.datasets import DATASETS
from solvers.model.constraints.model import Constraint
from solvers.model.variants import Rules


def cell(name: str, n: int = 9) -> int:
    row, col = name[1:].split("c")
    return (int(row) - 1) * n + int(col) - 1


def line(kind: str, *names: str, n: int = 9, **params: int) -> Constraint:
    return Constraint(kind, tuple(cell(x, n) for x in names), tuple(params.items()))


def settled(board: Board) -> list[set[int]]:
    """Each cell's candidates once the constraints have propagated, before any guess."""
    tables = ConstrainedTables(board)
    candidates = [
        (1 << v if v else tables.full_mask) & domain
        for v, domain in zip(board.cells, tables.domains, strict=True)
    ]
    singles = [c for c, mask in enumerate(candidates) if not mask & (mask - 1)]
    placed = [0] * len(tables.units)
    assert settle(candidates, placed, singles, tables.all_dirty, tables)
    return [{v for v in range(1, board.size + 1) if mask >> v & 1} for mask in candidates]


def test_propagate_supports_every_kind_and_starts_the_default_but_for_non_consecutive():
    from solvers.model.constraints.kinds import KINDS

    assert set(KINDS) <= registry.supported("propagate")
    thermometer = parse("# rules: thermometer r1c1 r1c2\n" + "." * 81)
    assert choice.default_backend(thermometer, puzzles=1) == "portfolio"  # propagate first
    # measured: a SAT solver's learning answers non-consecutive puzzles five times faster
    preferred = [n for n in choice.PREFERRED_FOR["non-consecutive"] if registry.availability(n)[0]]
    nonconsecutive = parse("# rules: x; non-consecutive\n" + "." * 81)
    assert choice.default_backend(nonconsecutive) == preferred[0]


def test_thermometers_that_force_every_value_leave_nothing_to_guess():
    # row 1 rises 1 2 3 4; column 1 rises from r4c1 up: r4c1 < r3c1 < r2c1, out of 2, 3, 4;
    # r2c3 < r2c4 out of the 1 and 2 the row has left; singles do the rest
    thermometers = (
        line("thermometer", "r1c1", "r1c2", "r1c3", "r1c4", n=4),
        line("thermometer", "r4c1", "r3c1", "r2c1", n=4),
        line("thermometer", "r2c3", "r2c4", n=4),
    )
    board = Board.empty(Shape(2, 2), Rules(constraints=thermometers))
    result = solve(board, "propagate")
    assert result.status is Status.SOLVED
    assert result.solution.rows() == [[1, 2, 3, 4], [4, 3, 1, 2], [3, 4, 2, 1], [2, 1, 4, 3]]
    assert result.stats["guesses"] == 0
    assert count_solutions(board, 2, "propagate") == count_solutions(board, 2, "dfs") == 1


def test_a_thermometer_across_a_row_fixes_it():
    row = tuple(f"r1c{c}" for c in range(1, 10))
    board = Board.empty(Shape(3, 3), Rules(constraints=(line("thermometer", *row),)))
    assert settled(board)[:9] == [{v} for v in range(1, 10)]


def test_sums_keep_the_values_that_can_reach_the_total():
    # an arrow from a given 3 with two shaft cells in its row: 1 and 2 (bounds); a cage of
    # three cells of a row adding up to 6: 1, 2 and 3 (the sets of distinct values adding up
    # to 6; bounds alone leave a 4, with 1 + 1 for the others)
    arrow = Constraint("arrow", (0, 1, 2))
    cage = line("killercage", "r7c4", "r7c5", "r7c6", total=6)
    board = Board(Shape(3, 3), (3,) + (0,) * 80, Rules(constraints=(arrow, cage)))
    candidates = settled(board)
    assert candidates[1] == candidates[2] == {1, 2}
    assert all(candidates[cell(x)] == {1, 2, 3} for x in ("r7c4", "r7c5", "r7c6"))


def test_dots_lines_and_cell_kinds_narrow_their_partners():
    givens = {"r1c1": 3, "r3c4": 3, "r4c1": 1, "r4c2": 5}
    cells = tuple(givens.get(f"r{c // 9 + 1}c{c % 9 + 1}", 0) for c in range(81))
    constraints = (
        line("ratio", "r1c1", "r1c2"),  # 3 and 6 (half of 3 is no value)
        line("xv", "r3c4", "r3c5", sum=10),  # 3 and 7
        line("entropic", "r4c1", "r4c2", "r4c3"),  # 1-3, 4-6, then one of 7-9
        line("whispers", "r6c5", "r6c6"),
        Constraint("odd", (cell("r6c5"),)),
        Constraint("minimum", (cell("r6c5"),)),
    )
    board = Board(Shape(3, 3), cells, Rules(constraints=constraints))
    candidates = settled(board)
    assert candidates[cell("r1c2")] == {6} and candidates[cell("r3c5")] == {7}
    assert candidates[cell("r4c3")] == {7, 8, 9}
    # odd, below r6c6 and 5 apart from it: 1 or 3, and r6c6 6 or more
    assert candidates[cell("r6c5")] == {1, 3}
    assert candidates[cell("r6c6")] == {6, 7, 8, 9}


def test_a_non_consecutive_neighbour_in_the_same_row_loses_both_values_of_a_pair():
    # column 1 holds everything but 4 and 5 below r1c1, no two neighbours consecutive; so
    # r1c1 is 4 or 5, and r1c2, in its row, can be neither: 4 is 5's neighbour value and
    # equal to 4. The relation alone keeps both (each has a support), as does the row alone.
    column = (0, 9, 1, 3, 6, 8, 2, 7, 0)
    cells = tuple(column[c // 9] if c % 9 == 0 else 0 for c in range(81))
    board = Board(Shape(3, 3), cells, Rules(constraints=(Constraint("non-consecutive"),)))
    candidates = settled(board)
    assert candidates[0] == {4, 5}
    assert not candidates[1] & {4, 5}


@pytest.mark.parametrize("op, left", [("!=", {1, 3, 4}), ("==", {2})])
def test_a_sum_on_cells_all_fixed_but_one_narrows_that_one(op, left):
    board = Board(Shape(2, 2), (1,) + (0,) * 15)
    tables = ConstrainedTables(board)
    candidates = [1 << 1] + [tables.full_mask] * 15  # r1c1 holds 1; the rest is open
    data = (((1, 0), (1, 5)), op, 3, 4)  # r1c1 + r2c2 (op) 3
    assert propagators.linear(candidates, [], data, tables) == tables.unit_bits[5]
    assert {v for v in range(1, 5) if candidates[5] >> v & 1} == left


@pytest.mark.parametrize("name", ["antiking9", "thermo9", "arrow9", "kropki9", "xv9"])
def test_the_first_puzzle_of_a_generated_set_is_proved_unique(name):
    from solvers.formats.boards import read_puzzles

    board = next(read_puzzles(DATASETS[name].open())).board
    assert count_solutions(board, 2, "propagate") == 1


@pytest.mark.heavy
@pytest.mark.parametrize(
    "name", ["antiknight9", "antiking9", "nonconsecutive9", "thermo9", "arrow9", "kropki9", "xv9"]
)
def test_every_puzzle_of_a_generated_set_is_proved_unique(name):
    from solvers.formats.boards import read_puzzles

    for puzzle in read_puzzles(DATASETS[name].open()):
        assert count_solutions(puzzle.board, 2, "propagate", timeout=120) == 1
