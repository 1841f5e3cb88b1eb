"""Kinds that count values in a group of cells (look-and-say, equality cage, counting circles),
and custom relations between its cells (pair line, pair group).

Read from sigh's Interactive Sudoku Solver (``js/sudoku_constraint.js`` and its builder,
``js/solver/sudoku_builder.js``):

- ``lookandsay``: the clue is (count, value) pairs: the cells hold exactly ``counts[i]`` of
  ``values[i]`` (none where the count is 0); other values are free, and the cells may repeat
  (ISS's ``LookAndSay``: givens without the zero-count values, and ``RequiredValues`` strict).
  Each named value with a count c is a compressed table of the C(cells, c) ways to place it.
- ``equalitycage``: the cells hold different values, as many even as odd and as many low as
  high; the middle value of an odd N is neither low nor high, so it is not in the cage (ISS's
  ``EqualityCage``: an all-different and two ``EqualSizePartitions``). A table of
  C(cells, cells/2)^2 rows, a half of the cells even and a half low.
- ``countingcircles``: each value v held by a circle is held by exactly v circles (ISS's
  ``js/sudoku_constraint.js``: "The value in a circles counts the number of circles with the
  same value", and ``js/solver/handlers.js``'s ``CountingCircles``). The primitives read
  values, not counts: for each value v, one table over the circles whose rows are "no circle
  holds v" and, for each v of the circles, "these hold v and the others do not"; a value above
  the number of circles is refused to every circle. A set of circles whose tables would pass
  ``CIRCLE_ROWS`` rows in all is refused (more than 14 circles on 9x9).
- ``pairline``, ``pairgroup``: the value pairs ``pairs`` (a, b, a, b, ...) are the ones allowed
  between each two consecutive cells (first, second), or between every two cells of a group
  (then symmetric): ISS's ``Pair`` and ``PairX`` (and their legacy ``Binary``, ``BinaryX``),
  whose key is the table of allowed pairs. A relation per linked pair.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, pairwise
from math import comb

from solvers.base.errors import InputError
from solvers.model.cells import cell_name

from .model import Constraint, Kind, describe
from .primitives import AllDifferent, Domain, Primitive, Relation, Table

MAX_ROWS = 200_000
CIRCLE_ROWS = 20_000  # the counting circles' tables, all of them


def _pairs(constraint: Constraint) -> list[tuple[int, int]]:
    """(value, count) of each pair the clue names."""
    return list(zip(constraint.param("values"), constraint.param("counts"), strict=True))


def check_lookandsay(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    held = [grid[cell] for cell in constraint.cells]
    where = cell_name(constraint.cells[0], n)
    return [
        f"the look-and-say cells at {where} hold {held.count(value)} of {value}, not {count}"
        for value, count in _pairs(constraint)
        if held.count(value) != count
    ]


def decompose_lookandsay(constraint: Constraint, n: int) -> list[Primitive]:
    cells, every, found = constraint.cells, frozenset(range(1, n + 1)), []
    for value, count in _pairs(constraint):
        others = every - {value}
        if count == 0:
            found += [Domain(cell, others) for cell in cells]
            continue
        rows = tuple(
            tuple(frozenset({value}) if i in chosen else others for i in range(len(cells)))
            for chosen in combinations(range(len(cells)), count)
        )
        found.append(Table(cells, rows))
    return found


def _validate_lookandsay(constraint: Constraint, n: int) -> None:
    where, size = describe(constraint, n), len(constraint.cells)
    values, counts = constraint.param("values"), constraint.param("counts")
    for name, items, low, high in (("values", values, 1, n), ("counts", counts, 0, size)):
        if not isinstance(items, tuple) or not all(type(v) is int for v in items):
            raise InputError(f"{where}: {name} {items!r} is not a list of whole numbers")
        if not all(low <= v <= high for v in items):
            raise InputError(f"{where}: {name} {items} are not all in {low}..{high}")
    if len(values) != len(counts):
        raise InputError(f"{where}: {len(values)} values but {len(counts)} counts")
    if len(set(values)) != len(values):
        raise InputError(f"{where}: names a value twice")
    if sum(counts) > size:
        raise InputError(f"{where}: counts {sum(counts)} values in {size} cells")
    if max((comb(size, count) for count in counts), default=0) > MAX_ROWS:
        raise InputError(f"{where}: needs a table of more than the {MAX_ROWS} rows it builds")


def _halves(n: int) -> tuple[frozenset[int], frozenset[int]]:
    half = n // 2
    return frozenset(range(1, half + 1)), frozenset(range(n - half + 1, n + 1))


def check_equalitycage(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    held = [grid[cell] for cell in constraint.cells]
    where, low, high = cell_name(constraint.cells[0], n), *_halves(n)
    problems = []
    if len(set(held)) != len(held):
        problems.append(f"the equality cage at {where} holds a value twice: {held}")
    if middle := [v for v in held if v not in low | high]:
        problems.append(f"the equality cage at {where} holds the middle value {middle[0]}")
    evens, lows = sum(v % 2 == 0 for v in held), sum(v in low for v in held)
    if 2 * evens != len(held):
        problems.append(f"the equality cage at {where} holds {evens} even of {len(held)}")
    if 2 * lows != len(held):
        problems.append(f"the equality cage at {where} holds {lows} low of {len(held)}")
    return problems


def decompose_equalitycage(constraint: Constraint, n: int) -> list[Primitive]:
    cells, (low, high) = constraint.cells, _halves(n)
    size, half = len(cells), len(cells) // 2
    rows = []
    for evens in combinations(range(size), half):
        for lows in combinations(range(size), half):
            rows.append(
                tuple(
                    frozenset(
                        v for v in (low if i in lows else high) if (v % 2 == 0) == (i in evens)
                    )
                    for i in range(size)
                )
            )
    return [AllDifferent(cells), Table(cells, tuple(rows))]


def _validate_equalitycage(constraint: Constraint, n: int) -> None:
    where, size = describe(constraint, n), len(constraint.cells)
    if size % 2:
        raise InputError(f"{where}: {size} cells cannot hold as many even values as odd")
    if size > 2 * (n // 2):
        raise InputError(f"{where}: {size} cells cannot hold different low and high values")
    if comb(size, size // 2) ** 2 > MAX_ROWS:
        raise InputError(f"{where}: needs a table of more than the {MAX_ROWS} rows it builds")


KINDS = (
    Kind("lookandsay", "The cells hold each value named exactly its count of times (0: never); "
         "other values are free.", check_lookandsay,
         decompose_lookandsay, frozenset({Domain, Table}), params=frozenset({"values", "counts"}),
         required=frozenset({"values", "counts"}), validate_more=_validate_lookandsay,
         example="lookandsay r3c3 r3c4 r4c4 counts=2,1 values=3,7",
         source="sigh sudoku_constraint.js"),
    Kind("equalitycage", "The cells hold different values, as many even as odd and as many low "
         "(1-4) as high (6-9); never the 5.", check_equalitycage, decompose_equalitycage,
         frozenset({AllDifferent, Table}), cells=(2, None),
         validate_more=_validate_equalitycage, example="equalitycage r4c4 r4c5 r5c4 r5c5",
         source="sigh sudoku_constraint.js"),
)  # fmt: skip


# -- custom relations: the value pairs allowed between two cells ---------------------------------


def _allowed(constraint: Constraint) -> frozenset[tuple[int, int]]:
    flat = constraint.param("pairs")
    return frozenset(zip(flat[::2], flat[1::2], strict=True))


def _linked(constraint: Constraint) -> list[tuple[int, int]]:
    cells = constraint.cells
    if constraint.kind == "pairline":
        return list(pairwise(cells))
    return [(a, b) for i, a in enumerate(cells) for b in cells[i + 1 :]]


def check_pairs(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    allowed = _allowed(constraint)
    return [
        f"{cell_name(a, n)} ({grid[a]}) and {cell_name(b, n)} ({grid[b]}) are no pair the "
        f"{constraint.kind} allows"
        for a, b in _linked(constraint)
        if (grid[a], grid[b]) not in allowed
    ]


def decompose_pairs(constraint: Constraint, n: int) -> list[Primitive]:
    values = range(1, n + 1)
    forbidden = frozenset((x, y) for x in values for y in values) - _allowed(constraint)
    return [Relation(a, b, forbidden) for a, b in _linked(constraint)]


def _validate_pairs(constraint: Constraint, n: int) -> None:
    where, flat = describe(constraint, n), constraint.param("pairs")
    if not isinstance(flat, tuple) or not all(type(v) is int for v in flat) or len(flat) % 2:
        raise InputError(f"{where}: pairs {flat!r} is not a list of value pairs a,b,...")
    if not flat:
        raise InputError(f"{where}: allows no pair of values")
    if not all(1 <= v <= n for v in flat):
        raise InputError(f"{where}: pairs {flat} are not all in 1..{n}")
    if constraint.kind == "pairgroup" and any(
        (b, a) not in _allowed(constraint) for a, b in _allowed(constraint)
    ):
        raise InputError(f"{where}: the pairs of a group allow (a, b) only with (b, a)")


PAIRS = (
    Kind("pairline", "Each two consecutive cells hold one of the value pairs given (first, "
         "second).", check_pairs, decompose_pairs, frozenset({Relation}), cells=(2, None),
         params=frozenset({"pairs"}), required=frozenset({"pairs"}),
         validate_more=_validate_pairs, example="pairline r1c1 r1c2 r1c3 pairs=1,3,3,1,3,5,5,3",
         source="sigh sudoku_constraint.js"),
    Kind("pairgroup", "Every two cells of the group hold one of the value pairs given.",
         check_pairs, decompose_pairs, frozenset({Relation}), cells=(2, None),
         params=frozenset({"pairs"}), required=frozenset({"pairs"}),
         validate_more=_validate_pairs,
         example="pairgroup r5c5 r6c6 r7c7 pairs=1,3,3,1,1,5,5,1,3,5,5,3",
         source="sigh sudoku_constraint.js"),
)  # fmt: skip


# -- counting circles ---------------------------------------------------------------------------


def check_countingcircles(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    held = Counter(grid[cell] for cell in constraint.cells)
    where = cell_name(constraint.cells[0], n)
    return [
        f"{count} of the counting circles from {where} hold {value}, not {value}"
        for value, count in sorted(held.items())
        if count != value
    ]


def decompose_countingcircles(constraint: Constraint, n: int) -> list[Primitive]:
    cells, found = constraint.cells, []
    count = len(cells)
    below = frozenset(range(1, min(n, count) + 1))
    found += [Domain(cell, below) for cell in cells] if count < n else []
    for value in sorted(below):
        other = frozenset(range(1, n + 1)) - {value}
        rows = [(other,) * count]
        for chosen in combinations(range(count), value):
            row = [other] * count
            for place in chosen:
                row[place] = frozenset({value})
            rows.append(tuple(row))
        found.append(Table(cells, tuple(rows)))
    return found


def _validate_countingcircles(constraint: Constraint, n: int) -> None:
    count = len(constraint.cells)
    rows = sum(comb(count, value) for value in range(1, min(n, count) + 1))
    if rows > CIRCLE_ROWS:
        raise InputError(
            f"{describe(constraint, n)}: {count} counting circles need tables of {rows} rows, "
            f"over the {CIRCLE_ROWS} their decomposition takes"
        )


CIRCLES = (
    Kind("countingcircles", "Each value in a circle is held by exactly that many circles.",
         check_countingcircles, decompose_countingcircles, frozenset({Domain, Table}),
         validate_more=_validate_countingcircles,
         example="countingcircles r1c1 r2c5 r3c9 r5c2 r7c7", source="sigh handlers.js"),
)  # fmt: skip
KINDS = KINDS + PAIRS + CIRCLES
