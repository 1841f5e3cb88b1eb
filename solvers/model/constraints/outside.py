"""Clues outside the grid about a whole row or column: sandwich, X-sum, skyscraper, numbered
room, hidden skyscraper.

Each constraint's cells are the row or column read from the clue's side (N cells), and its
meaning assumes what any Sudoku row holds: each value 1..N once. So the check reports a row
that does not, and the decomposition includes that row's all-different (redundant on a board).

- ``sandwich``: the values between the 1 and the N add up to ``total``.
- ``xsum``: the first X cells add up to ``total``, X being the first cell's value.
- ``skyscraper``: ``total`` values are seen from the clue, a value hiding every lower one
  behind it.

- ``numberedroom``: the Xth cell from the clue holds ``value``, X being the first cell's value:
  sigh's Interactive Sudoku Solver's ``NumberedRoom`` (``js/sudoku_constraint.js``; its builder
  makes it an ``Indexing`` handler, ``js/solver/sudoku_builder.js``). Binary relations: the
  first cell holding X forbids any other value in the Xth cell.
- ``hiddenskyscraper``: the first cell from the clue that a taller one before it hides holds
  ``value``: the same solver's ``HiddenSkyscraper``.

Each of the first three decomposes into a compressed table over the row (one row per way the
clue can hold); the hidden skyscraper into small pieces: the value before the clue's is taller
(a relation), and each earlier pair rises (a three-cell table on where the clue's value is).
A skyscraper's table grows as C(N-1, k-1)^2 for a clue k: validation refuses one over
``MAX_ROWS`` rows (a middling clue on N >= 11) rather than build it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, pairwise
from math import comb

from solvers.base.errors import InputError
from solvers.model.cells import cell_name

from .model import Constraint, Kind, describe, int_param
from .primitives import AllDifferent, Domain, Primitive, Relation, Table

MAX_ROWS = 200_000


def _clue_problems(constraint: Constraint, grid: Sequence[int], n: int, measure, say: str):
    """The row's problem when it does not hold 1..N once each; else, unless ``measure`` of its
    values from the clue's side is the clue, ``say`` filled in."""
    values, where = [grid[cell] for cell in constraint.cells], cell_name(constraint.cells[0], n)
    if sorted(values) != list(range(1, n + 1)):
        return [f"the line from {where} does not hold each value 1..{n} once"]
    found, total = measure(values), constraint.param("total")
    return (
        [] if found == total else [say.format(where=where, found=found, total=total, x=values[0])]
    )


def _sandwiched(values: list[int]) -> int:
    low, high = sorted((values.index(1), values.index(len(values))))
    return sum(values[low + 1 : high])


def _seen(values: list[int]) -> int:
    return sum(1 for i, value in enumerate(values) if all(v < value for v in values[:i]))


