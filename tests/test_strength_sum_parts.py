"""A little killer read by its parts (solvers.strength.kind_sums.by_parts, sum_must): the cells
split where they see nothing of each other, each part enumerated by its sums, the sums joined.
It must keep exactly what the whole enumeration keeps, and the values every assignment uses
are those without which none is left, written here from the rule."""

from __future__ import annotations

import random

import pytest

from solvers.formats.boards import parse
from solvers.strength import human
from solvers.strength.kind_sums import by_parts, sum_must
from solvers.strength.support import supports


def empty():
    """An empty classic 9x9 grid: every cell every candidate."""
    return human.placed_givens(parse("." * 81))


def cells(names: str) -> tuple[int, ...]:
    return tuple((int(name[1]) - 1) * 9 + int(name[3]) - 1 for name in names.split())


DIAGONAL = "r1c1 r2c2 r3c3 r4c4 r5c5 r6c6 r7c7 r8c8 r9c9"  # three parts: one a box
ACROSS = "r1c3 r2c4 r3c5 r4c6 r5c7 r6c8 r7c9"  # parts of one and two cells


@pytest.mark.parametrize("names", [DIAGONAL, ACROSS, "r3c1 r4c2 r5c3 r6c4"])
def test_the_parts_keep_what_the_whole_enumeration_keeps(names):
    chosen, rng = cells(names), random.Random(42)
    grid = empty()
    for _ in range(30):
        for cell in chosen:  # a few candidates each, so the whole enumeration is quick
            grid.candidates[cell] = sum(1 << v for v in rng.sample(range(1, 10), rng.randint(1, 4)))
        total = rng.randint(len(chosen), 6 * len(chosen))
        whole = supports(grid, chosen, lambda xs, t=total: sum(xs) == t, budget=10**7)
        parts = by_parts(grid, chosen, {total})
        assert parts.any == whole.any
        if whole.any:
            assert parts.support == whole.support


def test_a_diagonal_through_two_boxes_may_repeat_its_value():
    """r3c1 (box 1) and r4c2 (box 4) share no unit: 2 is only 1+1."""
    grid = empty()
    found = by_parts(grid, cells("r3c1 r4c2"), {2})
    assert found.support == [1 << 1, 1 << 1]
    assert sum_must(grid, cells("r3c1 r4c2"), {2}) == 1 << 1


def test_the_values_every_assignment_uses():
    """Three cells of box 7 adding up to 6 differ: only 1+2+3, each of them in every one;
    24 is only 7+8+9."""
    grid = empty()
    box = cells("r7c1 r8c2 r9c3")
    assert sum_must(grid, box, {6}) == 0b1110
    assert sum_must(grid, box, {24}) == (1 << 7) | (1 << 8) | (1 << 9)
    assert sum_must(grid, box, {12}) == 0  # 1+2+9, 3+4+5, ...: no value in all
    assert sum_must(grid, box, {30}) == 0  # no assignment at all
