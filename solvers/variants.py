"""Rule variants as data: what a puzzle's rules add to classic Sudoku, or change in it.

- ``x``: both main diagonals are units too.
- ``windoku``: extra windows, each a box shifted one cell down and right of a box corner
  (four 3x3 windows on 9x9); defined for square boxes only.
- ``jigsaw``: irregular regions of N connected cells replace the boxes.
- ``killer``: cages of cells whose values never repeat and add up to the cage's total.

Beyond these, a puzzle may carry any constraints of the vocabulary (``solvers.constraints``:
thermometers, arrows, Kropki dots, ...), each an instance of a named kind; their names join
the rule names a backend must declare support for.

The units-only variants (x, windoku, jigsaw) change the board's ``Geometry``, so every backend
that reads units gets them with no code of its own. Killer cages are sum constraints, which
each backend encodes in its own way (or declares it cannot).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING

from solvers.errors import InputError

if TYPE_CHECKING:
    from solvers.constraints import Constraint

# Each rule's field in Rules: x and windoku switch theirs on; jigsaw and killer hold their layout.
FIELDS = {"x": "diagonals", "windoku": "windows", "jigsaw": "regions", "killer": "cages"}
RULE_NAMES = tuple(FIELDS)
UNIT_RULES = frozenset({"x", "windoku", "jigsaw"})


@dataclass(frozen=True, order=True)
class Cage:
    """A killer cage: its cells (ascending) must hold distinct values adding up to ``total``."""

    total: int
    cells: tuple[int, ...]


@dataclass(frozen=True)
class Rules:
    """A puzzle's rules beyond classic Sudoku; ``Rules()`` is classic."""

    diagonals: bool = False
    windows: bool = False
    regions: tuple[int, ...] | None = None  # jigsaw: each cell's region, numbered from 0
    cages: tuple[Cage, ...] = ()  # killer
    constraints: tuple[Constraint, ...] = ()  # kinds of the vocabulary (solvers.constraints)

    def __post_init__(self) -> None:
        # One order for the same cages, however they were listed: by their first cell.
        cages = (Cage(cage.total, tuple(sorted(cage.cells))) for cage in self.cages)
        object.__setattr__(self, "cages", tuple(sorted(cages, key=lambda cage: cage.cells)))
        # and for the same constraints: by kind, then cells, then parameters
        order = sorted(self.constraints, key=lambda c: (c.kind, c.cells, repr(c.params)))
        object.__setattr__(self, "constraints", tuple(order))

    @classmethod
    def named(
        cls,
        names: Iterable[str],
        regions: tuple[int, ...] | None = None,
        cages: tuple[Cage, ...] = (),
        constraints: tuple[Constraint, ...] = (),
    ) -> Rules:
        """The rules ``names`` (those of ``RULE_NAMES``; others are left to ``constraints``)
        turn on, jigsaw's ``regions`` and killer's ``cages`` taken as given (whether each named
        layout is there is the caller's check)."""
        layouts = {"regions": regions, "cages": cages}
        switches = {FIELDS[n]: True for n in names if FIELDS.get(n) in ("diagonals", "windows")}
        return cls(**switches, **layouts, constraints=constraints)

    @property
    def names(self) -> frozenset[str]:
        """The rules in force, by name: today's variants (of ``RULE_NAMES``) and the kinds of
        the constraints."""
        off = (None, False, ())  # no regions, a switch off, no cages
        variants = (name for name, field in FIELDS.items() if getattr(self, field) not in off)
        return frozenset(variants) | {constraint.kind for constraint in self.constraints}

    @property
    def label(self) -> str:
        """The variants in their usual order, then the kinds alphabetically; or ``classic``."""
        kinds = sorted({constraint.kind for constraint in self.constraints})
        return " ".join([*(n for n in RULE_NAMES if n in self.names), *kinds]) or "classic"

    @property
    def is_classic(self) -> bool:
        return not self.names


CLASSIC = Rules()


def diagonal_units(n: int) -> list[tuple[int, ...]]:
    return [tuple(i * n + i for i in range(n)), tuple(i * n + n - 1 - i for i in range(n))]


def window_units(box_rows: int, box_cols: int) -> list[tuple[int, ...]]:
    """The windoku windows: boxes whose corner sits one cell in from a box corner, as far as
    they fit (four on 9x9, nine on 16x16)."""
    if box_rows != box_cols:
        raise InputError(f"windoku needs square boxes, not {box_rows}x{box_cols}")
    b, n = box_rows, box_rows * box_cols
    starts = range(1, n - b, b + 1)
    return [
        tuple((top + i) * n + left + j for i in range(b) for j in range(b))
        for top in starts
        for left in starts
    ]


