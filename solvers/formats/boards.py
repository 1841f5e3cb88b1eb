"""The package's front, moved out of its ``__init__`` (see there)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from solvers.base.errors import InputError, UsageError
from solvers.formats import fpuzzles_link, variant_text
from solvers.formats.grids import SECTIONS, parse_grid
from solvers.formats.lines import MAX_LINE, SQUARES, parse_line
from solvers.formats.source import UNREAD, Refused, Source
from solvers.formats.source import under_unread_rules as _under_unread_rules
from solvers.formats.symbols import SYMBOL_OF, SYMBOLS
from solvers.model.board import Board
from solvers.model.geometry import MAX_SIZE, MIN_SIZE, Shape

__all__ = [
    "FORMATS",
    "SYMBOLS",
    "UNREAD",
    "LineReader",
    "Puzzle",
    "format_board",
    "format_puzzle",
    "line_start",
    "parse",
    "read_puzzles",
]

FORMATS = ("spaced", "compact", "line", "fpuzzles")
_HEADER = re.compile(r"[A-Za-z_ ]+([:,][A-Za-z_ ]*)+")  # a CSV header: quizzes,solutions
# What a plain grid's row or a classic line puzzle is written with: a line of these alone is
# no link (f-puzzles, SudokuPad, ISS: each has letters) and no section (``NAME:``).
_GRID_SYMBOLS = frozenset("0123456789. \t")


@dataclass(frozen=True)
class Puzzle:
    """One puzzle read from a source: where it starts, in which format, and any known answer."""

    board: Board
    line: int
    format: str
    known_solution: Board | None = None
    meta: tuple[tuple[str, str], ...] = ()  # an f-puzzles title, author, ruleset
    ignored: tuple[str, ...] = ()  # f-puzzles drawings that set no rule, left out
    link: str = fpuzzles_link.URL  # an f-puzzles answer's link starts so: a SudokuPad link's own
    notes: tuple[str, ...] = ()  # what a user must know to read its answer (an ISS grid from 0)


def read_puzzles(
    lines: Iterable[str], fmt: str = "auto", shape: Shape | None = None
) -> Iterator[Puzzle | InputError]:
    """Yield each puzzle of ``lines``, or the InputError (with its line) of one that is bad.

    A bad line of a line-format file does not stop the others. Only what is needed is read:
    a line-format source is consumed one line at a time.
    """
    if fmt not in ("auto", *FORMATS):
        yield InputError(f"unknown format {fmt!r}; choose from auto, {', '.join(FORMATS)}")
        return
    _check_arguments(lines, shape)
    source = Source(lines)
    first = yield from _first_content(source)
    if first is None:
        left = source.leftover()
        yield from left or ([] if source.refused else [InputError("empty input")])
        return
    number, text = first
    if fmt == "auto" and _is_csv_header(text):
        first = yield from _first_content(source)  # a CSV header: Kaggle's "quizzes,solutions"
        if first is None:
            yield source.error or InputError("no puzzle after the header line", number)
            return
        number, text = first
    fmt = _format_of(source, text) if fmt == "auto" else fmt
    if fmt == "fpuzzles" and shape is not None:  # not silently ignored: say so, read nothing
        yield InputError(f"box {shape} given, but an f-puzzles puzzle sets its own size", number)
    elif fmt == "fpuzzles":
        yield from _fpuzzles_puzzles(source, (number, text))
    elif fmt == "line":
        yield from _line_puzzles(source, (number, text), shape)
    else:
        yield from source.take_problems()  # a rules line above the grid that cannot be read
        try:
            if refused := _under_unread_rules(source.rules, number):
                raise refused
            source.in_grid = True
            rows = source.block((number, text), "a grid")
            board, start = parse_grid(rows, fmt, shape, source.rules)
            problems = source.leftover()
            yield problems[0] if problems else Puzzle(board, start, fmt)
        except InputError as error:
            yield error


def _first_content(source: Source):
    """The first content line (None: there is none), each line refused before it yielded as
    soon as it is read (``source.refused`` counts them: a source of refused lines alone is no
    empty input)."""
    while (first := source.next_content(eager=True)) is not None and not first[1]:
        problems = source.take_problems()
        source.refused += len(problems)
        yield from problems
    return first


# A grid is chosen by its first content line only when that line can be a grid's row (or a
# section): a short junk line ("hello", "574") at the top of a line file is that line's error,
# not a grid that swallows the file. The lines after it tell, up to this many.
LOOK_AHEAD = 64


def _format_of(source: Source, text: str) -> str:
    """The format of a source whose first content line is ``text``: ``detect``'s, or, when
    that line can be no puzzle's start, the format of the first line after it that can be
    (the line format when none can), the lines read ahead read again."""
    if found := detect(text):
        return found
    ahead = source.look_ahead(lambda line: detect(line) is not None, LOOK_AHEAD)
    return (detect(ahead[-1][1]) if ahead else None) or "line"


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
    """The board's cells written in ``fmt``: rows joined by newlines, or a single line."""
    if fmt == "line":
        return "".join(map(SYMBOL_OF.__getitem__, board.cells))
    if fmt == "compact":
        if board.size > 9:
            raise InputError(
                f"compact format holds boards up to 9x9, not {board.size}x{board.size}"
            )
        return "\n".join("".join(map(str, row)) for row in board.rows())
    if fmt == "spaced":
        return "\n".join(" ".join(map(str, row)) for row in board.rows())
    if fmt == "fpuzzles":
        from solvers.formats import fpuzzles

        return fpuzzles.link(board)
    raise InputError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")


