"""f-puzzles puzzles in the project's model and back, one f-puzzles key at a time.

What maps today (``KEYS`` reads a key, ``WRITERS`` writes it back):

    size                       the board's side: 4..16, boxes as f-puzzles draws them (2x3 on
                               6x6, 2x4 on 8x8, ...); on 5, 7, 11, 13 its regions are the rows
    grid: given + value        the givens (values the solver typed in are not rules: left out)
    grid: region               jigsaw regions, when they differ from the default boxes
    diagonal+ and diagonal-    x (both diagonals; one alone is refused)
    extraregion                windoku, when the extra regions are exactly its windows
    killercage                 killer cages with their totals (a cage with no total is refused)
    title, author, ruleset     metadata;  solution: the known solution
    line, circle, rectangle, text, cage     drawings: ignored, and named in ``FPuzzle.ignored``

Any other key with a value is an InputError naming it: a puzzle is refused rather than solved
without one of its rules. A new kind is one row of ``KEYS`` and one of ``WRITERS``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from solvers.board import Board, Shape
from solvers.errors import InputError
from solvers.formats import fpuzzles_link
from solvers.formats.lines import at_line
from solvers.variants import Cage, Rules, window_units

MIN_SIZE, MAX_SIZE = 4, 16  # f-puzzles' own range is 3..16; the project's boards start at 4
COSMETIC = ("line", "circle", "rectangle", "text", "cage")
# The app's settings and what the other keys say about the puzzle, not about its rules.
SETTINGS = ("size", "grid", "title", "author", "ruleset", "solution", "highlightConflicts")
SETTINGS += ("disabledlogic", "truecandidatesoptions")
META = ("title", "author", "ruleset")
# What a cell may hold besides its given: the solver's own digits, notes and colours.
CELL_NOTES = ("value", "given", "region", "c", "cArray", "highlight")
CELL_NOTES += ("centerPencilMarks", "cornerPencilMarks", "candidates")
_CELL = re.compile(r"R(\d{1,3})C(\d{1,3})", re.IGNORECASE)


@dataclass(frozen=True)
class FPuzzle:
    """An f-puzzles puzzle read: the board, its known solution, metadata, drawings left out."""

    board: Board
    solution: Board | None = None
    meta: tuple[tuple[str, str], ...] = ()
    ignored: tuple[str, ...] = ()


@dataclass
class _Reading:
    """The rules found so far in one puzzle's keys."""

    shape: Shape
    line: int | None
    diagonals: set[str] = field(default_factory=set)
    windows: bool = False
    cages: list[Cage] = field(default_factory=list)

    def refuse(self, key: str, why: str) -> InputError:
        return InputError(f"f-puzzles key {key!r}: {why}", self.line)


def read(text: str, line: int | None = None) -> FPuzzle:
    """The puzzle of an f-puzzles link, bare payload, SudokuPad link or JSON text."""
    return from_json(fpuzzles_link.decode(text, line), line)


def from_json(data: dict[str, Any], line: int | None = None) -> FPuzzle:
    """The puzzle of an f-puzzles JSON object; InputError for any rule it cannot keep."""
    shape = _shape(data.get("size"), line)
    reading, ignored = _Reading(shape, line), []
    for key, value in data.items():
        if key in SETTINGS or _empty(value):
            continue
        if key in COSMETIC:
            ignored.append(key)
        elif key in KEYS:
            KEYS[key](reading, key, value)
        else:
            raise reading.refuse(key, "no rule of the project reads it, so the puzzle is refused")
    if len(reading.diagonals) == 1:
        (key,) = reading.diagonals
        raise reading.refuse(key, "one diagonal alone is not a rule the project has yet (x: both)")
    cells, regions = _grid(data.get("grid"), reading)
    rules = Rules(bool(reading.diagonals), reading.windows, regions, tuple(reading.cages))
    board = at_line(lambda: Board(shape, cells, rules), line)
    meta = tuple((key, str(data[key])) for key in META if data.get(key))
    return FPuzzle(board, _solution(data.get("solution"), board), meta, tuple(ignored))


