"""A board being read from an Interactive Sudoku Solver constraint string: ``Reading`` gathers
what the string says (givens, constraints in the project's text form, a jigsaw layout, region
sum lines read once the regions are known, the strict dots' exemptions) and builds the board.
Each type's reading of its arguments is ``sigh_types``; the string itself, ``sigh``.
"""

from __future__ import annotations

import re
from itertools import pairwise

from solvers.base.errors import InputError
from solvers.model.board import Board
from solvers.model.cells import cell_name, neighbours
from solvers.model.constraints.text import parse_constraint
from solvers.model.geometry import Shape
from solvers.model.variants import Rules

# ISS's cell id (``parseCellId``, js/cell_geometry.js): R, a row, C, a column, each ONE digit of
# base 17 (1-9, then a-g for 10-16, either case), so R1Cb is row 1, column 11, and R10C1 no cell.
# Values are ASCII digits (\d matches any script's), at most 6 (int() refuses thousands)
_CELL = re.compile(r"R([1-9a-g])C([1-9a-g])", re.IGNORECASE)
_GIVEN = re.compile(r"(R[1-9a-g]C[1-9a-g])((?:_[0-9]{1,6})+)", re.IGNORECASE)


class Reading:
    """What a constraint string has said so far: givens, the constraints as text, regions."""

    def __init__(self, size: int, line: int | None, offset: int = 0) -> None:
        self.n, self.line = size, line
        self.offset = offset  # 1 where the puzzle's values run 0..N-1: each cell holds v + 1
        self.shape = Shape.for_size(size)
        self.givens = [0] * (size * size)
        self.texts: list[str] = []
        self.regions: tuple[int, ...] | None = None  # a jigsaw layout's, each cell's region
        self.no_boxes = not self.shape.has_boxes
        self.region_sum_lines: list[list[int]] = []  # read once the regions are known
        self.dots: list[tuple[int, int]] = []  # every Kropki pair, for StrictKropki
        self.xv: list[tuple[int, int]] = []  # every X or V pair, for StrictXV
        self.strict: set[str] = set()
        self.allowed: dict[int, set[int]] = {}  # each given cell's values, as ISS's givens

    def cell(self, text: str) -> int:
        found = _CELL.fullmatch(text)
        if not found or not (int(found[1], 17) <= self.n and int(found[2], 17) <= self.n):
            said = f"ISS cell {text[:16]!r}{'...' if len(text) > 16 else ''}"
            raise InputError(f"{said} is not on the {self.n}x{self.n} grid", self.line)
        return (int(found[1], 17) - 1) * self.n + int(found[2], 17) - 1

    def cells(self, texts: list[str]) -> list[int]:
        return [self.cell(text) for text in texts]

    def add(self, kind: str, cells: list[int], **params: object) -> None:
        names = " ".join(cell_name(cell, self.n) for cell in cells)
        words = " ".join(f"{key}={_param(value)}" for key, value in params.items())
        self.texts.append(" ".join(part for part in (kind, names, words) if part))

    def board(self) -> Board:
        if self.no_boxes and self.regions is None:
            # ISS's grid with no boxes and no jigsaw: rows and columns only. A board without
            # boxes here takes regions: its rows, each all different already, say just that.
            # A RegionSumLine then has no region, which ISS's builder holds trivially satisfied
            self.regions = tuple(cell // self.n for cell in range(self.n * self.n))
            self.region_sum_lines = []
        for cell, values in self.allowed.items():
            if len(values) == 1:
                self.givens[cell] = min(values)
            else:
                self.add("candidates", [cell], values=sorted(values))
        regions = self.regions if self.no_boxes else None
        if self.regions is not None and not self.no_boxes:  # a jigsaw beside the boxes
            for label in sorted(set(self.regions)):
                members = [cell for cell, of in enumerate(self.regions) if of == label]
                self.add("extraregion", members)
        for cells in self.region_sum_lines:
            if self.offset:  # a stretch of k cells sums k more: equal sums no longer are
                labels = self._stretches(cells)  # 0, 1, ...: a new one at each region
                pieces = list(zip(cells, labels, strict=True))
                stretches = [[c for c, of in pieces if of == k] for k in range(labels[-1] + 1)]
                equal_sums(self, stretches)
            else:
                self.add("regionsumline", cells, regions=self._stretches(cells))
        if "kropki" in self.strict:
            exempt = ",".join(_pair(pair, self.n) for pair in self.dots) or None
            for kind in ("negative-difference", "negative-ratio"):
                self.add(kind, [], **({"exempt": exempt} if exempt else {}))
        if "xv" in self.strict and self.offset:
            self._strict_xv_from_zero()
        elif "xv" in self.strict:
            exempt = ",".join(_pair(pair, self.n) for pair in self.xv) or None
            self.add("negative-xv", [], **({"exempt": exempt} if exempt else {}))
        try:
            constraints = tuple(parse_constraint(text, self.n) for text in self.texts)
            rules = Rules(regions, constraints)
            return Board(self.shape, tuple(self.givens), rules)
        except InputError as error:
            raise InputError(f"ISS puzzle: {error.message}", self.line) from None

    def _strict_xv_from_zero(self) -> None:
        """ISS's StrictXV on values from 0: no unmarked neighbours' values add up to 5 or 10,
        so no two of their cells to 7 or 12; each such pair of cells as the pairs it allows
        (the project's negative-xv knows only the sums 5 and 10)."""
        n, marked = self.n, {frozenset(pair) for pair in self.xv}
        allowed = [
            v
            for a in range(1, n + 1)
            for b in range(1, n + 1)
            if a + b not in (7, 12)
            for v in (a, b)
        ]
        for cell in range(n * n):
            for other in (cell + 1, cell + n):
                if other in neighbours(cell, n) and frozenset((cell, other)) not in marked:
                    self.add("pairline", [cell, other], pairs=allowed)

    def _stretches(self, cells: list[int]) -> list[int]:
        """A label per cell, a new one each time the line enters a region: ISS sums each
        stretch within a box (a jigsaw region where there are no boxes) apart, a box visited
        twice being two stretches, as the project's kind sums each run of one label."""
        labels = [0]
        for before, cell in pairwise(cells):
            labels.append(labels[-1] + (self._region(cell) != self._region(before)))
        return labels

    def _region(self, cell: int) -> int:
        if self.no_boxes and self.regions is not None:
            return self.regions[cell]
        row, col, shape = cell // self.n, cell % self.n, self.shape
        return (row // shape.box_rows) * (self.n // shape.box_cols) + col // shape.box_cols


def _param(value: object) -> str:
    if isinstance(value, list | tuple):
        return ",".join(map(str, value))
    return str(value)


def _pair(pair: tuple[int, int], n: int) -> str:
    return f"{cell_name(pair[0], n)}-{cell_name(pair[1], n)}"


def number(reading: Reading, text: str, what: str) -> int:
    if not re.fullmatch(r"-?[0-9]{1,6}", text):
        said = "a number larger than any rule reads" if re.fullmatch(r"-?[0-9]+", text) else ""
        shown = f"{text[:16]!r}{'...' if len(text) > 16 else ''}"
        raise InputError(f"ISS {what}: {shown} is {said or 'not a whole number'}", reading.line)
    return int(text)


def read_given(reading: Reading, args: list[str]) -> None:
    for arg in args:
        found = _GIVEN.fullmatch(arg)
        if not found:
            shown = f"{arg[:16]!r}{'...' if len(arg) > 16 else ''}"
            raise InputError(f"ISS given {shown} is not of the form R1C1_5", reading.line)
        cell = reading.cell(found[1])
        values = {int(v) for v in found[2].split("_")[1:]}
        low, high = 1 - reading.offset, reading.n - reading.offset
        if outside := sorted(v for v in values if not low <= v <= high):
            said = f"value {outside[0]} is outside {low}..{high}"
            raise InputError(f"ISS given {arg!r}: {said}", reading.line)
        values = {v + reading.offset for v in values}
        # ISS intersects the values given for one cell (GivenCandidates' initialize): a
        # second given replacing the first would answer a puzzle ISS finds no solution to
        if cell in reading.allowed:
            values &= reading.allowed[cell]
            if not values:
                name = cell_name(cell, reading.n)
                raise InputError(f"ISS givens leave {name} no value", reading.line)
        reading.allowed[cell] = values


def equal_sums(reading: Reading, segments: list[list[int]]) -> None:
    """Each segment's sum equal to the next's, as a sum of weights 1 and -1; on values from 0
    each segment's cells sum its length more, so the totals differ by the lengths' difference."""
    for this, following in pairwise(segments):
        weights: dict[int, int] = {}
        for cell in this:
            weights[cell] = weights.get(cell, 0) + 1
        for cell in following:
            weights[cell] = weights.get(cell, 0) - 1
        kept = {cell: weight for cell, weight in weights.items() if weight}
        if kept:
            total = reading.offset * (len(this) - len(following))
            reading.add("sum", list(kept), total=total, weights=list(kept.values()))
