"""The vocabulary's kinds as f-puzzles keys, read into constraints and written back.

Each kind's key is its ``Kind.fpuzzles``; its JSON shape is one of a few, as f-puzzles and the
new-constraints script of its solver plugin write them (read in dclamage/SudokuSolver:
``PuzzleFormats/FPuzzlesBoard.cs``, ``SolverFactory.cs``, ``UserScripts/fpuzzles-
newconstraints.js``; and SudokuPad's ``fpuzzlesdecoder.js``):

    SWITCH   "antiknight": true                                     anti-knight, anti-king,
                                                                    disjoint groups, diagonals
    CELL     "odd": [{"cell": "R1C1"}, ...]                         odd, even; minimum and
                                                                    maximum (one constraint
                                                                    of all the key's cells)
    CELLS    "rowindexer": [{"cells": ["R1C1", "R2C1"]}, ...]       the indexers, a cell each
    DOT      "ratio": [{"cells": ["R1C1", "R1C2"], "value": "3"}]   xv (value X or V),
                                                                    difference, ratio
    LINES    "thermometer": [{"lines": [["R1C1", "R1C2"], ...]}]    a constraint per line (a
                                                                    whispers entry's "value":
                                                                    its gap, Dutch whispers)
    OUTSIDE  "sandwichsum": [{"cell": "R0C3", "value": "15"}]       sandwich, X-sum, skyscraper
    and their own: arrow (``cells`` the circle, each line from a circle cell along the shaft),
    littlekillersum (``cell`` outside, ``direction`` UL/UR/DL/DR), quadruple (``values``),
    clone (``cells`` and ``cloneCells``).

The killer and extra region keys and the negative constraints are read in ``fpuzzles`` and
``fpuzzles_negative``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from itertools import pairwise
from typing import Any

from solvers.base.errors import InputError
from solvers.formats.fpuzzles_parts import (
    Reading,
    cell,
    cells,
    entries,
    lines,
    name,
    names,
    number,
    outside,
    unwritable,
)
from solvers.model.board import Board
from solvers.model.cells import neighbours
from solvers.model.constraints.dots import DOT_VALUES
from solvers.model.constraints.kinds import KINDS
from solvers.model.constraints.model import Constraint
from solvers.model.geometry import Shape

DIRECTIONS = {"UL": (-1, -1), "UR": (-1, 1), "DL": (1, -1), "DR": (1, 1)}
STRAIGHT = {"down": (1, 0), "up": (-1, 0), "right": (0, 1), "left": (0, -1)}
XV = {"X": 10, "V": 5}


# -- reading, one shape at a time ---------------------------------------------------------


def _switch(reading: Reading, key: str, value: Any, kind: str) -> None:
    if value is not True:
        raise reading.refuse(key, f"expected true, found {str(value)[:12]!r}")
    reading.add(key, kind, **_box_of(reading, key, kind))


def _box_of(reading: Reading, key: str, kind: str) -> dict[str, Any]:
    """A box-shaped kind's ``box``; irregular regions have no positions to compare."""
    if "box" not in KINDS[kind].params:
        return {}
    if reading.jigsaw:
        raise reading.refuse(key, "irregular regions have no box positions, so no " + kind)
    return {"box": (reading.shape.box_rows, reading.shape.box_cols)}


def _cell(reading: Reading, key: str, value: Any, kind: str) -> None:
    for part in entries(value, reading, key):
        reading.add(key, kind, (cell(part.get("cell"), reading, key),))


def _marked(reading: Reading, key: str, value: Any, kind: str) -> None:
    """Minima or maxima: the key's cells are one constraint, each compared with its
    neighbours outside the key (``cell_kinds``)."""
    found = dict.fromkeys(
        cell(part.get("cell"), reading, key) for part in entries(value, reading, key)
    )
    if found:
        reading.add(key, kind, tuple(found))


def _cells(reading: Reading, key: str, value: Any, kind: str) -> None:
    box = _box_of(reading, key, kind)
    for part in entries(value, reading, key):
        for one in cells(part, reading, key):
            reading.add(key, kind, (one,), **box)