def check_sandwich(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    say = "the sandwich from {where} adds up to {found}, not {total}"
    return _clue_problems(constraint, grid, n, _sandwiched, say)


def check_xsum(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    say = "the first {x} cells from {where} add up to {found}, not the X-sum clue"
    return _clue_problems(constraint, grid, n, lambda values: sum(values[: values[0]]), say)


def check_skyscraper(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    say = "{found} skyscrapers are seen from {where}, not {total}"
    return _clue_problems(constraint, grid, n, _seen, say)


def _sets(values: Sequence[int], size: int, total: int):
    return [frozenset(s) for s in combinations(values, size) if sum(s) == total]


def decompose_sandwich(constraint: Constraint, n: int) -> list[Primitive]:
    total, crust = int(constraint.param("total")), frozenset(range(2, n))
    rows = []
    for gap in range(n - 1):
        for filling in _sets(sorted(crust), gap, total):
            for start in range(n - 1 - gap):
                for ends in ((1, n), (n, 1)):
                    row = [crust - filling] * n
                    row[start + 1 : start + 1 + gap] = [filling] * gap
                    row[start], row[start + gap + 1] = frozenset({ends[0]}), frozenset({ends[1]})
                    rows.append(tuple(row))
    return [AllDifferent(constraint.cells), Table(constraint.cells, tuple(rows))]


def decompose_xsum(constraint: Constraint, n: int) -> list[Primitive]:
    total, rows = int(constraint.param("total")), []
    for x in range(1, n + 1):
        others = [v for v in range(1, n + 1) if v != x]
        for prefix in _sets(others, x - 1, total - x):
            rest = frozenset(others) - prefix
            rows.append((frozenset({x}), *[prefix] * (x - 1), *[rest] * (n - x)))
    return [AllDifferent(constraint.cells), Table(constraint.cells, tuple(rows))]


def decompose_skyscraper(constraint: Constraint, n: int) -> list[Primitive]:
    rows = _skyscraper_rows(int(constraint.param("total")), n)
    return [AllDifferent(constraint.cells), Table(constraint.cells, rows)]


@cache
def _skyscraper_rows(seen: int, n: int) -> tuple[tuple[frozenset[int], ...], ...]:
    """The rows of a clue ``seen`` on a line of ``n``: for each choice of where the ``seen``
    visible skyscrapers stand and which heights they have (the last one ``n``), each cell's
    values. The same for every clue of that total: built once (a 9x9 clue has up to 4,900
    rows, a board up to 36 clues)."""
    rows = []
    lowers = {}  # for each heights, the values each segment's hidden cells may hold
    for heights in combinations(range(1, n), seen - 1):
        tops = (*heights, n)
        lowers[heights] = [frozenset(range(1, top)) - set(tops) for top in tops]
    singles = {top: frozenset({top}) for top in range(1, n + 1)}
    for places in combinations(range(1, n), seen - 1):
        starts = (0, *places)
        ends = (*places, n)
        for heights in combinations(range(1, n), seen - 1):
            row: list[frozenset[int]] = []
            for start, end, top, lower in zip(
                starts, ends, (*heights, n), lowers[heights], strict=True
            ):
                row += [singles[top]] + [lower] * (end - start - 1)
            rows.append(tuple(row))
    return tuple(rows)


def check_numberedroom(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    cells, value = constraint.cells, constraint.param("value")
    first = grid[cells[0]]
    if not 1 <= first <= len(cells):
        return [f"{cell_name(cells[0], n)} ({first}) counts no cell of its row or column"]
    room = cells[first - 1]
    if grid[room] == value:
        return []
    return [
        f"{cell_name(room, n)} ({grid[room]}), cell {first} from {cell_name(cells[0], n)}, "
        f"is not the numbered room's {value}"
    ]


def decompose_numberedroom(constraint: Constraint, n: int) -> list[Primitive]:
    cells, value = constraint.cells, int(constraint.param("value"))
    values = range(1, n + 1)
    # the first cell names itself with a 1: it is then the room
    found: list[Primitive] = [
        Domain(cells[0], frozenset(v for v in values if v != 1 or v == value))
    ]
    for x in range(2, n + 1):
        wrong = frozenset((x, y) for y in values if y != value)
        found.append(Relation(cells[0], cells[x - 1], wrong))
    return found


def _first_hidden(values: list[int]) -> int | None:
    tallest = values[0]
    for value in values[1:]:
        if value < tallest:
            return value
        tallest = value
    return None


def check_hiddenskyscraper(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    values, where = [grid[cell] for cell in constraint.cells], cell_name(constraint.cells[0], n)
    if sorted(values) != list(range(1, n + 1)):
        return [f"the line from {where} does not hold each value 1..{n} once"]
    hidden, value = _first_hidden(values), constraint.param("value")
    if hidden == value:
        return []
    found = "none is hidden" if hidden is None else f"the first hidden is {hidden}"
    return [f"from {where} {found}, not the hidden skyscraper clue {value}"]


def decompose_hiddenskyscraper(constraint: Constraint, n: int) -> list[Primitive]:
    # the first hidden value is the first that is lower than the one before it: the clue's
    # value h is never first, the cell before it is taller, and each cell before that is
    # taller than the one before it (a rise), wherever h stands
    cells, hidden, every = constraint.cells, int(constraint.param("value")), range(1, n + 1)
    anything, not_hidden = frozenset(every), frozenset(every) - {hidden}
    found: list[Primitive] = [AllDifferent(cells), Domain(cells[0], not_hidden)]
    lower = frozenset((x, hidden) for x in every if x < hidden)
    rise = [(not_hidden, anything, anything)]
    rise += [
        (frozenset({hidden}), frozenset({x}), frozenset(range(x + 1, n + 1))) for x in every[:-1]
    ]
    for place in range(1, n):
        found.append(Relation(cells[place - 1], cells[place], lower))
        for step in range(1, place):
            found.append(Table((cells[place], cells[step - 1], cells[step]), tuple(rise)))
    return found


def _validate_line(constraint: Constraint, n: int) -> None:
    cells, where = constraint.cells, describe(constraint, n)
    if len(cells) != n:
        raise InputError(f"{where}: has {len(cells)} cells, not the {n} of a row or column")
    steps = {b - a for a, b in pairwise(cells)}
    rows = {cell // n for cell in cells}
    across = steps in ({1}, {-1}) and len(rows) == 1
    if not (across or steps in ({n}, {-n})):
        raise InputError(f"{where}: the cells are not a whole row or column read from one end")


def _validate_sandwich(constraint: Constraint, n: int) -> None:
    _validate_line(constraint, n)
    int_param(constraint, n, "total", 0, sum(range(2, n)))


def _validate_xsum(constraint: Constraint, n: int) -> None:
    _validate_line(constraint, n)
    int_param(constraint, n, "total", 1, n * (n + 1) // 2)


def _validate_skyscraper(constraint: Constraint, n: int) -> None:
    _validate_line(constraint, n)
    int_param(constraint, n, "total", 1, n)
    seen = int(constraint.param("total"))
    if comb(n - 1, seen - 1) ** 2 > MAX_ROWS:
        raise InputError(
            f"{describe(constraint, n)}: a skyscraper clue {seen} on {n}x{n} needs a table of "
            f"{comb(n - 1, seen - 1) ** 2} rows, more than the {MAX_ROWS} this kind builds"
        )


def _validate_value(constraint: Constraint, n: int) -> None:
    _validate_line(constraint, n)
    int_param(constraint, n, "value", 1, n)


def _sigh(name: str, meaning: str, check, decompose, primitives, example: str) -> Kind:
    return Kind(
        name, meaning, check, decompose, frozenset(primitives), params=frozenset({"value"}),
        required=frozenset({"value"}), validate_more=_validate_value, example=example,
        source="sigh sudoku_constraint.js",
    )  # fmt: skip


def _kind(name: str, meaning: str, check, decompose, validate, fpuzzles, example: str) -> Kind:
    source = {"sandwichsum": "Sandwich", "xsum": "XSum", "skyscraper": "Skyscraper"}[fpuzzles]
    return Kind(
        name, meaning, check, decompose, frozenset({AllDifferent, Table}),
        params=frozenset({"total"}), required=frozenset({"total"}), validate_more=validate,
        fpuzzles=fpuzzles, fpuzzles_shape="outside", example=example,
        source=f"dclamage {source}Constraint.cs",
    )  # fmt: skip


KINDS = (
    _kind("sandwich", "The values between the 1 and the N of the row or column add up to "
          "the clue.", check_sandwich, decompose_sandwich, _validate_sandwich, "sandwichsum",
          "sandwich r1c1 r1c2 r1c3 r1c4 r1c5 r1c6 r1c7 r1c8 r1c9 total=15"),
    _kind("xsum", "The first X values of the row or column from the clue add up to the "
          "clue, X being the first value.", check_xsum, decompose_xsum, _validate_xsum, "xsum",
          "xsum r9c9 r8c9 r7c9 r6c9 r5c9 r4c9 r3c9 r2c9 r1c9 total=20"),
    _kind("skyscraper", "The clue counts the values seen from it along the row or column, "
          "each hiding the lower ones behind it.", check_skyscraper, decompose_skyscraper,
          _validate_skyscraper, "skyscraper",
          "skyscraper r3c1 r3c2 r3c3 r3c4 r3c5 r3c6 r3c7 r3c8 r3c9 total=4"),
    _sigh("numberedroom", "The clue is the value of the Xth cell from it along the row or "
          "column, X being the first cell's value.", check_numberedroom,
          decompose_numberedroom, {Domain, Relation},
          "numberedroom r2c1 r2c2 r2c3 r2c4 r2c5 r2c6 r2c7 r2c8 r2c9 value=6"),
    _sigh("hiddenskyscraper", "The clue is the first value seen from it along the row or "
          "column that a taller one before it hides.", check_hiddenskyscraper,
          decompose_hiddenskyscraper, {AllDifferent, Domain, Relation, Table},
          "hiddenskyscraper r1c5 r2c5 r3c5 r4c5 r5c5 r6c5 r7c5 r8c5 r9c5 value=3"),
)  # fmt: skip
