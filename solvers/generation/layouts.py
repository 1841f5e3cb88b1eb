"""Random layouts for the variants: jigsaw regions and killer cages.

Like the rest of the generator, everything random comes from one ``random.Random`` and only
through ``shuffle``, so a seed gives the same layouts on every machine.

- Regions start as the boxes; pass after pass, border cells of two regions swap regions
  whenever both stay connected, drifting into irregular shapes of N cells each.
- Cages are grown over a solved grid from cells taken in random order: each takes random
  neighbours not in a cage yet and holding values not in it yet, up to a random size of 2 to
  4; a cell left alone joins a neighbouring cage that lacks its value when one can take it.
"""

from __future__ import annotations

import random

from solvers.base.deadline import Deadline
from solvers.model.board import Board
from solvers.model.cells import connected, neighbours
from solvers.model.constraints.model import Constraint
from solvers.model.geometry import Shape

CAGE_SIZES = (2, 2, 2, 2, 3, 3, 3, 4)  # shuffled for each cage: by measurement (README)


def random_regions(
    shape: Shape, rng: random.Random, passes: int = 6, deadline: Deadline | None = None
) -> tuple[int, ...]:
    """N connected regions of N cells each, as each cell's region number; SolveTimeout once
    ``deadline`` has passed (a pass over a 16x16 is long enough to matter: docs/reliability.md,
    Generating)."""
    n = shape.size
    region = list(shape.geometry.box_of)
    for _ in range(passes):
        if deadline is not None:
            deadline.check()
        border = [
            (cell, other)
            for cell in range(n * n)
            for other in neighbours(cell, n)
            if region[other] != region[cell]
        ]
        rng.shuffle(border)
        for cell, other in border:
            _exchange(region, cell, region[other], n, rng)
    return tuple(region)


def _exchange(region: list[int], cell: int, into: int, n: int, rng: random.Random) -> None:
    """Move ``cell`` into region ``into`` and one of that region's cells bordering ``cell``'s
    region back, if both regions stay connected; else leave them as they are."""
    home = region[cell]
    if region[cell] == into:
        return
    back = [
        c
        for c in range(n * n)
        if region[c] == into and c != cell and any(region[x] == home for x in neighbours(c, n))
    ]
    rng.shuffle(back)
    for other in back[:4]:
        region[cell], region[other] = into, home
        if _whole(region, home, n) and _whole(region, into, n):
            return
        region[cell], region[other] = home, into


def _whole(region: list[int], number: int, n: int) -> bool:
    return connected([cell for cell, r in enumerate(region) if r == number], n)


def random_cages(solution: Board, rng: random.Random) -> tuple[Constraint, ...]:
    """Cages over a complete board: connected, values distinct within each, every cell in one;
    each cage's total is the sum of the solution's values in it."""
    n, values = solution.size, solution.cells
    owner = [-1] * (n * n)
    cages: list[list[int]] = []
    order = list(range(n * n))
    rng.shuffle(order)
    for start in order:
        if owner[start] >= 0:
            continue
        sizes = list(CAGE_SIZES)
        rng.shuffle(sizes)
        cage = _grow(start, sizes[0], owner, values, n, rng)
        if len(cage) == 1 and (host := _host(start, owner, cages, values, n, rng)) is not None:
            cages[host].append(start)
            owner[start] = host
            continue
        for cell in cage:
            owner[cell] = len(cages)
        cages.append(cage)
    return tuple(
        Constraint("killercage", tuple(sorted(cells)), (("total", sum(values[c] for c in cells)),))
        for cells in cages
    )


def _grow(start: int, size: int, owner: list[int], values, n: int, rng) -> list[int]:
    cage, held = [start], {values[start]}
    while len(cage) < size:
        frontier = [
            other
            for cell in cage
            for other in neighbours(cell, n)
            if owner[other] < 0 and other not in cage and values[other] not in held
        ]
        if not frontier:
            break
        rng.shuffle(frontier)
        cage.append(frontier[0])
        held.add(values[frontier[0]])
    return cage


def _host(cell: int, owner: list[int], cages: list[list[int]], values, n: int, rng) -> int | None:
    """A neighbouring cage that can take ``cell`` (it lacks its value), if any."""
    hosts = [
        owner[other]
        for other in neighbours(cell, n)
        if owner[other] >= 0 and values[cell] not in {values[c] for c in cages[owner[other]]}
    ]
    rng.shuffle(hosts)
    return hosts[0] if hosts else None
