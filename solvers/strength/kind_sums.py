"""The sum kinds' own steps: the combinations of values that reach the sum restrict each cell.

A killer cage's cells differ and add up to its total: only the combinations of different
values with that total, and that the cells' candidates can hold, remain ("killer cage
r1c1-r2c1 sum 3: only 1+2, so r1c1 cannot be 3, ..."). An arrow's shaft adds up to its
circle, a little killer's diagonal to its clue: values may repeat there, except in cells that
see each other. Each step enumerates the assignments over the current candidates, cutting a
partial sum that can no longer reach the total, and keeps what some assignment uses; past
the enumeration's budget it says nothing (the generic step reads the rule by its primitives).
A cage with no total (ISS's 0 cage) says only that its cells differ.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from math import prod

from solvers.model.constraints.model import Constraint
from solvers.model.implied import rule45
from solvers.strength import kind_bounds
from solvers.strength.support import (
    SHOWN,
    Found,
    cells_text,
    combos_text,
    kind_step,
    losses,
    supports,
)
from solvers.strength.techniques import Contradiction, Grid, Step


def cage_totals(constraint: Constraint) -> set[int] | None:
    """The totals a killer or multi-sum cage may add up to; None for a cage with no total."""
    given = constraint.param("totals") or (constraint.param("total"),)
    return None if given[0] is None else {int(t) for t in given}


def bounds(grid: Grid, cells) -> tuple[list[int], list[int]]:
    """The least and the most the cells from position i to the end can add up to."""
    low, high = [0] * (len(cells) + 1), [0] * (len(cells) + 1)
    for i in range(len(cells) - 1, -1, -1):
        mask = grid.candidates[cells[i]]
        low[i] = low[i + 1] + ((mask & -mask).bit_length() - 1)
        high[i] = high[i + 1] + mask.bit_length() - 1
    return low, high


def _sum_step(
    grid: Grid,
    constraint,
    cells,
    totals,
    everyone: bool,
    where: str,
    words,
    technique=None,
    fallback=None,
) -> Step | None:
    """The step of cells adding up to one of ``totals``; ``words(found)`` says why;
    ``fallback()`` is the step where the enumeration passes its budget (else none)."""
    low, high = bounds(grid, cells)

    def prune(prefix: tuple[int, ...]) -> bool:
        done, i = sum(prefix), len(prefix)
        return not any(done + low[i] <= total <= done + high[i] for total in totals)

    quick = None if everyone else by_parts(grid, cells, totals)
    if quick is not None and quick.any and not losses(grid, cells, quick.support):
        return None  # nothing goes: the enumeration, there for its words, is not needed
    found = supports(grid, cells, lambda xs: sum(xs) in totals, prune, everyone)
    if found is None and everyone:
        found = _by_sets(grid, cells, totals)
    if found is None and quick is not None:  # too many to enumerate whole: the parts say it
        return _step(grid, constraint, cells, quick, where, _by_their_parts, technique)
    if found is None and fallback is not None:
        return fallback()
    return _step(grid, constraint, cells, found, where, words, technique)


PART = 5_000  # assignments of one part of ``by_parts`` at most


def by_parts(grid: Grid, cells, totals, without: int = 0) -> Found | None:
    """What each cell may hold where the cells add up to one of ``totals`` and only cells
    that see each other differ (a little killer), read by parts: the cells split into groups
    that see nothing of each other (a diagonal's run through one box), each group's
    assignments enumerated by their sum, and the sums joined (which totals the other parts
    can make with it): the same supports as the whole enumeration, at the cost of its parts.
    ``without`` a value mask no cell may take. No combinations kept (words come from the
    enumeration); None where a part is too open."""
    masks = [grid.candidates[cell] & ~without for cell in cells]
    parts, sums = _parts(grid, cells), []
    for part in parts:
        if prod(masks[i].bit_count() for i in part) > PART:
            return None
        by_sum: dict[int, list[int]] = {}
        _walk_part(grid, [cells[i] for i in part], [masks[i] for i in part], by_sum)
        sums.append(by_sum)
    before, after = [{0}], [{0}]
    for by_sum in sums:
        before.append({a + s for a in before[-1] for s in by_sum})
    for by_sum in reversed(sums):
        after.append({a + s for a in after[-1] for s in by_sum})
    after.reverse()
    found = Found(len(cells))
    for k, (part, by_sum) in enumerate(zip(parts, sums, strict=True)):
        others = {a + b for a in before[k] for b in after[k + 1]}
        for s, support in by_sum.items():
            if any(total - s in others for total in totals):
                found.any = True
                for i, mask in zip(part, support, strict=True):
                    found.support[i] |= mask
    return found


def _parts(grid: Grid, cells) -> list[list[int]]:
    """The positions of ``cells`` in groups joined by seeing each other (kept per cells)."""
    key = ("sum parts", tuple(cells))
    if key not in grid.memo:
        group = list(range(len(cells)))

        def root(i: int) -> int:
            while group[i] != i:
                i = group[i]
            return i

        for i, j in combinations(range(len(cells)), 2):
            if cells[j] in grid.peer_sets[cells[i]]:
                group[root(i)] = root(j)
        parts: dict[int, list[int]] = {}
        for i in range(len(cells)):
            parts.setdefault(root(i), []).append(i)
        grid.memo[key] = list(parts.values())
    return grid.memo[key]


def _walk_part(grid: Grid, cells, masks, by_sum: dict[int, list[int]]) -> None:
    """Each assignment of one part (cells that see each other differ), by its sum: the
    values each cell takes in some assignment of that sum."""
    chosen = [0] * len(cells)
    seen = [
        [j for j in range(i) if cells[j] in grid.peer_sets[cells[i]]] for i in range(len(cells))
    ]

    def walk(i: int, done: int) -> None:
        if i == len(cells):
            support = by_sum.setdefault(done, [0] * len(cells))
            for position, value in enumerate(chosen):
                support[position] |= 1 << value
            return
        mask = masks[i]
        while mask:
            bit = mask & -mask
            mask ^= bit
            value = bit.bit_length() - 1
            if any(chosen[j] == value for j in seen[i]):
                continue
            chosen[i] = value
            walk(i + 1, done + value)

    walk(0, 0)


def sum_must(grid: Grid, cells, totals) -> int | None:
    """The values every assignment of ``by_parts`` uses (a mask): those without which none is
    left; None where a part is too open, 0 where there is no assignment at all."""
    whole = by_parts(grid, cells, totals)
    if whole is None or not whole.any:
        return None if whole is None else 0
    every, must = 0, 0
    for mask in whole.support:
        every |= mask
    for value in range(1, grid.geometry.size + 1):
        if every >> value & 1:
            without = by_parts(grid, cells, totals, 1 << value)
            if without is None:
                return None
            if not without.any:
                must |= 1 << value
    return must


def _by_their_parts(found) -> str:
    return "read in runs that see nothing of each other, their sums joined"


def _by_sets(grid: Grid, cells, totals) -> Found:
    """A cage too open to enumerate, read by its sets of values: a set with the total counts
    where every cell has a candidate in it and each of its values a cell (weaker than the
    enumeration, never wrong)."""
    n, masks = grid.geometry.size, [grid.candidates[cell] for cell in cells]
    found, every = Found(len(cells)), 0
    for mask in masks:
        every |= mask
    for chosen in combinations(range(1, n + 1), len(cells)):
        if sum(chosen) not in totals:
            continue
        bits = sum(1 << v for v in chosen)
        if bits & every != bits or not all(mask & bits for mask in masks):
            continue
        found.any = True
        found.support = [s | (mask & bits) for s, mask in zip(found.support, masks, strict=True)]
        if len(found.combos) <= SHOWN:
            found.combos.add(chosen)
    return found


def _step(grid, constraint, cells, found, where, words, technique=None) -> Step | None:
    if found is None:
        return None
    if not found.any:
        raise Contradiction(f"the {where} has no combination left")
    gone = losses(grid, cells, found.support)
    if not gone:
        return None
    technique = technique or _technique(constraint)
    return kind_step(technique, where, words(found), gone, grid.geometry.size)


def _technique(constraint: Constraint) -> str:
    return {"killercage": "killer cage", "multisumcage": "killer cage",
            "littlekiller": "little killer"}.get(constraint.kind, constraint.kind)  # fmt: skip


def killercage(grid: Grid, constraint: Constraint) -> Step | None:
    total = constraint.param("total")
    n, cells = grid.geometry.size, constraint.cells
    if total is None:
        return _unsummed(grid, constraint)
    where = f"killer cage {cells_text(cells, n)} sum {total}"
    return _sum_step(grid, constraint, cells, {int(total)}, True, where,
                     lambda found: f"only {combos_text(found)}")  # fmt: skip


def _unsummed(grid: Grid, constraint: Constraint) -> Step | None:
    """A cage with no total (ISS's 0 cage): its cells differ, nothing more. Its different
    assignments enumerated, or where they pass the budget, each placed value gone from the
    cage's other cells."""
    n, cells = grid.geometry.size, constraint.cells
    found = supports(grid, cells, lambda xs: True, everyone=True)
    if found is None:
        masks = [grid.candidates[cell] for cell in cells]
        placed = [mask if mask & (mask - 1) == 0 else 0 for mask in masks]
        found = Found(len(cells))
        found.any = True
        for i, mask in enumerate(masks):
            taken = 0
            for j, single in enumerate(placed):
                taken |= single if j != i else 0
            found.support[i] = mask & ~taken
    where = f"killer cage {cells_text(cells, n)} with no total"
    return _step(grid, constraint, cells, found, where, lambda found: "its cells differ")


def multisumcage(grid: Grid, constraint: Constraint) -> Step | None:
    n, cells, totals = grid.geometry.size, constraint.cells, set(constraint.param("totals"))
    where = f"killer cage {cells_text(cells, n)} sum {' or '.join(map(str, sorted(totals)))}"
    return _sum_step(grid, constraint, cells, totals, True, where,
                     lambda found: f"only {combos_text(found)}")  # fmt: skip


def littlekiller(grid: Grid, constraint: Constraint) -> Step | None:
    n, cells, total = grid.geometry.size, constraint.cells, int(constraint.param("total"))
    where = f"little killer {cells_text(cells, n)} sum {total}"
    return _sum_step(grid, constraint, cells, {total}, False, where,
                     lambda found: f"only {combos_text(found)}", fallback=lambda:
                     kind_bounds.line(grid, cells, total, "little killer", where))  # fmt: skip


def arrow(grid: Grid, constraint: Constraint) -> Step | None:
    """The circle (its cells read as one number) is the shaft's sum: enumerated circle first,
    then the shaft, cut where the shaft's partial sum can no longer reach the circle."""
    n, size = grid.geometry.size, int(constraint.param("circle", 1))
    circle, shaft = constraint.cells[:size], constraint.cells[size:]
    cells = constraint.cells
    low, high = bounds(grid, cells)

    def number(xs: tuple[int, ...]) -> int:
        return int("".join(map(str, xs[:size])))

    def prune(prefix: tuple[int, ...]) -> bool:
        i = len(prefix)
        if i <= size:
            return False
        done = sum(prefix[size:])
        return not done + low[i] <= number(prefix) <= done + high[i]

    def accept(xs: tuple[int, ...]) -> bool:
        return sum(xs[size:]) == number(xs)

    found = supports(grid, cells, accept, prune)
    where = f"arrow {cells_text(circle, n)} <- {cells_text(shaft, n)}"
    if found is None:  # too many assignments: read by the shaft's and the circle's bounds
        return kind_bounds.arrow(grid, circle, shaft, where)

    def words(found) -> str:
        return f"the shaft adds up to the circle only as {_shown(found, size)}"

    return _step(grid, constraint, cells, found, where, words)


def _shown(found, size: int) -> str:
    """Each combination of an arrow with its circle's number: ``1+2=3``."""
    text = combos_text(found)
    return text if size != 1 else " or ".join(
        f"{'+'.join(map(str, sorted(combo)[:-1]))}={max(combo)}" if combo else ""
        for combo in sorted(found.combos)[:6]
    ) + (" or ..." if len(found.combos) > 6 else "")  # fmt: skip


REST = 5  # cells the 45 rule's innies and outies may count, together, to be read as a sum


def innies(grid: Grid) -> Step | None:
    """The 45 rule (on N x N, 1 + ... + N a unit) on a unit or a run of whole rows or
    columns: where killer cages lie wholly inside, its few other cells (the innies) add up to
    its total less the cages' totals; where the cages that reach into it cover it, the cells
    they hold outside it (the outies) add up to their totals less its total; and where both
    are few, the innies less the outies make the difference. Read as a sum of those cells (an
    outie counted negative), in different values where they share a unit. Cages that overlap
    another are left out (their totals would count the shared cells twice)."""
    regions = grid.memo.get("45 regions")
    if regions is None:
        regions = grid.memo["45 regions"] = _regions45(grid)
    n = grid.geometry.size
    for key, inside, outside, total, where in regions:
        cells = inside + outside
        masks = tuple(grid.candidates[cell] for cell in cells)
        if grid.memo.get(key) == masks:
            continue
        weights = (1,) * len(inside) + (-1,) * len(outside)
        words = _no_words if outside else _combos
        technique = f"{n * (n + 1) // 2} rule"
        if len(inside) <= 1 or outside:
            step = _weighted_step(grid, cells, weights, total, where, words, technique)
        else:
            everyone = all(b in grid.peer_sets[a] for a, b in combinations(inside, 2))
            step = _sum_step(grid, None, inside, {total}, everyone, where, words, technique)
        if step is not None:
            return step
        grid.memo[key] = masks
    return None


def _combos(found) -> str:
    return f"only {combos_text(found)}"


def _no_words(found) -> str:
    return ""


def _adding(cells: tuple, total: int, n: int, word: str = "") -> str:
    """``cells`` add up to ``total``, in words: one cell simply is its total."""
    if len(cells) == 1:
        return f"{word + ' ' if word else ''}{cells_text(cells, n)} is {total}"
    return f"{word + 's ' if word else ''}{cells_text(cells, n)} add up to {total}"


def _regions45(grid: Grid) -> list:
    """Each region's innies, outies, what the innies less the outies add up to, and its words
    (computed once for a board, from the 45 rule's relations: ``solvers.model.implied``)."""
    n = grid.geometry.size
    cages = [
        (frozenset(c.cells), int(c.param("total")))
        for c in grid.constraints
        if c.kind == "killercage" and c.param("total") is not None
    ]
    whole = n * (n + 1) // 2
    found = []
    for rule in rule45(grid.geometry, cages):
        name, inside, outside, total = rule.region.name, rule.inside, rule.outside, rule.total
        if not rule.reaching:
            if 1 <= len(inside) <= REST:
                where = (
                    f"{whole} rule on {name}: its cages add up to {rule.cages}, so "
                    f"{_adding(inside, total, n)}"
                )
                found.append((("quiet 45", name, "in"), inside, (), total, where))
            continue
        if not 1 <= len(inside) + len(outside) <= REST:
            continue
        if inside:
            where = (
                f"{whole} rule on {name}: the cages in and reaching into it add up to "
                f"{rule.cages}, so {cells_text(inside, n)} less {cells_text(outside, n)} "
                f"make {total}"
            )
        else:
            where = (
                f"{whole} rule on {name}: the cages in and reaching into it add up to "
                f"{rule.cages}, so the {_adding(outside, -total, n, 'outie')}"
            )
        found.append((("quiet 45", name, "out"), inside, outside, total, where))
    return found


def _weighted_step(
    grid: Grid, cells, weights, total, where, words, technique, constraint=None, fallback=None
) -> Step | None:
    """Cells, each times its weight, adding up to ``total``; cells that see each other
    differ. Cut where the weighted partial sum can no longer reach the total; ``fallback()``
    is the step where the enumeration passes its budget (else none)."""
    low, high = [0] * (len(cells) + 1), [0] * (len(cells) + 1)
    for i in range(len(cells) - 1, -1, -1):
        mask, w = grid.candidates[cells[i]], weights[i]
        ends = (w * ((mask & -mask).bit_length() - 1), w * (mask.bit_length() - 1))
        low[i], high[i] = low[i + 1] + min(ends), high[i + 1] + max(ends)

    def weighted(xs: tuple[int, ...]) -> int:
        return sum(w * x for w, x in zip(weights, xs, strict=False))

    def prune(prefix: tuple[int, ...]) -> bool:
        done, i = weighted(prefix), len(prefix)
        return not done + low[i] <= total <= done + high[i]

    found = supports(grid, cells, lambda xs: weighted(xs) == total, prune)
    if found is None and fallback is not None:
        return fallback()
    return _step(grid, constraint, cells, found, where, words, technique)


def sum_(grid: Grid, constraint: Constraint) -> Step | None:
    """ISS's sum: the cells, each times its weight, add up to the total; values may repeat
    except in cells that see each other. Cut where the weighted partial sum can no longer
    reach the total."""
    n, cells, total = grid.geometry.size, constraint.cells, int(constraint.param("total"))
    weights = tuple(constraint.param("weights") or (1,) * len(cells))
    plain = set(weights) == {1}
    shown = "" if plain else f" weights {','.join(map(str, weights))}"
    where = f"sum {cells_text(cells, n)} total {total}{shown}"

    def words(found) -> str:
        return f"only {combos_text(found)}" if plain else ""

    def bounded() -> Step | None:
        return kind_bounds.line(grid, cells, total, "sum", where, weights)

    return _weighted_step(grid, cells, weights, total, where, words, "sum", constraint, bounded)


def rellikcage(grid: Grid, constraint: Constraint) -> Step | None:
    """ISS's rellik cage: different values, no one or more of which add up to the total: a
    value equal to the total goes at once, and any set of values with such a part."""
    n, cells, total = grid.geometry.size, constraint.cells, int(constraint.param("total"))

    def accept(xs: tuple[int, ...]) -> bool:
        return not any(sum(part) == total for size in range(1, len(xs) + 1)
                       for part in combinations(xs, size))  # fmt: skip

    def prune(prefix: tuple[int, ...]) -> bool:
        return not accept(prefix)  # a part that adds up to the total stays in every extension

    found = supports(grid, cells, accept, prune, everyone=True)
    where = f"rellik cage {cells_text(cells, n)} not {total}"
    return _step(grid, constraint, cells, found, where,
                 lambda found: f"only {combos_text(found, ',')}", "rellik cage")  # fmt: skip


STEPS: dict[str, Callable[[Grid, Constraint], Step | None]] = {
    "killercage": killercage,
    "multisumcage": multisumcage,
    "littlekiller": littlekiller,
    "arrow": arrow,
    # the sum kinds of sigh's Interactive Sudoku Solver
    "sum": sum_,
    "rellikcage": rellikcage,
}
