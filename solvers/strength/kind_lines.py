"""The own steps of lines, dots and marked cells, each from its kind's definition.

- thermometers: values rise along the line (strictly, or never falling on a slow one), so
  each cell is at least the bulb's least value plus its distance, at most the tip's most
  less its distance: min/max propagation ("thermometer r2c3->r1c2: r1c2 cannot be 1");
- dots and XV (Kropki white and black, X and V), whispers, parity lines, palindromes and
  clones: a relation between two cells, so a value with no partner among the other cell's
  candidates goes (two cells that see each other never share a value);
- renban, between lines, quadruples: their assignments enumerated over the candidates;
- odd and even cells: the other parity goes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise

from solvers.model.constraints.model import Constraint
from solvers.strength import kind_runs
from solvers.strength.grid import values
from solvers.strength.support import (
    cells_text,
    combos_text,
    enumerated,
    kind_step,
    losses,
)
from solvers.strength.techniques import Contradiction, Grid, Step

Related = Callable[[int, int], bool]


def thermometer(grid: Grid, constraint: Constraint, rise: int = 1) -> Step | None:
    """Each cell above (``rise`` 1) or not below (0) the one before it: bounds pass along."""
    n, cells = grid.geometry.size, constraint.cells
    masks = [grid.candidates[cell] for cell in cells]
    low = [(mask & -mask).bit_length() - 1 for mask in masks]
    high = [mask.bit_length() - 1 for mask in masks]
    for i in range(1, len(cells)):
        low[i] = max(low[i], low[i - 1] + rise)
    for i in range(len(cells) - 2, -1, -1):
        high[i] = min(high[i], high[i + 1] - rise)
    kept = [sum(1 << v for v in range(lo, hi + 1)) for lo, hi in zip(low, high, strict=True)]
    slow = "slow thermometer" if rise == 0 else "thermometer"
    where = f"{slow} {cells_text(cells, n, '->')}"
    if any(not mask & keep for mask, keep in zip(masks, kept, strict=True)):
        raise Contradiction(f"the {where} leaves a cell no value")
    gone = losses(grid, cells, kept)
    return kind_step(slow, where, "", gone, n) if gone else None


def slow_thermometer(grid: Grid, constraint: Constraint) -> Step | None:
    return thermometer(grid, constraint, rise=0)


def _pairs_step(
    grid: Grid,
    pairs: Sequence[tuple[int, int]],
    related: Related,
    technique: str,
    where: str,
    reason: str,
) -> Step | None:
    """Two cells bound by ``related`` (first's value, second's value), for each pair: a
    candidate with no partner among the other cell's candidates goes."""
    # a cell on several pairs keeps only what every pair allows it
    kept = {cell: grid.candidates[cell] for pair in pairs for cell in pair}
    for a, b in pairs:
        for cell in (a, b):
            kept[cell] &= _partnered(grid, a, b, related, cell)
    if not all(kept.values()):
        raise Contradiction(f"the {where} leaves a cell no value")
    cells = list(kept)
    gone = losses(grid, cells, [kept[cell] for cell in cells])
    return kind_step(technique, where, reason, gone, grid.geometry.size) if gone else None


def _partnered(grid: Grid, a: int, b: int, related: Related, cell: int) -> int:
    seen = b in grid.peer_sets[a]
    ours, theirs = values(grid.candidates[a]), values(grid.candidates[b])
    found = 0
    for x in ours:
        for y in theirs:
            if related(x, y) and not (seen and x == y):
                found |= 1 << (x if cell == a else y)
    return found


def _dot(grid: Grid, constraint: Constraint) -> Step | None:
    n, (a, b) = grid.geometry.size, constraint.cells
    cells = cells_text(constraint.cells, n)
    if constraint.kind == "xv":
        total = int(constraint.param("sum"))
        mark = {10: "X", 5: "V"}.get(total, f"sum {total}")
        related, technique, why = (lambda x, y: x + y == total), mark, f"they add up to {total}"
    elif constraint.kind == "difference":
        d = int(constraint.param("difference", 1))
        related, technique, why = (lambda x, y: abs(x - y) == d), "white dot", f"they differ by {d}"
    else:
        r = int(constraint.param("ratio", 2))
        related = lambda x, y: x == r * y or y == r * x  # noqa: E731
        technique, why = "black dot", f"one is {r} times the other"
    return _pairs_step(grid, [(a, b)], related, technique, f"{technique} {cells}", why)


