"""Puzzles of sigh's Interactive Sudoku Solver: its constraint strings and its links.

The Interactive Sudoku Solver (github.com/sigh/Interactive-Sudoku-Solver, "ISS") writes a puzzle
as a constraint string, ``.Type~arg~...~cell~cell`` one constraint after another (its
``js/sudoku_parser.js``: whitespace removed, split on ``.``, an empty type is ``Given``), and
puts it in a link's ``q`` parameter. Each type read here is mapped to the kind of this
project's vocabulary that means the same, as ISS's ``js/sudoku_constraint.js`` defines it
(argument order, which cells an outside clue covers, a pill read in reading order); a type with
no such kind, or an argument this project's kind cannot take (a lockout's other difference),
refuses the puzzle in one line that names it (``sigh_types``: each type's reading). A grid of
values 0..N-1 (a shape such as ``9x9~0-8``) is read one higher, as a board of 1..N with each clue
translated (``sigh_types``); its answers show 1..N, each one more than ISS's. Each
constraint is written in the project's text form and read back by it (``constraints.text``), so
the vocabulary's own checks apply.
"""

from __future__ import annotations

import re
import urllib.parse
from typing import TYPE_CHECKING

from solvers.base.errors import InputError
from solvers.model.board import Board

if TYPE_CHECKING:  # the reading loads the vocabulary: only once a puzzle is read
    from solvers.formats.sigh_reading import Reading

FROM_ZERO_NOTE = (
    "an ISS grid of values 0..N-1 is read and answered one higher, as 1..N: "
    "subtract 1 from each value shown for ISS's"
)
LINK = re.compile(r"https?://\S*interactive-sudoku-solver", re.IGNORECASE)
# the types that take no arguments (sigh_types.TYPES): each has a letter no line puzzle holds
_START = re.compile(  # (ISS skips an empty item: "..Cage~" is a cage)
    r"\.+([A-Z][A-Za-z]*)?~|\.+(AntiKnight|AntiKing|AntiConsecutive|AntiTaxicab|Windoku"
    r"|DisjointSets|StrictKropki|StrictXV|NoBoxes|GlobalEntropy|GlobalMod|DutchFlatmates"
    r"|ChaosConstruction|Or|And)\b"
)


def looks_like(text: str) -> bool:
    """Whether a line is an ISS constraint string or link (an f-puzzles payload never starts
    with a dot, and a line puzzle holds no ``~``)."""
    text = text.strip()
    return bool(LINK.match(text)) or (text.startswith(".") and bool(_START.match(text)))


def read(text: str, line: int | None = None) -> Board:
    """The board of an ISS constraint string or link; InputError naming what it cannot keep."""
    return read_with_least(text, line)[0]


def read_with_least(text: str, line: int | None = None) -> tuple[Board, int]:
    """The board of an ISS constraint string or link and its grid's least value: 0 where its
    shape's values run 0..N-1 (the board holds each one higher: subtract 1 from each value of
    its answer for ISS's), else 1. The string is parsed once for both."""
    # the kinds' text form loads the vocabulary: only once a puzzle of this form is read
    from solvers.formats.sigh_reading import Reading
    from solvers.formats.sigh_types import FROM_ZERO, TYPES, WHY_NOT

    parsed = _parse(text, line)
    size, offset = _size(parsed, line)
    reading = Reading(size, line, offset)
    parsed = _replicated(parsed, reading)
    for kind, args in parsed:
        handler = TYPES.get(kind)
        if handler is None:
            why = f" ({WHY_NOT[kind]})" if kind in WHY_NOT else ""
            raise InputError(f"ISS constraint {kind!r}: no rule of the project reads it{why}", line)
        if offset and kind not in FROM_ZERO:
            raise InputError(f"ISS constraint {kind!r} on values from 0: not read", line)
        try:
            handler(reading, args)
        except IndexError:  # a type given fewer arguments than it reads
            raise InputError(f"ISS constraint {kind!r}: missing arguments", line) from None
    return reading.board(), 1 - offset


def _parse(text: str, line: int | None) -> list[tuple[str, list[str]]]:
    """Each constraint of a string or link: its type and its arguments."""
    text = text.strip()
    if LINK.match(text):
        query = urllib.parse.urlsplit(text).query
        text = urllib.parse.parse_qs(query).get("q", [""])[0]
        if not text:  # a link cut short, never an empty grid to answer
            raise InputError("an ISS link with no ?q= puzzle (cut short?)", line)
    items = re.sub(r"\s+", "", text).split(".")
    if items[0]:
        raise InputError("an ISS constraint string starts with '.'", line)
    return [_split(item) for item in items[1:] if item]