def region_units(regions: tuple[int, ...], n: int) -> list[tuple[int, ...]]:
    """Jigsaw regions as units; InputError unless there are N regions of N connected cells."""
    if len(regions) != n * n:
        raise InputError(f"the region map has {len(regions)} cells, expected {n * n}")
    members: dict[int, list[int]] = {}
    for cell, region in enumerate(regions):
        members.setdefault(region, []).append(cell)
    if sorted(members) != list(range(n)):
        raise InputError(f"the region map has {len(members)} regions, expected {n}")
    for region, cells in sorted(members.items()):
        if len(cells) != n:
            raise InputError(f"region {_letter(region)} has {len(cells)} cells, expected {n}")
        if not connected(cells, n):
            raise InputError(f"region {_letter(region)} is not connected")
    return [tuple(members[region]) for region in range(n)]


def no_boxes(size: int, what: str = "") -> str:
    """The one line that refuses a board of prime side, or ``what`` (a rule) on one."""
    if what:
        return f"{what} needs boxes, and a {size}x{size} board has none ({size} is prime)"
    return f"a {size}x{size} board has no boxes ({size} is prime): give it jigsaw regions"


def row_regions(size: int) -> tuple[int, ...]:
    """Each row as a region: the plainest jigsaw layout (a Latin square), which a board without
    boxes takes where a caller needs one that always has a solution."""
    return tuple(cell // size for cell in range(size * size))


def check_boxless(rules: Rules, n: int) -> None:
    """InputError unless a board of prime side ``n`` (one without boxes) has regions, and no
    rule that reads boxes."""
    if rules.regions is None:
        raise InputError(no_boxes(n))
    if rules.windows:
        raise InputError(no_boxes(n, "windoku"))
    for constraint in rules.constraints:
        if constraint.param("box") is not None:  # disjoint groups, box indexers
            raise InputError(no_boxes(n, constraint.kind))


def check_cages(cages: Iterable[Cage], n: int) -> None:
    """InputError for a cage with repeated cells, cells shared with another cage, more cells
    than values, or a total no set of distinct values 1..N reaches."""
    owner: dict[int, int] = {}
    for index, cage in enumerate(cages):
        if not cage.cells:
            raise InputError(f"a cage of total {cage.total} has no cells")
        # Named by its first cell and its total: a list of all its cells is long, and a
        # total alone is shared by other cages.
        first = cage.cells[0]
        where = cell_name(first, n) if 0 <= first < n * n else f"cell {first}"
        name = f"the cage at {where} (total {cage.total})"
        if len(set(cage.cells)) != len(cage.cells):
            raise InputError(f"{name} names a cell twice")
        if any(not 0 <= cell < n * n for cell in cage.cells):
            raise InputError(f"{name} has a cell outside the {n}x{n} board")
        for cell in cage.cells:
            if cell in owner:
                raise InputError(f"{cell_name(cell, n)} is in two cages")
            owner[cell] = index
        if not connected(list(cage.cells), n):
            raise InputError(f"{name} is not connected")
        if not cage_sets(len(cage.cells), cage.total, n):
            raise InputError(
                f"{name}: no {len(cage.cells)} distinct values from 1..{n} add up to {cage.total}"
            )


@cache
def cage_sets(size: int, total: int, n: int) -> tuple[int, ...]:
    """Every set of ``size`` distinct values from 1..n adding up to ``total``, each as a bit
    mask (bit v for value v): what a cage's cells can hold together."""
    if not 0 < size <= n:
        return ()
    return tuple(
        sum(1 << v for v in values)
        for values in combinations(range(1, n + 1), size)
        if sum(values) == total
    )


def cell_name(cell: int, size: int) -> str:
    """``r1c2`` style name of a cell index, 1-based as people count."""
    return f"r{cell // size + 1}c{cell % size + 1}"


def _letter(region: int) -> str:
    return chr(ord("A") + region) if region < 26 else str(region)


def neighbours(cell: int, size: int) -> list[int]:
    """The cells beside ``cell`` (up, down, left, right)."""
    row, col = divmod(cell, size)
    return [
        r * size + c
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
        if 0 <= r < size and 0 <= c < size
    ]


def orthogonal_pairs(size: int) -> list[tuple[int, int]]:
    """Every two side-by-side cells once: the pairs across each row, then those down each
    column (a cell first, then the one right of it or below it)."""
    across = [(r * size + c, r * size + c + 1) for r in range(size) for c in range(size - 1)]
    return across + [
        (r * size + c, (r + 1) * size + c) for r in range(size - 1) for c in range(size)
    ]


def reachable(start: int, size: int, joins: Callable[[int], bool]) -> list[int]:
    """``start`` and every cell reached from it by steps to a side-by-side cell for which
    ``joins`` holds."""
    seen, todo = {start}, [start]
    for cell in todo:  # todo grows as cells are reached: a breadth-first search
        for other in neighbours(cell, size):
            if other not in seen and joins(other):
                seen.add(other)
                todo.append(other)
    return todo


def connected(cells: Sequence[int], size: int) -> bool:
    """Whether ``cells`` (each once) are one group of side-by-side cells."""
    inside = set(cells)
    return len(reachable(cells[0], size, inside.__contains__)) == len(cells)
