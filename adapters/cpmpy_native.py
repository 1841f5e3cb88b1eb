"""CPMpy's own models of some kinds (``cpmpy:model=native``), written with CPMpy's globals in
place of the shared decomposition (``solvers.model.compile.handed``), so that each solver
interface passes on the globals it supports (CPMpy's ``supported_global_constraints``: Choco
takes ``Regular``, ``Table``, ``Minimum``, ``Maximum``, ``Abs`` as they are) and CPMpy
decomposes only the rest, for a solver without them.

Each model says all its constraint says, and every auxiliary variable (CPMpy's, for a
``Maximum`` or an ``Abs``) is a function of the cells, so a count sees each solution once.

- ``skyscraper``, ``xsum``, ``sandwich``: ``Regular`` over the row's values, the automaton
  of ``adapters.choco_native`` (the same states: tallest so far and number seen; the prefix
  left and its sum; the end crossed and the sum since), with the whole row's ``AllDifferent``
  where it is not one of the board's units. Choco propagates it to domain consistency, where
  the decomposition's table of every filling (up to 3,136 compressed rows of a skyscraper
  clue) is a Boolean per row for CPMpy.
- ``renban``: ``AllDifferent`` and ``max(line) - min(line) = length - 1``, and, where a line's
  orderings of its runs are few (``RENBAN_TUPLES``), a ``Table`` of them (domain consistency on
  the whole line, which the maximum and minimum reach only by bounds), as Choco's own model.
- ``thermometer``, ``slow-thermometer``: ``IncreasingStrict`` or ``Increasing``.
- ``difference``, ``whispers``: ``abs(a - b) == d`` or ``abs(a - b) >= d`` per pair;
  ``ratio``: a ``Table`` of the pairs in that ratio, in place of forbidden pairs.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from itertools import chain, pairwise, permutations
from math import factorial

import cpmpy as cp

from solvers.model.constraints.model import Constraint

Options = Mapping[str, str]  # the backend's options, every one given (``CpmpyBackend.OPTIONS``)
Model = Callable[[Sequence, Constraint, int, Options], list]  # the constraints of one rule
RENBAN_TUPLES = 10_000  # a line's orderings of its runs posted as a table up to this many


def _regular(cells: Sequence, start: Hashable, step: Callable, final: Callable, n: int) -> list:
    """``Regular`` over ``cells`` for the automaton over 1..n of the states reachable from
    ``start`` (``step(state, value)``: the next state, None where the value is refused;
    ``final(state)``: whether the line may end there), with the cells' ``AllDifferent``."""
    names: dict[Hashable, str] = {start: "q0"}
    transitions, todo = [], [start]
    while todo:
        state = todo.pop()
        for value in range(1, n + 1):
            after = step(state, value)
            if after is None:
                continue
            if after not in names:
                names[after] = f"q{len(names)}"
                todo.append(after)
            transitions.append((names[state], value, names[after]))
    accepting = [name for state, name in names.items() if final(state)]
    if not accepting:
        return [cp.BoolVal(False)]
    # the cells of a whole row or column differ (the automaton need not say it)
    return [cp.AllDifferent(cells), cp.Regular(cp.cpm_array(cells), transitions, "q0", accepting)]


def _skyscraper(cells: Sequence, c: Constraint, n: int, options: Options) -> list:
    total = int(c.param("total"))

    def step(state: tuple[int, int], value: int) -> tuple[int, int] | None:
        tallest, seen = state
        after = (value, seen + 1) if value > tallest else (tallest, seen)
        return None if value == tallest or after[1] > total else after

    return _regular(cells, (0, 0), step, lambda state: state[1] == total, n)


def _xsum(cells: Sequence, c: Constraint, n: int, options: Options) -> list:
    total = int(c.param("total"))

    def step(state: tuple[int, int], value: int) -> tuple[int, int] | None:
        left, added = state  # cells of the prefix still to add, and their sum so far
        if left == -1:  # the start: the first value is X, the prefix's length
            left, added = value, 0
        if left == 0:  # past the prefix (reached only when its sum was the clue)
            return state
        left, added = left - 1, added + value
        return None if added > total or (left == 0 and added != total) else (left, added)

    return _regular(cells, (-1, 0), step, lambda state: state == (0, total), n)


def _sandwich(cells: Sequence, c: Constraint, n: int, options: Options) -> list:
    total = int(c.param("total"))

    def step(state: tuple[int, int], value: int) -> tuple[int, int] | None:
        # (0, 0): before both ends; (end, sum): after the end 1 or N, the sum since;
        # (-1, 0): after both, the sum was the clue
        end, added = state
        if end == 0:
            return (value, 0) if value in (1, n) else state
        if end == -1:
            return None if value in (1, n) else state
        if value in (1, n):
            return (-1, 0) if value != end and added == total else None
        return (end, added + value) if added + value <= total else None

    return _regular(cells, (0, 0), step, lambda state: state == (-1, 0), n)


def _renban(cells: Sequence, c: Constraint, n: int, options: Options) -> list:
    size = len(cells)
    posted = [cp.AllDifferent(cells), cp.max(cells) - cp.min(cells) == size - 1]
    if factorial(size) * (n - size + 1) <= RENBAN_TUPLES:
        runs = (permutations(range(first, first + size)) for first in range(1, n - size + 2))
        posted.append(cp.Table(cells, [list(p) for p in chain.from_iterable(runs)]))
    return posted


def _order(strict: bool) -> Model:
    def order(cells: Sequence, c: Constraint, n: int, options: Options) -> list:
        return [cp.IncreasingStrict(cells) if strict else cp.Increasing(cells)]

    return order


def _difference(cells: Sequence, c: Constraint, n: int, options: Options) -> list:
    return [cp.abs(cells[0] - cells[1]) == int(c.param("difference", 1))]


def _ratio(cells: Sequence, c: Constraint, n: int, options: Options) -> list:
    times = int(c.param("ratio", 2))
    pairs = [[v, v * times] for v in range(1, n // times + 1)]
    return [cp.Table(cells, pairs + [[b, a] for a, b in pairs])] if pairs else [cp.BoolVal(False)]


def _whispers(cells: Sequence, c: Constraint, n: int, options: Options) -> list:
    gap = int(c.param("difference", (n + 1) // 2))
    return [cp.abs(a - b) >= gap for a, b in pairwise(cells)]


MODELS: dict[str, Model] = {
    "skyscraper": _skyscraper,
    "xsum": _xsum,
    "sandwich": _sandwich,
    "renban": _renban,
    "thermometer": _order(strict=True),
    "slow-thermometer": _order(strict=False),
    "difference": _difference,
    "ratio": _ratio,
    "whispers": _whispers,
}


def constraints(cells: Sequence, constraint: Constraint, n: int, options: Options) -> list:
    """CPMpy's constraints for ``constraint`` (of a kind in ``MODELS``) over ``cells``, the
    board's cell variables in cell order, as the backend's ``options`` say."""
    scope = [cells[i] for i in constraint.cells]
    return MODELS[constraint.kind](scope, constraint, n, options)
