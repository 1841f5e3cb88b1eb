"""The SAT family's own CNF of some kinds (``sat|pysat|cms:model=native``), clauses over the
direct encoding's literals x(cell, v) = ``cell * N + v`` (``adapters.cnf``), in place of the
shared decomposition (``solvers.model.compile.handed``), each the encoding its rule needs:

- ``difference``, ``ratio`` (Kropki dots), ``whispers``, ``xv``: the support encoding of each
  pair the kind decomposes into (a relation's forbidden pairs, or a linear row of two cells
  read as the pairs it allows): for each value v of one cell, "x(a, v) implies one of the
  other cell's values allowed beside v", both ways round (Kasif, "On the parallel complexity of
  discrete relaxation in constraint satisfaction networks", AIJ 1990; Gent, "Arc consistency
  in SAT", ECAI 2002: unit propagation on it keeps each pair arc consistent, where the
  decomposition's clause per forbidden pair only checks a pair once both values are set, and
  a linear row's automaton ``adapters.cnf_primitives.linear_dp`` adds a state variable per
  value of the first cell). With each cell's "exactly one" the supports imply every forbidden
  pair.
- ``killercage``, ``multisumcage``, ``renban``: the cells hold distinct values making up one of
  a list of sets (the sets of distinct values with the total or one of the totals, those
  holding the givens; the runs of consecutive values as long as the line, one per window
  start), with a selector per set: at most one cell per value, each cell's values outside every
  set false, a selector implies each cell takes a value of its set (what the decomposition's
  ``cages=combinations`` and table of runs say) and, beside it, each value of its set in some
  cell, and a cell's value implies one of the selectors of the sets holding it (the value
  channelling of Bacchus, "GAC via unit propagation", CP 2007, as the mip model's rows per
  value do): so a value all but one of the cells have lost goes to the last by propagation.
- ``skyscraper``: visibility literals over order literals: m(i, w) "one of the first i + 1
  cells holds w or more" (defined both ways from m(i - 1, w) and the i-th cell's literals), and
  z(i) "the i-th cell is taller than every cell before it", true exactly when it holds some w
  with m(i - 1, w) false; the first cell and the z's add up to the clue by a sequential counter
  whose every variable is defined both ways (Sinz, "Towards an optimal CNF encoding of Boolean
  cardinality constraints", CP 2005, with the equivalences: ``adapters.cnf_encoder``). In
  place of the decomposition's table of C(N-1, k-1)**2 rows (3,136 selectors for a clue of 4
  on 9x9), N(N - 1) + N(k + 1) variables a clue, as the mip and z3 models (docs/models.md).
- ``sandwich``, ``xsum`` and ``arrow``: automata over their sums, in
  ``adapters.cnf_native_sums``.

Every auxiliary variable here is a function of the cells (defined both ways), so PicoSAT's
enumeration (``sat``) counts each solution once. ``values[cell]`` are the values the cell can
still take (``adapters.cnf.open_values``): the literals of the others are false in every model
and left out.

Not here (docs/models.md says what was measured): ``thermometer`` and ``slow-thermometer``,
whose support clauses (``_pairs`` takes them) measured alike within the noise;
``littlekiller`` and the other sums, whose decomposition is one linear row that ``linear_dp``
already encodes as an automaton over partial sums, each state a function of the cells
(PySAT's pseudo-Boolean encoders, ``linear=pb`` and ``cages=pb``, measured slower); the
board-wide negative dots and ``non-consecutive``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from adapters.cardinality import Clause
from adapters.cnf_encoder import Encoder, all_different, count
from adapters.cnf_native_sums import arrow, sandwich, xsum
from adapters.cnf_primitives import Values, primitive_clauses
from solvers.model.cells import sum_sets
from solvers.model.constraints.kinds import decompose
from solvers.model.constraints.model import Constraint
from solvers.model.constraints.primitives import OPERATORS, Linear, Relation

if TYPE_CHECKING:
    from pysat.formula import IDPool


def _support(e: Encoder, first: int, second: int, allowed: Callable[[int, int], bool]):
    """The support clauses of a pair relation, both ways round."""
    x, values, clauses = e.x, e.values, []
    for a, b, holds in ((first, second, allowed), (second, first, lambda v, w: allowed(w, v))):
        for v in values[a]:
            clauses.append((-x(a, v), *(x(b, w) for w in values[b] if holds(v, w))))
    return clauses


def _pairs(e: Encoder, c: Constraint) -> list[Clause]:
    """The kind's decomposition with each relation and each linear row of two cells as
    support clauses; any other primitive as the decomposition's CNF has it."""
    clauses: list[Clause] = []
    for primitive in decompose(c, e.n):
        if isinstance(primitive, Relation):
            banned = primitive.forbidden
            pair = primitive.first, primitive.second
            clauses += _support(e, *pair, lambda v, w, banned=banned: (v, w) not in banned)
        elif isinstance(primitive, Linear) and len(primitive.terms) == 2:
            (j, a), (k, b) = primitive.terms
            holds = _holds(j, k, primitive.op, primitive.constant)
            clauses += _support(e, a, b, holds)
        else:
            clauses += primitive_clauses(primitive, e.n, e.values, e.pool, e.linear)
    return clauses


