"""Each kind's own step in explain (solvers.strength.kinds): on a board made for it, the first
step the kind takes removes exactly what the kind's definition says, in a player's words.

Every expected elimination below is written from the rule, not read from the code: a killer
cage of two cells in one column summing to 3 can only hold 1 and 2, and so on.
"""

from __future__ import annotations

import io

import pytest
from kind_puzzles import gone

from solvers.formats.boards import read_puzzles
from solvers.model.board import Board
from solvers.strength import human, kind_bounds
from solvers.strength.kinds import kind_step
from solvers.strength.techniques import Contradiction

EMPTY = "." * 81


def board(rules: str, givens: dict[str, int] | None = None) -> Board:
    """A 9x9 board with ``rules`` and the givens named (``{"r1c1": 5}``)."""
    cells = list(EMPTY)
    for name, value in (givens or {}).items():
        row, col = int(name[1]), int(name[3])
        cells[(row - 1) * 9 + col - 1] = str(value)
    (puzzle,) = read_puzzles(io.StringIO(f"# rules: {rules}\n{''.join(cells)}\n"))
    return puzzle.board


def first_kind_step(rules: str, givens: dict[str, int] | None = None):
    """The first step the board's constraints take after its givens are placed."""
    return kind_step(human.placed_givens(board(rules, givens)))


def test_a_killer_cage_keeps_the_combinations_that_reach_its_sum():
    step = first_kind_step("killercage r1c1 r2c1 total=3")
    assert gone(step) == {"r1c1": set(range(3, 10)), "r2c1": set(range(3, 10))}
    assert step.technique == "killer cage"
    assert step.describe(9).startswith("killer cage r1c1-r2c1 sum 3: only 1+2, so r1c1 cannot be 3")


def test_a_killer_cage_across_boxes_keeps_its_cells_different():
    """r1c3 and r1c4 share a row; r1c3 and r2c4 share nothing, yet a cage's values differ:
    sum 4 in two cells is only 1+3, and with r1c3=1 given r2c4 must be 3."""
    step = first_kind_step("killercage r1c3 r2c4 total=4", {"r1c3": 1})
    assert gone(step) == {"r2c4": set(range(1, 10)) - {3}}


def test_a_thermometer_passes_its_bounds_along():
    step = first_kind_step("thermometer r2c3 r1c2")
    assert gone(step) == {"r2c3": {9}, "r1c2": {1}}
    assert step.describe(9) == "thermometer r2c3->r1c2: r2c3 cannot be 9; r1c2 cannot be 1"


def test_a_thermometer_of_three_from_a_given_bulb():
    step = first_kind_step("thermometer r1c1 r1c2 r1c3", {"r1c1": 6})
    # above 6, and room for one more above: r1c2 is 7 or 8, r1c3 8 or 9
    # (6 itself is gone by the row already)
    assert gone(step) == {"r1c2": {1, 2, 3, 4, 5, 9}, "r1c3": {1, 2, 3, 4, 5, 7}}


def test_a_slow_thermometer_may_repeat_a_value():
    step = first_kind_step("slow-thermometer r1c1 r2c2", {"r1c1": 6})
    # r2c2 sees r1c1 (same box), so not 6 by the box; the rule itself only says >= 6
    assert gone(step) == {"r2c2": {1, 2, 3, 4, 5}}


def test_an_arrow_circle_is_at_least_the_least_shaft_sum():
    """Circle r1c1, shaft r1c2 r1c3, all in row 1: the shaft holds two different values, so
    the circle is at least 1+2 = 3; it is at most 9, so a shaft cell is at most 9-1 = 8."""
    step = first_kind_step("arrow r1c1 r1c2 r1c3")
    assert gone(step) == {"r1c1": {1, 2}, "r1c2": {9}, "r1c3": {9}}
    assert "the shaft adds up to the circle only as" in step.describe(9)


def test_a_little_killer_keeps_its_sums():
    step = first_kind_step("littlekiller r1c2 r2c3 total=3")  # one box: different values
    assert gone(step) == {"r1c2": set(range(3, 10)), "r2c3": set(range(3, 10))}
    assert step.technique == "little killer"