def to_json(
    board: Board, solution: Board | None = None, meta: tuple[tuple[str, str], ...] = ()
) -> dict[str, Any]:
    """The f-puzzles JSON of a board, its solution's values filled in when one is given."""
    n, shape = board.size, board.shape
    data: dict[str, Any] = {"size": n} | dict(meta)
    default, regions = _default_regions(n), board.geometry.box_of
    data["grid"] = [[{} for _ in range(n)] for _ in range(n)]
    for index, given in enumerate(board.cells):
        cell = data["grid"][index // n][index % n]
        if regions[index] != default[index]:
            cell["region"] = regions[index]
        if given:
            cell |= {"value": given, "given": True}
        elif solution is not None and solution.cells[index]:
            cell["value"] = solution.cells[index]
    for write in WRITERS:
        data |= write(board.rules, shape)
    return data


def link(
    board: Board, solution: Board | None = None, meta: tuple[tuple[str, str], ...] = ()
) -> str:
    """The f-puzzles link of a board (and its solution's values)."""
    return fpuzzles_link.encode(to_json(board, solution, meta))


def cell_name(cell: int, size: int) -> str:
    return f"R{cell // size + 1}C{cell % size + 1}"


# -- reading, key by key ------------------------------------------------------------------


def _diagonal(reading: _Reading, key: str, value: Any) -> None:
    reading.diagonals.add(key)


def _extraregion(reading: _Reading, key: str, value: Any) -> None:
    shape = reading.shape
    found = {frozenset(_cells(part, reading, key)) for part in _parts(value, reading, key)}
    windows = set()
    if shape.box_rows == shape.box_cols:
        windows = {frozenset(w) for w in window_units(shape.box_rows, shape.box_cols)}
    if found != windows:
        raise reading.refuse(
            key, "extra regions other than the windoku windows are not a rule the project has yet"
        )
    reading.windows = True


def _killercage(reading: _Reading, key: str, value: Any) -> None:
    for part in _parts(value, reading, key):
        cells = _cells(part, reading, key)
        total = part.get("value")
        where = cell_name(cells[0], reading.shape.size)
        if total is None or str(total).strip() == "":
            raise reading.refuse(
                key, f"the cage at {where} has no total: the project's cages carry one"
            )
        if not re.fullmatch(r"\d{1,6}", str(total).strip()):
            raise reading.refuse(key, f"the cage at {where} has total {str(total)[:12]!r}")
        reading.cages.append(Cage(int(str(total).strip()), tuple(cells)))


Reader = Callable[[_Reading, str, Any], None]
KEYS: dict[str, Reader] = {
    "diagonal+": _diagonal,
    "diagonal-": _diagonal,
    "extraregion": _extraregion,
    "killercage": _killercage,
}


# -- writing, rule by rule ----------------------------------------------------------------


def _write_diagonals(rules: Rules, shape: Shape) -> dict[str, Any]:
    return {"diagonal+": True, "diagonal-": True} if rules.diagonals else {}


def _write_windows(rules: Rules, shape: Shape) -> dict[str, Any]:
    if not rules.windows:
        return {}
    units = window_units(shape.box_rows, shape.box_cols)
    return {"extraregion": [{"cells": _names(unit, shape.size)} for unit in units]}


def _write_cages(rules: Rules, shape: Shape) -> dict[str, Any]:
    if not rules.cages:
        return {}
    return {
        "killercage": [
            {"cells": _names(cage.cells, shape.size), "value": str(cage.total)}
            for cage in rules.cages
        ]
    }


WRITERS: tuple[Callable[[Rules, Shape], dict[str, Any]], ...] = (
    _write_diagonals,
    _write_windows,
    _write_cages,
)


# -- the parts every key shares --------------------------------------------------------------


def _shape(size: Any, line: int | None) -> Shape:
    if isinstance(size, bool) or not isinstance(size, int):
        raise InputError(f"the f-puzzles puzzle's size is {str(size)[:20]!r}, not a number", line)
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise InputError(f"f-puzzles size {size} is outside {MIN_SIZE}..{MAX_SIZE}", line)
    return Shape.for_size(size)  # a prime size: 1 x N, no boxes (see _default_regions)


def _default_regions(n: int) -> list[int]:
    """Each cell's region when the grid names none: its box, numbered as f-puzzles does.

    f-puzzles draws boxes h rows high, h the largest divisor of N up to its square root, so a
    prime N gets 1 x N regions: the rows. (Its ``sizes`` table holds these shapes; the
    fpuzzles-large-grids userscript extends it past 16 by that rule, and the in-browser solver
    for f-puzzles grids fills in missing regions by it, ``applyDefaultRegions``.)
    ``Shape.for_size`` picks the same shapes, 1 x N included.
    """
    shape = Shape.for_size(n)
    rows, cols = shape.box_rows, shape.box_cols
    return [(i // n // rows) * rows + (i % n) // cols for i in range(n * n)]


def _grid(grid: Any, reading: _Reading) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """The givens and (when they are not the boxes) the regions of the grid's cells."""
    n, line = reading.shape.size, reading.line
    if not isinstance(grid, list) or len(grid) != n:
        rows = len(grid) if isinstance(grid, list) else "no"
        raise InputError(f"the f-puzzles grid has {rows} rows, expected {n}", line)
    givens, labels = [], []
    default = _default_regions(n)
    for r, row in enumerate(grid):
        if not isinstance(row, list) or len(row) != n:
            raise InputError(f"row {r + 1} of the f-puzzles grid is not {n} cells", line)
        for c, cell in enumerate(row):
            where = f"{cell_name(r * n + c, n)} of the f-puzzles grid"
            if not isinstance(cell, dict):
                raise InputError(f"{where} is not an object", line)
            givens.append(_given(cell, n, where, line))
            labels.append(_region(cell, default[r * n + c], where, line))
    if labels == default and reading.shape.has_boxes:  # a prime N's rows stay its regions
        return tuple(givens), None
    if sorted(set(labels)) != list(range(n)):  # numbered as the model numbers them, from 0
        numbers: dict[int, int] = {}
        labels = [numbers.setdefault(label, len(numbers)) for label in labels]
    return tuple(givens), tuple(labels)


def _given(cell: dict[str, Any], n: int, where: str, line: int | None) -> int:
    unknown = [key for key in cell if key not in CELL_NOTES and not _empty(cell[key])]
    if unknown:
        raise InputError(
            f"{where}: key {unknown[0]!r} is not a rule the project reads, so the puzzle is "
            "refused",
            line,
        )
    if not cell.get("given"):
        return 0
    value = cell.get("value")
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= n:
        raise InputError(f"{where}: the given {str(value)[:12]!r} is not a value 1..{n}", line)
    return value


def _region(cell: dict[str, Any], default: int, where: str, line: int | None) -> int:
    if "region" not in cell:
        return default
    region = cell["region"]
    if region is None:
        raise InputError(f"{where} is in no region: not a rule the project has yet", line)
    if isinstance(region, bool) or not isinstance(region, int):
        raise InputError(f"{where}: region {str(region)[:12]!r} is not a number", line)
    return region


def _solution(solution: Any, board: Board) -> Board | None:
    """The puzzle's known solution, when it gives a full one (a partial one says nothing)."""
    n = board.size
    if not isinstance(solution, list) or len(solution) != n * n:
        return None
    if not all(type(v) is int and 1 <= v <= n for v in solution):
        return None
    return Board(board.shape, tuple(solution), board.rules)


def _parts(value: Any, reading: _Reading, key: str) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(part, dict) for part in value):
        raise reading.refuse(key, "expected a list of objects")
    return value


def _cells(part: dict[str, Any], reading: _Reading, key: str) -> list[int]:
    n, names = reading.shape.size, part.get("cells")
    if not isinstance(names, list) or not names:
        raise reading.refuse(key, "an entry with no cells")
    found = []
    for name in names:
        match = _CELL.fullmatch(str(name).strip())
        row, col = (int(match.group(1)), int(match.group(2))) if match else (0, 0)
        if not (1 <= row <= n and 1 <= col <= n):
            raise reading.refuse(key, f"{str(name)[:12]!r} is not a cell of the {n}x{n} grid")
        found.append((row - 1) * n + col - 1)
    return found


def _names(cells: tuple[int, ...], n: int) -> list[str]:
    return [cell_name(cell, n) for cell in cells]


def _empty(value: Any) -> bool:
    """A key whose value sets no rule: false, null, or an empty list, text or object."""
    return value is None or value is False or (isinstance(value, list | str | dict) and not value)
