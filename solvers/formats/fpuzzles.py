"""f-puzzles puzzles in the project's model and back, one f-puzzles key at a time.

What maps (``KEYS`` reads a key; ``to_json`` writes the model back in the same shapes):

    size                       the board's side: 4..16, boxes as f-puzzles draws them (2x3 on
                               6x6, 2x4 on 8x8, ...); on 5, 7, 11, 13 its regions are the rows
    grid: given + value        the givens (values the solver typed in are not rules: left out)
    grid: region               jigsaw regions, when they differ from the default boxes
    grid: givenPencilMarks     a candidates constraint on a cell that is not a given
    diagonal+ and diagonal-    a diagonal constraint each (both: an X sudoku)
    extraregion                an extraregion constraint each (windoku's windows among them)
    killercage                 a killercage constraint each, with or without its total
    the vocabulary's kinds     a constraint each (``fpuzzles_kinds``), and the negative
                               constraints of the dots (``fpuzzles_negative``)
    title, author, ruleset     metadata;  solution: the known solution
    cage with text DR<n>       a multisumcage (a digital root cage, as dclamage/SudokuSolver
                               reads a drawn cage)
    line, circle, rectangle, text, cage     drawings: ignored, and named in ``FPuzzle.ignored``

Any other key with a value is an InputError naming it: a puzzle is refused rather than solved
without one of its rules; so is a constraint f-puzzles cannot say when writing one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from solvers.base.errors import InputError
from solvers.formats import fpuzzles_kinds, fpuzzles_link, fpuzzles_negative
from solvers.formats.fpuzzles_parts import (
    FPuzzle,
    Reading,
    cells,
    entries,
    name,
    names,
    number,
    unwritable,
)
from solvers.formats.lines import at_line
from solvers.model.board import Board
from solvers.model.constraints.model import Constraint
from solvers.model.geometry import Shape
from solvers.model.variants import Rules

MIN_SIZE, MAX_SIZE = 4, 16  # f-puzzles' own range is 3..16; the project's boards start at 4
COSMETIC = ("line", "circle", "rectangle", "text", "cage")
# The app's settings and what the other keys say about the puzzle, not about its rules.
SETTINGS = ("size", "grid", "title", "author", "ruleset", "solution", "highlightConflicts")
SETTINGS += ("disabledlogic", "truecandidatesoptions")
META = ("title", "author", "ruleset")
# What a cell may hold besides its given: the solver's own digits, notes and colours, and the
# setter's pencil marks and parity (read apart: ``_pencil_marks``, ``cell_parity``).
CELL_NOTES = ("value", "given", "region", "c", "cArray", "highlight")
CELL_NOTES += ("centerPencilMarks", "cornerPencilMarks", "candidates", "givenPencilMarks")
CELL_NOTES += ("parity",)
MARKS = "givenPencilMarks"  # the setter's marks: rules (the solver's own notes are not)


def read(text: str, line: int | None = None) -> FPuzzle:
    """The puzzle of an f-puzzles link, bare payload, SudokuPad link or JSON text (or of the
    JSON record ``sudoku convert --to json`` writes), or of an Interactive Sudoku Solver
    constraint string or link (answered as line puzzles: no writer of that form here)."""
    from solvers.formats import sigh

    if sigh.looks_like(text):
        board, least = sigh.read_with_least(text, line)
        return FPuzzle(board, form="line", notes=() if least else (sigh.FROM_ZERO_NOTE,))
    if fpuzzles_link.line_puzzle(text.strip().split(":")[0].split(",")[0].split(" ")[0]):
        # said as what it is, not as a payload with a '.' base64 never holds
        message = "a line puzzle in a file of f-puzzles or ISS puzzles (its first puzzle says"
        raise InputError(f"{message} which): put the line puzzles in a file of their own", line)
    data = fpuzzles_link.decode(text, line)
    if "puzzle" in data and "grid" not in data:
        from solvers.formats.records import from_record

        return from_record(data, line)
    found = from_json(data, line)
    start = fpuzzles_link.answer_start(text)
    return found if start == found.link else replace(found, link=start)


def from_json(data: dict[str, Any], line: int | None = None) -> FPuzzle:
    """The puzzle of an f-puzzles JSON object; InputError for any rule it cannot keep."""
    shape = _shape(data.get("size"), line)
    givens, regions = _grid(data.get("grid"), shape, line)
    labels = regions or tuple(_default_regions(shape.size))
    reading, ignored = Reading(shape, line, labels, jigsaw=regions is not None), []
    _pencil_marks(data["grid"], givens, reading)
    fpuzzles_kinds.cell_parity(data["grid"], reading)
    for key, value in data.items():
        if key in SETTINGS or _empty(value):
            continue
        if key in COSMETIC:
            if key != "cage" or _digital_root_cages(reading, value):
                ignored.append(key)
        elif key in KEYS:
            KEYS[key](reading, key, value)
        else:
            raise reading.refuse(key, "no rule of the project reads it, so the puzzle is refused")
    found = fpuzzles_kinds.check(reading)
    dots = [c for c in found if c.kind in ("difference", "ratio", "xv")]
    rules = Rules(regions, tuple(found + fpuzzles_negative.constraints(reading, dots)))
    board = at_line(lambda: Board(shape, givens, rules), line)
    meta = tuple((key, str(data[key])) for key in META if data.get(key))
    return FPuzzle(board, _solution(data.get("solution"), board), meta, tuple(ignored))


def to_json(
    board: Board, solution: Board | None = None, meta: tuple[tuple[str, str], ...] = ()
) -> dict[str, Any]:
    """The f-puzzles JSON of a board, its solution's values filled in when one is given;
    InputError for a constraint f-puzzles cannot say."""
    n = board.size
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise InputError(
            f"a {n}x{n} board cannot be written as f-puzzles, whose boards go from "
            f"{MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE}x{MAX_SIZE} (write it --to line, --to text "
            "or --to json)"
        )
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
    for constraint in board.rules.constraints:
        if constraint.kind == "candidates":
            _write_marks(data["grid"], constraint, n)
        else:
            _merge(data, _write_constraint(board, constraint))
    return data | fpuzzles_negative.write(board)


def link(
    board: Board,
    solution: Board | None = None,
    meta: tuple[tuple[str, str], ...] = (),
    start: str = fpuzzles_link.URL,
) -> str:
    """The f-puzzles link of a board (and its solution's values), or the SudokuPad link of
    the form whose ``start`` is given (``fpuzzles_link.answer_start``)."""
    return fpuzzles_link.encode(to_json(board, solution, meta), start)


# -- reading, key by key ------------------------------------------------------------------


def _extraregion(reading: Reading, key: str, value: Any) -> None:
    for part in entries(value, reading, key):
        reading.add(key, "extraregion", tuple(cells(part, reading, key)))


def _killercage(reading: Reading, key: str, value: Any) -> None:
    for part in entries(value, reading, key):
        found = tuple(cells(part, reading, key))
        total = part.get("value")
        if total is None or str(total).strip() == "":
            reading.add(key, "killercage", found)
        else:
            where = name(found[0], reading.size)
            reading.add(key, "killercage", found, total=number(part, reading, key, where))


DIGITAL_ROOT = re.compile(r"DR([0-9]+)")


def _digital_root_cages(reading: Reading, value: Any) -> bool:
    """Read each drawn cage whose text is ``DR<n>`` as a multisumcage, as dclamage/SudokuSolver's
    ``SolverFactory.cs`` does (its totals: n, n + 9, ... that its cell count reaches); whether
    some cage is a drawing only."""
    drawings = not isinstance(value, list)
    for part in value if isinstance(value, list) else ():
        found = part.get("cells") if isinstance(part, dict) else None
        root = DIGITAL_ROOT.search(str(part.get("value") or "")) if found else None
        if root is None or not isinstance(found, list) or len(found) > reading.size:
            drawings = True
            continue
        found = tuple(cells(part, reading, "cage"))
        totals = _roots(int(root[1]), len(found), reading.size)
        # no total in reach: the cage's values still differ (dclamage's cage with no sums)
        kind, more = ("multisumcage", {"totals": totals}) if totals else ("killercage", {})
        reading.add("cage", kind, found, **more)
    return drawings


def _roots(root: int, count: int, n: int) -> tuple[int, ...]:
    """The totals a cage of ``count`` different values 1..n reaches with that digital root."""
    rest = n - count
    low, high = count * (count + 1) // 2, n * (n + 1) // 2 - rest * (rest + 1) // 2
    return tuple(total for total in range(root, high + 1, 9) if total >= low)


Reader = Callable[[Reading, str, Any], None]
KEYS: dict[str, Reader] = {
    "extraregion": _extraregion,
    "killercage": _killercage,
    "nonconsecutive": fpuzzles_negative.read_nonconsecutive,
    "negative": fpuzzles_negative.read_negative,
} | fpuzzles_kinds.KEYS


# -- writing, rule by rule ----------------------------------------------------------------


def _write_constraint(board: Board, constraint: Constraint) -> dict[str, Any]:
    """A constraint's key and entry: extra regions and killer cages here, the negative
    constraints together (``fpuzzles_negative``), the rest by ``fpuzzles_kinds``."""
    n = board.size
    if constraint.kind == "extraregion":
        return {"extraregion": [{"cells": names(constraint.cells, n)}]}
    if constraint.kind == "killercage":
        total = constraint.param("total")
        value = {} if total is None else {"value": str(total)}
        return {"killercage": [{"cells": names(constraint.cells, n)} | value]}
    if constraint.kind == "multisumcage":
        totals, count = constraint.param("totals"), len(constraint.cells)
        root = next((r for r in range(1, 10) if _roots(r, count, n) == totals), None)
        if root is None:
            raise unwritable(constraint, n, "has totals no digital root gives")
        return {"cage": [{"cells": names(constraint.cells, n), "value": f"DR{root}"}]}
    if constraint.kind.startswith("negative-") or constraint.kind == "non-consecutive":
        return {}
    key, entries = fpuzzles_kinds.write(board, constraint)
    return {key: entries}


def _pencil_marks(grid: list, givens: tuple[int, ...], reading: Reading) -> None:
    """A cell's given pencil marks restrict it to those values, as dclamage/SudokuSolver's
    ``SolverFactory.cs`` reads them (``KeepMask``); a given cell's marks say nothing more."""
    n = reading.size
    for index, given in enumerate(givens):
        marks = grid[index // n][index % n].get(MARKS)
        if given or _empty(marks):
            continue
        if not isinstance(marks, list):
            raise reading.refuse(MARKS, f"the marks of {name(index, n)} are not a list of values")
        reading.add(MARKS, "candidates", (index,), values=tuple(marks))


def _write_marks(grid: list, constraint: Constraint, n: int) -> None:
    cell = grid[constraint.cells[0] // n][constraint.cells[0] % n]
    if MARKS in cell:  # f-puzzles holds one set of marks a cell
        raise unwritable(constraint, n, "is a second set")
    if cell.get("given"):  # f-puzzles (and dclamage) ignore a given cell's marks
        raise unwritable(constraint, n, "marks a given cell, whose marks f-puzzles ignores")
    cell[MARKS] = list(constraint.param("values"))


def _merge(data: dict[str, Any], more: dict[str, Any]) -> None:
    """Add keys to the JSON, a list key's entries after those already there."""
    for key, value in more.items():
        data[key] = data.get(key, []) + value if isinstance(value, list) else value


# -- the parts every key shares --------------------------------------------------------------


def _shape(size: Any, line: int | None) -> Shape:
    if isinstance(size, bool) or not isinstance(size, int):
        raise InputError(f"the f-puzzles puzzle's size is {str(size)[:20]!r}, not a number", line)
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise InputError(f"f-puzzles size {size} is outside {MIN_SIZE}..{MAX_SIZE}", line)
    return Shape.for_size(size)  # a prime size: 1 x N, no boxes (see _default_regions)


def _default_regions(n: int) -> list[int]:
    """Each cell's region when the grid names none: its box, numbered as f-puzzles does.
    f-puzzles draws boxes h rows high, h the largest divisor of N up to its square root (its
    ``sizes`` table), so a prime N gets 1 x N regions, the rows: ``Shape.for_size``'s shapes."""
    shape = Shape.for_size(n)
    rows, cols = shape.box_rows, shape.box_cols
    return [(i // n // rows) * rows + (i % n) // cols for i in range(n * n)]


def _grid(
    grid: Any, shape: Shape, line: int | None
) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """The givens and (when they are not the boxes) the regions of the grid's cells."""
    n = shape.size
    if not isinstance(grid, list) or len(grid) != n:
        rows = len(grid) if isinstance(grid, list) else "no"
        raise InputError(f"the f-puzzles grid has {rows} rows, expected {n}", line)
    givens, labels = [], []
    default = _default_regions(n)
    for r, row in enumerate(grid):
        if not isinstance(row, list) or len(row) != n:
            raise InputError(f"row {r + 1} of the f-puzzles grid is not {n} cells", line)
        for c, cell in enumerate(row):
            where = f"{name(r * n + c, n)} of the f-puzzles grid"
            if not isinstance(cell, dict):
                raise InputError(f"{where} is not an object", line)
            givens.append(_given(cell, n, where, line))
            labels.append(_region(cell, default[r * n + c], where, line))
    if labels == default and shape.has_boxes:  # a prime N's rows stay its regions
        return tuple(givens), None
    return tuple(givens), tuple(labels)  # numbered as the model numbers them: Rules does


def _given(cell: dict[str, Any], n: int, where: str, line: int | None) -> int:
    unknown = [key for key in cell if key not in CELL_NOTES and not _empty(cell[key])]
    if unknown:
        raise InputError(
            f"{where}: key {unknown[0]!r} is not a rule the project reads, so the puzzle is "
            "refused",
            line,
        )
    given = cell.get("given", False)
    if not isinstance(given, bool):  # "false" is a string, and true: say so, never guess
        raise InputError(f"{where}: given is {str(given)[:12]!r}, not true or false", line)
    if not given:
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


def _empty(value: Any) -> bool:
    """A key whose value sets no rule: false, null, or an empty list, text or object."""
    return value is None or value is False or (isinstance(value, list | str | dict) and not value)