def whispers(grid: Grid, constraint: Constraint) -> Step | None:
    n, cells = grid.geometry.size, constraint.cells
    gap = int(constraint.param("difference", (n + 1) // 2))
    where = f"German whispers {cells_text(cells, n)}"
    return _pairs_step(grid, list(pairwise(cells)), lambda x, y: abs(x - y) >= gap,
                       "German whispers", where, f"neighbours differ by {gap} or more")  # fmt: skip


def parityline(grid: Grid, constraint: Constraint) -> Step | None:
    n, cells = grid.geometry.size, constraint.cells
    return _pairs_step(grid, list(pairwise(cells)), lambda x, y: x % 2 != y % 2, "parity line",
                       f"parity line {cells_text(cells, n)}",
                       "neighbours alternate odd and even")  # fmt: skip


def palindrome(grid: Grid, constraint: Constraint) -> Step | None:
    n, cells = grid.geometry.size, constraint.cells
    pairs = [(cells[i], cells[-1 - i]) for i in range(len(cells) // 2)]
    return _pairs_step(grid, pairs, lambda x, y: x == y, "palindrome",
                       f"palindrome {cells_text(cells, n)}",
                       "mirrored cells hold the same value")  # fmt: skip


def clone(grid: Grid, constraint: Constraint) -> Step | None:
    n, cells, half = grid.geometry.size, constraint.cells, len(constraint.cells) // 2
    pairs = list(zip(cells[:half], cells[half:], strict=True))
    where = f"clone {cells_text(cells[:half], n)} = {cells_text(cells[half:], n)}"
    return _pairs_step(grid, pairs, lambda x, y: x == y, "clone", where,
                       "each cell holds its clone's value")  # fmt: skip


def parity(grid: Grid, constraint: Constraint) -> Step | None:
    n, (cell,) = grid.geometry.size, constraint.cells
    odd = constraint.kind == "odd"
    kept = sum(1 << v for v in range(1, n + 1) if v % 2 == odd)
    gone = losses(grid, (cell,), [kept])
    return kind_step(constraint.kind, f"{constraint.kind} {cells_text((cell,), n)}", "", gone,
                     n) if gone else None  # fmt: skip


def renban(grid: Grid, constraint: Constraint) -> Step | None:
    n, cells, size = grid.geometry.size, constraint.cells, len(constraint.cells)

    def run(xs: tuple[int, ...]) -> bool:
        return max(xs) - min(xs) == size - 1

    def prune(prefix: tuple[int, ...]) -> bool:
        return max(prefix) - min(prefix) >= size

    return enumerated(grid, cells, run, f"renban {cells_text(cells, n)}",
                       lambda found: f"a run of {size} different values: only "
                       f"{combos_text(found, ',')}", prune, everyone=True
                       ) or kind_runs.renban_runs(grid, constraint)  # fmt: skip


def betweenline(grid: Grid, constraint: Constraint) -> Step | None:
    """The ends first, then the middle cells, each strictly between the ends' values."""
    n, (first, *middle, last) = grid.geometry.size, constraint.cells
    cells = (first, last, *middle)

    def inside(xs: tuple[int, ...]) -> bool:
        low, high = sorted(xs[:2]) if len(xs) >= 2 else (0, n + 1)
        return all(low < x < high for x in xs[2:])

    where = f"between line {cells_text(constraint.cells, n)}"
    return enumerated(grid, cells, inside, where,
                       lambda found: "the middle lies strictly between the ends",
                       lambda xs: not inside(xs))  # fmt: skip


def quadruple(grid: Grid, constraint: Constraint) -> Step | None:
    n, cells, wanted = grid.geometry.size, constraint.cells, constraint.param("values")

    def holds(xs: tuple[int, ...]) -> bool:
        return all(xs.count(v) >= wanted.count(v) for v in set(wanted))

    where = f"quadruple {cells_text(cells, n)}"
    return enumerated(grid, cells, holds, where,
                       lambda found: f"it holds {', '.join(map(str, wanted))}")  # fmt: skip


STEPS: dict[str, Callable[[Grid, Constraint], Step | None]] = {
    "thermometer": thermometer,
    "slow-thermometer": slow_thermometer,
    "xv": _dot,
    "difference": _dot,
    "ratio": _dot,
    "whispers": whispers,
    "parityline": parityline,
    "palindrome": palindrome,
    "clone": clone,
    "odd": parity,
    "even": parity,
    "renban": renban,
    "betweenline": betweenline,
    "quadruple": quadruple,
}
