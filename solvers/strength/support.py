"""What a rule's own steps share: which candidates of a few cells some assignment of them
supports, and how a step about those cells is worded.

``supports`` enumerates the assignments of a constraint's cells over their current candidates
(cells that see each other, or that the rule itself keeps apart, never equal) and keeps the
values some accepted assignment uses: generalised arc consistency on that one rule. It stops
past a budget of nodes and answers None, so a rule over many open cells costs a bounded time
and its caller falls back on a weaker, cheaper reading.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from solvers.model.cells import cell_name
from solvers.strength.grid import values
from solvers.strength.techniques import Contradiction, Grid, Step

BUDGET = 20_000  # nodes of one enumeration: a few tens of milliseconds in Python
SHOWN = 6  # combinations named in a step's words before "..."
KIND_RATING = 2.4  # a rule's own step: after the singles, before pointing (2.6)
GENERIC_RATING = 2.5  # the same by enumeration, worded as such

Accept = Callable[[tuple[int, ...]], bool]
Prune = Callable[[tuple[int, ...]], bool]


class Found:
    """An enumeration's result: per position the values some accepted assignment uses, and
    the accepted assignments' values as sorted tuples (at most ``SHOWN + 1`` kept)."""

    def __init__(self, count: int) -> None:
        self.support = [0] * count
        self.combos: set[tuple[int, ...]] = set()
        self.any = False


def apart(grid: Grid, cells: Sequence[int], everyone: bool = False) -> list[list[int]]:
    """For each position, the earlier positions whose value it may not repeat: cells that see
    each other on the board (or every pair, ``everyone``: the rule's own all-different)."""
    peers = grid.peer_sets
    return [
        [j for j in range(i) if everyone or cells[j] in peers[cell]] for i, cell in enumerate(cells)
    ]


def supports(
    grid: Grid,
    cells: Sequence[int],
    accept: Accept,
    prune: Prune | None = None,
    everyone: bool = False,
    budget: int = BUDGET,
) -> Found | None:
    """Which candidate of each cell some assignment that ``accept`` takes uses (``prune``,
    given a prefix of values, says it can lead to none); None past ``budget`` nodes."""
    masks = [grid.candidates[cell] for cell in cells]
    options = [values(mask) for mask in masks]
    before = apart(grid, cells, everyone)
    found, chosen, nodes = Found(len(cells)), [0] * len(cells), 0

    def walk(i: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            return False
        if i == len(cells):
            assignment = tuple(chosen)
            if accept(assignment):
                found.any = True
                for position, value in enumerate(assignment):
                    found.support[position] |= 1 << value
                if len(found.combos) <= SHOWN:
                    found.combos.add(tuple(sorted(assignment)))
            return True
        for value in options[i]:
            if any(chosen[j] == value for j in before[i]):
                continue
            chosen[i] = value
            if prune is not None and prune(tuple(chosen[: i + 1])):
                continue
            if not walk(i + 1):
                return False
        return True

    return found if walk(0) else None


def enumerated(
    grid: Grid,
    cells: Sequence[int],
    accept: Accept,
    where: str,
    words: Callable[[Found], str],
    prune: Prune | None = None,
    everyone: bool = False,
) -> Step | None:
    """A rule's own step by enumeration (``supports``): the candidates no accepted assignment
    uses go, named after ``where``'s first words; None past the budget or where none goes."""
    found = supports(grid, cells, accept, prune, everyone)
    if found is None:
        return None
    if not found.any:
        raise Contradiction(f"the {where} allows no values in its cells")
    gone = losses(grid, cells, found.support)
    if not gone:
        return None
    technique = where.split(" r")[0]
    return kind_step(technique, where, words(found), gone, grid.geometry.size)


def read_before(grid: Grid, key: object, cells: Sequence[int]) -> bool:
    """Whether a reading named ``key`` was last made on these very candidates of ``cells``
    (it would find nothing new); notes them as read either way."""
    masks = tuple(grid.candidates[cell] for cell in cells)
    if grid.memo.get(key) == masks:
        return True
    grid.memo[key] = masks
    return False


def losses(grid: Grid, cells: Sequence[int], kept: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """The (cell, value) pairs of ``cells`` whose candidates ``kept`` (a mask per cell) drops."""
    gone = []
    for cell, mask in zip(cells, kept, strict=True):
        gone += [(cell, value) for value in values(grid.candidates[cell] & ~mask)]
    return tuple(gone)


def cannot(eliminated: Iterable[tuple[int, int]], n: int) -> str:
    """``r1c2 cannot be 1, 2; r2c3 cannot be 9``: eliminations as a player says them."""
    by_cell: dict[int, list[int]] = {}
    for cell, value in eliminated:
        by_cell.setdefault(cell, []).append(value)
    return "; ".join(
        f"{cell_name(cell, n)} cannot be {', '.join(map(str, sorted(vs)))}"
        for cell, vs in by_cell.items()
    )


def cells_text(cells: Sequence[int], n: int, join: str = "-") -> str:
    return join.join(cell_name(cell, n) for cell in cells)


def combos_text(found: Found, join: str = "+") -> str:
    """The accepted assignments' values (``1+2 or 1+3``), at most ``SHOWN`` and then ``...``."""
    shown = sorted(found.combos)[:SHOWN]
    text = " or ".join(join.join(map(str, combo)) for combo in shown)
    return text + (" or ..." if len(found.combos) > SHOWN else "")


def kind_step(
    technique: str, where: str, reason: str, eliminated: tuple[tuple[int, int], ...], n: int
) -> Step:
    """A rule's own step: ``where`` names the rule (``killer cage r1c1-r2c1 sum 3``),
    ``reason`` says why (``only 1+2``), then what it removes."""
    words = f"{reason}, so {cannot(eliminated, n)}" if reason else cannot(eliminated, n)
    return Step(technique, KIND_RATING, where, eliminated=eliminated, reason=words)