@pytest.mark.parametrize(
    "rules, lost",
    [
        ("xv r1c1 r1c2 sum=10", {5}),  # X: 5 would need a second 5 in the row
        ("xv r1c1 r1c2 sum=5", {5, 6, 7, 8, 9}),  # V: 1+4, 2+3 only
        ("ratio r1c1 r1c2", {5, 7, 9}),  # black dot: 1-2, 2-4, 3-6, 4-8 only
        ("whispers r1c1 r1c2", {5}),  # no value is 5 away from 5 within 1..9
    ],
)
def test_a_dot_or_a_pair_line_keeps_values_with_a_partner(rules, lost):
    step = first_kind_step(rules)
    assert gone(step) == {"r1c1": lost, "r1c2": lost}


def test_a_white_dot_beside_a_given():
    step = first_kind_step("difference r1c1 r1c2", {"r1c1": 5})
    assert gone(step) == {"r1c2": set(range(1, 10)) - {4, 6, 5}}  # 5 already gone by the row
    assert "white dot r1c1-r1c2: they differ by 1" in step.describe(9)


def test_a_parity_line_alternates():
    step = first_kind_step("parityline r1c1 r1c2", {"r1c1": 3})
    assert gone(step) == {"r1c2": {1, 5, 7, 9}}  # 3 already gone by the row


def test_a_palindrome_mirrors():
    step = first_kind_step("palindrome r1c3 r2c4 r2c5", {"r1c3": 4})
    assert gone(step) == {"r2c5": set(range(1, 10)) - {4}}


def test_a_renban_is_a_run():
    step = first_kind_step("renban r1c1 r1c2 r1c3", {"r1c1": 1})
    assert gone(step) == {"r1c2": set(range(4, 10)), "r1c3": set(range(4, 10))}
    assert "only 1,2,3" in step.describe(9)


def test_a_between_line_lies_between_its_ends():
    step = first_kind_step("betweenline r1c1 r1c2 r1c3", {"r1c1": 2, "r1c3": 5})
    assert gone(step) == {"r1c2": {1, 6, 7, 8, 9}}


def test_odd_and_even_cells():
    assert gone(first_kind_step("odd r5c5")) == {"r5c5": {2, 4, 6, 8}}
    assert gone(first_kind_step("even r5c5")) == {"r5c5": {1, 3, 5, 7, 9}}


def test_a_quadruple_with_two_cells_left():
    step = first_kind_step("quadruple r4c4 r4c5 r5c4 r5c5 values=1,2", {"r4c4": 3, "r4c5": 4})
    # 3 and 4 are gone by the box already: the two open cells hold 1 and 2
    assert gone(step) == {"r5c4": set(range(5, 10)), "r5c5": set(range(5, 10))}


def test_the_generic_step_on_a_skyscraper_and_an_anti_knight():
    """No step of their own: the rule's assignments enumerated (a skyscraper row's table,
    an anti-knight's pairs) say it, worded as such."""
    row = " ".join(f"r1c{c}" for c in range(1, 10))
    step = first_kind_step(f"skyscraper {row} total=1")  # one seen: the 9 stands first
    assert gone(step) == {"r1c1": set(range(1, 9)), **{f"r1c{c}": {9} for c in range(2, 10)}}
    assert "allows no solution with r1c1=1" in step.describe(9)
    step = first_kind_step("anti-knight", {"r5c5": 5})
    knight = ("r3c4", "r3c6", "r4c3", "r4c7", "r6c3", "r6c7", "r7c4", "r7c6")
    assert gone(step) in [{cell: {5}} for cell in knight]  # one pair per step


def test_a_rule_with_no_assignment_left_is_a_contradiction():
    with pytest.raises(Contradiction, match="killer cage r1c1-r2c1 sum 3"):
        first_kind_step("killercage r1c1 r2c1 total=3", {"r1c1": 3})


