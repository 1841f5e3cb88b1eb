"""Sums whose cells may repeat (a little killer's diagonal, an arrow's shaft, the 45 rule's
rows) in the constrained kernel, as ISS's ``SumHandler`` takes them (issue 41):

- exclusion groups: the cells of a row that all see each other hold different values, so k of
  them add up to at least the k smallest values of their union (``sum_bounds.grouped``);
- two or three cells left free: arc consistency, each value kept only where values of the
  other cells meet the total with it (``sum_bounds.few``), where bounds keep the values between;
- combined sums: two related sums near their extremes add up to a row over both (``combined``).

Each rule refuses a board of its own at the root where the search needed guesses before, and
native's counts agree with cpsat's on boards with several solutions."""

from __future__ import annotations

import numpy as np
import pytest
from test_implied import SOLUTION, board
from test_native_sets import _board

from solvers import count_solutions
from solvers.backends.handwritten.native.combined import combined_sums
from solvers.backends.handwritten.native.constraints import _exclusion_groups, _linears, seen_of
from solvers.backends.handwritten.native.solver import Solver
from solvers.backends.handwritten.native.tables import plan_for
from solvers.backends.handwritten.native.watch import linear
from solvers.model.cells import cell_name
from solvers.model.compile import flatten
from solvers.model.constraints.primitives import Linear


def _cells(names: str) -> list[int]:
    return [9 * (int(name[1]) - 1) + int(name[3]) - 1 for name in names.split()]