def format_puzzle(board: Board) -> str:
    """The puzzle as a line with its variant's fields: what reads back as the same puzzle
    after its rules header."""
    extra = variant_text.fields(board.rules, board.size)
    return format_board(board, "line") + (f" {extra}" if extra else "")


def detect(text: str) -> str | None:
    """The format of a source from its first content line; None when that line can be no
    puzzle's start: a short junk line ("hello", "574") that is no spaced or compact grid's
    first row."""
    if not _GRID_SYMBOLS.issuperset(text):  # digits and dots alone are no link, no section
        if fpuzzles_link.looks_like(text):
            return "fpuzzles"
        if _section(text):
            return "spaced"  # a killer grid left out: its map comes first
    words = text.split()
    if len(words[0]) >= min(SQUARES) or _first_field(words[0]) != words[0]:
        return "line"  # a grid row holds at most 9 digits or a few-digit number
    if len(words) == 1:
        row = MIN_SIZE <= len(text) <= 9 and all(c in "0123456789." for c in text)
        return "compact" if row else None
    row = MIN_SIZE <= len(words) <= MAX_SIZE and all(
        word == "." or (word.isascii() and word.isdigit()) for word in words
    )
    return "spaced" if row else None


def _line_puzzles(source: Source, first: tuple[int, str], shape: Shape | None):
    yield from source.take_problems()
    for number, text in source.chain(first, eager=True):
        yield from source.take_problems()
        if text:
            yield _line_item(text, number, shape, source.rules)
    yield from source.leftover()


def _line_item(
    text: str, number: int, shape: Shape | None, rules: frozenset[str]
) -> Puzzle | InputError:
    if refused := _under_unread_rules(rules, number):
        return refused
    if fpuzzles_link.looks_like(text):
        from solvers.formats import sigh

        form = "an ISS" if sigh.looks_like(text) else "an f-puzzles"
        message = f"{form} puzzle in a file of line puzzles (its first puzzle says which)"
        return InputError(f"{message}: put the links in a file of their own", number)
    if len(text) > MAX_LINE:
        said = f"{len(text):,} characters: no line puzzle is longer than {MAX_LINE:,}"
        return InputError(said, number)
    try:
        board, known = parse_line(text, number, shape, rules)
        return Puzzle(board, number, "line", known)
    except InputError as error:
        return error


