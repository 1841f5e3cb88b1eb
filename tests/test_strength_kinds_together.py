"""A rule read with what lies around it (solvers.strength.kind_must.rule_claiming,
solvers.strength.kind_pairs.rules_together): a unit's value locked in the rule's cells, and
two rules that share a cell read at once.

The expected eliminations are written from the rules: a renban of three cells is a run of
three consecutive values, so one that holds 9 is 7, 8 and 9; two white dots on r9c7-r9c8 and
r9c8-r9c9 make r9c8 differ by 1 from two different cells of row 9, so it has a value on each
side (not 1, not 9); two black dots meeting at r5c6 in column 5 make r5c6 half of one
neighbour and double the other, so it is 2 (1, 4) or 4 (2, 8).
"""

from __future__ import annotations

from kind_puzzles import gone, grid_of

from solvers.strength import human
from solvers.strength.kind_must import rule_claiming
from solvers.strength.kind_pairs import rules_together


def test_a_renban_that_a_box_s_9_must_lie_in_is_7_8_9():
    """Given 9s at r2c4 and r3c7 leave box 1's 9 only in row 1, on the renban; and row 1's 9
    only in box 1 (boxes 2 and 3 hold a 9)."""
    grid = grid_of("renban r1c1 r1c2 r1c3", {"r2c4": 9, "r3c7": 9})
    step = rule_claiming(grid)
    assert step.technique == "rule claiming"
    assert step.rating == 2.8
    assert gone(step) == {f"r1c{c}": set(range(1, 7)) for c in (1, 2, 3)}
    assert step.describe(9).startswith(
        "renban r1c1-r1c2-r1c3 claims the 9 of row 1 and box 1, which can only go in "
        "r1c1-r1c2-r1c3: with it there, "
        "r1c1 cannot be 1, 2, 3, 4, 5, 6"
    )


def test_a_rule_no_unit_s_value_is_locked_in_claims_nothing():
    """Without the givens box 1's 9 can go in rows 2 and 3 too: the renban may be any run."""
    assert rule_claiming(grid_of("renban r1c1 r1c2 r1c3")) is None


def test_two_white_dots_in_a_row_make_a_run_of_three():
    grid = grid_of("difference r9c7 r9c8; difference r9c9 r9c8")
    step = rules_together(grid)
    assert step.technique == "rules together"
    assert gone(step) == {"r9c8": {1, 9}}  # the ends may still be anything: 1-2-3, 9-8-7
    assert step.describe(9).startswith(
        "white dot r9c7-r9c8 with white dot r9c9-r9c8: read together, r9c8 cannot be 1, 9"
    )
    human.apply(grid, step)
    assert rules_together(grid) is None


def test_two_black_dots_in_a_column_meet_on_2_or_4():
    grid = grid_of("ratio r4c6 r5c6; ratio r5c6 r6c6")
    step = rules_together(grid)
    # each dot alone allows 1, 2, 3, 4, 6, 8 in each of its cells
    ends = {3, 5, 6, 7, 9}
    assert gone(step) == {"r4c6": ends, "r5c6": {1, 3, 5, 6, 7, 8, 9}, "r6c6": ends}


def test_rules_apart_are_not_read_together():
    assert rules_together(grid_of("difference r1c1 r1c2; difference r1c3 r1c4")) is None
