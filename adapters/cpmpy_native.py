"""CPMpy's own models of some kinds (``cpmpy:model=native``), written with CPMpy's globals in
place of the shared decomposition (``solvers.model.compile.handed``), so that each solver
interface passes on the globals it supports (CPMpy's ``supported_global_constraints``: Choco
takes ``Regular``, ``Table``, ``Minimum``, ``Maximum``, ``Abs`` as they are) and CPMpy
decomposes only the rest, for a solver without them.

Each model says all its constraint says, and every auxiliary variable (CPMpy's, for a
``Maximum`` or an ``Abs``) is a function of the cells, so a count sees each solution once.

- ``skyscraper``, ``xsum``, ``sandwich``: ``Regular`` over the row's values, the automaton
  of ``adapters.line_automata`` (Choco's too; its states: tallest so far and number seen; the prefix
  left and its sum; the end crossed and the sum since), with the whole row's ``AllDifferent``
  where it is not one of the board's units. Choco propagates it to domain consistency, where
  the decomposition's table of every filling (up to 3,136 compressed rows of a skyscraper
  clue) is a Boolean per row for CPMpy.
- ``renban``: ``AllDifferent`` and ``max(line) - min(line) = length - 1``, and, where a line's
  orderings of its runs are few (``line_automata.RENBAN_TUPLES``), a ``Table`` of them
  (domain consistency on the whole line, which the maximum and minimum reach only by
  bounds), as Choco's own model.
- ``thermometer``, ``slow-thermometer``: ``IncreasingStrict`` or ``Increasing``.
- ``difference``, ``whispers``: ``abs(a - b) == d`` or ``abs(a - b) >= d`` per pair;
  ``ratio``: a ``Table`` of the pairs in that ratio, in place of forbidden pairs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise

import cpmpy as cp

from adapters import line_automata
from solvers.model.constraints.model import Constraint

Options = Mapping[str, str]  # the backend's options, every one given (``CpmpyBackend.OPTIONS``)
Model = Callable[[Sequence, Constraint, int, Options], list]  # the constraints of one rule


def _regular(cells: Sequence, c: Constraint, n: int, options: Options) -> list:
    """``Regular`` over the row with the kind's automaton (``line_automata``), and the row's
    ``AllDifferent`` (the cells of a whole row or column differ: the automaton need not say
    it)."""
    numbers, arcs, accepting = line_automata.transitions(line_automata.AUTOMATA[c.kind](c, n), n)
    if not accepting:
        return [cp.BoolVal(False)]
    name = [f"q{number}" for number in range(len(numbers))]
    moves = [(name[state], value, name[after]) for state, value, after in arcs]
    regular = cp.Regular(cp.cpm_array(cells), moves, name[0], [name[k] for k in accepting])
    return [cp.AllDifferent(cells), regular]


def _renban(cells: Sequence, c: Constraint, n: int, options: Options) -> list:
    size = len(cells)
    posted = [cp.AllDifferent(cells), cp.max(cells) - cp.min(cells) == size - 1]
    if (runs := line_automata.renban_runs(size, n)) is not None:
        posted.append(cp.Table(cells, runs))
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
    "skyscraper": _regular,
    "xsum": _regular,
    "sandwich": _regular,
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
