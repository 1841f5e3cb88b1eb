"""The SAT family's own CNF of the sums that are not a linear row: sandwiches, X-sums and
arrows (``adapters.cnf_native``'s ``MODELS`` hands them here), each over an automaton of
``adapters.cnf_sum``:

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
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import permutations

from adapters.cardinality import Clause
from adapters.cnf_encoder import Encoder, all_different, at_least, defined_or, prefixes
from adapters.cnf_sum import Step, guarded_sum
from solvers.model.constraints.model import Constraint


def sandwich(e: Encoder, c: Constraint) -> list[Clause]:
    """b(i) "the i-th cell lies strictly between the 1 and the N", from prefix literals of
    "holds 1" and "holds N" (the 1 before i and the N not up to i, or the other way round);
    w(v) "the value v lies between", from b and the cells; the values between adding up to
    the clue (``_subset_sum``), and as many of them as cells between the 1 and the N."""
    x, n, values, cells = e.x, e.n, e.values, c.cells
    clauses = all_different(e, cells)
    ones, more = prefixes(e, [x(cell, 1) for cell in cells])
    clauses += more
    tops, more = prefixes(e, [x(cell, n) for cell in cells])
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


def xsum(e: Encoder, c: Constraint) -> list[Clause]:
    """g(i) "the first cell's value X exceeds i" (order literals of the first cell, defined
    both ways); w(v) "the value v lies among the first X cells", from g and the cells; the
    values inside adding up to the clue (``_subset_sum``), X of them."""
    x, n, values, cells = e.x, e.n, e.values, c.cells
    clauses = all_different(e, cells)
    exceeds: list[int] = []  # exceeds[i - 1]: g(i), built from the top down
    following: list[int] = []
    for i in reversed(range(1, n)):
        g, more = defined_or(e, [*following, x(cells[0], i + 1)])
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


def arrow(e: Encoder, c: Constraint) -> list[Clause]:
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
        found, row = at_least(e, [x(cell, v) for cell in holding[v]], cap + 1)
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
