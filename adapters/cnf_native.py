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
  cardinality constraints", CP 2005, with the equivalences). In place of the decomposition's
  table of C(N-1, k-1)**2 rows (3,136 selectors for a clue of 4 on 9x9), N(N - 1) + N(k + 1)
  variables a clue, as the mip and z3 models (docs/models.md).

- ``sandwich``: b(i) "the i-th cell lies strictly between the 1 and the N" from prefix
  literals "the 1 (the N) is among the first i cells", w(v) "the value v lies between" from
  b and the cells, and the w's adding up to the clue by an automaton over the values whose
  state is (how many values, their sum) (``adapters.cnf_sum``): so propagation sees the sets
  of distinct values that make the clue, as a cage's sets, and their sizes, which fix how far
  apart the 1 and the N are (clauses over their positions). In place of a table of every
  filling and position (70 selectors for a clue of 15 on an empty 9x9) whose rows know the
  sets but not, per value, that it lies inside: a first model summing the cells in order
  (b guarding each value) lost the sets and measured slower than the table.
- ``xsum``: the same over the first X cells, g(i) "X exceeds i" being order literals of the
  first cell's value and the count of values inside being X.
- ``arrow``: the shaft's sum cell by cell from 0 up (none of the circle's terms in the
  automaton, whose states stay within the numbers the circle can read), the last layer's
  total channelled to the circle's digits (a pill's read as a number); and, for a shaft
  longer than a row (values must repeat), its sum value by value too: a counter per value of
  the shaft cells holding it, capped by the rows and by the columns they lie in (units the
  board's rules state: implied clauses), and an automaton over (cells counted, sum), so that
  propagation bounds a long shaft's total by how many small values it can hold.

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

from collections.abc import Callable, Collection, Sequence
from functools import lru_cache
from itertools import permutations
from typing import TYPE_CHECKING

from adapters.cardinality import Clause, at_most_one
from adapters.cnf_primitives import Values, primitive_clauses
from adapters.cnf_sum import Step, guarded_sum
from solvers.model.cells import sum_sets
from solvers.model.constraints.kinds import decompose
from solvers.model.constraints.model import Constraint
from solvers.model.constraints.primitives import OPERATORS, Linear, Relation

if TYPE_CHECKING:
    from pysat.formula import IDPool


class Encoder:
    """What a kind's model writes with: the board's size, each cell's open values, the pool of
    auxiliary variables, and the form of the linear rows it hands on (``linear``)."""

    def __init__(self, n: int, values: Values, pool: IDPool, linear: str) -> None:
        self.n, self.values, self.pool, self.linear = n, values, pool, linear

    def x(self, cell: int, v: int) -> int:
        return cell * self.n + v

    def new(self) -> int:
        return self.pool.id()


def _all_different(e: Encoder, cells: Sequence[int]) -> list[Clause]:
    return [
        clause
        for v in range(1, e.n + 1)
        for clause in at_most_one([e.x(c, v) for c in cells if v in e.values[c]])
    ]


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
    clauses = _all_different(e, cells)
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
        return _all_different(e, cells)
    sets = sorted({s for t in totals for s in sum_sets(len(cells), t, e.n)})
    return _one_set_of(e, cells, sets)


def _renban(e: Encoder, c: Constraint) -> list[Clause]:
    size = len(c.cells)
    runs = [sum(1 << v for v in range(low, low + size)) for low in range(1, e.n - size + 2)]
    return _one_set_of(e, c.cells, runs)


def _skyscraper(e: Encoder, c: Constraint) -> list[Clause]:
    x, n, values, cells = e.x, e.n, e.values, c.cells
    clauses = _all_different(e, cells)

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
    return clauses + _count(e, seen, int(c.param("total")) - 1)


def _count(e: Encoder, literals: Sequence[int], total: int) -> list[Clause]:
    """Exactly ``total`` of ``literals`` true (``_at_least``'s counter up to total + 1)."""
    if total < 0 or total > len(literals):
        return [()]
    clauses, row = _at_least(e, literals, total + 1)
    for j, must in ((total, True), (total + 1, False)):
        value = row[j]
        if isinstance(value, bool):
            if value is not must:
                return [()]
        else:
            clauses.append((value,) if must else (-value,))
    return clauses


def _at_least(
    e: Encoder, literals: Sequence[int], top: int
) -> tuple[list[Clause], list[int | bool]]:
    """A sequential counter, s(i, j) "at least j of the first i are true" for j up to
    ``top``, each defined both ways; returns its clauses and the last row: "at least j of
    them" for j in 0..top, a literal, or True/False where already decided."""
    clauses: list[Clause] = []
    row: list[int | bool] = [True] + [False] * top
    for lit in literals:
        new: list[int | bool] = [True]
        for j in range(1, top + 1):
            keep, step = row[j], row[j - 1]
            if keep is True or (step is False and keep is False):
                new.append(keep)
                continue
            s = e.new()
            # s <-> keep or (step and lit)
            if keep is not False:
                clauses.append((s, -keep))
            if step is True:
                clauses.append((s, -lit))
                clauses.append((-s, lit) if keep is False else (-s, keep, lit))
            elif step is not False:
                clauses.append((s, -step, -lit))
                rest = () if keep is False else (keep,)
                clauses += [(-s, *rest, step), (-s, *rest, lit)]
            else:  # step False: s <-> keep
                clauses.append((-s, keep))
            new.append(s)
        row = new
    return clauses, row


def _defined_or(e: Encoder, literals: Sequence[int]) -> tuple[int, list[Clause]]:
    """A fresh literal defined as the disjunction of ``literals`` (false for none)."""
    lit = e.new()
    return lit, [(-lit, *literals), *((lit, -other) for other in literals)]


def _prefixes(e: Encoder, literals: Sequence[int]) -> tuple[list[int], list[Clause]]:
    """p[i] "one of ``literals[: i + 1]`` is true", each defined both ways."""
    found: list[int] = []
    clauses: list[Clause] = []
    for lit in literals:
        p, more = _defined_or(e, [*found[-1:], lit])
        found.append(p)
        clauses += more
    return found, clauses


def _sandwich(e: Encoder, c: Constraint) -> list[Clause]:
    """b(i) "the i-th cell lies strictly between the 1 and the N", from prefix literals of
    "holds 1" and "holds N" (the 1 before i and the N not up to i, or the other way round);
    w(v) "the value v lies between", from b and the cells; the values between adding up to
    the clue (``_subset_sum``), and as many of them as cells between the 1 and the N."""
    x, n, values, cells = e.x, e.n, e.values, c.cells
    clauses = _all_different(e, cells)
    ones, more = _prefixes(e, [x(cell, 1) for cell in cells])
    clauses += more
    tops, more = _prefixes(e, [x(cell, n) for cell in cells])
    clauses += more
    between: list[int | None] = [None] * n  # the end cells are never between
    for i in range(1, n - 1):
        b = between[i] = e.new()
        one_before, top_before, one_to, top_to = ones[i - 1], tops[i - 1], ones[i], tops[i]
        clauses += [
            (-one_before, top_to, b),  # the 1 before, the N after
            (-top_before, one_to, b),  # the N before, the 1 after
            (-b, one_before, top_before),  # b: one end before,
            (-b, one_before, -one_to),  # neither end here,
            (-b, top_before, -top_to),
            (-b, -one_to, -top_to),  # and not both up to here
            (-b, -x(cells[i], 1)),
            (-b, -x(cells[i], n)),
        ]
    inside = {}
    for v in range(2, n):
        w = inside[v] = e.new()
        for i, cell in enumerate(cells):
            if v in values[cell]:
                b = between[i]
                if b is None:
                    clauses.append((-x(cell, v), -w))
                else:
                    clauses += [(-x(cell, v), -b, w), (-x(cell, v), b, -w)]
    found, sizes = _subset_sum(e, inside, int(c.param("total")))
    clauses += found
    for i, j in permutations(range(n), 2):  # the 1 and the N, as far apart as values between
        pick = sizes.get(abs(i - j) - 1, False)
        pair = (-x(cells[i], 1), -x(cells[j], n))
        if pick is not None:
            clauses.append((*pair, pick) if pick else pair)
    for k, pick in sizes.items():  # so many between: the other end k + 1 cells away
        if pick is None:
            continue
        for i, cell in enumerate(cells):
            for end, other in ((1, n), (n, 1)):
                partners = [x(cells[j], other) for j in (i - k - 1, i + k + 1) if 0 <= j < n]
                clauses.append((-pick, -x(cell, end), *partners))
    return clauses


def _xsum(e: Encoder, c: Constraint) -> list[Clause]:
    """g(i) "the first cell's value X exceeds i" (order literals of the first cell, defined
    both ways); w(v) "the value v lies among the first X cells", from g and the cells; the
    values inside adding up to the clue (``_subset_sum``), X of them."""
    x, n, values, cells = e.x, e.n, e.values, c.cells
    clauses = _all_different(e, cells)
    exceeds: list[int] = []  # exceeds[i - 1]: g(i), built from the top down
    following: list[int] = []
    for i in reversed(range(1, n)):
        g, more = _defined_or(e, [*following, x(cells[0], i + 1)])
        clauses += more
        exceeds.insert(0, g)
        following = [g]
    inside = {}
    for v in range(1, n + 1):
        w = inside[v] = e.new()
        if v in values[cells[0]]:
            clauses.append((-x(cells[0], v), w))
        for i, cell in enumerate(cells[1:], start=1):
            if v in values[cell]:
                g = exceeds[i - 1]
                clauses += [(-x(cell, v), -g, w), (-x(cell, v), g, -w)]
    found, sizes = _subset_sum(e, inside, int(c.param("total")))
    clauses += found
    for k in sorted({*sizes, *range(1, n + 1)}):  # X values inside: the first cell's value
        pick = sizes.get(k, False)
        first = () if k == 0 else (x(cells[0], k),)
        if pick is None:
            clauses.append(first)
        elif pick is False:
            clauses.append(tuple(-lit for lit in first))
        else:
            clauses += [(-pick, *first), *((pick, -lit) for lit in first)]
    return clauses


def _subset_sum(
    e: Encoder, inside: dict[int, int], total: int
) -> tuple[list[Clause], dict[int, int | None]]:
    """The values v whose literal ``inside[v]`` holds add up to ``total``: an automaton over
    the values (``adapters.cnf_sum``) whose state is (how many so far, their sum), so that
    unit propagation sees which sets of distinct values can make the total, as a cage's sets
    do, and how large they are. Returns its clauses and, per count of values inside, the
    last layer's literal (None: the only count left)."""
    scale = sum(inside) + 1  # a state is count * scale + sum
    steps: list[Step] = [[(0, (-w,)), (scale + v, (w,))] for v, w in sorted(inside.items())]
    accepted = {k * scale + total for k in range(len(inside) + 1)}
    found, last = guarded_sum(steps, accepted, e.new)
    return found, {t // scale: pick for t, pick in last.items()}


def _arrow(e: Encoder, c: Constraint) -> list[Clause]:
    """The shaft's sum two ways, each channelled to the circle's digits (``_reads``): cell by
    cell, an automaton from 0 up (its states the partial sums, none beyond the largest number
    the circle can read); and value by value (``_by_value``), for a shaft longer than a row
    (on short arrows it measured slower, the caps telling propagation little)."""
    x, values = e.x, e.values
    size = int(c.param("circle", 1))
    circle, shaft = c.cells[:size], c.cells[size:]
    numbers: dict[int, tuple[int, ...]] = {0: ()}
    for cell in circle:  # each number the circle can read -> its digits
        numbers = {t * 10 + v: (*ds, v) for t, ds in numbers.items() for v in values[cell]}
    steps: list[Step] = [[(v, (x(cell, v),)) for v in values[cell]] for cell in shaft]
    clauses, last = guarded_sum(steps, numbers, e.new)
    clauses += _reads(e, circle, numbers, last)
    if len(shaft) > e.n:  # values must repeat: how often each can bounds the sum
        found, last = _by_value(e, shaft, numbers)
        clauses += found + _reads(e, circle, numbers, last)
    return clauses


def _by_value(
    e: Encoder, cells: Sequence[int], totals: Collection[int]
) -> tuple[list[Clause], dict[int, int | None]]:
    """The cells' sum as the values' counts: for each value v, a counter of the cells holding
    it (at most as many as the rows, and as the columns, of the cells that can hold it: each
    a unit), and an automaton over the values whose state is (cells so far, their sum), all
    the cells counted at the end. So propagation sees how many small or large values the
    cells can hold at most, which bounds their sum (a long arrow's shaft of small values).
    Returns the clauses and the last layer's literal per total (``adapters.cnf_sum``)."""
    x, n, values = e.x, e.n, e.values
    caps, holding = {}, {}
    for v in range(1, n + 1):
        holding[v] = [cell for cell in cells if v in values[cell]]
        rows, columns = {cell // n for cell in holding[v]}, {cell % n for cell in holding[v]}
        caps[v] = min(len(rows), len(columns))
    # a state is count * scale + sum
    scale = max(sum(v * cap for v, cap in caps.items()), *totals) + 1
    clauses: list[Clause] = []
    steps: list[Step] = []
    for v, cap in caps.items():
        found, row = _at_least(e, [x(cell, v) for cell in holding[v]], cap + 1)
        clauses += found
        if row[cap + 1] is not False:  # no more than one a row: the units say so already
            clauses.append(() if row[cap + 1] is True else (-row[cap + 1],))
        options: list[tuple[int, tuple[int, ...]]] = []
        for j in range(cap + 1):
            here, above = row[j], row[j + 1] if j < cap else False
            if here is False or above is True:
                continue
            guard = (*(() if here is True else (here,)), *(() if above is False else (-above,)))
            options.append((j * (scale + v), guard))
        steps.append(options)
    accepted = {len(cells) * scale + t for t in totals}
    found, last = guarded_sum(steps, accepted, e.new)
    return clauses + found, {t % scale: pick for t, pick in last.items()}


def _reads(
    e: Encoder,
    circle: Sequence[int],
    numbers: dict[int, tuple[int, ...]],
    last: dict[int, int | None],
) -> list[Clause]:
    """The circle shows the shaft's total: the total t of ``last`` (its literal, or None when
    the only one) holds exactly when each circle cell holds its digit of t (``numbers``)."""
    x, values, clauses = e.x, e.values, []
    for t, digits in numbers.items():
        pick = last.get(t, False)
        if pick is None:  # the only total left: the circle shows it
            clauses += [(x(cell, d),) for cell, d in zip(circle, digits, strict=True)]
            continue
        chosen = tuple(-x(cell, d) for cell, d in zip(circle, digits, strict=True))
        clauses.append((*chosen, pick) if pick else chosen)
        if pick:  # and the total its digits
            clauses += [(-pick, x(cell, d)) for cell, d in zip(circle, digits, strict=True)]
    for place, cell in enumerate(circle):  # a digit implies one of the totals showing it
        for v in values[cell]:
            showing = [p for t, p in last.items() if numbers[t][place] == v]
            if None not in showing:
                clauses.append((-x(cell, v), *showing))
    return clauses


# thermometers would take _pairs too: left out, measured alike (the module's docstring)
PAIR_KINDS = ("difference", "ratio", "whispers", "xv")

MODELS: dict[str, Callable[[Encoder, Constraint], list[Clause]]] = {
    "killercage": _cage,
    "multisumcage": _cage,
    "renban": _renban,
    "skyscraper": _skyscraper,
    "sandwich": _sandwich,
    "xsum": _xsum,
    "arrow": _arrow,
    **dict.fromkeys(PAIR_KINDS, _pairs),
}


def clauses(constraint: Constraint, n: int, values: Values, pool: IDPool, linear: str) -> list:
    """``constraint``'s (of a kind in ``MODELS``) clauses over the open ``values`` of each cell,
    its auxiliary variables from ``pool`` (``linear``: the form of the linear rows it leaves to
    the decomposition's CNF)."""
    return MODELS[constraint.kind](Encoder(n, values, pool, linear), constraint)
