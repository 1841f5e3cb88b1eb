"""The human techniques, each a function that finds one step on a grid of candidates (or
None): what it places or eliminates, and where. They read the units of the board's compile
step, so each applies to variant boards too: singles and subsets in any unit (a diagonal, a
window), locked candidates where any two units meet (pointing and claiming where a box meets a
row or column), fish on rows and columns, which every board has, wings among any peers.

Ratings are Sudoku Explainer's for the same techniques (docs/strength.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, reduce
from itertools import combinations
from operator import or_

from solvers.model.cells import cell_name
from solvers.model.constraints.model import Constraint
from solvers.model.geometry import Geometry
from solvers.strength.grid import values

SUBSETS = {2: "pair", 3: "triple", 4: "quad"}
FISH = {2: "X-wing", 3: "swordfish", 4: "jellyfish"}


class Contradiction(Exception):
    """The candidates leave a cell, or a value in a unit, with no place."""


@dataclass(frozen=True)
class Step:
    """One deduction: the technique's name, its Sudoku Explainer rating, where it looked, the
    (cell, value) pairs it places and those it eliminates."""

    technique: str
    rating: float
    where: str
    placed: tuple[tuple[int, int], ...] = ()
    eliminated: tuple[tuple[int, int], ...] = ()
    # a rule's own step says why in words (``only 1+2, so r1c1 cannot be 3``)
    reason: str = ""

    def describe(self, n: int) -> str:
        """One line, as a player says it: ``hidden single in box 1: r1c2=5``; a rule's own
        step: ``killer cage r1c1-r2c1 sum 3: only 1+2, so r1c1 cannot be 3``."""
        if self.reason:
            return f"{self.where}: {self.reason}"
        done = [f"{cell_name(c, n)}={v}" for c, v in self.placed]
        done += [f"{cell_name(c, n)}<>{v}" for c, v in self.eliminated]
        return f"{self.technique} in {self.where}: {', '.join(done)}"


@dataclass
class Grid:
    """Candidates on a geometry (bit v for value v), and the cells already placed (their value
    removed from their peers)."""

    geometry: Geometry
    candidates: list[int]
    placed: set[int] = field(default_factory=set)
    # the board's constraints of the vocabulary, which each kind's own steps read (``kinds``)
    constraints: tuple[Constraint, ...] = ()
    # what those steps compute once per grid (decompositions, tables as masks)
    memo: dict = field(default_factory=dict)
    # the puzzle is known to have one solution: uniqueness techniques may be used
    unique: bool = False

    @cached_property
    def peer_sets(self) -> list[frozenset[int]]:
        return [frozenset(peers) for peers in self.geometry.peers]

    @cached_property
    def meeting(self) -> list[tuple[int, int, frozenset[int]]]:
        """Each ordered pair of units that share two cells or more, with the shared cells."""
        units = [frozenset(unit) for unit in self.geometry.units]
        return [
            (a, b, units[a] & units[b])
            for a in range(len(units))
            for b in range(len(units))
            if a != b and len(units[a] & units[b]) > 1
        ]

    def cells_with(self, unit: tuple[int, ...], value: int) -> list[int]:
        bit = 1 << value
        return [cell for cell in unit if self.candidates[cell] & bit]

    def open_cells(self, unit: tuple[int, ...]) -> list[int]:
        return [cell for cell in unit if cell not in self.placed]

    def open_values(self, unit: tuple[int, ...]) -> list[int]:
        done = {self.candidates[cell] for cell in unit if cell in self.placed}
        return [v for v in range(1, self.geometry.size + 1) if 1 << v not in done]


def _kind(geometry: Geometry, unit: int) -> str:
    n = geometry.size
    return "line" if unit < 2 * n else "box" if unit < 3 * n else "extra"


def hidden_single(grid: Grid, in_boxes: bool) -> Step | None:
    geometry = grid.geometry
    for index, unit in enumerate(geometry.units):
        if (_kind(geometry, index) == "box") != in_boxes:
            continue
        for value in range(1, geometry.size + 1):
            cells = grid.cells_with(unit, value)
            if not cells:
                raise Contradiction(f"{geometry.unit_names[index]} has no place for {value}")
            if len(cells) == 1 and cells[0] not in grid.placed:
                rating = 1.2 if in_boxes else 1.5
                return Step(
                    "hidden single", rating, geometry.unit_names[index], ((cells[0], value),)
                )
    return None


def naked_single(grid: Grid) -> Step | None:
    for cell, mask in enumerate(grid.candidates):
        if not mask:
            raise Contradiction(f"{cell_name(cell, grid.geometry.size)} has no candidate")
        if cell not in grid.placed and mask & (mask - 1) == 0:
            return Step("naked single", 2.3, "its cell", ((cell, mask.bit_length() - 1),))
    return None


def locked(grid: Grid, pointing: bool) -> Step | None:
    """Every candidate of a value in unit A lies where A meets unit B: B's other cells lose it.
    ``pointing``: A a box, B a line (SE 2.6); else claiming, A a line and B a box, and any
    other two units that meet (2.8). The two are separate techniques so that a pointing on
    the board is always taken before a claiming, as their ratings order them."""
    geometry, names = grid.geometry, grid.geometry.unit_names
    for a, b, shared in grid.meeting:
        kinds = (_kind(geometry, a), _kind(geometry, b))
        if (kinds == ("box", "line")) != pointing:
            continue
        for value in grid.open_values(geometry.units[a]):
            cells = grid.cells_with(geometry.units[a], value)
            if not cells or not shared.issuperset(cells):
                continue
            gone = [c for c in grid.cells_with(geometry.units[b], value) if c not in shared]
            if gone:
                technique, rating = (
                    ("pointing", 2.6) if pointing
                    else ("claiming", 2.8) if kinds == ("line", "box")
                    else ("locked candidates", 2.8)
                )  # fmt: skip
                where = f"{names[a]} and {names[b]}"
                return Step(technique, rating, where, eliminated=tuple((c, value) for c in gone))
    return None


def naked_subset(grid: Grid, k: int) -> Step | None:
    geometry = grid.geometry
    for index, unit in enumerate(geometry.units):
        open_cells = [c for c in grid.open_cells(unit) if grid.candidates[c].bit_count() <= k]
        for cells in combinations(open_cells, k):
            union = reduce(or_, (grid.candidates[cell] for cell in cells))
            if union.bit_count() != k:
                continue
            gone = [
                (c, v) for c in unit if c not in cells for v in values(grid.candidates[c] & union)
            ]
            if gone:
                name, rating = f"naked {SUBSETS[k]}", {2: 3.0, 3: 3.6, 4: 5.0}[k]
                return Step(name, rating, geometry.unit_names[index], eliminated=tuple(gone))
    return None


def hidden_subset(grid: Grid, k: int) -> Step | None:
    geometry = grid.geometry
    for index, unit in enumerate(geometry.units):
        places = {v: grid.cells_with(unit, v) for v in grid.open_values(unit)}
        candidates = [v for v, cells in places.items() if len(cells) <= k]
        for chosen in combinations(candidates, k):
            cells = sorted({c for v in chosen for c in places[v]})
            if len(cells) != k:
                continue
            keep = sum(1 << v for v in chosen)
            gone = [(c, v) for c in cells for v in values(grid.candidates[c] & ~keep)]
            if gone:
                name, rating = f"hidden {SUBSETS[k]}", {2: 3.4, 3: 4.0, 4: 5.4}[k]
                return Step(name, rating, geometry.unit_names[index], eliminated=tuple(gone))
    return None


def fish(grid: Grid, k: int) -> Step | None:
    """A value's candidates in k rows lie in k columns: the columns' other cells lose it (and
    with rows and columns swapped)."""
    geometry, n = grid.geometry, grid.geometry.size
    for value in range(1, n + 1):
        bit = 1 << value
        for bases, covers, across in (
            (geometry.rows, geometry.cols, "rows"),
            (geometry.cols, geometry.rows, "columns"),
        ):
            positions = {
                b: frozenset(i for i, cell in enumerate(base) if grid.candidates[cell] & bit)
                for b, base in enumerate(bases)
            }
            usable = [b for b, where in positions.items() if 2 <= len(where) <= k]
            for chosen in combinations(usable, k):
                lines = frozenset().union(*(positions[b] for b in chosen))
                if len(lines) != k:
                    continue
                inside = {cell for b in chosen for cell in bases[b]}
                gone = [
                    (cell, value)
                    for line in sorted(lines)
                    for cell in covers[line]
                    if cell not in inside and grid.candidates[cell] & bit
                ]
                if gone:
                    where = f"{across} {', '.join(str(b + 1) for b in chosen)} for {value}"
                    return Step(FISH[k], {2: 3.2, 3: 3.8, 4: 5.2}[k], where, eliminated=tuple(gone))
    return None


def wing(grid: Grid, pivot_size: int) -> Step | None:
    """XY-wing (a pivot of two candidates xy, pincers xz and yz among its peers) and XYZ-wing
    (a pivot xyz, pincers xz and yz): whichever way the pivot goes, a pincer, or the pivot
    itself in an XYZ-wing, holds z; so z leaves every cell that sees all of them."""
    geometry, candidates = grid.geometry, grid.candidates
    peers = [frozenset(p) for p in geometry.peers]
    for pivot, mask in enumerate(candidates):
        if pivot in grid.placed or mask.bit_count() != pivot_size:
            continue
        pincers = [p for p in peers[pivot] if candidates[p].bit_count() == 2]
        for first, second in combinations(pincers, 2):
            a, b = candidates[first], candidates[second]
            z = a & b
            if a == b or z.bit_count() != 1 or (a | b) & ~z != mask & ~z:
                continue
            if (pivot_size == 2) == bool(mask & z):
                continue  # an XY-wing's pivot lacks z, an XYZ-wing's holds it
            seen = peers[first] & peers[second]
            if pivot_size == 3:
                seen &= peers[pivot]
            gone = sorted(c for c in seen - {pivot} if candidates[c] & z)
            if gone:
                n = geometry.size
                name = "XY-wing" if pivot_size == 2 else "XYZ-wing"
                names = [cell_name(cell, n) for cell in (pivot, first, second)]
                where = f"pivot {names[0]}, pincers {names[1]} {names[2]}"
                value = z.bit_length() - 1
                eliminated = tuple((c, value) for c in gone)
                return Step(name, {2: 4.2, 3: 4.4}[pivot_size], where, eliminated=eliminated)
    return None
