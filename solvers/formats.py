"""Reading and writing boards in the three formats, with auto-detection.

- ``spaced``: N lines of N whitespace-separated integers (BOJ 2580).
- ``compact``: N lines of N digits (BOJ 2239), N <= 9.
- ``line``: one puzzle per line, N*N symbols: ``0`` or ``.`` empty, ``1``-``9`` then ``A``-``Z``
  for 10..35. Fields after ``:`` or ``,`` may follow; one as long as the puzzle is its known
  solution. Blank lines and ``#`` lines are skipped; a file of them is streamed line by line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from solvers.board import MAX_SIZE, MIN_SIZE, Board, Shape
from solvers.errors import InputError

FORMATS = ("spaced", "compact", "line")
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_VALUE_OF = {s: i + 1 for i, s in enumerate(SYMBOLS)} | {"0": 0, ".": 0}
_SYMBOL_OF = "." + SYMBOLS  # value -> symbol, 0 as "."
_SQUARES = {n * n: n for n in range(MIN_SIZE, MAX_SIZE + 1)}
_FIELD_SEPARATOR = re.compile(r"[:,]")
_HEADER = re.compile(r"[A-Za-z_ ]+([:,][A-Za-z_ ]*)*")


@dataclass(frozen=True)
class Puzzle:
    """One puzzle read from a source: where it starts, in which format, and any known answer."""

    board: Board
    line: int
    format: str
    known_solution: Board | None = None


def read_puzzles(
    lines: Iterable[str], fmt: str = "auto", shape: Shape | None = None
) -> Iterator[Puzzle | InputError]:
    """Yield each puzzle of ``lines``, or the InputError (with its line) of one that is bad.

    A bad line of a line-format file does not stop the others. Only what is needed is read:
    a line-format source is consumed one line at a time.
    """
    numbered = _content_lines(lines)
    first = next(numbered, None)
    if first is None:
        yield InputError("empty input")
        return
    number, text = first
    if fmt == "auto" and _HEADER.fullmatch(text) and len(_first_field(text)) not in _SQUARES:
        first = next(numbered, None)  # a CSV header such as Kaggle's "quizzes,solutions"
        if first is None:
            yield InputError("no puzzle after the header line", number)
            return
        number, text = first
    fmt = _detect(text) if fmt == "auto" else fmt
    if fmt == "line":
        for line_number, line in _chain([(number, text)], numbered):
            try:
                yield _parse_line(line, line_number, shape)
            except InputError as error:
                yield error
    elif fmt in ("spaced", "compact"):
        try:
            yield _parse_grid(_chain([(number, text)], numbered), fmt, shape)
        except InputError as error:
            yield error
    else:
        yield InputError(f"unknown format {fmt!r}; choose from auto, {', '.join(FORMATS)}")


def parse(text: str, fmt: str = "auto", shape: Shape | None = None) -> Board:
    """The one board in ``text``; raises InputError if it is bad or there is not exactly one."""
    puzzles = list(read_puzzles(text.splitlines(), fmt, shape))
    for item in puzzles:
        if isinstance(item, InputError):
            raise item
    if len(puzzles) != 1:
        raise InputError(f"expected one board, found {len(puzzles)}")
    return puzzles[0].board


def format_board(board: Board, fmt: str) -> str:
    """The board written in ``fmt``: rows joined by newlines, or a single line."""
    if fmt == "line":
        return "".join(map(_SYMBOL_OF.__getitem__, board.cells))
    if fmt == "compact":
        if board.size > 9:
            raise InputError(
                f"compact format holds boards up to 9x9, not {board.size}x{board.size}"
            )
        return "\n".join("".join(map(str, row)) for row in board.rows())
    if fmt == "spaced":
        return "\n".join(" ".join(map(str, row)) for row in board.rows())
    raise InputError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")


def _content_lines(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if text and not text.startswith("#"):
            yield number, text


def _chain(head: list[tuple[int, str]], tail: Iterator[tuple[int, str]]):
    yield from head
    yield from tail


def _first_field(text: str) -> str:
    return _FIELD_SEPARATOR.split(text, maxsplit=1)[0].strip()


def _detect(text: str) -> str:
    if len(text.split()) > 1:
        return "spaced"
    field = _first_field(text)
    # Compact rows hold at most 9 digits; anything longer, or with fields, is a line puzzle.
    return "line" if field != text or len(field) in _SQUARES or len(field) > 9 else "compact"


def _value(symbol: str, size: int, number: int, column: int) -> int:
    value = _VALUE_OF.get(symbol.upper())
    if value is None:
        raise InputError(f"{symbol!r} is not a digit, a letter or '.'", number, column)
    if value > size:
        raise InputError(f"value {value} ({symbol!r}) is outside 1..{size}", number, column)
    return value


def _shape_for(size: int, shape: Shape | None, number: int) -> Shape:
    if shape is None:
        try:
            return Shape.for_size(size)
        except InputError as error:
            raise error.at_line(number) from None
    if shape.size != size:
        raise InputError(f"box {shape} does not fit a {size}x{size} board", number)
    return shape


def _parse_line(text: str, number: int, shape: Shape | None) -> Puzzle:
    fields = [f.strip() for f in _FIELD_SEPARATOR.split(text)]
    puzzle = fields[0]
    size = _SQUARES.get(len(puzzle))
    if size is None:
        raise InputError(
            f"{len(puzzle)} cells; a line puzzle has N*N cells for N in "
            f"{MIN_SIZE}..{MAX_SIZE} (81 for 9x9)",
            number,
        )
    board_shape = _shape_for(size, shape, number)
    try:
        cells = tuple(map(_VALUE_OF.__getitem__, puzzle.upper()))
        if max(cells) > size:
            raise KeyError
    except KeyError:  # find the first bad symbol, to say what and where
        cells = tuple(_value(s, size, number, i + 1) for i, s in enumerate(puzzle))
    known = None
    for field in fields[1:]:
        if len(field) == len(puzzle):
            start = text.index(field, len(puzzle)) + 1
            known = Board(
                board_shape,
                tuple(_value(s, size, number, start + i) for i, s in enumerate(field)),
            )
            break
    return Puzzle(Board(board_shape, cells), number, "line", known)


def _parse_grid(rows: Iterator[tuple[int, str]], fmt: str, shape: Shape | None) -> Puzzle:
    cells: list[int] = []
    size = 0
    first_line = last_line = 0
    for count, (number, text) in enumerate(rows, start=1):
        if fmt == "spaced":
            symbols = [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", text)]
        else:
            symbols = [(s, i + 1) for i, s in enumerate(text)]
        if count == 1:
            size, first_line = len(symbols), number
            if fmt == "compact" and size > 9:
                raise InputError(f"{size} digits in a row; compact format is for N <= 9", number)
        if count > size:
            raise InputError(f"more than {size} rows for a {size}x{size} board", number)
        if len(symbols) != size:
            raise InputError(f"row {count} has {len(symbols)} cells, expected {size}", number)
        for symbol, column in symbols:
            cells.append(_grid_value(symbol, size, number, column))
        last_line = number
    rows_read = len(cells) // size if size else 0
    if rows_read != size:
        raise InputError(f"{rows_read} rows, expected {size} for a {size}x{size} board", last_line)
    board_shape = _shape_for(size, shape, first_line)
    return Puzzle(Board(board_shape, tuple(cells)), first_line, fmt)


def _grid_value(symbol: str, size: int, number: int, column: int) -> int:
    if symbol.isdigit():
        value = int(symbol)
        if value > size:
            raise InputError(f"value {value} is outside 1..{size}", number, column)
        return value
    if symbol == ".":
        return 0
    raise InputError(f"{symbol!r} is not a digit, a letter or '.'", number, column)