def test_the_45_rule_on_a_box_whose_cages_leave_one_cell():
    """Box 1 adds up to 45; its cages inside add up to 6 + 15 + 15 = 36, so r3c3 is 9."""
    from solvers.strength.kind_sums import innies

    rules = (
        "killercage r1c1 r1c2 r1c3 total=6; killercage r2c1 r2c2 r2c3 total=15; "
        "killercage r3c1 r3c2 total=15"
    )
    step = innies(human.placed_givens(board(rules)))
    assert gone(step) == {"r3c3": set(range(1, 9))}
    assert step.describe(9).startswith(
        "45 rule on box 1: its cages add up to 36, so r3c3 is 9: only 9"
    )


def test_the_docs_name_every_kind_s_step_specific_generic_or_units():
    """No kind silently ignored: docs/strength.md lists each kind once, among those with a
    step of their own (exactly ``SPECIFIC``), the generic step's, or the units'."""
    import re
    from pathlib import Path

    from solvers.model.constraints.kinds import KINDS
    from solvers.strength.kinds import SPECIFIC, UNITS

    text = Path(__file__).parent.parent.joinpath("docs", "strength.md").read_text("utf-8")
    section = text.split("## Each kind's own steps")[1].split("\n## ")[0]
    table, rest = section.split("**The generic step")
    specific = set(re.findall(r"`([a-z+\-]+)`", table.split("| kind | step |")[1]))
    generic = set(re.findall(r"`([a-z+\-]+)`", rest.split("**Sound")[0]))
    assert specific == set(SPECIFIC)
    assert specific | generic == set(KINDS) and generic >= UNITS


def test_the_45_rule_leaves_out_cages_that_overlap():
    """Row 1 of a solved grid 123456789 with cages 1+2+3=6, 3+4+5=12 and 5+6=11 sharing
    r1c3 and r1c5: the cages do not add up to 29 of the row's 45 (r1c7-r1c9 hold 7+8+9=24), so
    the 45 rule may not say they add up to 16 (it called the puzzle contradictory)."""
    from solvers.strength.kind_sums import innies

    rules = (
        "killercage r1c1 r1c2 r1c3 total=6; killercage r1c3 r1c4 r1c5 total=12; "
        "killercage r1c5 r1c6 total=11"
    )
    solution = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
    givens = {f"r{i // 9 + 1}c{i % 9 + 1}": int(v) for i, v in enumerate(solution) if i >= 27}
    grid = human.placed_givens(board(rules, givens))
    step = innies(grid)
    assert step is None or all(solution[cell] != str(value) for cell, value in step.eliminated)


# the sum kinds of sigh's Interactive Sudoku Solver (sums.py)
def test_an_iss_sum_keeps_the_combinations_that_reach_its_total():
    # r1c1 and r5c5 see nothing of each other: 1+1 is allowed, so only 3 and up go (2 = 1+1)
    step = first_kind_step("sum r1c1 r5c5 total=2")
    assert gone(step) == {"r1c1": set(range(2, 10)), "r5c5": set(range(2, 10))}
    assert step.technique == "sum"
    assert step.describe(9).startswith("sum r1c1-r5c5 total 2: only 1+1, so r1c1 cannot be 2")


def test_an_iss_weighted_sum():
    # 2 * r1c1 - r5c5 = 15: r1c1 = 8 with r5c5 = 1, or r1c1 = 9 with r5c5 = 3
    step = first_kind_step("sum r1c1 r5c5 total=15 weights=2,-1")
    assert gone(step) == {"r1c1": set(range(1, 8)), "r5c5": {2, 4, 5, 6, 7, 8, 9}}


def test_a_rellik_cage_drops_the_total_and_its_parts():
    # no part may add up to 4: not 4 itself, and with r1c1 = 1 given r1c2 cannot be 3 (1+3)
    step = first_kind_step("rellikcage r1c1 r1c2 total=4", {"r1c1": 1})
    assert gone(step) == {"r1c2": {3, 4}}
    assert step.technique == "rellik cage"
    assert step.describe(9).startswith("rellik cage r1c1-r1c2 not 4")


