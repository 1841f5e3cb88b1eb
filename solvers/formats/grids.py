"""One board written as a grid: N rows of N whitespace-separated numbers (``spaced``, BOJ
2580) or of N digits (``compact``, BOJ 2239, N <= 9), and a variant's sections after it: a
line ``NAME:`` for each name of ``variant_text.FIELDS`` (the region map, killer's map and its
sums, each read as ``variant_text`` says) followed by its rows, and ``constraints:`` followed
by one constraint of the vocabulary a line (``thermometer r1c1 r1c2 r2c3``).

A killer puzzle without givens may leave the grid out.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable

from solvers.base.errors import InputError
from solvers.formats import variant_text
from solvers.formats.lines import at_line, shape_for
from solvers.formats.symbols import describe
from solvers.model.board import Board
from solvers.model.geometry import MAX_SIZE, Shape

SECTIONS = (*variant_text.FIELDS, "constraints")


def parse_grid(
    rows: Iterable[tuple[int, str]], fmt: str, shape: Shape | None, names: frozenset[str]
) -> tuple[Board, int]:
    """The board of the grid ``rows`` (numbered lines) under the rules ``names``, and the
    line it starts on."""
    grid, sections, first = _split(rows)
    tokens = [(n, _tokens(text, fmt)) for n, text in grid]
    for n, row in tokens:  # a symbol that is no number is named before any count is blamed
        for token, column in row:
            _number(token, MAX_SIZE, n, column)
    size = _size(tokens, sections, fmt, first)
    cells = [_number(tok, size, n, col) for n, row in tokens for tok, col in row] or [0] * size**2
    board_shape = shape_for(size, shape, first)
    fields = {key: [text for _, text in found] for key, found in sections.items()}
    rules = variant_text.build_rules(names, board_shape, fields, first)
    return at_line(lambda: Board(board_shape, tuple(cells), rules), first), first


def _map_size(rows: list[str]) -> int:
    """N of a board given by its killer map alone: the map's most common row length, as for a
    grid, so that a map a row short is blamed for its rows, not its first row for its length
    (one line of N*N symbols is a map too)."""
    lengths = [len(row.split()) if len(row.split()) > 1 else len(row) for row in rows]
    if len(rows) == 1 and math.isqrt(lengths[0]) ** 2 == lengths[0]:
        return math.isqrt(lengths[0])
    return Counter(lengths).most_common(1)[0][0] if rows else 0


def _split(rows: Iterable[tuple[int, str]]):
    """The grid's lines, each section's lines (a ``sums:`` line keeps the numbers after the
    colon), and the first line's number."""
    grid: list[tuple[int, str]] = []
    sections: dict[str, list[tuple[int, str]]] = {}
    current, first = None, None
    for n, text in rows:
        first = n if first is None else first
        key, colon, rest = text.partition(":")
        if colon and key.strip().lower() in SECTIONS:
            current = key.strip().lower()
            if current in sections:
                raise InputError(f"a second {current}: section", n)
            sections[current] = [(n, rest.strip())] if rest.strip() else []
        elif current is None:
            grid.append((n, text))
        else:
            sections[current].append((n, text))
    return grid, sections, first or 1


def _tokens(text: str, fmt: str) -> list[tuple[str, int]]:
    """The row's symbols with their columns."""
    if fmt == "spaced":
        return [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", text)]
    return [(s, i + 1) for i, s in enumerate(text)]


def _number(token: str, size: int, line: int, column: int) -> int:
    """The value of a token of the grid: an ASCII integer, or ``.``."""
    if token == ".":
        return 0
    if not (token.isascii() and token.isdigit()):
        raise InputError(f"{describe(token)} is not a digit, a letter or '.'", line, column)
    if len(token.lstrip("0")) > 6:  # int() refuses thousands of digits; none is a value
        said = f"value {token[:12]}... ({len(token)} digits) is no cell's value"
        raise InputError(said, line, column)
    found = int(token)
    if found > size:
        raise InputError(f"value {found} is outside 1..{size}", line, column)
    return found


def _size(tokens: list, sections: dict, fmt: str, first: int) -> int:
    """N: the most common row length (a killer puzzle with no grid takes its killer map's),
    and every row checked against it, so that the row that differs is the one blamed."""
    if not tokens:
        if variant_text.KILLER_MAP not in sections:
            raise InputError("empty input")
        return _map_size([text for _, text in sections[variant_text.KILLER_MAP]])
    size = Counter(len(row) for _, row in tokens).most_common(1)[0][0]
    if fmt == "compact" and size > 9:
        raise InputError(f"{size} digits in a row; compact format is for N <= 9", tokens[0][0])
    for count, (n, row) in enumerate(tokens, start=1):
        if count > size:
            raise InputError(f"more than {size} rows for a {size}x{size} board", n)
        if len(row) != size:
            raise InputError(f"row {count} has {len(row)} cells, expected {size}", n)
    if len(tokens) != size:
        raise InputError(
            f"{len(tokens)} rows, expected {size} for a {size}x{size} board", tokens[-1][0]
        )
    return size
