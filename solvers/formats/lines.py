"""The line format: one puzzle per line.

``CELLS`` is N*N symbols. Fields may follow it: after ``:`` or ``,`` (tdoku's
``puzzle:count:solution``, Kaggle's ``quizzes,solutions``), a field as long as the puzzle being
its known solution; and, after spaces, a variant's maps and sums, ``NAME=TEXT`` for each name
of ``variant_text.FIELDS`` (``regions=AAAB...``; ``variant_text`` says how each reads). A ``#``
after a space starts a comment.
"""

from __future__ import annotations

import re

from solvers.base.errors import InputError
from solvers.formats import variant_text
from solvers.formats.symbols import VALUE_OF, value
from solvers.model.board import Board
from solvers.model.geometry import MAX_SIZE, MIN_SIZE, Shape

MAX_LINE = 16_384  # characters: a 25x25 killer puzzle with all its fields takes under 4,000
SQUARES = {n * n: n for n in range(MIN_SIZE, MAX_SIZE + 1)}
_SUBFIELD = re.compile(r"[:,]")


def parse_line(
    text: str, number: int, shape: Shape | None, names: frozenset[str]
) -> tuple[Board, Board | None]:
    """The puzzle of one line under the rules ``names`` (and those its fields imply), and its
    known solution if the line gives one."""
    head, *words = text.split(" #", 1)[0].split()
    cells_text, *subfields = _SUBFIELD.split(head)
    size = SQUARES.get(len(cells_text))
    if size is None:
        raise InputError(
            f"{len(cells_text)} cells; a line puzzle has N*N cells for N in "
            f"{MIN_SIZE}..{MAX_SIZE} (81 for 9x9)",
            number,
        )
    board_shape = shape_for(size, shape, number)
    cells = cell_values(cells_text, size, number, 1)
    variant = _variant_fields(text, words, number)
    fields = {name: [text] for name, text in variant.items()}
    rules = variant_text.build_rules(names, board_shape, fields, number)
    known = None
    for field in subfields:
        if len(field) == len(cells_text):
            start = text.index(field, len(cells_text)) + 1
            known = Board(board_shape, cell_values(field, size, number, start), rules)
            break
    return at_line(lambda: Board(board_shape, cells, rules), number), known


def cell_values(text: str, size: int, number: int, start: int) -> tuple[int, ...]:
    """The values of a line's cells (0 empty); InputError naming the first bad symbol, its
    column counted from ``start``."""
    try:
        cells = tuple(map(VALUE_OF.__getitem__, text))
        if max(cells) > size:
            raise KeyError
    except KeyError:  # find the first bad symbol, to say what and where
        return tuple(value(s, size, number, start + i) for i, s in enumerate(text))
    return cells


def _variant_fields(text: str, words: list[str], number: int) -> dict[str, str]:
    found: dict[str, str] = {}
    columns: dict[str, int] = {}
    at = 0
    for word in words:
        at = text.index(word, at)
        column, at = at + 1, at + len(word)
        key, eq, rest = word.partition("=")
        if not eq or key not in variant_text.FIELDS or not rest:
            known = ", ".join(f"{name}=" for name in variant_text.FIELDS)
            raise InputError(
                f"unexpected {word[:20]!r} after the puzzle (fields are {known})",
                number,
                column,
            )
        if key in found:
            raise InputError(
                f"{key}= is given twice (columns {columns[key]} and {column}): give it once",
                number,
                column,
            )
        found[key], columns[key] = rest, column
    return found


def shape_for(size: int, shape: Shape | None, number: int) -> Shape:
    if shape is None:
        return at_line(lambda: Shape.for_size(size), number)
    if shape.size != size:
        raise InputError(f"box {shape} does not fit a {size}x{size} board", number)
    return shape


def at_line(make, number: int):
    """``make()``, its InputError (if any) placed at ``number`` when it has no line yet."""
    try:
        return make()
    except InputError as error:
        raise (error if error.line is not None else error.at_line(number)) from None