def _split(item: str) -> tuple[str, list[str]]:
    kind, *args = item.split("~")
    return kind or "Given", args


# the types a Replicate is read with: how many arguments lead before the cells (ISS's
# ``makeShifted`` shifts every argument after ``ARGUMENT_CONFIG.numArgs``, 1 by default, 0
# for a type with no ARGUMENT_CONFIG; these types keep the default shift)
_SHIFTED_AFTER = {
    "SameValues": 1,
    "Cage": 1,
    "Thermo": 0,
    "AllDifferent": 0,
    "Renban": 0,
    "Arrow": 0,
}
_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_CELL_ID = "123456789abcdefg"  # a row's or column's one digit of base 17 (sigh_reading)


def _replicated(
    parsed: list[tuple[str, list[str]]], reading: Reading
) -> list[tuple[str, list[str]]]:
    """The constraints with each ``.Replicate~targets[~origin] ... .End`` group replaced by its
    copies, as ISS's builder makes them (js/solver/sudoku_builder.js, ``Replicate``): bit i of
    the base64url targets (6 a digit, lowest first) names the cell i after the origin (R1C1
    unless given) in reading order, and for each such cell the group's constraints are shifted
    by its rows and columns from the origin; a cell shifted off the grid refuses the puzzle."""
    n, line = reading.n, reading.line
    out: list[tuple[str, list[str]]] = []
    items = iter(parsed)
    for kind, args in items:
        if kind != "Replicate":
            out.append((kind, args))
            continue
        group = []
        for inner, inner_args in items:
            if inner == "End":
                break
            if inner not in _SHIFTED_AFTER:
                raise InputError(f"ISS Replicate of {inner!r}: not read", line)
            group.append((inner, inner_args))
        else:
            raise InputError("ISS Replicate with no .End", line)
        origin = reading.cell(args[1] if len(args) > 1 else "R1C1")
        for target in _targets(args[0] if args else "", origin, line):
            rows, cols = target // n - origin // n, target % n - origin % n
            for inner, inner_args in group:
                lead = _SHIFTED_AFTER[inner]
                cells = [_shift(reading, cell, rows, cols) for cell in inner_args[lead:]]
                out.append((inner, inner_args[:lead] + cells))
    return out


def _targets(bits: str, origin: int, line: int | None) -> list[int]:
    if any(char not in _BASE64 for char in bits):
        raise InputError(f"ISS Replicate targets {bits[:16]!r} are not base64url", line)
    digits = [_BASE64.index(char) for char in bits]
    return [origin + i for i in range(6 * len(digits)) if digits[i // 6] >> (i % 6) & 1]


def _shift(reading: Reading, cell: str, rows: int, cols: int) -> str:
    n, at = reading.n, reading.cell(cell)
    row, col = at // n + rows, at % n + cols
    if not (0 <= row < n and 0 <= col < n):
        raise InputError(f"ISS Replicate shifts {cell} off the {n}x{n} grid", reading.line)
    return f"R{_CELL_ID[row]}C{_CELL_ID[col]}"


def _size(parsed: list[tuple[str, list[str]]], line: int | None) -> tuple[int, int]:
    """The grid's side N, and 1 where its values run 0..N-1 (ISS's ``valueOffset`` of -1,
    ``js/cell_geometry.js``: a range ``0-8``), else 0."""
    shapes = [args for kind, args in parsed if kind == "Shape"]
    if not shapes:
        return 9, 0
    spec = "~".join(shapes[-1])
    found = re.fullmatch(r"([0-9]{1,6})(?:x([0-9]{1,6}))?(?:~(?:([01])-)?([0-9]{1,6}))?", spec)
    offset = 1 if found and found[3] == "0" else 0
    if (
        not found
        or (found[2] and found[2] != found[1])
        or (found[4] and int(found[4]) + offset != int(found[1]))
    ):
        shown = f"{spec[:16]!r}{'...' if len(spec) > 16 else ''}"
        said = "only square grids of N values, 1..N or 0..N-1, are read"
        raise InputError(f"ISS shape {shown}: {said}", line)
    return int(found[1]), offset
