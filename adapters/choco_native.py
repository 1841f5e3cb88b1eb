"""Choco's own models of some kinds (``choco:model=native``), posted with Choco's global
constraints over the cells' integer variables in place of the shared decomposition
(``solvers.model.compile.handed``).

Each model says all its constraint says (its all-different groups too, where the kind has
one), and every auxiliary variable it adds is a function of the cells: Choco enumerates
assignments of every variable, so a free one would count a solution twice.

- ``skyscraper``: ``regular`` over the row, with an automaton whose state is the tallest value
  so far and how many have been seen (a value taller than the tallest is seen): Pesant's
  regular propagator keeps the clue arc consistent on its own, in place of a table of
  C(N-1, k-1)**2 rows of per-cell sets (too many to expand: a disjunction of reified rows).
- ``renban``: ``all_different``, and ``max`` less ``min`` of the line equal to its length
  less one, and (for a line of up to ``line_automata.RENBAN_TUPLES`` orderings of its runs)
  a ``table`` of those orderings, in place of the decomposition's table of runs, whose rows
  Choco expands to every filling of a run with repeats, or past 1,000 tuples (a line of 5 on
  9x9) posts as a disjunction of reified rows.
- ``xsum``: the row's prefix sums (``s[k] = s[k-1] + x[k]``) and ``element``: the prefix sum
  at the first cell's value is the clue.
- ``sandwich``: the positions of the 1 and of the N (``element``: the cells are a whole row or
  column, each value once), their ``min`` and ``max``, the prefix sums of the row, and the two
  prefix sums those positions pick (``element``) differing by the clue.
- ``thermometer``, ``slow-thermometer``: ``increasing`` (with a gap of 1 for a strict one).
- ``difference``: ``distance`` equal to the dot's value. ``ratio``: a ``table`` of the pairs
  in the ratio (the decomposition's forbidden pairs, turned round).
- ``whispers``: ``distance`` between neighbours greater than the gap less one.
- ``killercage``, ``multisumcage`` and the compile step's sum groups (the 45 rule's implied
  ones among them: ``sum_group``): with ``cages=table`` (default) and at most ``CAGE_TABLE``
  fillings (every ordering of every set of distinct values with the total or one of the
  totals), a ``table`` of them, which Choco keeps arc consistent on the whole cage; else
  (``cages=sum``, or more fillings) ``all_different``, ``sum`` equal to the total (to a
  variable whose domain is the totals), and each cell's domain cut to the values that some
  set holds.

Not here, by measurement: ``quadruple`` as ``count`` of each value at least its times (on a
published quadruple puzzle nine times the nodes of the decomposition's table per value, which
Choco keeps arc consistent).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise

from pychoco import Model
from pychoco.objects.automaton.finite_automaton import FiniteAutomaton

from adapters import line_automata
from adapters.primitive_forms import CAGE_TABLE, fillings
from solvers.model.cells import sum_sets
from solvers.model.constraints.model import Constraint

Options = Mapping[str, str]  # the backend's options, every one given (``ChocoBackend.OPTIONS``)


def _regular(model: Model, cells: Sequence, c: Constraint, n: int, options: Options) -> None:
    """``regular`` over the row with the kind's automaton (``line_automata``); the cells of a
    whole row or column differ (the automaton need not say it)."""
    numbers, arcs, accepting = line_automata.transitions(line_automata.AUTOMATA[c.kind](c, n), n)
    automaton = FiniteAutomaton()
    states = [automaton.add_state() for _ in numbers]
    automaton.set_initial_state(states[0])
    for state, value, after in arcs:
        automaton.add_transition(states[state], states[after], value)
    automaton.set_final(*(states[number] for number in accepting))
    model.all_different(list(cells)).post()
    model.regular(list(cells), automaton).post()


def _renban(model: Model, cells: Sequence, c: Constraint, n: int, options: Options) -> None:
    model.all_different(list(cells)).post()
    low, high = model.intvar(1, n), model.intvar(1, n)
    model.min(low, list(cells)).post()
    model.max(high, list(cells)).post()
    size = len(cells)
    model.arithm(high, "-", low, "=", size - 1).post()
    # every ordering of every run: arc consistency on the line as a whole (a line of up to 6
    # cells on 9x9), which the minimum and maximum reach only by bounds
    if (runs := line_automata.renban_runs(size, n)) is not None:
        model.table(list(cells), runs).post()


def _order(strict: bool) -> Callable:
    def post(model: Model, cells: Sequence, c: Constraint, n: int, options: Options) -> None:
        model.increasing(list(cells), 1 if strict else 0).post()

    return post


def _difference(model: Model, cells: Sequence, c: Constraint, n: int, options: Options) -> None:
    model.distance(cells[0], cells[1], "=", int(c.param("difference", 1))).post()


def _ratio(model: Model, cells: Sequence, c: Constraint, n: int, options: Options) -> None:
    times = int(c.param("ratio", 2))
    pairs = [[v, v * times] for v in range(1, n // times + 1)]
    model.table(list(cells), pairs + [[b, a] for a, b in pairs]).post()


def _whispers(model: Model, cells: Sequence, c: Constraint, n: int, options: Options) -> None:
    gap = int(c.param("difference", (n + 1) // 2))
    for a, b in pairwise(cells):
        model.distance(a, b, ">", gap - 1).post()


def _sum_values(count: int, totals: Sequence[int], n: int) -> list[int]:
    """The values some set of ``count`` different values of 1..n adding up to one of
    ``totals`` holds."""
    held = 0
    for total in totals:
        for values in sum_sets(count, total, n):
            held |= values
    return [v for v in range(1, n + 1) if held >> v & 1]


def _cage(model: Model, cells: Sequence, totals: Sequence[int], n: int) -> None:
    model.all_different(list(cells)).post()
    if not totals:
        return
    possible = _sum_values(len(cells), totals, n)
    for cell in cells:
        model.member(cell, possible).post()
    total = model.intvar(totals[0]) if len(totals) == 1 else model.intvar(sorted(totals))
    model.sum(list(cells), "=", total).post()


def sum_group(model: Model, cells: Sequence, totals: Sequence[int], n: int, cages: str) -> None:
    """Cells holding different values adding up to one of ``totals`` (a cage, or a sum group
    of the compile step: the 45 rule's among them): with ``cages=table`` where its fillings
    are at most ``CAGE_TABLE``, Choco's ``table`` of them (arc consistent on the whole cage,
    where the sum and the all-different each prune alone), else ``_cage``."""
    allowed = None
    if cages == "table" and totals:
        allowed = fillings(len(cells), totals, n, CAGE_TABLE)
    if allowed is None:
        _cage(model, cells, totals, n)
    elif allowed:
        model.table(list(cells), [list(t) for t in allowed]).post()
    else:
        model.arithm(cells[0], "<", 1).post()  # no filling: no value fits


def _killercage(model: Model, cells: Sequence, c: Constraint, n: int, options: Options) -> None:
    total = c.param("total")
    if total is None:
        _cage(model, cells, (), n)
    else:
        sum_group(model, cells, (int(total),), n, options["cages"])


def _multisumcage(model: Model, cells: Sequence, c: Constraint, n: int, options: Options) -> None:
    totals = tuple(int(t) for t in c.param("totals"))
    sum_group(model, cells, totals, n, options["cages"])


MODELS: dict[str, Callable[[Model, Sequence, Constraint, int, Options], None]] = {
    "skyscraper": _regular,
    "renban": _renban,
    "xsum": _regular,
    "sandwich": _regular,
    "thermometer": _order(strict=True),
    "slow-thermometer": _order(strict=False),
    "difference": _difference,
    "ratio": _ratio,
    "whispers": _whispers,
    "killercage": _killercage,
    "multisumcage": _multisumcage,
}


def post(model: Model, cells: Sequence, constraint: Constraint, n: int, options: Options) -> None:
    """``constraint`` (of a kind in ``MODELS``) posted over ``cells``, the board's cell
    variables in cell order, as the backend's ``options`` say (a cage by ``sum_group`` with
    ``options["cages"]``)."""
    scope = [cells[i] for i in constraint.cells]
    MODELS[constraint.kind](model, scope, constraint, n, options)
