"""Lines made of segments that share one total: the sums each segment can still reach meet.

A region sum line's stretches (each part of the line within one region) all add up to the
same total; a zipper line's mirrored pairs (cells equally far from the centre) all add up to
the same total, which is the centre's value when the line has one. So the shared total is a
sum every segment can still make: the totals the segments' candidates allow are intersected,
and each segment keeps only the values of some assignment reaching one of those totals
("region sum line r1c5-r1c6-r1c7-...: its stretches can only share 15, 16 or 17; r1c5-r1c6
adds up to one of them, so r1c5 cannot be 1, ..."). Where two segments lie apart on the
board this is the step the line's pairwise equations miss: a short stretch bounds a long one
at once, and a long one bounds a short one.

Sound from the definition: every solution gives all segments one total ``T``; each segment's
values in that solution make ``T``, so ``T`` is among the sums each segment can make over
the candidates (cells that see each other differ), and every value of the solution lies in an
assignment of its segment that makes one of the common totals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, groupby
from operator import itemgetter

from solvers.model.constraints.model import Constraint
from solvers.strength.grid import values
from solvers.strength.support import cells_text, enumerated, kind_step, losses, supports
from solvers.strength.techniques import Contradiction, Grid, Step


def regionsumline(grid: Grid, constraint: Constraint) -> Step | None:
    """Each stretch of the line within one region (a label run of ``regions``)."""
    pairs = zip(constraint.cells, constraint.param("regions"), strict=True)
    stretches = [tuple(cell for cell, _ in run) for _, run in groupby(pairs, key=itemgetter(1))]
    if len(stretches) < 2:
        return None
    n = grid.geometry.size
    where = f"region sum line {cells_text(constraint.cells, n)}"
    return _shared(grid, stretches, "region sum line", where, "stretches")


def zipper(grid: Grid, constraint: Constraint) -> Step | None:
    """Each pair of cells equally far from the centre, and the centre cell alone if any."""
    cells = constraint.cells
    segments = [(cells[i], cells[-1 - i]) for i in range(len(cells) // 2)]
    if len(cells) % 2:
        segments.append((cells[len(cells) // 2],))
    n = grid.geometry.size
    where = f"zipper {cells_text(cells, n)}"
    return _whole_zipper(grid, segments, where) or _shared(grid, segments, "zipper", where,
                                                           "pairs")  # fmt: skip


def _whole_zipper(grid: Grid, segments, where: str) -> Step | None:
    """The zipper enumerated whole, pair after pair (a pair's second cell is the total less
    its first), every cell kept apart from the line's cells it sees; None past the budget or
    where it removes nothing."""
    order = [cell for segment in segments[::-1] for cell in segment]  # the centre first
    masks = [grid.candidates[cell] for cell in order]

    def prune(prefix: tuple[int, ...]) -> bool:
        i = len(prefix)
        total = prefix[0] if len(order) % 2 else (prefix[0] + prefix[1] if i >= 2 else None)
        if total is None:
            return False
        if (i - len(order) % 2) % 2:  # a pair's first cell: its partner must be able to match
            partner = total - prefix[-1]
            return not (0 < partner < 64 and masks[i] >> partner & 1)
        return prefix[-1] + prefix[-2] != total if i > 1 else False

    words = "each pair adds up to the centre" if len(order) % 2 else "its pairs add up alike"
    return enumerated(grid, order, lambda xs: True, where, lambda found: words, prune)


def _shared(grid: Grid, segments, technique: str, where: str, called: str) -> Step | None:
    common: set[int] | None = None
    for segment in segments:
        made = sums(grid, segment)
        common = made if common is None else common & made
    if not common:
        raise Contradiction(f"the {where} has no total its {called} can all make")
    gone: list[tuple[int, int]] = []
    for segment in segments:
        kept = _kept(grid, segment, common)
        if kept is not None:
            gone += losses(grid, segment, kept)
    if not gone:
        return None
    *most, last = sorted(common)
    shown = f"{', '.join(map(str, most))} or {last}" if most else str(last)
    words = f"its {called} can only share the total {shown}"
    return kind_step(technique, where, words, tuple(gone), grid.geometry.size)


def _together(grid: Grid, cells: Sequence[int]) -> bool:
    return all(b in grid.peer_sets[a] for a, b in combinations(cells, 2))


def sums(grid: Grid, cells: Sequence[int]) -> set[int]:
    """Every total the cells can make over their candidates, cells that see each other
    different: exactly, by sets of values where all see each other or by enumeration within
    the budget; past it, every total of one value per cell (more, never fewer)."""
    masks = [grid.candidates[cell] for cell in cells]
    if _together(grid, cells):
        return {sum(chosen) for chosen in _sets(masks)}
    found: set[int] = set()

    def made(assignment: tuple[int, ...]) -> bool:
        found.add(sum(assignment))
        return True

    if supports(grid, cells, made) is not None:
        return found
    reach = 1  # bit t: some choice of one value per cell adds up to t
    for mask in masks:
        step = 0
        for value in values(mask):
            step |= reach << value
        reach = step
    return set(values(reach))


def _sets(masks: Sequence[int]) -> list[tuple[int, ...]]:
    """The sets of different values the cells (all seeing each other) can hold: one value per
    cell, each a candidate of its cell."""
    every = 0
    for mask in masks:
        every |= mask
    found = []
    for chosen in combinations(values(every), len(masks)):
        if _matched(masks, sum(1 << v for v in chosen)):
            found.append(chosen)
    return found


def _matched(masks: Sequence[int], bits: int) -> bool:
    """Whether the cells can take different values of ``bits``, each one of its candidates."""
    if not masks:
        return True
    first, rest = masks[0], masks[1:]
    return any(_matched(rest, bits & ~(1 << v)) for v in values(first & bits))


def _kept(grid: Grid, cells: Sequence[int], totals: set[int]) -> list[int] | None:
    """Per cell, the values of some assignment of the cells that makes one of ``totals``;
    None when too open to enumerate and not all seeing each other."""
    masks = [grid.candidates[cell] for cell in cells]
    if _together(grid, cells):
        kept = [0] * len(cells)
        for chosen in _sets(masks):
            if sum(chosen) not in totals:
                continue
            bits = sum(1 << v for v in chosen)
            for i, mask in enumerate(masks):
                others = masks[:i] + masks[i + 1 :]
                for v in values(mask & bits & ~kept[i]):
                    if _matched(others, bits & ~(1 << v)):
                        kept[i] |= 1 << v
        return kept
    low, high = _bounds(masks)

    def prune(prefix: tuple[int, ...]) -> bool:
        done, i = sum(prefix), len(prefix)
        return not any(done + low[i] <= t <= done + high[i] for t in totals)

    found = supports(grid, cells, lambda xs: sum(xs) in totals, prune)
    return None if found is None else found.support


def _bounds(masks: Sequence[int]) -> tuple[list[int], list[int]]:
    low, high = [0] * (len(masks) + 1), [0] * (len(masks) + 1)
    for i in range(len(masks) - 1, -1, -1):
        low[i] = low[i + 1] + (masks[i] & -masks[i]).bit_length() - 1
        high[i] = high[i + 1] + masks[i].bit_length() - 1
    return low, high


STEPS: dict[str, Callable[[Grid, Constraint], Step | None]] = {
    "regionsumline": regionsumline,
    "zipper": zipper,
}
