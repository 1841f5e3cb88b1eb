"""The rule's pointing (solvers.strength.kind_must): a value every assignment of a rule holds
goes from each outside cell that sees all the rule's cells that can take it.

The expected eliminations are written from the rules: a killer cage of three cells summing
to 7 is 1+2+4, so it holds 1 wherever its 1 goes; a renban of five cells is a run of five of
1..9, and every such run (1-5 up to 5-9) holds 5.
"""

from __future__ import annotations

import io

from solvers.formats.boards import read_puzzles
from solvers.model.cells import cell_name
from solvers.strength import human
from solvers.strength.kind_must import rule_pointing


def grid_of(rules: str, givens: str = "." * 81):
    (puzzle,) = read_puzzles(io.StringIO(f"# rules: {rules}\n{givens}\n"))
    return human.placed_givens(puzzle.board)


def gone(step) -> dict[str, set[int]]:
    found: dict[str, set[int]] = {}
    for cell, value in step.eliminated:
        found.setdefault(cell_name(cell, 9), set()).add(value)
    return found


def test_a_cage_in_a_row_and_a_box_points_its_values_out_of_both():
    grid = grid_of("killercage r1c1 r1c2 r1c3 total=7")
    step = rule_pointing(grid)
    # 1 is in the cage: the rest of row 1 and of box 1 cannot be 1
    outside = {f"r1c{c}" for c in range(4, 10)} | {f"r{r}c{c}" for r in (2, 3) for c in (1, 2, 3)}
    assert gone(step) == {cell: {1} for cell in outside}
    assert step.technique == "rule pointing"
    assert step.describe(9).startswith(
        "killer cage r1c1-r1c2-r1c3 sum 7 must hold 1: it can only go in r1c1-r1c2-r1c3, "
        "so r1c4 cannot be 1"
    )
    human.apply(grid, step)
    assert gone(rule_pointing(grid)) == {cell: {2} for cell in outside}


def test_only_the_cells_that_can_take_the_value_count():
    """Cage r1c1-r2c1-r2c2 sum 7 (1+2+4); a 4 given at r9c1 keeps 4 out of column 1, so the
    cage's 4 is at r2c2: row 2, column 2 and box 1 lose 4 outside the cage."""
    givens = list("." * 81)
    givens[8 * 9 + 0] = "4"  # r9c1
    grid = grid_of("killercage r1c1 r2c1 r2c2 total=7", "".join(givens))
    for held in (1, 2):
        step = rule_pointing(grid)
        assert step.describe(9).startswith(f"killer cage r1c1-r2c1-r2c2 sum 7 must hold {held}")
        human.apply(grid, step)
    step = rule_pointing(grid)
    assert step.describe(9).startswith(
        "killer cage r1c1-r2c1-r2c2 sum 7 must hold 4: it can only go in r2c2"
    )
    row = {f"r2c{c}" for c in range(3, 10)}
    # r7c2 to r9c2 lost 4 to the given's box
    column = {f"r{r}c2" for r in (1, *range(3, 7))}
    box = {"r1c3", "r3c2", "r3c3"}  # r3c1 lost it to the given's column
    assert gone(step) == {cell: {4} for cell in row | column | box}


def test_a_long_renban_holds_its_middle_value():
    grid = grid_of("renban r5c1 r5c2 r5c3 r5c4 r5c5")
    step = rule_pointing(grid)
    assert step.technique == "rule pointing"
    assert gone(step) == {f"r5c{c}": {5} for c in range(6, 10)}


def test_a_cage_with_no_forced_value_points_nothing():
    """Sum 10 in two cells: 1+9, 2+8, 3+7, 4+6; no value is in all of them."""
    assert rule_pointing(grid_of("killercage r1c1 r1c2 total=10")) is None
