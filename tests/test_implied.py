"""The implied sums of the compile step (solvers.model.implied): on boards made for them, the
sum groups and the linear rows derived are what the 45 rule says, written out below by hand,
every engine counts the same solutions with them as without them, and an engine that reads no
linear rows is handed the board as before.

Each board's givens are rows of the grid whose row r (from 0) is 1..9 shifted by 3 (r mod 3)
+ r div 3, a valid solution; its cages lie over the empty rows, their totals read from it.
"""

from __future__ import annotations

import io

import pytest

from solvers.api import count_solutions
from solvers.formats.boards import read_puzzles
from solvers.model.board import Board
from solvers.model.cells import cell_name
from solvers.model.compile import EVERY_KIND, SUM_GROUPS, flatten

SOLUTION = [[((r % 3) * 3 + r // 3 + c) % 9 + 1 for c in range(9)] for r in range(9)]

# rows 1-3 empty; row 1 is 1..9, row 2 4..9 1..3, row 3 7..9 1..6
TOP = (
    "killercage r1c1 r1c2 r1c3 total=6; killercage r1c4 r1c5 total=9; killercage r2c1 r3c1 total=11"
)
TOP_IMPLIED = {
    ("r1c6", "r1c7", "r1c8", "r1c9"): 45 - 6 - 9,  # row 1: its two cages inside
    ("r2c2", "r2c3", "r3c2", "r3c3"): 45 - 6 - 11,  # box 1: the 6 and the 11 inside
    ("r1c6", "r2c4", "r2c5", "r2c6", "r3c4", "r3c5", "r3c6"): 45 - 9,  # box 2: the 9
    ("r1c1", *(f"r{r}c1" for r in range(4, 10))): 45 - 11,  # column 1: the 11
}
# rows 7-9 empty; row 8 is 6..9 1..5, row 9 9 1..8: the 19 fills r9c1-r9c5, the 31 the rest
# of row 9 and r8c9
BOTTOM = (
    "killercage r9c1 r9c2 r9c3 r9c4 r9c5 total=19; killercage r9c6 r9c7 r9c8 r9c9 r8c9 total=31"
)
BOTTOM_IMPLIED = {
    ("r9c6", "r9c7", "r9c8", "r9c9"): 45 - 19,  # row 9: innies of the 19
    ("r8c9",): 19 + 31 - 45,  # row 9: both cages cover it, r8c9 sticks out (an outie)
    tuple(f"r8c{c}" for c in range(1, 9)): 90 - 19 - 31,  # rows 8-9: both cages inside
}
# the rest, as linear rows (+1 an innie, -1 an outie): box 7 holds r9c4 and r9c5 of the 19,
# box 9 all of the 31 but r9c6 (the other relations are longer than sigh's limits)
BOTTOM_LINEAR = {
    (
        *(("r7c1", 1), ("r7c2", 1), ("r7c3", 1), ("r8c1", 1), ("r8c2", 1), ("r8c3", 1)),
        *(("r9c4", -1), ("r9c5", -1)),
    ): 45 - 19,
    (("r7c7", 1), ("r7c8", 1), ("r7c9", 1), ("r8c7", 1), ("r8c8", 1), ("r9c6", -1)): 45 - 31,
}

# rows 7-9 empty; row 7 is 3..9 1 2, row 8 6..9 1..5, row 9 9 1..8. The 18 of row 7 reaches out
# of box 7 by r7c4 alone, the 10 lies in it, the 18 of row 8 reaches into box 8 by two of its
# three cells
REACHING = (
    "killercage r7c1 r7c2 r7c3 r7c4 total=18; killercage r9c1 r9c2 total=10; "
    "killercage r8c3 r8c4 r8c5 total=18"
)
REACHING_LINEAR = {
    # box 7 with the 10 and the 18 of row 7 counted (sigh's hidden cage: one cage reaching
    # out by one cell); rule45 counts the 18 of row 8 too, which gives three innies less
    # three outies, beyond the limits
    (("r8c1", 1), ("r8c2", 1), ("r8c3", 1), ("r9c3", 1), ("r7c4", -1)): 45 - 10 - 18,
    # box 8 with the cage that has more than half its cells in it counted (sigh's innies and
    # outies): the 18 of row 8, less its r8c3; rule45's two ways give seven innies alone (no
    # cage lies inside) or six innies less four outies (both 18s)
    (
        *(("r7c4", 1), ("r7c5", 1), ("r7c6", 1), ("r8c6", 1)),
        *(("r9c4", 1), ("r9c5", 1), ("r9c6", 1), ("r8c3", -1)),
    ): 45 - 18,
}


def board(rules: str, empty_rows: range) -> Board:
    """A 9x9 board with ``rules`` and every row of SOLUTION given but ``empty_rows`` (from 1)."""
    text = "".join(
        "." * 9 if r + 1 in empty_rows else "".join(map(str, SOLUTION[r])) for r in range(9)
    )
    (puzzle,) = read_puzzles(io.StringIO(f"# rules: {rules}\n{text}\n"))
    return puzzle.board


def implied(b: Board) -> dict[tuple[str, ...], int]:
    return {
        tuple(cell_name(c, 9) for c in group.cells): group.total for group in flatten(b).implied
    }


def test_the_innies_of_units_whose_cages_lie_inside():
    assert implied(board(TOP, range(1, 4))) == {
        tuple(sorted(cells, key=_order)): total for cells, total in TOP_IMPLIED.items()
    }


def test_an_outie_and_the_innies_of_a_run_of_rows():
    assert implied(board(BOTTOM, range(7, 10))) == BOTTOM_IMPLIED


def linear(b: Board) -> dict[tuple[tuple[str, int], ...], int]:
    rows = {}
    for row in flatten(b).implied_linears:
        assert row.op == "=="
        rows[tuple((cell_name(c, 9), k) for k, c in row.terms)] = row.constant
    return rows


def test_innies_less_outies_as_linear_rows():
    assert linear(board(BOTTOM, range(7, 10))) == BOTTOM_LINEAR


def test_one_cage_reaching_out_at_a_time_and_the_cages_mostly_inside():
    rows = linear(board(REACHING, range(7, 10)))
    assert {terms: rows.get(terms) for terms in REACHING_LINEAR} == REACHING_LINEAR


def test_the_gap_the_cages_leave_in_the_grid():
    """Cages over every cell but r1c1 and r9c9 (two halves of each row): the grid's 405 less
    the cages' totals is what r1c1 and r9c9 add up to; they do not see each other, so it is a
    linear row, not a sum group."""
    halves = [(range(1, 5), range(5, 10))] * 9
    halves[0], halves[8] = (range(2, 5), range(5, 10)), (range(1, 5), range(5, 9))
    rules = "; ".join(
        "killercage "
        + " ".join(f"r{r + 1}c{c}" for c in half)
        + f" total={sum(SOLUTION[r][c - 1] for c in half)}"
        for r, pair in enumerate(halves)
        for half in pair
    )
    gap = (("r1c1", 1), ("r9c9", 1))
    assert linear(board(rules, range(1, 10)))[gap] == SOLUTION[0][0] + SOLUTION[8][8]


@pytest.mark.parametrize("backend", ["bitmask", "dlx", "exactcover"])
def test_engines_without_linear_rows_are_handed_the_board_as_before(backend):
    """Engines that encode sum groups but no primitives get no linear rows, refuse nothing,
    and count what the others count."""
    from solvers.backends.registry import backend_class

    b = board(BOTTOM, range(7, 10))
    flat, encodes = flatten(b), backend_class(backend).ENCODES
    assert SUM_GROUPS in encodes and not flat.beyond(encodes)
    assert flat.primitives_for(encodes) == flatten(b, implied=False).primitives_for(encodes)
    assert set(flat.implied_linears) <= set(flat.primitives_for(EVERY_KIND))
    assert count_solutions(b, limit=10_000, backend=backend) == count_solutions(
        b, limit=10_000, backend="cpsat"
    )


def test_cages_that_overlap_imply_nothing():
    """Two cages sharing r1c3 would count it twice in row 1's total: no implied sum."""
    rules = "killercage r1c1 r1c2 r1c3 total=6; killercage r1c3 r1c4 total=7"
    assert implied(board(rules, range(1, 4))) == {}
    assert linear(board(rules, range(1, 4))) == {}


def test_implied_off_leaves_them_out_and_the_sum_groups_as_the_rules_give():
    b = board(TOP, range(1, 4))
    assert not flatten(b, implied=False).implied
    assert not flatten(b, implied=False).implied_linears
    own = flatten(b, implied=False).sum_groups
    assert flatten(b).sum_groups == own + flatten(b).implied


@pytest.mark.parametrize(
    ("rules", "rows"),
    [
        (TOP, range(1, 4)),
        (BOTTOM, range(7, 10)),
        (REACHING, range(7, 10)),
        # a total that no completion reaches: none, with or without
        (BOTTOM.replace("total=31", "total=32"), range(7, 10)),
    ],
)
def test_every_engine_counts_the_same_with_and_without_them(rules, rows):
    b = board(rules, rows)
    assert flatten(b).implied and flatten(b).implied_linears
    without = count_solutions(b, limit=10_000, backend="propagate:implied=off")
    assert rules.endswith("total=32") or without > 1
    for backend in ("native:implied=off", "native", "propagate:implied=on", "sat", "cpsat"):
        assert count_solutions(b, limit=10_000, backend=backend) == without, backend


def _order(name: str) -> int:
    return (int(name[1]) - 1) * 9 + int(name[3]) - 1
