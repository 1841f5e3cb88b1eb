"""A rule that fills a house but a few cells (solvers.strength.kind_fill): those cells hold
the values the rule leaves.

The expected eliminations are written from the rules. A zipper's mirrored cells add up to
its centre; seven cells of box 7 with the centre 9 hold three of the pairs 1+8, 2+7, 3+6,
4+5, all different, and box 7's two other cells hold the fourth. A thermometer's values
rise along it, and a box's two cells off a thermometer of seven hold the two it leaves.
"""

from __future__ import annotations

from kind_puzzles import gone, grid_of

from solvers.strength import human
from solvers.strength.kind_fill import rule_fills_house
from solvers.strength.kinds import kind_step

BOX1_BUT_TWO = "r1c3 r2c3 r2c2 r2c1 r3c1 r3c2 r3c3"  # box 1 but r1c1 and r1c2


def test_a_thermometer_filling_a_box_but_two_cells_ends_8_9():
    """Thermometer r1c3 up to r3c3 over seven cells of box 1, with 8 and 9 given in row 1
    (r1c4, r1c5): r1c1 and r1c2 are 1-7, so the values the thermometer leaves are within
    1-7 and it holds both 8 and 9, at its top two cells. Its own step first gives each cell
    its range (the i-th at least i, at most i + 2): r3c2 is 6-8 and r3c3 7-9."""
    grid = grid_of(f"thermometer {BOX1_BUT_TWO}", {"r1c4": 8, "r1c5": 9})
    while (own := kind_step(grid)) is not None:
        human.apply(grid, own)
    step = rule_fills_house(grid)
    assert step.technique == "rule and house"
    assert step.rating == 2.8
    assert gone(step) == {"r3c2": {6, 7}, "r3c3": {7, 8}}
    assert step.describe(9) == (
        f"thermometer {BOX1_BUT_TWO.replace(' ', '-')} fills box 1 but r1c1-r1c2: they hold "
        "the values the rule leaves, so r3c2 cannot be 6, 7; r3c3 cannot be 7, 8"
    )
    human.apply(grid, step)
    assert rule_fills_house(grid) is None


def test_a_zipper_in_a_box_leaves_its_other_cells_the_fourth_pair():
    """Zipper r7c2-r7c1-r8c1-r9c1-r9c2-r9c3-r8c3, centre r9c1 = 9: pairs r7c2+r8c3,
    r7c1+r9c3, r8c1+r9c2 add up to 9. Given 6, 7, 8 in row 7 (r7c4-r7c6) and in column 2
    (r1c2-r3c2): r7c1, r7c2, r7c3, r8c2 and r9c2 are five cells of box 7 within 1-5, so they
    hold 1-5 and r8c1, r8c3, r9c3 hold 6, 7, 8; the pairs are 1+8, 2+7, 3+6, so r7c1, r7c2,
    r9c2 are 1-3 and the two cells off the zipper hold the fourth pair, 4+5."""
    zipper = "zipper r7c2 r7c1 r8c1 r9c1 r9c2 r9c3 r8c3"
    givens = {"r9c1": 9, "r7c4": 6, "r7c5": 7, "r7c6": 8, "r1c2": 6, "r2c2": 7, "r3c2": 8}
    step = rule_fills_house(grid_of(zipper, givens))
    small, large = {1, 2, 3}, {1, 2, 3, 4, 5}
    assert gone(step) == {
        "r7c3": small,
        "r8c2": small,
        **{cell: {4, 5} for cell in ("r7c1", "r7c2", "r9c2")},
        **{cell: large for cell in ("r8c1", "r8c3", "r9c3")},
    }
