"""Each type of the Interactive Sudoku Solver as the project's kind that means the same.

A board being read is a ``Reading`` (``sigh_reading``: the givens, the constraints in the
project's text form, the regions; it builds the board); ``TYPES`` maps each ISS type name to
the handler that reads its arguments, as ISS's js/sudoku_constraint.js defines them (``sigh``
says how the string itself is read).

A grid whose values run 0..N-1 (ISS's shape ``9x9~0-8``) is read one higher: each cell holds
its value + 1, so the board is the project's 1..N board, and each clue that names a value or a
total is translated exactly (ISS's own solver does the same, ``valueOffset``). ``FROM_ZERO``
lists the types read so: those whose meaning does not change with the values (an order, a
difference, a key of value indices) and those translated here; any other refuses the puzzle.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from solvers.base.errors import InputError
from solvers.formats.sigh_reading import Reading, equal_sums, number, read_given
from solvers.model.cells import neighbours

# ---- the types, each as ISS's sudoku_constraint.js defines its arguments ----------------------


def _line(kind: str) -> Callable[[Reading, list[str]], None]:
    return lambda reading, args: reading.add(kind, reading.cells(args))


def _thermo(reading: Reading, args: list[str]) -> None:
    reading.add("thermometer", reading.cells(args))


def _greater(reading: Reading, args: list[str]) -> None:
    # "A cell must be greater than any later adjacent cells": each adjacent pair, the earlier
    # cell the greater, is a two-cell thermometer from the later one
    for first, later in _pairs(reading, args):
        reading.add("thermometer", [later, first])


def _pairs(reading: Reading, args: list[str]) -> list[tuple[int, int]]:
    """The orthogonally adjacent pairs among the cells, each in its listed order (ISS's
    ``_adjacentCellPairs``)."""
    cells, n = reading.cells(args), reading.n
    return [(a, b) for i, a in enumerate(cells) for b in cells[i + 1 :] if b in neighbours(a, n)]


def _dot(kind: str) -> Callable[[Reading, list[str]], None]:
    def add(reading: Reading, args: list[str]) -> None:
        for pair in _pairs(reading, args):
            if reading.offset and kind == "ratio":  # one value double the other, from 0
                reading.add("pairline", list(pair), pairs=_doubles(reading.n))
            else:
                reading.add(kind, list(pair))
            reading.dots.append(pair)

    return add


def _xv(total: int) -> Callable[[Reading, list[str]], None]:
    def add(reading: Reading, args: list[str]) -> None:
        for pair in _pairs(reading, args):
            if reading.offset:  # "Values must add to 5": two cells from 0 add up to 2 more
                reading.add("sum", list(pair), total=total + 2)
            else:
                reading.add("xv", list(pair), sum=total)
            reading.xv.append(pair)

    return add


def _doubles(n: int) -> list[int]:
    """The pairs of values 1..N whose values less one are a value and its double (ISS's
    BlackDot ``a === b * 2 || b === a * 2`` on 0..N-1: 0 and 0 too, which no two neighbours
    of a row or column can hold)."""
    return [
        v
        for a in range(1, n + 1)
        for b in range(1, n + 1)
        if a - 1 == 2 * (b - 1) or b - 1 == 2 * (a - 1)
        for v in (a, b)
    ]


def _whisper(reading: Reading, args: list[str]) -> None:
    difference = 5  # German whispers omit it (ISS's default)
    if args and re.fullmatch(r"[0-9]{1,6}", args[0]):
        difference, args = int(args[0]), args[1:]
    reading.add("whispers", reading.cells(args), difference=difference)


def _lockout(reading: Reading, args: list[str]) -> None:
    least = number(reading, args[0], "lockout difference") if args[0] else 4
    if least != reading.n // 2:
        raise InputError(
            f"ISS lockout with difference {least}: the project's lockout ends differ by at "
            f"least {reading.n // 2} on {reading.n}x{reading.n}",
            reading.line,
        )
    reading.add("lockout", reading.cells(args[1:]))


def _modular(reading: Reading, args: list[str]) -> None:
    modulus = number(reading, args[0], "modular line modulus")
    reading.add("modularline", reading.cells(args[1:]), modulus=modulus)


def _region_sum(reading: Reading, args: list[str]) -> None:
    reading.region_sum_lines.append(reading.cells(args))


def _arrow(reading: Reading, args: list[str]) -> None:
    cells = reading.cells(args)
    if reading.offset:  # circle - 1 = sum(shaft - 1): circle - sum(shaft) = 1 - len(shaft)
        weights = [1] + [-1] * (len(cells) - 1)
        reading.add("sum", cells, total=2 - len(cells), weights=weights)
    else:
        reading.add("arrow", cells)


def _pill(reading: Reading, args: list[str]) -> None:
    size = number(reading, args[0], "pill size")
    cells = reading.cells(args[1:])
    # "Numbers in the pill are read from left to right, top to bottom"
    pill, shaft = sorted(cells[:size]), cells[size:]
    reading.add("arrow", pill + shaft, circle=size)


def _cage(reading: Reading, args: list[str]) -> None:
    total = number(reading, args[0], "cage sum") if args[0] else 0
    cells = reading.cells(args[1:])
    if len(set(cells)) < len(cells):  # ISS sums a cell named twice twice, its values unique
        reading.add("killercage", list(dict.fromkeys(cells)))
        if total:  # "A sum of 0 means any sum is ok"
            _weighted_sum(reading, total, cells, [1] * len(cells))
        return
    # ISS: "A sum of 0 means any sum is ok", on values from 0 too; else each cell adds one
    total += reading.offset * len(cells) if total else 0
    reading.add("killercage", cells, **({"total": total} if total else {}))


def _weighted_sum(reading: Reading, total: int, cells: list[int], weights: list[int]) -> None:
    """A sum of the cells' values times their weights, as ISS's Sum handler takes it: a cell
    named twice has its weights added, one weighing 0 is left out, and on values from 0 each
    cell's value is one less, so the total is the weights' sum higher."""
    merged: dict[int, int] = {}
    for cell, weight in zip(cells, weights, strict=True):
        merged[cell] = merged.get(cell, 0) + weight
    kept = {cell: weight for cell, weight in merged.items() if weight}
    total += reading.offset * sum(kept.values())
    if not kept:  # ISS: "0-cell handlers are trivially satisfiable iff sum is 0"
        if total:
            raise InputError(f"ISS Sum to {total} of weights adding to 0", reading.line)
        return
    params: dict[str, object] = {"total": total}
    if any(weight != 1 for weight in kept.values()):
        params["weights"] = list(kept.values())
    reading.add("sum", list(kept), **params)


def _quad(reading: Reading, args: list[str]) -> None:
    top = reading.cell(args[0])
    n = reading.n
    if top % n == n - 1 or top // n == n - 1:
        raise InputError(f"ISS quad at {args[0]}: no 2x2 square starts there", reading.line)
    values = [number(reading, value, "quad value") + reading.offset for value in args[1:]]
    reading.add("quadruple", [top, top + 1, top + n, top + n + 1], values=values)


def _full_line(reading: Reading, which: str) -> list[int]:
    n = reading.n
    found = re.fullmatch(r"([RC])([0-9]{1,6})", which, re.IGNORECASE)
    if not found or not 1 <= int(found[2]) <= n:
        shown = f"{which[:16]!r}{'...' if len(which) > 16 else ''}"
        raise InputError(f"ISS outside clue at {shown}: no such row or column", reading.line)
    index = int(found[2]) - 1
    if found[1].upper() == "R":
        return [index * n + col for col in range(n)]
    return [row * n + index for row in range(n)]


def _both_ends(kind: str, param: str = "total") -> Callable[[Reading, list[str]], None]:
    """An outside clue read from either end: ``Type~R1~fromStart~fromEnd`` (either empty)."""

    def add(reading: Reading, args: list[str]) -> None:
        cells = _full_line(reading, args[0])
        for value, order in zip(args[1:3], (cells, cells[::-1]), strict=False):
            if value:
                clue = number(reading, value, kind)
                # a clue naming a cell's value (not a count or a total) is one higher
                shift = reading.offset if kind == "hiddenskyscraper" else 0
                reading.add(kind, order, **{param: clue + shift})

    return add


def _sandwich(reading: Reading, args: list[str]) -> None:
    reading.add("sandwich", _full_line(reading, args[1]), total=number(reading, args[0], "sum"))


def _little_killer(reading: Reading, args: list[str]) -> None:
    total = number(reading, args[0], "little killer sum")
    start = reading.cell(args[1])
    n, row, col = reading.n, start // reading.n, start % reading.n
    # ISS's cellMap: a clue's first cell fixes its direction, by the side it is on
    if col == 0 and row < n - 1:
        step = (1, 1)
    elif col == n - 1 and 0 < row < n - 1:
        step = (-1, -1)
    elif row == 0 and col > 0:
        step = (1, -1)
    elif row == n - 1 and 0 < col < n - 1:
        step = (-1, 1)
    else:
        raise InputError(f"ISS little killer at {args[1]}: no diagonal starts there", reading.line)
    cells = []
    while 0 <= row < n and 0 <= col < n:
        cells.append(row * n + col)
        row, col = row + step[0], col + step[1]
    reading.add("littlekiller", cells, total=total)


def _diagonal(reading: Reading, args: list[str]) -> None:
    # ISS: 1 is the diagonal drawn as a forward slash (bottom left to top right)
    kind = {"1": "diagonal+", "-1": "diagonal-"}.get(args[0] if args else "")
    if kind is None:
        raise InputError(f"ISS diagonal {args!r}: neither 1 nor -1", reading.line)
    reading.add(kind, [])


def _windoku(reading: Reading, args: list[str]) -> None:
    """ISS's ``Windoku.regions``: windows of a box's shape, one cell in from the edge and one
    cell apart (9x9: four 3x3 windows; 16x16: nine 4x4), none on a grid without boxes."""
    n, shape = reading.n, reading.shape
    if not shape.has_boxes:
        return
    height, width = shape.box_rows, shape.box_cols
    for top in range(1, n - height, height + 1):
        for left in range(1, n - width, width + 1):
            cells = [(top + r) * n + left + c for r in range(height) for c in range(width)]
            reading.add("extraregion", cells)


def _jigsaw(reading: Reading, args: list[str]) -> None:
    layout = args[-1]
    if len(layout) != reading.n * reading.n:
        raise InputError(f"ISS jigsaw layout of {len(layout)} symbols", reading.line)
    labels = {symbol: i for i, symbol in enumerate(dict.fromkeys(layout))}
    reading.regions = tuple(labels[symbol] for symbol in layout)


def _no_boxes(reading: Reading, args: list[str]) -> None:
    reading.no_boxes = True


def _indexing(reading: Reading, args: list[str]) -> None:
    kind = {"C": "columnindexer", "R": "rowindexer"}.get(args[0].upper())
    if kind is None:
        raise InputError(f"ISS indexing {args[0]!r}: neither R nor C", reading.line)
    for cell in reading.cells(args[1:]):
        reading.add(kind, [cell])


def _disjoint(reading: Reading, args: list[str]) -> None:
    reading.add("disjointgroups", [], box=f"{reading.shape.box_rows}x{reading.shape.box_cols}")


def _global(kind: str) -> Callable[[Reading, list[str]], None]:
    return lambda reading, args: reading.add(kind, [])


def _look_and_say(reading: Reading, args: list[str]) -> None:
    # "The clue is read as (count, value) pairs: a clue of 23 means the cells contain exactly
    # two 3s"
    clue = args[0]
    if not re.fullmatch(r"(?:[0-9]{2}){1,9}", clue):
        shown = f"{clue[:16]!r}{'...' if len(clue) > 16 else ''}"
        raise InputError(
            f"ISS look-and-say clue {shown} is not (count, value) digit pairs", reading.line
        )
    counts = [int(c) for c in clue[::2]]
    values = [int(v) + reading.offset for v in clue[1::2]]
    reading.add("lookandsay", reading.cells(args[1:]), values=values, counts=counts)


def _same_values(reading: Reading, args: list[str]) -> None:
    sets, cells = number(reading, args[0], "same values sets"), reading.cells(args[1:])
    if sets != len(cells):  # sets of several cells: their multisets equal
        raise InputError(
            f"ISS SameValues in {sets} sets of {len(cells)} cells: the project has no kind for "
            "sets of several cells holding the same values",
            reading.line,
        )
    # "Each set must contain the same values": sets of one cell each, every cell the same value
    for other in cells[1:]:
        reading.add("clone", [cells[0], other])


_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def _pair_type(kind: str, legacy: bool) -> Callable[[Reading, list[str]], None]:
    """ISS's ``Pair`` (each two consecutive cells) and ``PairX`` (every two cells), and their
    legacy forms ``Binary`` and ``BinaryX``: ``Type~key~_name~cell~...~~cell~...``, groups of
    cells apart at an empty item, a ``_`` item naming the group. The key is ISS's
    ``fnToBinaryKey``: bit (a-1)*N + (b-1) of its base64url digits (6 bits each, lowest
    first) allows a first cell of a with a second of b; a legacy key swaps ``-`` and ``_``."""

    def add(reading: Reading, args: list[str]) -> None:
        key, n = args[0], reading.n
        if legacy:
            key = key.translate(str.maketrans("-_", "_-"))
        if any(ch not in _BASE64 for ch in key):
            raise InputError(f"ISS {kind} key {key[:16]!r} is not base64url", reading.line)
        digits = [_BASE64.index(ch) for ch in key]
        allowed = [
            (a, b)
            for a in range(1, n + 1)
            for b in range(1, n + 1)
            if (k := (a - 1) * n + b - 1) // 6 < len(digits) and digits[k // 6] >> (k % 6) & 1
        ]
        if kind == "pairgroup" and any((b, a) not in allowed for a, b in allowed):
            raise InputError(f"ISS {kind} key {args[0]!r}: not the same both ways", reading.line)
        groups: list[list[str]] = [[]]
        for item in args[1:]:
            if not item or item.startswith("_"):
                groups.append([])
            else:
                groups[-1].append(item)
        for group in filter(None, groups):
            pairs = [v for pair in allowed for v in pair]
            reading.add(kind, reading.cells(group), pairs=pairs)

    return add


def _strict(which: str) -> Callable[[Reading, list[str]], None]:
    return lambda reading, args: reading.strict.add(which)


# ---- the sum family: kinds of ISS's own (solvers/model/constraints/sums.py) -------------------


def _sum(reading: Reading, args: list[str]) -> None:
    # "Sum~total~cells" or "Sum~total_=_w1_w2..~cells": each cell's value times its weight
    total, _, weights = args[0].partition("_=_")
    cells = reading.cells(args[1:])
    factors = [number(reading, w, "sum weight") for w in weights.split("_")] if weights else None
    if factors is not None and len(factors) != len(cells):
        said = f"ISS Sum of {len(cells)} cells with {len(factors)} weights"
        raise InputError(said, reading.line)
    _weighted_sum(reading, number(reading, total, "sum"), cells, factors or [1] * len(cells))


def _equal_sum(reading: Reading, args: list[str]) -> None:
    """Segments separated by ``-`` with equal sums: each segment against the next as a sum of
    0 with weights 1 and -1 (a cell in both counted in each; one weighing 0 left out)."""
    segments, current = [], []
    for arg in [*args, "-"]:
        if arg == "-":
            if current:
                segments.append(reading.cells(current))
            current = []
        else:
            current.append(arg)
    equal_sums(reading, segments)


def _total_then_cells(kind: str) -> Callable[[Reading, list[str]], None]:
    def add(reading: Reading, args: list[str]) -> None:
        total = number(reading, args[0], kind)
        reading.add(kind, reading.cells(args[1:]), total=total)

    return add


def _sum_line(reading: Reading, args: list[str]) -> None:
    # ISS's CellArgs: a last argument LOOP closes the line
    loop = bool(args) and args[-1].upper() == "LOOP"
    cells = reading.cells(args[1 : len(args) - loop])
    total = number(reading, args[0], "sum line total")
    reading.add("sumline", cells, total=total, **({"loop": 1} if loop else {}))


# the types read on values from 0 (the module docstring): an order, a difference or a key of
# value indices means the same one higher; the rest named are translated by their handlers
FROM_ZERO = frozenset(
    {"Given", "Shape", "Thermo", "GreaterThan", "Whisper", "Renban", "Between", "Palindrome"}
    | {"WhiteDot", "BlackDot", "X", "V", "StrictXV", "Diagonal", "Windoku", "Jigsaw", "NoBoxes"}
    | {"DisjointSets", "AntiKnight", "AntiKing", "AntiConsecutive", "AllDifferent", "Sum"}
    | {"EqualityCage", "Pair", "PairX", "Binary", "BinaryX", "Cage", "Quad", "LookAndSay"}
    | {"HiddenSkyscraper", "Arrow", "RegionSumLine", "SameValues"}
)  # not Skyscraper: ISS's "0-valued cells do not count as skyscrapers", no rule here says so


# why some types of ISS have no reading here, each as ISS's js/sudoku_constraint.js defines it
WHY_NOT = {
    "FullRank": "it ranks each row and column, read both ways, among all the others: a count "
    "of smaller lines no kind here holds",
    "ChaosConstruction": "its regions are found while solving: a board here is given its regions",
    "Or": "one group of constraints or another: no kind here holds a choice of rules",
    "NFA": "the digits along a line accepted by an automaton: no kind here",
    "Regex": "the digits along a line matched by a regular expression: no kind here",
    "Var": "cells outside the grid: a board here has only its N x N cells",
}


def _ignore(reading: Reading, args: list[str]) -> None:
    """A setting that changes no rule (the shape is read before the rest)."""


TYPES: dict[str, Callable[[Reading, list[str]], None]] = {
    "Given": read_given,
    "Shape": _ignore,
    "Thermo": _thermo,
    "GreaterThan": _greater,
    "Whisper": _whisper,
    "Renban": _line("renban"),
    "Palindrome": _line("palindrome"),
    "Zipper": _line("zipper"),
    "Between": _line("betweenline"),
    "Entropic": _line("entropic"),
    "Lockout": _lockout,
    "Modular": _modular,
    "RegionSumLine": _region_sum,
    "Arrow": _arrow,
    "DoubleArrow": _line("doublearrow"),
    "PillArrow": _pill,
    "Cage": _cage,
    "AllDifferent": _line("killercage"),  # "Values must be unique": a cage with no sum
    "Quad": _quad,
    "WhiteDot": _dot("difference"),
    "BlackDot": _dot("ratio"),
    "X": _xv(10),
    "V": _xv(5),
    "StrictKropki": _strict("kropki"),
    "StrictXV": _strict("xv"),
    "LittleKiller": _little_killer,
    "Sandwich": _sandwich,
    "XSum": _both_ends("xsum"),
    "Skyscraper": _both_ends("skyscraper"),
    "NumberedRoom": _both_ends("numberedroom", "value"),
    "HiddenSkyscraper": _both_ends("hiddenskyscraper", "value"),
    "GlobalEntropy": _global("globalentropy"),
    "GlobalMod": _global("globalmod"),
    "LookAndSay": _look_and_say,
    "EqualityCage": _line("equalitycage"),
    "SameValues": _same_values,
    "Pair": _pair_type("pairline", legacy=False),
    "PairX": _pair_type("pairgroup", legacy=False),
    "Binary": _pair_type("pairline", legacy=True),
    "BinaryX": _pair_type("pairgroup", legacy=True),
    "Diagonal": _diagonal,
    "Windoku": _windoku,
    "DisjointSets": _disjoint,
    "AntiKnight": _global("anti-knight"),
    "AntiKing": _global("anti-king"),
    "AntiConsecutive": _global("non-consecutive"),
    "AntiTaxicab": _global("self-taxicab"),
    "DutchFlatmates": _global("dutchflatmates"),  # 1..N only: not in FROM_ZERO, as ISS
    "Jigsaw": _jigsaw,
    "NoBoxes": _no_boxes,
    "Indexing": _indexing,
    # the sum family
    "Sum": _sum,
    "EqualSum": _equal_sum,
    "Lunchbox": _total_then_cells("lunchbox"),
    "RellikCage": _total_then_cells("rellikcage"),
    "SumLine": _sum_line,
    "CountingCircles": _line("countingcircles"),  # any cells, in any order
}
