"""Implied sums: what the 45 rule says of a board's units and cages, derived before search.

On an N x N board every unit (a row, a column, a box or jigsaw region, an extra region) holds
1..N once, so it adds up to 1 + ... + N (45 on 9x9), and a run of k whole rows or columns to k
times that. Where cages (groups of different values with a known total) lie wholly inside such
a region, its other cells, the **innies**, add up to the region's total less the cages'. Where
the cages in it and reaching into it cover it, the cells those cages hold outside it, the
**outies**, add up to the cages' totals less the region's. Both at once: the innies less the
outies make the difference. This is sigh's Interactive Sudoku Solver's optimizer
(``_makeHiddenCageHandlers``, ``_makeInnieOutieSumHandlers``, ``_addSumIntersectionHandler``)
read for our model: ``rule45`` states each region's relation once; explain puts it in words
(``solvers.strength.kind_sums.innies``) and the compile step hands every engine those of them
that are sum groups (``implied_groups``: innies or outies alone, in cells that all see each
other, so that they hold different values), and the engines that read linear rows the others
as such (``implied_linears``: +1 for each innie, -1 for each outie), with the whole grid among
the regions (sigh's ``_fillInSumGap``) and sigh's limits on their size; with them, two more ways
of counting the cages that sigh's optimizer has: those with more than half their cells in a
region (``mostly_in``), and each cage reaching out of a unit by one cell alone (``one_out``).

A cage that shares a cell with another is left out: the two totals would count that cell twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

from solvers.model.geometry import Geometry

Cage = tuple[frozenset[int], int]  # cells holding different values, and their total


@dataclass(frozen=True)
class Region:
    """Cells adding up to ``count`` times 1 + ... + N: a unit, or a run of whole rows or
    columns, named as "row 1" or "rows 1-3"."""

    name: str
    cells: tuple[int, ...]
    count: int


@dataclass(frozen=True)
class Rule45:
    """What the 45 rule says of one region: the ``inside`` cells less the ``outside`` cells
    add up to ``total``, the region's total less the ``cages`` total of the cages counted
    (those wholly inside, with ``outside`` empty; those in and reaching into it otherwise)."""

    region: Region
    inside: tuple[int, ...]
    outside: tuple[int, ...]
    total: int
    cages: int
    reaching: bool = False  # the cages reaching out were counted (outside may be empty)


def regions(geometry: Geometry, grid: bool = False) -> list[Region]:
    """Each unit, then each run of 2..N-1 whole rows, then of whole columns (where the
    geometry's first units are its rows and columns), then with ``grid`` the whole grid."""
    n, units, names = geometry.size, geometry.units, geometry.unit_names
    found = [Region(names[i], tuple(unit), 1) for i, unit in enumerate(units)]
    for lines, word in ((range(n), "rows"), (range(n, 2 * n), "columns")):
        if len(units) < 2 * n or not all(names[i].startswith(word[:-1]) for i in lines):
            continue
        if grid and word == "rows":
            found.append(Region("the grid", tuple(range(n * n)), n))
        for size in range(2, n):
            for first in range(n - size + 1):
                chosen = [units[lines[first + k]] for k in range(size)]
                cells = tuple(sorted(cell for unit in chosen for cell in unit))
                found.append(Region(f"{word} {first + 1}-{first + size}", cells, size))
    return found


def apart(cages: Iterable[Cage]) -> list[Cage]:
    """The cages that share no cell with another."""
    cages = list(cages)
    return [
        (cells, total)
        for i, (cells, total) in enumerate(cages)
        if not any(cells & other for j, (other, _) in enumerate(cages) if j != i)
    ]


def rule45(geometry: Geometry, cages: Iterable[Cage], grid: bool = False) -> list[Rule45]:
    """For each region that a cage lies in or reaches into, its innies (the cages wholly
    inside counted), then its innies and outies (the cages reaching into it counted too);
    with ``grid``, the whole grid among the regions."""
    cages = apart(cages)
    if not cages:
        return []
    whole = geometry.size * (geometry.size + 1) // 2
    found = []
    for region in regions(geometry, grid):
        cells, sum_ = frozenset(region.cells), whole * region.count
        within = [(c, t) for c, t in cages if c <= cells]
        reach = [(c, t) for c, t in cages if c & cells and not c <= cells]
        covered = frozenset().union(*(c for c, _ in within))
        if within:
            inside = tuple(cell for cell in region.cells if cell not in covered)
            taken = sum(t for _, t in within)
            found.append(Rule45(region, inside, (), sum_ - taken, taken))
        if reach:
            touching = covered.union(*(c for c, _ in reach))
            inside = tuple(cell for cell in region.cells if cell not in touching)
            outside = tuple(sorted(touching - cells))
            taken = sum(t for _, t in within + reach)
            found.append(Rule45(region, inside, outside, sum_ - taken, taken, True))
    return found


def mostly_in(geometry: Geometry, cages: Iterable[Cage]) -> list[Rule45]:
    """For each region, the 45 rule with the cages counted that have more than half their
    cells in it (sigh's ``_makeInnieOutieSumHandlers`` counts those): a middle way between
    ``rule45``'s two, with fewer innies than the cages wholly inside leave and fewer
    outies than every cage reaching in brings; only where it differs from both."""
    cages = apart(cages)
    whole = geometry.size * (geometry.size + 1) // 2
    found = []
    for region in regions(geometry):
        cells = frozenset(region.cells)
        counted = [(c, t) for c, t in cages if 2 * len(c & cells) > len(c)]
        if all(c <= cells for c, _ in counted):
            continue  # the cages wholly inside: rule45's innies
        if all(2 * len(c & cells) > len(c) for c, _ in cages if c & cells):
            continue  # every cage reaching in: rule45's innies and outies
        touching = frozenset().union(*(c for c, _ in counted))
        inside = tuple(cell for cell in region.cells if cell not in touching)
        outside = tuple(sorted(touching - cells))
        taken = sum(t for _, t in counted)
        found.append(Rule45(region, inside, outside, whole * region.count - taken, taken, True))
    return found


def one_out(geometry: Geometry, cages: Iterable[Cage]) -> list[Rule45]:
    """For each unit and each cage reaching out of it by one cell (sigh's hidden cages,
    ``_makeHiddenCageHandlers``): the unit's cells outside that cage and the cages wholly
    inside, less that one outie, add up to the unit's total less those cages' totals. The
    45 rule with one cage reaching in at a time (``rule45`` counts them all at once); kept
    within sigh's ``_MAX_SUM_SIZE`` cells."""
    cages = apart(cages)
    whole = geometry.size * (geometry.size + 1) // 2
    found = []
    for region in regions(geometry)[: len(geometry.units)]:
        cells = frozenset(region.cells)
        within = [(c, t) for c, t in cages if c <= cells]
        covered = frozenset().union(*(c for c, _ in within))
        taken = sum(t for _, t in within)
        for cage, total in cages:
            outside = tuple(cage - cells)
            if len(outside) != 1 or not cage & cells:
                continue
            inside = tuple(cell for cell in region.cells if cell not in covered | cage)
            if len(inside) + 1 > MAX_CAGED:
                continue
            found.append(
                Rule45(region, inside, outside, whole - taken - total, taken + total, True)
            )
    return found


def implied_groups(
    geometry: Geometry, cages: Iterable[Cage]
) -> list[tuple[tuple[int, ...], int, str]]:
    """The 45 rule's relations that are sum groups: (cells, total, name) of innies alone or
    outies alone, in cells that all see each other (so hold different values), other than
    a cage's own cells; each set of cells once."""
    cages = list(cages)
    known = {cells for cells, _ in cages}
    peers = [frozenset(p) for p in geometry.peers]
    whole = geometry.size * (geometry.size + 1) // 2
    found: dict[frozenset[int], tuple[tuple[int, ...], int, str]] = {}
    for rule in rule45(geometry, cages):
        if rule.inside and rule.outside:
            continue
        cells, total = (rule.inside, rule.total) if rule.inside else (rule.outside, -rule.total)
        if not cells or len(cells) == len(rule.region.cells):
            continue
        key = frozenset(cells)
        if key in known or key in found:
            continue
        if not all(b in peers[a] for a, b in combinations(cells, 2)):
            continue
        word = "outies" if rule.outside else "innies"
        name = f"{whole} rule {word} of {rule.region.name}"
        found[key] = (tuple(sorted(cells)), total, name)
    return list(found.values())


MAX_CAGED = 6  # sigh's _MAX_SUM_SIZE: a relation over caged cells only, no longer than this


def implied_linears(
    geometry: Geometry, cages: Iterable[Cage]
) -> list[tuple[tuple[tuple[int, int], ...], int, str]]:
    """The 45 rule's relations that ``implied_groups`` leaves out, as linear rows, with those
    of ``mostly_in`` and ``one_out``: (terms, total, name), terms ``(1, innie)`` and
    ``(-1, outie)`` adding up to ``total`` (the outies alone: ``(1, outie)``, to minus the
    total), with the whole grid among the regions. Kept
    within sigh's limits (``_makeInnieOutieSumHandlers``): at most N cells, not more than two
    on both sides, at most ``MAX_CAGED`` where every cell is caged already, so that each row
    stays cheap to propagate; each relation once."""
    cages = list(cages)
    n = geometry.size
    whole = n * (n + 1) // 2
    known = {cells for cells, _ in cages}
    known |= {frozenset(cells) for cells, _, _ in implied_groups(geometry, cages)}
    caged = frozenset().union(*(cells for cells, _ in cages))
    found: dict[tuple[frozenset[tuple[int, int]], int], tuple] = {}
    derived = rule45(geometry, cages, grid=True) + mostly_in(geometry, cages)
    for rule in derived + one_out(geometry, cages):
        inside, outside, total = rule.inside, rule.outside, rule.total
        if not outside:
            if not inside or len(inside) == len(rule.region.cells):
                continue
        elif not inside:
            inside, outside, total = outside, (), -total
        size = len(inside) + len(outside)
        if not outside and frozenset(inside) in known:
            continue
        if size > n or min(len(inside), len(outside)) > 2:
            continue
        if size > MAX_CAGED and caged.issuperset(inside + outside):
            continue
        terms = tuple((1, cell) for cell in inside) + tuple((-1, cell) for cell in outside)
        word = "innies less outies" if outside else "outies" if rule.outside else "innies"
        key = (frozenset(terms), total)
        found.setdefault(key, (terms, total, f"{whole} rule {word} of {rule.region.name}"))
    return list(found.values())
