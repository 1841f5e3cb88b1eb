"""MiniZinc's own models of some kinds (``minizinc:model=native``), written with its globals in
place of the shared decomposition (``solvers.model.compile.handed``).

Each model says all its constraint says: the outside clues' (sandwich, X-sum, skyscraper) cells
are a whole row or column, whose all-different is a unit the board keeps, and is written here
only when it is not one. Every auxiliary variable is a function of the cells (a solver that
enumerates every variable then counts each solution once).

- ``skyscraper``, ``xsum``, ``sandwich``: ``regular`` over the row's values, an automaton read
  from the clue's side (the MiniZinc handbook's use of ``regular`` for a sequence rule; Gecode
  propagates it to domain consistency). Skyscraper: a state per (tallest so far, number seen);
  X-sum: a state per (cells left of the first X, sum left); sandwich: before the first crust,
  then a state per (the crust that closes it, sum so far), then past both. The decomposition's
  table of every filling (up to 3,136 compressed rows of a skyscraper clue) is never built.
- ``renban``: ``all_different`` and ``max(x) - min(x) = length - 1`` (Gecode's own maximum and
  minimum propagators), in place of a table of runs.
- ``killercage`` and the compile step's sum groups (the 45 rule's implied ones among them:
  ``sum_group``): with ``cages=table`` (default) and at most ``CAGE_TABLE`` fillings, a
  ``table`` of the fillings (Gecode's table propagator: domain consistent on the whole cage,
  where the sum and the all-different each prune alone); else ``all_different``, the ``sum``,
  and each cell's domain cut to the values of the sets of distinct values with that total
  (what the decomposition leaves to search).
- ``thermometer``, ``slow-thermometer``: ``<`` or ``<=`` between neighbours, written directly.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from itertools import pairwise
from typing import Protocol

from adapters.primitive_forms import CAGE_TABLE, fillings
from solvers.model.cells import sum_sets
from solvers.model.constraints.model import Constraint

State = Hashable
Step = Callable[[State, int], State | None]  # the next state, or None: the automaton fails
Options = Mapping[str, str]  # the model's options, every one given (``cages``: ``mzn.CAGES``)


class Writer(Protocol):
    """What a native model writes through (``adapters.mzn.ModelWriter``)."""

    size: int

    def cell_name(self, cell: int) -> str: ...

    def cell_array(self, cells: Sequence[int]) -> str: ...

    def all_different(self, cells: Sequence[int], name: str = "") -> None: ...

    def post(self, constraint: str, include: str = "") -> None: ...

    def allowed(self, cells: Sequence[int], tuples: Sequence[tuple[int, ...]]) -> None: ...


def automaton(n: int, start: State, step: Step, accepts: Callable[[State], bool]) -> str:
    """``Q, S, d, q0, F`` of MiniZinc's ``regular`` for the automaton reading values 1..n from
    ``start`` by ``step`` (the states reachable from it, numbered from 1; 0 is failure)."""
    number: dict[State, int] = {start: 1}
    order, moves = [start], []
    for state in order:  # grows as new states are reached
        row = []
        for value in range(1, n + 1):
            after = step(state, value)
            if after is not None and after not in number:
                number[after] = len(order) + 1
                order.append(after)
            row.append(0 if after is None else number[after])
        moves.append(row)
    final = ", ".join(str(number[s]) for s in order if accepts(s))
    table = " | ".join(", ".join(map(str, row)) for row in moves)
    return f"{len(order)}, {n}, [| {table} |], 1, {{{final}}}"


def _regular(w: Writer, cells: Sequence[int], start: State, step: Step, accepts) -> None:
    machine = automaton(w.size, start, step, accepts)
    w.post(f"regular({w.cell_array(cells)}, {machine})", "regular.mzn")


def _skyscraper(w: Writer, cells: Sequence[int], c: Constraint, options: Options) -> None:
    clue = int(c.param("total"))

    def step(state: tuple[int, int], value: int) -> tuple[int, int] | None:
        tallest, seen = state
        if value <= tallest:
            return state
        return (value, seen + 1) if seen < clue else None

    _regular(w, cells, (0, 0), step, lambda state: state[1] == clue)


def _xsum(w: Writer, cells: Sequence[int], c: Constraint, options: Options) -> None:
    total = int(c.param("total"))

    def step(state, value: int):
        if state == "start":  # the first value is X: X - 1 more cells, the rest of the total
            state = (value, total)
        if state == "done":
            return state
        left, wanted = state
        if value > wanted:
            return None
        if left == 1:
            return "done" if value == wanted else None
        return (left - 1, wanted - value)

    _regular(w, cells, "start", step, lambda state: state == "done")


def _sandwich(w: Writer, cells: Sequence[int], c: Constraint, options: Options) -> None:
    total, n = int(c.param("total")), w.size

    def step(state, value: int):
        crust = value in (1, n)
        if state == "before":
            return (n + 1 - value, 0) if crust else state
        if state == "after":
            return None if crust else state
        closer, held = state
        if crust:
            return "after" if value == closer and held == total else None
        return (closer, held + value) if held + value <= total else None

    _regular(w, cells, "before", step, lambda state: state == "after")


def _renban(w: Writer, cells: Sequence[int], c: Constraint, options: Options) -> None:
    w.all_different(cells)
    line = w.cell_array(cells)
    w.post(f"max({line}) - min({line}) = {len(cells) - 1}")


def _killercage(w: Writer, cells: Sequence[int], c: Constraint, options: Options) -> None:
    total = c.param("total")
    if total is None:
        w.all_different(cells)
        return
    sum_group(w, cells, int(total), options["cages"])


def sum_group(w: Writer, cells: Sequence[int], total: int, cages: str) -> None:
    """Cells holding different values adding up to ``total`` (a cage, or a sum group of the
    compile step): with ``cages=table`` where its fillings are at most ``CAGE_TABLE``, a
    ``table`` of them; else an ``all_different``, the ``sum`` and the values cut."""
    allowed = fillings(len(cells), (total,), w.size, CAGE_TABLE) if cages == "table" else None
    if allowed is not None:
        w.allowed(cells, allowed)  # none: a table that nothing fits
        return
    w.all_different(cells)
    held = 0
    for values in sum_sets(len(cells), total, w.size):
        held |= values
    possible = [v for v in range(1, w.size + 1) if held >> v & 1]
    w.post(f"sum({w.cell_array(cells)}) = {total}")
    if len(possible) < w.size:
        within = "{" + ", ".join(map(str, possible)) + "}" if possible else "{}"
        for cell in cells:
            w.post(f"{w.cell_name(cell)} in {within}")


def _order(strict: bool) -> Callable[[Writer, Sequence[int], Constraint, Options], None]:
    sign = "<" if strict else "<="

    def order(w: Writer, cells: Sequence[int], c: Constraint, options: Options) -> None:
        for a, b in pairwise(cells):
            w.post(f"{w.cell_name(a)} {sign} {w.cell_name(b)}")

    return order


MODELS: dict[str, Callable[[Writer, Sequence[int], Constraint, Options], None]] = {
    "skyscraper": _skyscraper,
    "xsum": _xsum,
    "sandwich": _sandwich,
    "renban": _renban,
    "killercage": _killercage,
    "thermometer": _order(strict=True),
    "slow-thermometer": _order(strict=False),
}
# the kinds whose cells are a whole row or column, all different
LINES = frozenset({"skyscraper", "xsum", "sandwich"})


def post(w: Writer, constraint: Constraint, units: set[frozenset[int]], options: Options) -> None:
    """``constraint`` (of a kind in ``MODELS``) written through ``w`` as ``options`` say (a cage
    with a total by ``sum_group`` with ``options["cages"]``); ``units``: the board's units,
    whose all-different is written already."""
    cells = constraint.cells
    if constraint.kind in LINES and frozenset(cells) not in units:
        w.all_different(cells)
    MODELS[constraint.kind](w, cells, constraint, options)