def test_a_region_sum_line_bounds_a_long_stretch_by_a_short_one():
    """r1c2-r1c3 lie in box 1, r1c4-r1c5-r1c6-r2c6-r2c5 in box 2: two different values make
    at most 8+9 = 17, five different ones at least 1+2+3+4+5 = 15, so the shared total is 15,
    16 or 17. Two cells reach it only as 6+9, 7+8, 7+9 or 8+9 (never 1 to 5); five only as
    1+2+3+4+5, 1+2+3+4+6, 1+2+3+4+7 or 1+2+3+5+6 (never 8 or 9). The line has too many open
    cells to enumerate whole: only its stretches' sums see this."""
    step = first_kind_step("regionsumline r1c2 r1c3 r1c4 r1c5 r1c6 r2c6 r2c5 regions=0,0,1,1,1,1,1")
    short, long_ = set(range(1, 6)), {8, 9}
    assert gone(step) == {"r1c2": short, "r1c3": short, "r1c4": long_, "r1c5": long_,
                          "r1c6": long_, "r2c6": long_, "r2c5": long_}  # fmt: skip
    assert step.technique == "region sum line"
    assert step.describe(9).startswith(
        "region sum line r1c2-r1c3-r1c4-r1c5-r1c6-r2c6-r2c5: its stretches can only share the "
        "total 15, 16 or 17, so r1c2 cannot be 1, 2, 3, 4, 5"
    )


def test_a_region_sum_line_with_a_given_fixes_the_total():
    """r4c4 = 8 given is a stretch of its own (box 5): the stretch r3c4-r3c5 (box 2, one row)
    adds up to 8 as 1+7, 2+6 or 3+5, so it cannot hold 4 (4+4 repeats), 8 or 9."""
    step = first_kind_step("regionsumline r3c4 r3c5 r4c4 regions=0,0,1", {"r4c4": 8})
    # 8 is gone from r3c4 by the column already (r4c4 = 8)
    assert gone(step) == {"r3c4": {4, 9}, "r3c5": {4, 8, 9}}


def test_a_long_zipper_s_centre_is_at_least_seven():
    """Seven cells of row 1, centre r1c4: three pairs of different values, all different from
    each other and from the centre, each adding up to the centre; three such pairs below it
    need 1..6 at least (1+6, 2+5, 3+4 = 7), so the centre is 7, 8 or 9 and no pair cell is 9.
    Each three-cell equation alone (a + b = centre) only says the centre is at least 3."""
    step = first_kind_step("zipper r1c1 r1c2 r1c3 r1c4 r1c5 r1c6 r1c7")
    assert gone(step) == {"r1c4": set(range(1, 7)), **{f"r1c{c}": {9} for c in (1, 2, 3, 5, 6, 7)}}
    assert step.technique == "zipper"
    assert "each pair adds up to the centre" in step.describe(9)


def test_a_zipper_s_pairs_meet_on_a_shared_total():
    """An even zipper r1c1-r2c1-r2c2-r1c2 (all in box 1): r1c1 + r1c2 = r2c1 + r2c2, with
    r1c1 = 1 and r1c2 = 2 given the total is 3, so the other pair is 1+2: impossible (1 and 2
    are taken in the box): the rule leaves no assignment."""
    with pytest.raises(Contradiction):
        first_kind_step("zipper r1c1 r2c1 r2c2 r1c2", {"r1c1": 1, "r1c2": 2})


SHAFT = " ".join(f"r1c{col}" for col in range(1, 10)) + " r2c9"  # row 1, then r2c9


def test_a_long_arrow_s_two_digit_circle_lies_within_its_shaft_s_bounds():
    """Shaft: all of row 1 (nine different values: 45) and r2c9 (1 to 9), so it adds up to
    46 to 54; too many assignments to enumerate, the arrow is read by those bounds. The
    circle r2c1-r2c2 is then 4x or 5x: its tens digit cannot be 1, 2, 3, 6, 7, 8 or 9."""
    step = first_kind_step(f"arrow r2c1 r2c2 {SHAFT} circle=2")
    assert gone(step) == {"r2c1": {1, 2, 3, 6, 7, 8, 9}}
    assert step.technique == "arrow"
    assert "add up to 46-54" in step.describe(9)


