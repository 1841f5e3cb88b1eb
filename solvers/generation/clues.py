"""Constraints drawn over a solved grid, for the generator: what ``generate --rules`` adds.

Board-wide kinds (``anti-knight``, ``anti-king``, ``non-consecutive``) shape the grid itself:
``complete`` fills it one random cell at a time, keeping a value while some solution has it.
Every step asks a fact (how many solutions, up to two), so the grid depends on the seed alone,
not on the counting engine. Clue kinds (thermometers, arrows, Kropki dots and XV marks, those
two with their negative constraints) are read off the solved grid. Everything random comes
from the caller's ``random.Random``.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING

from solvers.model.board import Board
from solvers.model.cells import orthogonal_pairs

if TYPE_CHECKING:  # imported where used: the command line reads GENERATED at start-up
    from solvers.base.deadline import Deadline
    from solvers.model.constraints.model import Constraint

BOARD_WIDE = ("anti-knight", "anti-king", "non-consecutive")
CLUE_KINDS = ("thermometer", "arrow", "kropki", "xv")
GENERATED = (*BOARD_WIDE, *CLUE_KINDS)
STEPS8 = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


def complete(empty: Board, rng: random.Random, deadline: Deadline | None = None) -> Board | None:
    """A random complete board under ``empty``'s rules, or None when they allow none;
    SolveTimeout once ``deadline`` passes."""
    from solvers.api import count_solutions, solve
    from solvers.base.deadline import Deadline
    from solvers.base.errors import SolveTimeout

    deadline = deadline or Deadline()
    cells = list(empty.cells)
    order = [cell for cell, value in enumerate(cells) if not value]
    rng.shuffle(order)
    for cell in order:
        values = list(range(1, empty.size + 1))
        rng.shuffle(values)
        for value in values:
            cells[cell] = value
            found = count_solutions(empty.with_cells(cells), 2, timeout=deadline.timeout())
            if found == 1:
                solution = solve(empty.with_cells(cells), timeout=deadline.timeout()).solution
                if solution is None:  # a puzzle with one solution: the deadline came first
                    raise SolveTimeout("deadline passed")
                return solution
            if found == 2:
                break
            cells[cell] = 0
        else:
            return None  # no value fits here: the rules allow no grid
    return empty.with_cells(cells)


def board_wide(names: frozenset[str]) -> tuple[Constraint, ...]:
    """The board-wide constraints among the rule ``names``."""
    from solvers.model.constraints.model import Constraint

    return tuple(Constraint(kind) for kind in BOARD_WIDE if kind in names)


def drawn(full: Board, kinds: frozenset[str], rng: random.Random) -> tuple[Constraint, ...]:
    """The clue constraints of ``kinds`` read off the complete board ``full``."""
    found: list[Constraint] = []
    used: set[int] = set()
    for kind in CLUE_KINDS:
        if kind in kinds:
            found += _DRAW[kind](full, rng, used)
    return tuple(found)


def with_constraints(full: Board, constraints: tuple[Constraint, ...]) -> Board:
    rules = replace(full.rules, constraints=full.rules.constraints + constraints)
    return Board(full.shape, full.cells, rules)


def _thermometers(full: Board, rng: random.Random, used: set[int]) -> list[Constraint]:
    """About N/2 thermometers of 3 to 6 cells, each step to a higher value."""
    from solvers.model.constraints.model import Constraint

    n = full.size
    found = []
    for _ in range(20 * n):
        if len(found) >= max(2, n // 2):
            break
        walk = _walk(full, rng, used, rise=True, length=rng.randint(3, 6))
        if walk:
            used.update(walk)
            found.append(Constraint("thermometer", tuple(walk)))
    return found


def _arrows(full: Board, rng: random.Random, used: set[int]) -> list[Constraint]:
    """About N/3 arrows: a circle, then 2 or 3 cells adding up to its value."""
    from solvers.model.constraints.model import Constraint

    n, cells = full.size, full.cells
    found = []
    for _ in range(40 * n):
        if len(found) >= max(2, n // 3):
            break
        walk = _walk(full, rng, used, rise=False, length=rng.randint(3, 4))
        if walk and sum(cells[c] for c in walk[1:]) == cells[walk[0]]:
            used.update(walk)
            found.append(Constraint("arrow", tuple(walk), (("circle", 1),)))
    return found


def _kropki(full: Board, rng: random.Random, used: set[int]) -> list[Constraint]:
    """Every white dot (neighbours differing by 1) and black dot (one twice the other) the
    grid has (a 1-2 pair, both at once, gets one at random), and the negative constraints."""
    from solvers.model.constraints.model import Constraint

    dots = []
    for a, b in orthogonal_pairs(full.size):
        x, y = full.cells[a], full.cells[b]
        kinds = [k for k, on in (("difference", abs(x - y) == 1), ("ratio", 2 in (x / y, y / x)))
                 if on]  # fmt: skip
        if kinds:
            dots.append(Constraint(rng.choice(kinds), (a, b)))
    exempt = (("exempt", tuple(d.cells for d in dots)),)
    return [*dots, Constraint("negative-difference", (), exempt),
            Constraint("negative-ratio", (), exempt)]  # fmt: skip


def _xv(full: Board, rng: random.Random, used: set[int]) -> list[Constraint]:
    """Every X (neighbours adding up to 10) and V (to 5) the grid has, and the negative
    constraint."""
    from solvers.model.constraints.model import Constraint

    marks = [
        Constraint("xv", (a, b), (("sum", full.cells[a] + full.cells[b]),))
        for a, b in orthogonal_pairs(full.size)
        if full.cells[a] + full.cells[b] in (5, 10)
    ]
    exempt = (("exempt", tuple(m.cells for m in marks)),)
    return [*marks, Constraint("negative-xv", (), exempt)]


_DRAW = {"thermometer": _thermometers, "arrow": _arrows, "kropki": _kropki, "xv": _xv}


def _walk(full: Board, rng: random.Random, used: set[int], rise: bool, length: int):
    """A random walk of ``length`` unused cells, each touching the next (diagonals too),
    rising in value if ``rise``; None if it gets stuck."""
    n, cells = full.size, full.cells
    start = rng.randrange(n * n)
    if start in used:
        return None
    walk = [start]
    while len(walk) < length:
        r, c = divmod(walk[-1], n)
        steps = [(r + dr) * n + c + dc for dr, dc in STEPS8
                 if 0 <= r + dr < n and 0 <= c + dc < n]  # fmt: skip
        steps = [s for s in steps if s not in used and s not in walk]
        if rise:
            steps = [s for s in steps if cells[s] > cells[walk[-1]]]
        if not steps:
            return None
        walk.append(rng.choice(steps))
    return walk