def _fpuzzles_puzzles(source: Source, first: tuple[int, str]):
    """f-puzzles puzzles, one a line (or a JSON document over several): each read alone."""
    from solvers.formats import fpuzzles

    yield from source.take_problems()
    source.whole = True  # a JSON document is read whole, or refused whole
    for number, text in fpuzzles_link.entries(source.chain_indented(first)):
        yield from source.take_problems()
        if isinstance(text, Refused):
            yield text.error
            continue
        if source.rules:
            yield InputError(
                "a '# rules:' line is no f-puzzles puzzle's: its rules are its own", number
            )
            continue
        try:
            found = fpuzzles.read(text, number)
        except InputError as error:  # a part read deeper (the board's size, say) names no line
            yield error if error.line is not None else error.at_line(number)
            continue
        yield Puzzle(
            found.board,
            number,
            found.form,
            found.solution,
            found.meta,
            found.ignored,
            found.link,
            found.notes,
        )
    yield from source.leftover()


def line_start(lines: Iterable[str], fmt: str = "auto") -> int | None:
    """Where the puzzles of a line-format source start: the number of its CSV header line
    (skipped), or 0 when it has none; None when the source is not in the line format or
    holds no puzzle (``read_puzzles`` then says why)."""
    if fmt not in ("auto", "line"):
        return None
    source = Source(lines)
    first = source.next_content()
    skip = 0
    if first is not None and fmt == "auto" and _is_csv_header(first[1]):
        skip, first = first[0], source.next_content()
    if first is None or (fmt == "auto" and _format_of(source, first[1]) != "line"):
        return None
    return skip


class LineReader:
    """``read_puzzles`` for a line-format source, one raw line at a time (as a text file
    yields it, line ending included), from any line on: what it yields for that line, given
    the ``# rules:`` in force. For a reader that takes a file in pieces."""

    def __init__(self, shape: Shape | None = None, rules: frozenset[str] = frozenset()) -> None:
        self.shape = shape
        self._source = Source(())
        self._source.rules = rules

    @property
    def rules(self) -> frozenset[str]:
        """The rules in force after the lines read so far."""
        return self._source.rules

    @property
    def error(self) -> InputError | None:
        """Why reading stopped (a UTF-16 file): nothing after it counts."""
        return self._source.error

    def read(self, number: int, raw: str) -> list[Puzzle | InputError]:
        """What line ``number`` gives: nothing (blank, comment, rules), a puzzle, or errors."""
        source = self._source
        text = source._content(number, raw)
        found: list[Puzzle | InputError] = source.take_problems()
        if text and source.error is None:
            found.append(_line_item(text, number, self.shape, source.rules))
        return found


def _section(text: str) -> bool:
    key, colon, _rest = text.partition(":")
    return bool(colon) and key.strip().lower() in SECTIONS


def _is_csv_header(text: str) -> bool:
    return (
        bool(_HEADER.fullmatch(text))
        and not _section(text)
        and len(_first_field(text)) not in SQUARES
    )


def _first_field(text: str) -> str:
    return re.split(r"[:,]", text, maxsplit=1)[0].strip()


def _check_arguments(lines: object, shape: object) -> None:
    """UsageError for what read_puzzles cannot read lines from: one str or bytes (it would
    read each character as a line), a value that is no iterable, a shape that is no Shape."""
    if isinstance(lines, str | bytes | bytearray):
        raise UsageError(
            f"read_puzzles reads lines (an open file, a list of str), not one "
            f"{type(lines).__name__}: open the file, or pass text.splitlines()"
        )
    if not isinstance(lines, Iterable):
        raise UsageError(
            f"read_puzzles reads lines (an open file, a list of str), not {type(lines).__name__}"
        )
    if shape is not None and not isinstance(shape, Shape):
        raise UsageError(f"shape must be a Shape such as Shape(2, 3), not {shape!r}")