def _dot(reading: Reading, key: str, value: Any, kind: str) -> None:
    for part in entries(value, reading, key):
        pair = tuple(cells(part, reading, key))
        where = name(pair[0], reading.size)
        if kind == "xv":
            letter = str(part.get("value", "")).strip().upper()
            if letter not in XV:
                raise reading.refuse(key, f"the dot at {where} is {letter!r}, not X or V")
            reading.add(key, kind, pair, sum=XV[letter])
        elif str(part.get("value") or "").strip() in ("", str(DOT_VALUES[kind])):
            reading.add(key, kind, pair)
        else:
            reading.add(key, kind, pair, **{kind: number(part, reading, key, where)})


def _lines(reading: Reading, key: str, value: Any, kind: str) -> None:
    for part in entries(value, reading, key):
        for line in lines(part, reading, key):
            if kind == "regionsumline":
                reading.add(key, kind, line, regions=_stretches(line, reading))
            elif kind == "whispers":
                reading.add(key, kind, line, **_gap(part, line, reading, key))
            else:
                reading.add(key, kind, line)


def _gap(part: dict[str, Any], line: tuple[int, ...], reading: Reading, key: str) -> dict:
    """A whispers line's difference: its entry's ``value`` (the solver plugin writes Dutch
    whispers as ``(N + 1) // 2 - 1``, dclamage/SudokuSolver's ``WhispersConstraint.cs`` reads
    it), German whispers' (N + 1) // 2 when none is given."""
    if str(part.get("value") or "").strip() in ("", str((reading.size + 1) // 2)):
        return {}
    return {"difference": number(part, reading, key, name(line[0], reading.size))}


def _stretches(line: tuple[int, ...], reading: Reading) -> tuple[int, ...]:
    """Each cell's region: the kind sums each stretch of the line within one region, a line
    that comes back to a region starting a stretch of its own there (the rule's "box borders
    divide the line into segments", as dclamage/SudokuSolver's RegionSumLinesConstraint.cs
    splits it)."""
    return tuple(reading.regions[c] for c in line)


def _outside(reading: Reading, key: str, value: Any, kind: str) -> None:
    n = reading.size
    for part in entries(value, reading, key):
        row, col = outside(part.get("cell"), reading, key)
        total = number(part, reading, key, str(part.get("cell")))
        # into the grid from the side the clue stands on
        step = (1, 0) if row == 0 else (-1, 0) if row > n else (0, 1) if col == 0 else (0, -1)
        reading.add(key, kind, _walk(row, col, step, n), total=total)


def _walk(row: int, col: int, step: tuple[int, int], n: int) -> tuple[int, ...]:
    """The cells from the clue cell at (row, col), counted from 1, by ``step`` to the grid's
    far edge."""
    found = []
    row, col = row + step[0], col + step[1]
    while 1 <= row <= n and 1 <= col <= n:
        found.append((row - 1) * n + col - 1)
        row, col = row + step[0], col + step[1]
    return tuple(found)


def _arrow(reading: Reading, key: str, value: Any) -> None:
    for part in entries(value, reading, key):
        circle = cells(part, reading, key)
        for line in lines(part, reading, key):
            if line[0] not in circle:
                where = name(line[0], reading.size)
                raise reading.refuse(key, f"the arrow from {where} starts outside its circle")
            # The kind reads the circle's digits in the entry's order; the shaft leaves from any
            # of them (f-puzzles draws a pill's shaft from whichever cell it touches).
            reading.add(key, "arrow", (*circle, *line[1:]), circle=len(circle))


def _littlekiller(reading: Reading, key: str, value: Any) -> None:
    n = reading.size
    for part in entries(value, reading, key):
        row, col = outside(part.get("cell"), reading, key, corner=True)
        step = DIRECTIONS.get(str(part.get("direction")))
        where = str(part.get("cell"))
        if step is None:
            raise reading.refuse(key, f"the clue at {where} has no direction UL, UR, DL or DR")
        found = _walk(row, col, step, n)
        if not found:
            raise reading.refuse(key, f"the clue at {where} points away from the grid")
        reading.add(key, "littlekiller", found, total=number(part, reading, key, where))


def _quadruple(reading: Reading, key: str, value: Any) -> None:
    for part in entries(value, reading, key):
        values = part.get("values")
        if not isinstance(values, list) or not all(type(v) is int for v in values):
            raise reading.refuse(key, "a quadruple's values are not a list of numbers")
        reading.add(key, "quadruple", tuple(cells(part, reading, key)), values=tuple(values))


def _clone(reading: Reading, key: str, value: Any) -> None:
    for part in entries(value, reading, key):
        first, second = cells(part, reading, key), cells(part, reading, key, "cloneCells")
        if len(first) != len(second):
            raise reading.refuse(key, "a clone's two groups differ in size")
        # A cell cloned onto itself says nothing (f-puzzles' own solver skips it too).
        pairs = [(a, b) for a, b in zip(first, second, strict=True) if a != b]
        if pairs:
            reading.add(key, "clone", tuple(a for a, _ in pairs) + tuple(b for _, b in pairs))


Reader = Callable[[Reading, str, Any], None]
# how each shape of entry is read (``Kind.fpuzzles_shape`` names it): a kind that declares
# one of these is read and written here with no row of its own
BY_SHAPE = {
    "switch": _switch, "cell": _cell, "cells": _cells, "marked": _marked, "dot": _dot,
    "lines": _lines, "outside": _outside,
}  # fmt: skip
OWN: dict[str, Reader] = {
    "arrow": _arrow, "littlekiller": _littlekiller, "quadruple": _quadruple, "clone": _clone,
}  # fmt: skip
KEYS: dict[str, Reader] = {
    kind.fpuzzles: partial(BY_SHAPE[kind.fpuzzles_shape], kind=name)
    for name, kind in KINDS.items()
    if kind.fpuzzles_shape
}
KEYS |= {KINDS[kind].fpuzzles: read for kind, read in OWN.items()}


def cell_parity(grid: list, reading: Reading) -> None:
    """A grid cell's ``parity``, "Odd" or "Even": an odd or an even cell, as f-puzzles has
    written them ("Orbit" by Qodec, in dclamage/SudokuSolver's ``SudokuTests/Puzzles.cs``)."""
    n = reading.size
    for index in range(n * n):
        parity = grid[index // n][index % n].get("parity")
        if parity is None or parity == "":
            continue
        kind = parity.lower() if isinstance(parity, str) else None
        if kind not in ("odd", "even"):
            where = name(index, n)
            raise reading.refuse(
                "parity", f"{where} has parity {str(parity)[:12]!r}, not Odd or Even"
            )
        reading.add("parity", kind, (index,))


def check(reading: Reading) -> list[Constraint]:
    """The constraints read, each validated against its kind, an error naming its key."""
    found = []
    for key, constraint in reading.constraints:
        try:
            KINDS[constraint.kind].validate(constraint, reading.size)
        except InputError as error:
            raise reading.refuse(key, error.message) from None
        found.append(constraint)
    return found


# -- writing, one constraint at a time ------------------------------------------------------


def write(board: Board, constraint: Constraint) -> tuple[str, Any]:
    """The f-puzzles key of a constraint and its entries (True for a switch); InputError for a
    constraint f-puzzles cannot say as the model means it."""
    kind, n = KINDS[constraint.kind], board.size
    shape = kind.fpuzzles_shape
    if kind.fpuzzles is None or (shape is None and constraint.kind not in OWN):
        raise unwritable(constraint, n, "has no f-puzzles key")
    box = constraint.param("box")
    if box is not None and (
        board.rules.regions is not None or box != (board.shape.box_rows, board.shape.box_cols)
    ):
        raise unwritable(constraint, n, f"box {box[0]}x{box[1]} is not the board's")
    default = Shape.for_size(n)
    if box is not None and board.shape != default:  # its boxes are written as regions
        said = f"reads {box[0]}x{box[1]} boxes, and f-puzzles draws only {default} ones on {n}x{n}"
        raise unwritable(constraint, n, said)
    if shape == "switch":
        return kind.fpuzzles, True
    if shape in ("cell", "cells"):
        one = name(constraint.cells[0], n)
        return kind.fpuzzles, [{"cell": one} if shape == "cell" else {"cells": [one]}]
    if shape == "marked":
        _check_apart(board, constraint)
        return kind.fpuzzles, [{"cell": name(one, n)} for one in constraint.cells]
    if shape == "dot":
        return kind.fpuzzles, [_write_dot(constraint, n)]
    if shape == "lines":
        _check_stretches(board, constraint)
        if constraint.param("modulus") is not None:  # f-puzzles' modular line is mod 3 only
            raise unwritable(constraint, n, "has a modulus other than 3")
        entry: dict[str, Any] = {"lines": [names(constraint.cells, n)]}
        gap = constraint.param("difference", (n + 1) // 2)  # whispers: the plugin's Dutch ones
        return kind.fpuzzles, [entry if gap == (n + 1) // 2 else entry | {"value": str(gap)}]
    if shape == "outside":
        where = _clue_cell(constraint.cells, n, STRAIGHT, constraint)
        return kind.fpuzzles, [{"cell": where[0], "value": str(constraint.param("total"))}]
    return kind.fpuzzles, [WRITE_OWN[constraint.kind](constraint, n)]


def _check_apart(board: Board, constraint: Constraint) -> None:
    """f-puzzles holds one set of maxima (and of minima): two constraints of the kind whose
    cells touch would read back as one, their touching cells no longer compared."""
    mine, n = set(constraint.cells), board.size
    others = [c for c in board.rules.constraints if c.kind == constraint.kind and c != constraint]
    for other in others:
        if any(d in mine for c in other.cells for d in neighbours(c, n)):
            raise unwritable(constraint, n, f"touches another {constraint.kind} constraint")


def _write_dot(constraint: Constraint, n: int) -> dict[str, Any]:
    entry: dict[str, Any] = {"cells": names(constraint.cells, n)}
    if constraint.kind == "xv":
        return entry | {"value": "X" if constraint.param("sum") == 10 else "V"}
    value = constraint.param(constraint.kind)
    return entry if value in (None, DOT_VALUES[constraint.kind]) else entry | {"value": str(value)}


def _check_stretches(board: Board, constraint: Constraint) -> None:
    if constraint.kind != "regionsumline":
        return
    labels = [board.geometry.box_of[c] for c in constraint.cells]
    mine = [a != b for a, b in pairwise(constraint.param("regions"))]
    if mine != [a != b for a, b in pairwise(labels)]:
        raise unwritable(constraint, board.size, "its stretches are not the board's regions")


def _clue_cell(
    cells: tuple[int, ...], n: int, steps: dict[str, tuple[int, int]], constraint: Constraint
) -> tuple[str, str]:
    """The clue cell outside the grid from which ``cells`` run to the grid's edge by one of
    ``steps``, and that step's name."""
    row, col = divmod(cells[0], n)
    for direction, (dr, dc) in steps.items():
        clue = (row + 1 - dr, col + 1 - dc)  # counted from 1
        if not (1 <= clue[0] <= n and 1 <= clue[1] <= n) and _walk(*clue, (dr, dc), n) == cells:
            return f"R{clue[0]}C{clue[1]}", direction
    raise unwritable(constraint, n, "does not run from a clue outside the grid to its edge")


def _write_arrow(constraint: Constraint, n: int) -> dict[str, Any]:
    size = int(constraint.param("circle", 1))
    circle, shaft = constraint.cells[:size], constraint.cells[size:]
    return {
        "cells": names(circle, n),
        "lines": [names((_shaft_start(circle, shaft[0], n), *shaft), n)],
    }


def _shaft_start(circle: tuple[int, ...], first: int, n: int) -> int:
    """The circle cell the shaft is drawn from: one touching its first cell, orthogonally where
    one does, the last such in the circle's order."""
    rows, cols = divmod(first, n)
    steps = {cell: (abs(cell // n - rows), abs(cell % n - cols)) for cell in circle}
    touching = [cell for cell in circle if max(steps[cell]) == 1]
    orthogonal = [cell for cell in touching if sum(steps[cell]) == 1]
    return (orthogonal or touching)[-1]


def _write_littlekiller(constraint: Constraint, n: int) -> dict[str, Any]:
    where, direction = _clue_cell(constraint.cells, n, DIRECTIONS, constraint)
    return {"cell": where, "direction": direction, "value": str(constraint.param("total"))}


def _write_quadruple(constraint: Constraint, n: int) -> dict[str, Any]:
    return {"cells": names(constraint.cells, n), "values": list(constraint.param("values"))}


def _write_clone(constraint: Constraint, n: int) -> dict[str, Any]:
    half = len(constraint.cells) // 2
    first, second = constraint.cells[:half], constraint.cells[half:]
    return {"cells": names(first, n), "cloneCells": names(second, n)}


WRITE_OWN = {
    "arrow": _write_arrow,
    "littlekiller": _write_littlekiller,
    "quadruple": _write_quadruple,
    "clone": _write_clone,
}
