"""The rule's pointing (solvers.strength.kind_must): a value every assignment of a rule holds
goes from each outside cell that sees all the rule's cells that can take it.

The expected eliminations are written from the rules: a killer cage of three cells summing
to 7 is 1+2+4, so it holds 1 wherever its 1 goes; a renban of five cells is a run of five of
1..9, and every such run (1-5 up to 5-9) holds 5.
"""

from __future__ import annotations

import io

from kind_puzzles import gone

from solvers.formats.boards import read_puzzles
from solvers.strength import human
from solvers.strength.kind_must import rule_pointing


def grid_of(rules: str, givens: str = "." * 81):
    (puzzle,) = read_puzzles(io.StringIO(f"# rules: {rules}\n{givens}\n"))
    return human.placed_givens(puzzle.board)


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


def test_the_45_rule_reads_an_outie():
    """Row 1 covered by cages 6 (r1c1-r1c3), 22 (r1c4-r1c6 and r2c6) and 24 (r1c7-r1c9):
    55 in all, the row 45, so the one cell outside it, r2c6, is 10 less: 7."""
    from solvers.strength.kind_sums import innies

    rules = (
        "killercage r1c1 r1c2 r1c3 total=6; killercage r1c4 r1c5 r1c6 r2c6 total=22; "
        "killercage r1c7 r1c8 r1c9 total=24"
    )
    step = innies(grid_of(rules))
    assert gone(step) == {"r2c6": set(range(1, 10)) - {7}}
    assert step.technique == "45 rule"
    assert step.describe(9).startswith(
        "45 rule on row 1: the cages in and reaching into it add up to 52, so the outie r2c6 is 7"
    )


def test_the_45_rule_on_two_rows():
    """Rows 1-2 (90) hold a cage in each of columns 1 to 8 (r1cX and r2cX; 10, then seven of
    11: 87), so the innies r1c9 and r2c9 add up to 3 in different values (one column): 1+2.
    No one row, column or box says it: each holds no cage or leaves too many cells."""
    from solvers.strength.kind_sums import innies

    totals = [10] + [11] * 7
    rules = "; ".join(f"killercage r1c{c} r2c{c} total={t}" for c, t in enumerate(totals, start=1))
    step = innies(grid_of(rules))
    assert gone(step) == {"r1c9": set(range(3, 10)), "r2c9": set(range(3, 10))}
    assert step.describe(9).startswith(
        "45 rule on rows 1-2: its cages add up to 87, so r1c9-r2c9 add up to 3: only 1+2"
    )