@lru_cache(maxsize=256)
def _holds(j: int, k: int, op: str, constant: int) -> Callable[[int, int], bool]:
    accept = OPERATORS[op]
    return lambda v, w: accept(j * v + k * w, constant)


def _one_set_of(e: Encoder, cells: Sequence[int], sets: Sequence[int]) -> list[Clause]:
    """The cells hold distinct values making up one of ``sets`` (bit masks, each of
    ``len(cells)`` values)."""
    x, n, values = e.x, e.n, e.values
    sets = [s for s in sets if all(any(s >> v & 1 for v in values[c]) for c in cells)]
    clauses = all_different(e, cells)
    held = 0
    for s in sets:
        held |= s
    clauses += [(-x(c, v),) for c in cells for v in values[c] if not held >> v & 1]
    if not sets:
        return [*clauses, ()]
    picks = [e.new() for _ in sets] if len(sets) > 1 else [None]
    if len(sets) > 1:
        clauses.append(tuple(picks))  # some set (at most one follows from the cells)
    for pick, s in zip(picks, sets, strict=True):
        guard = () if pick is None else (-pick,)
        members = [v for v in range(1, n + 1) if s >> v & 1]
        for c in cells:  # each cell takes a value of the set
            clauses.append((*guard, *(x(c, v) for v in members if v in values[c])))
        for v in members:  # each value of the set in some cell
            clauses.append((*guard, *(x(c, v) for c in cells if v in values[c])))
        if pick is not None:  # the cells' values make the set: its selector follows
            outside = [x(c, v) for c in cells for v in values[c] if not s >> v & 1]
            clauses.append((pick, *outside))
    if len(sets) > 1:  # a cell's value implies one of the sets holding it
        for c in cells:
            for v in values[c]:
                if held >> v & 1:
                    chosen = [p for p, s in zip(picks, sets, strict=True) if s >> v & 1]
                    clauses.append((-x(c, v), *chosen))
    return clauses


def _cage(e: Encoder, c: Constraint) -> list[Clause]:
    cells = c.cells
    if c.kind == "multisumcage":
        totals = [int(t) for t in c.param("totals")]
    elif (total := c.param("total")) is not None:
        totals = [int(total)]
    else:
        return all_different(e, cells)
    sets = sorted({s for t in totals for s in sum_sets(len(cells), t, e.n)})
    return _one_set_of(e, cells, sets)


def _renban(e: Encoder, c: Constraint) -> list[Clause]:
    size = len(c.cells)
    runs = [sum(1 << v for v in range(low, low + size)) for low in range(1, e.n - size + 2)]
    return _one_set_of(e, c.cells, runs)


def _skyscraper(e: Encoder, c: Constraint) -> list[Clause]:
    x, n, values, cells = e.x, e.n, e.values, c.cells
    clauses = all_different(e, cells)

    def at_least(cell: int, w: int) -> list[int]:
        return [x(cell, u) for u in values[cell] if u >= w]

    # reaching[w]: a literal for "some cell so far holds w or more" (None: none can)
    reaching: dict[int, int | None] = {}
    for w in range(2, n + 1):
        first = at_least(cells[0], w)
        if not first:
            reaching[w] = None
            continue
        m = e.new()
        clauses += [(-m, *first), *((m, -lit) for lit in first)]
        reaching[w] = m
    seen = []  # z(i) for i >= 1
    for index, cell in enumerate(cells[1:], start=1):
        z = e.new()
        seen.append(z)
        for v in values[cell]:  # z holds exactly when the cell's value beats the maximum so far
            before = reaching.get(v)  # v == 1: reaching[1] is always true
            if v == 1:
                clauses.append((-x(cell, v), -z))
            elif before is None:
                clauses.append((-x(cell, v), z))
            else:
                clauses += [(-x(cell, v), before, z), (-x(cell, v), -before, -z)]
        if index == len(cells) - 1:
            break
        for w in range(2, n + 1):  # the maximum so far, updated with this cell
            before, mine = reaching[w], at_least(cell, w)
            if not mine:
                continue
            m = e.new()
            clauses += [(m, -lit) for lit in mine]
            if before is not None:
                clauses += [(m, -before), (-m, before, *mine)]
            else:
                clauses.append((-m, *mine))
            reaching[w] = m
    return clauses + count(e, seen, int(c.param("total")) - 1)


# thermometers would take _pairs too: left out, measured alike (the module's docstring)
PAIR_KINDS = ("difference", "ratio", "whispers", "xv")


MODELS: dict[str, Callable[[Encoder, Constraint], list[Clause]]] = {
    "killercage": _cage,
    "multisumcage": _cage,
    "renban": _renban,
    "skyscraper": _skyscraper,
    "sandwich": sandwich,
    "xsum": xsum,
    "arrow": arrow,
    **dict.fromkeys(PAIR_KINDS, _pairs),
}


def clauses(constraint: Constraint, n: int, values: Values, pool: IDPool, linear: str) -> list:
    """``constraint``'s (of a kind in ``MODELS``) clauses over the open ``values`` of each cell,
    its auxiliary variables from ``pool`` (``linear``: the form of the linear rows it leaves to
    the decomposition's CNF)."""
    return MODELS[constraint.kind](Encoder(n, values, pool, linear), constraint)