def _total(names: str) -> int:
    return sum(SOLUTION[cell // 9][cell % 9] for cell in _cells(names))


# r1c5 r2c4 r3c3 r4c2 r5c1 crosses box 2 twice, box 1 once and box 4 twice: three groups.
DIAGONAL = "r1c5 r2c4 r3c3 r4c2 r5c1"


def test_a_diagonal_splits_into_the_cells_it_crosses_in_each_box():
    b = _board(f"littlekiller {DIAGONAL} total=29", [])
    seen = seen_of(plan_for(b).tables.peers)
    terms = tuple((1, cell) for cell in _cells(DIAGONAL))
    assert _partition(_exclusion_groups(terms, seen)) == [[0, 1], [2], [3, 4]]
    # a term of another coefficient (an arrow's circle) is a group of its own
    assert _partition(_exclusion_groups(((-1, terms[0][1]), *terms[1:]), seen)) == [
        [0],
        [1],
        [2],
        [3, 4],
    ]


def _partition(group: list[int]) -> list[list[int]]:
    """The terms of each group, as lists of term indexes in order."""
    return sorted([j for j, g in enumerate(group) if g == each] for each in set(group))


# Total 6 over five cells: bounds allow it (five 1s make 5) and leave each cell 1 or 2, but
# the two cells in box 2 differ, and so do the two in box 4: 1+2, 1, 1+2 make at least 7.
TOO_SMALL = f"littlekiller {DIAGONAL} total=6"


def test_exclusion_groups_refuse_a_diagonal_too_small_at_the_root():
    b = _board(TOO_SMALL, [])
    assert count_solutions(b, limit=2, backend="cpsat") == 0
    found, _, stats = Solver().search(plan_for(b), bytes(b.cells), 2, None)
    assert found == 0
    assert stats["guesses"] == 0
    # one more makes 7, the least the groups allow: solutions again
    assert count_solutions(_board(f"littlekiller {DIAGONAL} total=7", []), 2, "native") == 2


def _narrowed(masks: list[int], total: int, same: list[list[int]]) -> list[int]:
    """The candidates ``linear`` leaves cells 0..k-1 (all peers within each of ``same``) of
    ``c0 + c1 + ... == total``."""
    k = len(masks)
    seen: list[set[int]] = [set() for _ in range(k)]
    for group in same:
        for cell in group:
            seen[cell] = set(group) - {cell}
    lin = _linears([Linear(tuple((1, c) for c in range(k)), "==", total)], seen, frozenset())
    row = np.array(masks, np.int64)
    queue, unit_bits = np.zeros(k, np.int64), np.zeros((k, 2), np.int64)
    status, *_ = linear(row, 0, queue, 0, 0, 0, unit_bits, lin, 9)
    return [] if status < 0 else row.tolist()


def _mask(*values: int) -> int:
    return sum(1 << (v - 1) for v in values)


def test_two_free_cells_keep_only_values_with_a_partner():
    # a + b == 10, a in {1, 3, 9}, b in {1, 2, 7, 9}: bounds keep every value (1 + 9, 9 + 1);
    # 3 + 7 and 9 + 1 and 1 + 9 are the pairs, 2 has none
    assert _narrowed([_mask(1, 3, 9), _mask(1, 2, 7, 9)], 10, []) == [
        _mask(1, 3, 9),
        _mask(1, 7, 9),
    ]
    # and when the two cells see each other, 5 + 5 is no pair: nothing left
    assert _narrowed([_mask(5, 6), _mask(5, 8)], 10, [[0, 1]]) == []
    assert _narrowed([_mask(5, 6), _mask(5, 8)], 10, []) == [_mask(5), _mask(5)]


def test_three_free_cells_keep_only_values_with_partners():
    # a + b + c == 12 with a, b in {1, 5}, c in {2, 6, 9}: 1 + 5 + 6, 5 + 1 + 6, 1 + 1 + ...
    # (10, no), 5 + 5 + 2; with a and b apart, 5 + 5 goes and c keeps only 6
    masks = [_mask(1, 5), _mask(1, 5), _mask(2, 6, 9)]
    assert _narrowed(masks, 12, []) == [_mask(1, 5), _mask(1, 5), _mask(2, 6)]
    assert _narrowed(masks, 12, [[0, 1]]) == [_mask(1, 5), _mask(1, 5), _mask(6)]


@pytest.mark.parametrize(
    "diagonals",
    [
        [DIAGONAL, "r1c3 r2c2 r3c1"],
        ["r1c2 r2c3 r3c4 r4c5 r5c6 r6c7 r7c8 r8c9", "r4c1 r3c2 r2c3 r1c4"],
        ["r1c1 r2c2 r3c3 r4c4 r5c5 r6c6 r7c7 r8c8 r9c9", "r5c1 r4c2 r3c3 r2c4 r1c5"],
    ],
)
def test_little_killers_count_as_cpsat(diagonals):
    rules = "; ".join(f"littlekiller {d} total={_total(d)}" for d in diagonals)
    b = board(rules, range(1, 5))  # rows 1-4 empty, the rest given
    assert plan_for(b).primitives is not None  # the constrained kernel
    expected = count_solutions(b, limit=100_000, backend="cpsat")
    assert expected > 1, [cell_name(c, 9) for d in diagonals for c in _cells(d)]
    assert count_solutions(b, limit=100_000, backend="native") == expected


# Two long diagonals whose totals are near their most (69 of 72, 66 of 69): many cells of one
# see cells of the other, so ISS's merge adds their sum over the 17 cells (``combined``). A grid
# of these rules, made with cpsat once; rows 1-5 emptied.
CROSSED = (
    "littlekiller r1c1 r2c2 r3c3 r4c4 r5c5 r6c6 r7c7 r8c8 r9c9 total=69; "
    "littlekiller r2c9 r3c8 r4c7 r5c6 r6c5 r7c4 r8c3 r9c2 total=66"
)
CROSSED_GRID = "913867524684352179257419386862734951149285637375196842431928765528671493796543218"


def test_related_sums_are_combined():
    b = _board(CROSSED, [])
    seen = seen_of(plan_for(b).tables.peers)
    rows = [p for p in flatten(b).primitives if isinstance(p, Linear)]
    (merged,) = combined_sums(rows, seen, 9)
    assert sorted(cell for _, cell in merged.terms) == sorted(
        cell for p in rows for _, cell in p.terms
    )
    assert (merged.op, merged.constant) == ("==", 135)
    # mid-range totals leave too much slack to be worth a row (ISS's score)
    loose = _board(CROSSED.replace("total=69", "total=45").replace("total=66", "total=40"), [])
    assert combined_sums([p for p in flatten(loose).primitives], seen, 9) == []


def test_combined_sums_count_as_cpsat():
    rows = ["." * 9] * 5 + [CROSSED_GRID[9 * r : 9 * r + 9] for r in range(5, 9)]
    b = _board(CROSSED, rows)
    expected = count_solutions(b, limit=100_000, backend="cpsat")
    assert expected > 1
    assert count_solutions(b, limit=100_000, backend="native") == expected
