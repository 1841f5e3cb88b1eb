"""The pieces every f-puzzles key is made of, read and written: cell names (``R1C2``, and the
ring of clue cells just outside the grid, ``R0C3`` to ``R10C3`` on 9x9), a key's list of
entries, an entry's cells or lines, a clue's value; and ``Reading``, what one puzzle's keys
have said so far; ``FPuzzle``, a puzzle read."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from solvers.base.errors import InputError
from solvers.formats import fpuzzles_link
from solvers.model.board import Board
from solvers.model.cells import cell_name
from solvers.model.constraints.model import Constraint
from solvers.model.geometry import Shape

# ASCII digits: \d matches any script's
_CELL = re.compile(r"R([0-9]{1,3})C([0-9]{1,3})", re.IGNORECASE)
_NUMBER = re.compile(r"[0-9]{1,6}")


@dataclass
class Reading:
    """The rules found so far in one puzzle's keys. ``regions`` is each cell's region (the
    default boxes or the grid's own), read before any key, as region sum lines need it."""

    shape: Shape
    line: int | None
    regions: tuple[int, ...]
    jigsaw: bool = False
    constraints: list[tuple[str, Constraint]] = field(default_factory=list)
    nonconsecutive: bool = False
    negative: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return self.shape.size

    def refuse(self, key: str, why: str) -> InputError:
        return InputError(f"f-puzzles key {key!r}: {why}", self.line)

    def add(self, key: str, kind: str, cells: tuple[int, ...] = (), **params: Any) -> None:
        self.constraints.append((key, Constraint(kind, cells, tuple(params.items()))))


def entries(value: Any, reading: Reading, key: str) -> list[dict[str, Any]]:
    """A key's list of objects (one a constraint, or one a group of lines)."""
    if not isinstance(value, list) or not all(isinstance(part, dict) for part in value):
        raise reading.refuse(key, "expected a list of objects")
    return value


def cell(name: Any, reading: Reading, key: str) -> int:
    """The cell a name such as ``R1C2`` names, inside the grid."""
    n = reading.size
    row, col = _row_col(name)
    if not (1 <= row <= n and 1 <= col <= n):
        raise reading.refuse(key, f"{str(name)[:12]!r} is not a cell of the {n}x{n} grid")
    return (row - 1) * n + col - 1


def cells(part: dict[str, Any], reading: Reading, key: str, field: str = "cells") -> list[int]:
    names = part.get(field)
    if not isinstance(names, list) or not names:
        raise reading.refuse(key, f"an entry with no {field}")
    return [cell(name, reading, key) for name in names]


def lines(part: dict[str, Any], reading: Reading, key: str) -> list[tuple[int, ...]]:
    """The lines of one entry (f-puzzles groups a thermometer's branches in one entry)."""
    found = part.get("lines")
    if not isinstance(found, list) or not found or not all(isinstance(x, list) for x in found):
        raise reading.refuse(key, "an entry with no lines")
    if not all(found):
        raise reading.refuse(key, "an entry with an empty line")
    return [tuple(cell(name, reading, key) for name in line) for line in found]


def outside(name: Any, reading: Reading, key: str, corner: bool = False) -> tuple[int, int]:
    """The (row, column), counted from 1, of a clue cell in the ring just outside the grid:
    row or column 0 or N+1, the other inside (or outside too, at a ``corner``)."""
    n = reading.size
    row, col = _row_col(name)
    inside_row, inside_col = 1 <= row <= n, 1 <= col <= n
    in_ring = 0 <= row <= n + 1 and 0 <= col <= n + 1 and not (inside_row and inside_col)
    if not in_ring or not (corner or inside_row or inside_col):
        raise reading.refuse(key, f"{str(name)[:12]!r} is not a clue cell outside the grid")
    return row, col


def number(part: dict[str, Any], reading: Reading, key: str, where: str) -> int:
    """An entry's ``value``, a whole number (f-puzzles writes it as text)."""
    value = part.get("value")
    text = str(value).strip() if value is not None and not isinstance(value, bool) else ""
    if not text:
        raise reading.refuse(key, f"the clue at {where} has no value")
    if not _NUMBER.fullmatch(text):
        raise reading.refuse(key, f"the clue at {where} has value {text[:12]!r}, not a number")
    return int(text)


def name(cell: int, n: int) -> str:
    """How f-puzzles names a cell: ``R1C2``."""
    return f"R{cell // n + 1}C{cell % n + 1}"


def names(cells: tuple[int, ...] | list[int], n: int) -> list[str]:
    return [name(c, n) for c in cells]


def unwritable(constraint: Constraint, n: int, why: str) -> InputError:
    """The error of a constraint f-puzzles cannot say as the model means it, naming its kind
    and first cell."""
    first = f" at {cell_name(constraint.cells[0], n)}" if constraint.cells else ""
    return InputError(
        f"{constraint.kind}{first} {why}: it cannot be written as f-puzzles (write it --to "
        "line, --to text or --to json)"
    )


def _row_col(name: Any) -> tuple[int, int]:
    match = _CELL.fullmatch(str(name).strip())
    return (int(match.group(1)), int(match.group(2))) if match else (-1, -1)


@dataclass(frozen=True)
class FPuzzle:
    """An f-puzzles puzzle read: the board, its known solution, metadata, drawings left out."""

    board: Board
    solution: Board | None = None
    meta: tuple[tuple[str, str], ...] = ()
    ignored: tuple[str, ...] = ()
    form: str = "fpuzzles"  # "line" for the project's own JSON record (``records.from_record``)
    link: str = fpuzzles_link.URL  # what its answer's link starts with (``answer_start``)
    notes: tuple[str, ...] = ()  # what a user must know to read its answer (an ISS grid from 0)
