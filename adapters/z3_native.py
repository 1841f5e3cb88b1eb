"""Z3's own models of some kinds (``z3:model=native``), in place of the shared decomposition
(``solvers.model.compile.handed``), in two forms: over Boolean cells (``cells=bool``, the default),
clauses and pseudo-Boolean rows over the literals "cell holds value" (``LITERALS``); over
integer and bit-vector cells, integer arithmetic over each cell's value (``MODELS``; tried
over Boolean cells too, on each cell's sum of ``If(holds v, v, 0)``, where it lost to the
decomposition: docs/models.md).

Each model says all its constraint says (its all-different groups too, where the kind has
one). It adds no variable, only terms over the cells, so a count's blocking clauses over the
cells count each solution once.

Over the literals (``LITERALS``), where the decomposition gives a pair rule as forbidden pairs
(a clause each: unit propagation then only checks the pair), a native model gives each value
of one cell its supports in the other (the support encoding, which unit propagation keeps arc
consistent: Gent, "Arc consistency in SAT", ECAI 2002), and cuts domains the decomposition
leaves to search:

- ``killercage``, ``multisumcage`` and the compile step's sum groups (the 45 rule's implied
  ones among them: ``literal_group``): with ``cages=combinations`` (default) a selector per
  set of distinct values with the total (``literal_sets``, the CNF backends' model); with
  ``cages=pb`` at most one cell per value, each cell limited to the values some set holds,
  and the ``PbEq`` sum over those.
- ``thermometer``, ``slow-thermometer``: supports of ``<`` (``<=``) between neighbours.
- ``difference``, ``ratio`` (Kropki), ``whispers``: supports of the dot's (the line's) rule.
- ``renban``: at most one cell per value, and for every two cells the supports of "differ by
  1 to length - 1" (in place of a table of runs).
- ``skyscraper``: a cell is seen where it holds some v and no cell before it holds a value
  above v (a running "or" per v over the cells so far), and the seen cells' ``PbEq`` is the
  clue, in place of a table of C(N-1, k-1)**2 rows (visibility, as CP-SAT's model).

The others (``betweenline``, ``xsum``, ``sandwich``) stay decomposed over
Boolean cells: their arithmetic measured worse there than the tables (docs/models.md).

In integer arithmetic (``MODELS``), over the cell's variable (``cells=int``) or its bit-vector
read as an integer (``cells=bitvec``):

- ``killercage``: ``Distinct``, the linear sum, and each cell limited to the values that some
  set of distinct values with that total holds (what the decomposition leaves to search).
  ``multisumcage``: the same, the sum one of the totals.
- ``thermometer``, ``slow-thermometer``: ``<`` or ``<=`` between neighbours.
- ``difference``, ``ratio`` (Kropki), ``whispers``: either order of the two cells, as a
  linear equality or bound (in place of the forbidden pairs, a clause each).
- ``renban``: ``Distinct``, and no two cells further apart than its length less one (with the
  cells different, the values are then consecutive), in place of a table of runs.
- ``betweenline``: each middle cell above the lower end and below the higher one, in place of
  a table of every pair of ends.
- ``skyscraper``: a cell is seen where it is taller than each cell before it; the seen cells,
  as ``If`` terms, add up to the clue (in place of a table of C(N-1, k-1)**2 rows).
- ``xsum``: the sum of ``If(first >= position, cell, 0)`` is the clue (in place of a table of
  every prefix).
- ``sandwich``: the positions of the 1 and the N (each a sum of ``If`` terms: the cells are a
  whole row or column, so each value is there once), and the sum of the cells strictly between
  them (``If`` terms) equal to the clue, in place of a table of every filling.

Not here: ``arrow``, ``littlekiller``, ``xv`` and the other sums, whose decomposition is
already one linear row, which ``cells=int`` gives Z3 as the same ``Sum``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, pairwise

import z3

from solvers.model.cells import sum_sets
from solvers.model.constraints.model import Constraint

SETS = 256  # a cage's sets given a selector each up to this many (``literal_sets``)


def _values(count: int, totals: Sequence[int], n: int) -> list[int]:
    """The values some set of ``count`` different values of 1..n adding up to one of
    ``totals`` holds."""
    held = 0
    for total in totals:
        for values in sum_sets(count, total, n):
            held |= values
    return [v for v in range(1, n + 1) if held >> v & 1]


def _cage(xs: Sequence, totals: Sequence[int], n: int) -> list:
    terms = [z3.Distinct(xs)] if len(xs) > 1 else []
    if not totals:
        return terms
    possible = _values(len(xs), totals, n)
    none = z3.BoolVal(False, xs[0].ctx)  # no set of values has a total
    terms += [z3.Or([x == v for v in possible]) if possible else none for x in xs]
    total = z3.Sum(xs)
    return [*terms, z3.Or([total == t for t in totals])]


def _killercage(xs: Sequence, c: Constraint, n: int) -> list:
    total = c.param("total")
    return _cage(xs, () if total is None else (int(total),), n)


def _multisumcage(xs: Sequence, c: Constraint, n: int) -> list:
    return _cage(xs, tuple(int(t) for t in c.param("totals")), n)


def _order(strict: bool) -> Callable:
    def terms(xs: Sequence, c: Constraint, n: int) -> list:
        return [a < b if strict else a <= b for a, b in pairwise(xs)]

    return terms


def _difference(xs: Sequence, c: Constraint, n: int) -> list:
    gap, (a, b) = int(c.param("difference", 1)), xs
    return [z3.Or(a - b == gap, b - a == gap)]


def _ratio(xs: Sequence, c: Constraint, n: int) -> list:
    times, (a, b) = int(c.param("ratio", 2)), xs
    return [z3.Or(a == times * b, b == times * a)]


def _whispers(xs: Sequence, c: Constraint, n: int) -> list:
    gap = int(c.param("difference", (n + 1) // 2))
    return [z3.Or(a - b >= gap, b - a >= gap) for a, b in pairwise(xs)]


def _renban(xs: Sequence, c: Constraint, n: int) -> list:
    span = len(xs) - 1
    spread = [z3.And(a - b <= span, b - a <= span) for a, b in combinations(xs, 2)]
    return [z3.Distinct(xs), *spread] if len(xs) > 1 else []


def _betweenline(xs: Sequence, c: Constraint, n: int) -> list:
    first, *middle, last = xs
    return [z3.Or(z3.And(first < x, x < last), z3.And(last < x, x < first)) for x in middle]


def _skyscraper(xs: Sequence, c: Constraint, n: int) -> list:
    one, zero = z3.IntVal(1, xs[0].ctx), z3.IntVal(0, xs[0].ctx)
    # the first cell is always seen (an empty And would have no context)
    seen = [one] + [
        z3.If(z3.And([x > before for before in xs[:i]]), one, zero) for i, x in enumerate(xs) if i
    ]
    return [z3.Distinct(xs), z3.Sum(seen) == int(c.param("total"))]


def _xsum(xs: Sequence, c: Constraint, n: int) -> list:
    first, zero = xs[0], z3.IntVal(0, xs[0].ctx)
    parts = [first] + [z3.If(first >= i + 1, x, zero) for i, x in enumerate(xs) if i]
    return [z3.Distinct(xs), z3.Sum(parts) == int(c.param("total"))]


def _sandwich(xs: Sequence, c: Constraint, n: int) -> list:
    ctx = xs[0].ctx
    zero = z3.IntVal(0, ctx)
    ends = [z3.Sum([z3.If(x == end, z3.IntVal(i, ctx), zero) for i, x in enumerate(xs)])
            for end in (1, n)]  # fmt: skip
    low, high = z3.If(ends[0] < ends[1], *ends), z3.If(ends[0] < ends[1], ends[1], ends[0])
    parts = [z3.If(z3.And(low < i, i < high), x, zero) for i, x in enumerate(xs)]
    return [z3.Distinct(xs), z3.Sum(parts) == int(c.param("total"))]


MODELS: dict[str, Callable[[Sequence, Constraint, int], list]] = {
    "killercage": _killercage,
    "multisumcage": _multisumcage,
    "thermometer": _order(strict=True),
    "slow-thermometer": _order(strict=False),
    "difference": _difference,
    "ratio": _ratio,
    "whispers": _whispers,
    "renban": _renban,
    "betweenline": _betweenline,
    "skyscraper": _skyscraper,
    "xsum": _xsum,
    "sandwich": _sandwich,
}


# Over Boolean cells (``cells=bool``): the same rules as clauses and pseudo-Boolean rows over
# the literals "cell holds value" (``holds(cell, value)``), which measured better there than
# the arithmetic over each cell's sum of ``If`` terms


def _supports(holds: Callable, a: int, b: int, fits: Callable, n: int) -> list:
    """Each value of ``a`` needs a value of ``b`` that ``fits(value_a, value_b)``, and the other
    way round (the support encoding: unit propagation keeps the pair arc consistent, where
    the decomposition's forbidden pairs only check it)."""
    terms = []
    for first, second, ok in ((a, b, fits), (b, a, lambda v, w: fits(w, v))):
        for v in range(1, n + 1):
            partners = [holds(second, w) for w in range(1, n + 1) if ok(v, w)]
            terms.append(z3.Implies(holds(first, v), z3.Or(partners)) if partners else
                         z3.Not(holds(first, v)))  # fmt: skip
    return terms


def _different(holds: Callable, cells: Sequence[int], n: int) -> list:
    if len(cells) < 2:
        return []
    return [z3.AtMost(*(holds(c, v) for c in cells), 1) for v in range(1, n + 1)]


def _literal_cage(holds: Callable, cells: Sequence[int], totals: Sequence[int], n: int) -> list:
    terms = _different(holds, cells, n)
    if not totals:
        return terms
    possible = set(_values(len(cells), totals, n))
    terms += [z3.Not(holds(c, v)) for c in cells for v in range(1, n + 1) if v not in possible]
    weighted = [(holds(c, v), v) for c in cells for v in sorted(possible)]
    if not weighted:  # no set of values has the total: every value of the cells is cut above
        return terms
    return [*terms, z3.Or([z3.PbEq(weighted, t) for t in totals])]


def literal_sets(holds: Callable, cells: Sequence[int], totals: Sequence[int], n: int) -> list:
    """The cells hold distinct values making up one set of values with one of ``totals``, as
    clauses over the literals with a selector per set (the CNF backends' ``cages=combinations``,
    ``adapters.cnf_native``): each cell's values outside every set false, a selector implies
    each cell takes a value of its set and each value of its set in some cell, and a cell's
    value implies one of the selectors of the sets holding it, so that a value all but one of
    the cells have lost goes to the last by propagation, where the ``PbEq`` sum waits for the
    cells' values. A cage with more than ``SETS`` sets keeps the ``PbEq`` sum."""
    sets = sorted({s for t in totals for s in sum_sets(len(cells), t, n)})
    if len(sets) > SETS:
        return _literal_cage(holds, cells, totals, n)
    terms, held = _different(holds, cells, n), 0
    for values in sets:
        held |= values
    terms += [z3.Not(holds(c, v)) for c in cells for v in range(1, n + 1) if not held >> v & 1]
    if len(sets) < 2:
        return terms if sets else [*terms, z3.BoolVal(False, holds(cells[0], 1).ctx)]
    ctx = holds(cells[0], 1).ctx
    picks = [z3.FreshBool("set", ctx) for _ in sets]
    terms.append(z3.Or(picks))
    for pick, values in zip(picks, sets, strict=True):
        members = [v for v in range(1, n + 1) if values >> v & 1]
        terms += [z3.Or(z3.Not(pick), *(holds(c, v) for v in members)) for c in cells]
        terms += [z3.Or(z3.Not(pick), *(holds(c, v) for c in cells)) for v in members]
    for c in cells:
        for v in range(1, n + 1):
            if held >> v & 1:
                chosen = [p for p, values in zip(picks, sets, strict=True) if values >> v & 1]
                terms.append(z3.Or(z3.Not(holds(c, v)), *chosen))
    return terms


def literal_group(holds: Callable, cells: Sequence[int], total: int, n: int, cages: str) -> list:
    """A sum group of the compile step (a cage of another kind, or one the 45 rule implies)
    over the literals, as a cage with that total is (``literal_terms``)."""
    if cages == "combinations":
        return literal_sets(holds, cells, (total,), n)
    return _literal_cage(holds, cells, (total,), n)


def _literal_killercage(holds: Callable, cells: Sequence[int], c: Constraint, n: int) -> list:
    total = c.param("total")
    return _literal_cage(holds, cells, () if total is None else (int(total),), n)


def _literal_multisumcage(holds: Callable, cells: Sequence[int], c: Constraint, n: int) -> list:
    return _literal_cage(holds, cells, tuple(int(t) for t in c.param("totals")), n)


def _literal_order(strict: bool) -> Callable:
    def terms(holds: Callable, cells: Sequence[int], c: Constraint, n: int) -> list:
        found = []
        for a, b in pairwise(cells):
            found += _supports(holds, a, b, (lambda v, w: v < w) if strict else
                               (lambda v, w: v <= w), n)  # fmt: skip
        return found

    return terms


def _literal_difference(holds: Callable, cells: Sequence[int], c: Constraint, n: int) -> list:
    gap = int(c.param("difference", 1))
    return _supports(holds, *cells, lambda v, w: abs(v - w) == gap, n)


def _literal_ratio(holds: Callable, cells: Sequence[int], c: Constraint, n: int) -> list:
    times = int(c.param("ratio", 2))
    return _supports(holds, *cells, lambda v, w: v == times * w or w == times * v, n)


def _literal_whispers(holds: Callable, cells: Sequence[int], c: Constraint, n: int) -> list:
    gap = int(c.param("difference", (n + 1) // 2))
    found = []
    for a, b in pairwise(cells):
        found += _supports(holds, a, b, lambda v, w: abs(v - w) >= gap, n)
    return found


def _literal_renban(holds: Callable, cells: Sequence[int], c: Constraint, n: int) -> list:
    span, found = len(cells) - 1, _different(holds, cells, n)
    for a, b in combinations(cells, 2):
        found += _supports(holds, a, b, lambda v, w: 0 < abs(v - w) <= span, n)
    return found


def _literal_skyscraper(holds: Callable, cells: Sequence[int], c: Constraint, n: int) -> list:
    # taller[v]: some cell before this one holds a value above v (a running "or", shared)
    false = z3.BoolVal(False, holds(cells[0], 1).ctx)
    taller, seen = [false] * (n + 1), []
    for cell in cells:
        seen.append(z3.Or([z3.And(holds(cell, v), z3.Not(taller[v])) for v in range(1, n + 1)]))
        for v in range(1, n):  # (nothing is above n)
            taller[v] = z3.Or(taller[v], *(holds(cell, w) for w in range(v + 1, n + 1)))
    return [*_different(holds, cells, n), z3.PbEq([(s, 1) for s in seen], int(c.param("total")))]


LITERALS: dict[str, Callable[[Callable, Sequence[int], Constraint, int], list]] = {
    "skyscraper": _literal_skyscraper,
    "killercage": _literal_killercage,
    "multisumcage": _literal_multisumcage,
    "thermometer": _literal_order(strict=True),
    "slow-thermometer": _literal_order(strict=False),
    "difference": _literal_difference,
    "ratio": _literal_ratio,
    "whispers": _literal_whispers,
    "renban": _literal_renban,
}


def literal_terms(
    holds: Callable, constraint: Constraint, n: int, cages: str = "combinations"
) -> list:
    """Z3's terms of ``constraint`` (of a kind in ``LITERALS``) over the literals
    ``holds(cell, value)``; a cage with a total by ``literal_sets`` where ``cages`` is
    ``combinations``, else by its ``PbEq`` sum."""
    kind = constraint.kind
    if cages == "combinations" and kind in ("killercage", "multisumcage"):
        total = constraint.param("total")
        totals = constraint.param("totals") if kind == "multisumcage" else (total,)
        if totals and None not in totals:
            return literal_sets(holds, constraint.cells, [int(t) for t in totals], n)
    return LITERALS[kind](holds, constraint.cells, constraint, n)


def terms(values: Sequence, constraint: Constraint, n: int) -> list:
    """Z3's terms of ``constraint`` (of a kind in ``MODELS``) over ``values``, each cell's
    integer term in cell order."""
    return MODELS[constraint.kind]([values[i] for i in constraint.cells], constraint, n)
