"""A long sum's least and greatest total, where its assignments are too many to enumerate.

A player reads a long arrow, little killer or (weighted) sum by its bounds: the cells fall into
groups that share a row, column or box (and a weight), and the cells of a group hold different
values, so a group of k cells adds up to at least its k smallest candidates and at most its k
largest (times its weight). The groups'
bounds add up to the line's: "the shaft adds up to at least 97, so the circle r1c8-r1c9 is at
least 97". A cell's value goes where, with it, the line can no longer reach its total (its
group's other cells then take the smallest, or the largest, values left to them). Sound: each
bound holds in every solution, so what it forbids no solution uses.
"""

from __future__ import annotations

from collections.abc import Sequence

from solvers.strength.grid import values
from solvers.strength.support import cells_text, kind_step
from solvers.strength.techniques import Contradiction, Grid, Step

Part = tuple[int, tuple[int, ...]]  # a weight and the cells of a group that all carry it


def groups(grid: Grid, cells: Sequence[int], weights: Sequence[int] | None = None) -> list[Part]:
    """``cells`` split into groups of cells that share a unit (so differ) and carry the same
    weight, the largest first: the fewer and larger the groups, the tighter their bounds."""
    weights = weights or (1,) * len(cells)
    found: list[Part] = []
    for weight in sorted(set(weights)):
        left = {cell for cell, w in zip(cells, weights, strict=True) if w == weight}
        while left:
            best = max(grid.geometry.units, key=lambda unit: sum(cell in left for cell in unit))
            group = tuple(cell for cell in best if cell in left)
            if len(group) <= 1:
                found += [(weight, (cell,)) for cell in sorted(left)]
                break
            found.append((weight, group))
            left -= set(group)
    return found


def _ends(grid: Grid, part: Part, without: int = 0) -> tuple[int, int] | None:
    """The least and the most a group's cells (different values), each times its weight, add
    up to, none of them taking a value of ``without`` (a mask); None when they cannot all be
    filled."""
    weight, group = part
    every = 0
    for cell in group:
        every |= grid.candidates[cell]
    held = values(every & ~without)
    if len(held) < len(group):
        return None
    ends = weight * sum(held[: len(group)]), weight * sum(held[len(held) - len(group) :])
    return min(ends), max(ends)


def _bounds(grid: Grid, parts: list[Part]) -> tuple[int, int] | None:
    low = high = 0
    for part in parts:
        ends = _ends(grid, part)
        if ends is None:
            return None
        low, high = low + ends[0], high + ends[1]
    return low, high


def _shaft_losses(
    grid: Grid, parts: list[Part], low: int, high: int, least: int, most: int
) -> list[tuple[int, int]]:
    """The line's (cell, value) pairs with which its total can no longer lie in
    [least, most]: the line's bounds [low, high] with the cell's group read again."""
    gone = []
    for part in parts:
        weight, group = part
        whole = _ends(grid, part)
        assert whole is not None
        for cell in group:
            rest = (weight, tuple(other for other in group if other != cell))
            for value in values(grid.candidates[cell]):
                ends = _ends(grid, rest, 1 << value) if rest[1] else (0, 0)
                if ends is None:
                    gone.append((cell, value))
                    continue
                with_low = low - whole[0] + ends[0] + weight * value
                with_high = high - whole[1] + ends[1] + weight * value
                if with_low > most or with_high < least:
                    gone.append((cell, value))
    return gone


def _number_ends(grid: Grid, circle: Sequence[int]) -> tuple[int, int]:
    """The least and the most the circle's cells, read as one number, can be."""
    low = high = 0
    for cell in circle:
        mask = grid.candidates[cell]
        low = low * 10 + (mask & -mask).bit_length() - 1
        high = high * 10 + mask.bit_length() - 1
    return low, high


def _circle_losses(grid: Grid, circle: Sequence[int], low: int, high: int) -> list:
    """The circle's digits with which its number can no longer lie in [low, high]."""
    gone = []
    size = len(circle)
    for i, cell in enumerate(circle):
        place = 10 ** (size - 1 - i)
        rest_low = rest_high = 0
        for j, other in enumerate(circle):
            if j == i:
                continue
            mask, weight = grid.candidates[other], 10 ** (size - 1 - j)
            rest_low += weight * ((mask & -mask).bit_length() - 1)
            rest_high += weight * (mask.bit_length() - 1)
        for digit in values(grid.candidates[cell]):
            if digit * place + rest_low > high or digit * place + rest_high < low:
                gone.append((cell, digit))
    return gone


def arrow(grid: Grid, circle: Sequence[int], shaft: Sequence[int], where: str) -> Step | None:
    """The arrow read by its bounds: the circle's number lies within the shaft's, and each
    shaft cell keeps the values with which the shaft can still reach the circle's number."""
    parts = groups(grid, shaft)
    bounds = _bounds(grid, parts)
    if bounds is None:
        raise Contradiction(f"the {where} has a group of cells too few values for its cells")
    low, high = bounds
    least, most = _number_ends(grid, circle)
    gone = _circle_losses(grid, circle, low, high)
    gone += _shaft_losses(grid, parts, low, high, least, most)
    if not gone:
        return None
    n = grid.geometry.size
    reason = (
        f"its shaft's cells, grouped as {_grouped(parts, n)}, add up to {low}-{high}, "
        f"and its circle is {least}-{most}"
    )
    return kind_step("arrow", where, reason, tuple(gone), n)


def line(
    grid: Grid,
    cells: Sequence[int],
    total: int,
    technique: str,
    where: str,
    weights: Sequence[int] | None = None,
) -> Step | None:
    """A line of cells, each times its weight (1 unless given), adding up to ``total`` (values
    repeat but where cells share a unit), read by its bounds: each cell keeps the values with
    which the line can still reach it."""
    parts = groups(grid, cells, weights)
    bounds = _bounds(grid, parts)
    if bounds is None or not bounds[0] <= total <= bounds[1]:
        raise Contradiction(f"the {where} can no longer reach {total}")
    low, high = bounds
    gone = _shaft_losses(grid, parts, low, high, total, total)
    if not gone:
        return None
    n = grid.geometry.size
    reason = f"its cells, grouped as {_grouped(parts, n)}, add up to {low}-{high}"
    return kind_step(technique, where, reason, tuple(gone), n)


def _grouped(parts: list[Part], n: int) -> str:
    return ", ".join(
        cells_text(group, n) + ("" if weight == 1 else f" (times {weight})")
        for weight, group in parts
    )
