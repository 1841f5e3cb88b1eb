"""Cells and the groups they form on an N x N board: names as people write them (``r1c2``),
neighbours, connected groups, and the fixed groups some rules are made of (diagonals, windoku
windows, jigsaw regions).

Cells are numbered row-major from 0; values run from 1 to N.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import cache
from itertools import combinations

from solvers.base.errors import InputError


def first_seen(labels: Iterable[Hashable]) -> tuple[int, ...]:
    """Each label as a number from 0, in order of first appearance: one name for groups that
    were labelled differently (jigsaw regions, a region sum line's regions)."""
    numbers: dict[Hashable, int] = {}
    return tuple(numbers.setdefault(label, len(numbers)) for label in labels)


def window_units(box_rows: int, box_cols: int) -> list[tuple[int, ...]]:
    """The windoku windows: boxes whose corner sits one cell in from a box corner, as far as
    they fit (four on 9x9, nine on 16x16)."""
    if box_rows != box_cols:
        raise InputError(f"windoku needs square boxes, not {box_rows}x{box_cols}")
    b, n = box_rows, box_rows * box_cols
    starts = range(1, n - b, b + 1)
    return [
        tuple((top + i) * n + left + j for i in range(b) for j in range(b))
        for top in starts
        for left in starts
    ]


def region_units(regions: tuple[int, ...], n: int) -> list[tuple[int, ...]]:
    """Jigsaw regions as units; InputError unless there are N regions of N connected cells."""
    if len(regions) != n * n:
        raise InputError(f"the region map has {len(regions)} cells, expected {n * n}")
    members: dict[int, list[int]] = {}
    for cell, region in enumerate(regions):
        members.setdefault(region, []).append(cell)
    if sorted(members) != list(range(n)):
        raise InputError(f"the region map has {len(members)} regions, expected {n}")
    for region, cells in sorted(members.items()):
        if len(cells) != n:
            raise InputError(f"region {_letter(region)} has {len(cells)} cells, expected {n}")
        if not connected(cells, n):
            raise InputError(f"region {_letter(region)} is not connected")
    return [tuple(members[region]) for region in range(n)]


def no_boxes(size: int, what: str = "") -> str:
    """The one line that refuses a board of prime side, or ``what`` (a rule) on one."""
    if what:
        return f"{what} needs boxes, and a {size}x{size} board has none ({size} is prime)"
    return f"a {size}x{size} board has no boxes ({size} is prime): give it jigsaw regions"


def row_regions(size: int) -> tuple[int, ...]:
    """Each row as a region: the plainest jigsaw layout (a Latin square), which a board without
    boxes takes where a caller needs one that always has a solution."""
    return tuple(cell // size for cell in range(size * size))


@cache
def sum_sets(size: int, total: int, n: int) -> tuple[int, ...]:
    """Every set of ``size`` distinct values from 1..n adding up to ``total``, each as a bit
    mask (bit v for value v): what such cells can hold together."""
    if not 0 < size <= n:
        return ()
    return tuple(
        sum(1 << v for v in values)
        for values in combinations(range(1, n + 1), size)
        if sum(values) == total
    )


def cell_name(cell: int, size: int) -> str:
    """``r1c2`` style name of a cell index, 1-based as people count."""
    return f"r{cell // size + 1}c{cell % size + 1}"


def _letter(region: int) -> str:
    return chr(ord("A") + region) if region < 26 else str(region)


def neighbours(cell: int, size: int) -> list[int]:
    """The cells beside ``cell`` (up, down, left, right)."""
    row, col = divmod(cell, size)
    return [
        r * size + c
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
        if 0 <= r < size and 0 <= c < size
    ]


def orthogonal_pairs(size: int) -> list[tuple[int, int]]:
    """Every two side-by-side cells once: the pairs across each row, then those down each
    column (a cell first, then the one right of it or below it)."""
    across = [(r * size + c, r * size + c + 1) for r in range(size) for c in range(size - 1)]
    return across + [
        (r * size + c, (r + 1) * size + c) for r in range(size - 1) for c in range(size)
    ]


def reachable(start: int, size: int, joins: Callable[[int], bool]) -> list[int]:
    """``start`` and every cell reached from it by steps to a side-by-side cell for which
    ``joins`` holds."""
    seen, todo = {start}, [start]
    for cell in todo:  # todo grows as cells are reached: a breadth-first search
        for other in neighbours(cell, size):
            if other not in seen and joins(other):
                seen.add(other)
                todo.append(other)
    return todo


def connected(cells: Sequence[int], size: int) -> bool:
    """Whether ``cells`` (each once) are one group of side-by-side cells."""
    inside = set(cells)
    return len(reachable(cells[0], size, inside.__contains__)) == len(cells)