def test_a_long_arrow_s_shaft_cell_takes_what_its_circle_leaves():
    """The same shaft with the circle given as 46: row 1 makes 45, so r2c9 is 1."""
    step = first_kind_step(f"arrow r2c1 r2c2 {SHAFT} circle=2", {"r2c1": 4, "r2c2": 6})
    assert gone(step) == {"r2c9": {2, 3, 5, 7, 8, 9}}  # 4 and 6 are gone by row 2 already


def test_a_little_killer_read_by_its_bounds():
    """The reading a little killer falls back on where its assignments are too many
    (``kind_bounds.line``), on the main diagonal of total 19: its cells fall in boxes 1, 5
    and 9, three different values each (at least 1+2+3), so the line makes 18 at least; a
    cell of 5 would make its box's three at least 5+1+2 = 8, the line 20: all lose 5 to 9."""
    cells = tuple(cell for cell in range(0, 81, 10))
    diagonal = " ".join(f"r{i}c{i}" for i in range(1, 10))
    grid = human.placed_givens(board(f"littlekiller {diagonal} total=19"))
    step = kind_bounds.line(grid, cells, 19, "little killer", "little killer r1c1-r9c9")
    assert gone(step) == {f"r{i}c{i}": {5, 6, 7, 8, 9} for i in range(1, 10)}
    assert "add up to 18-72" in step.describe(9)


def test_a_long_weighted_sum_is_read_by_its_bounds():
    """Row 1 once and r2c9 twice add up to 47: row 1 makes 45, so 2 * r2c9 = 2 and r2c9 is 1;
    nine different values in row 1 are too many assignments to enumerate, the sum is read by
    its bounds (row 1 once, r2c9 times 2)."""
    row = " ".join(f"r1c{col}" for col in range(1, 10))
    step = first_kind_step(f"sum {row} r2c9 total=47 weights=1,1,1,1,1,1,1,1,1,2")
    assert gone(step) == {"r2c9": set(range(2, 10))}
    assert step.technique == "sum"
    assert "r2c9 (times 2)" in step.describe(9)


def test_a_killer_cage_with_no_total_keeps_its_cells_different():
    """ISS's 0 cage: no sum, its cells differ. r1c1, r5c5 and r9c9 share no unit, so only
    the cage says that the 4 given in r1c1 cannot repeat in the others."""
    step = first_kind_step("killercage r1c1 r5c5 r9c9", {"r1c1": 4})
    assert gone(step) == {"r5c5": {4}, "r9c9": {4}}
    assert step.technique == "killer cage"
    assert step.describe(9).startswith("killer cage r1c1-r5c5-r9c9 with no total: its cells differ")


def test_a_wide_killer_cage_with_no_total_takes_its_placed_value_from_its_other_cells():
    """Eight cells in eight rows, columns and boxes: too many assignments to enumerate, so the
    cage's placed value leaves its other cells."""
    cells = "r1c1 r2c4 r3c7 r4c2 r5c5 r6c8 r7c3 r8c6"
    step = first_kind_step(f"killercage {cells}", {"r1c1": 4})
    assert gone(step) == {cell: {4} for cell in cells.split()[1:]}


def test_a_long_little_killer_is_read_by_its_runs_through_the_boxes():
    """The main diagonal, 22: each box's run of three different values is at least 1+2+3, so
    a run is at most 22 - 12 = 10 and a cell at most 10 - 1 - 2 = 7. Too many assignments to
    enumerate whole: the runs' sums are joined instead."""
    cells = "r1c1 r2c2 r3c3 r4c4 r5c5 r6c6 r7c7 r8c8 r9c9"
    step = first_kind_step(f"littlekiller {cells} total=22")
    assert gone(step) == {cell: {8, 9} for cell in cells.split()}
    assert "read in runs that see nothing of each other" in step.describe(9)
