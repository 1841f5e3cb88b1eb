"""The mip backend's own models of some kinds (``mip:model=native``), rows over the binaries
x[cell, value] (and binaries of their own) in place of the shared decomposition
(``solvers.model.compile.handed``), where the decomposition becomes a big or a weak formulation.

Each model says all its constraint says (its all-different groups too, where the kind has
one). Its binaries need not be functions of the cells: the backend's no-good cuts name cell
binaries only, so a solution is counted once whatever they are.

- ``killercage``, ``multisumcage``, ``renban``: the cells hold distinct values making up one
  set of a list (the sets of distinct values with the total or one of the totals; the runs of
  consecutive values as long as the line), as a binary per set: the sets' binaries add up to 1,
  and for each value the cells holding it add up to the binaries of the sets that hold it;
  each cell's values outside every set are banned. This is the extended formulation of a
  disjunction of polytopes (Balas, "Disjunctive programming", 1979), here one row per value
  rather than one per cell and set as the decomposition's table of sets or runs makes, and it
  replaces a cage's weak sum row (whose linear relaxation holds for fractional values). A cage
  with more than ``SETS`` sets (large cages on 16x16) keeps all-different, the sum row and
  the values cut. The compile step's sum groups (the 45 rule's implied ones among them) are
  written the same way (``sum_group``), unless ``mip:cages=rows`` leaves cages and groups to
  the decomposition's all-different and sum row.
- ``thermometer``, ``slow-thermometer``: for each pair of neighbours a < b (or a <= b), for
  each w, "b <= w implies a <= w - 1" as ``sum(x[b, u <= w]) <= sum(x[a, u <= w - 1])``: the
  order encoding of the comparison (Tamura et al., "Compiling finite linear CSP into SAT",
  Constraints 2009) written as linear rows, whose relaxation is the convex hull of the pair
  (the decomposition's ``v(a) + 1 <= v(b)`` with v(c) = sum(v * x[c, v]) is not).
- ``difference``, ``ratio``, ``whispers``, ``xv`` and the board-wide ``negative-difference``,
  ``negative-ratio``, ``negative-xv``: each pair's forbidden value pairs
  (as the vocabulary decomposes the kind) aggregated into support rows, for each value v of
  one cell ``x[a, v] <= sum(x[b, w] for the w allowed beside v)``, both ways round: with the
  cell's "= 1" row each is the clique row x[a, v] + sum(x[b, w] forbidden) <= 1, which implies
  every one of the decomposition's pairwise rows x[a, v] + x[b, w] <= 1 (2N rows a pair in
  place of up to N**2); an ``xv`` sum becomes its allowed pairs the same way.
- ``skyscraper``: the running maximum in order encoding, a binary m[i, w] "some of the first i
  cells holds w or more" (m[i, w] >= m[i-1, w], >= the i-th cell's x[., >= w], <= their sum),
  and a binary z[i] "the i-th cell is taller than every cell before it", the running maximum
  rising there (z[i] >= m[i, w] - m[i-1, w] for each w, z[i] <= their sum); the first cell and
  the z binaries add up to the clue. N(N - 1) binaries and about 4N**2 rows a clue, in place of
  the decomposition's table of C(N-1, k-1)**2 rows (3,136 rows, each a binary and 9 rows, for
  a clue of 4 on 9x9). A first form, a binary per cell and value "holds w, none before reaches
  w" (the product x[i, w] * (1 - m[i-1, w]) linearised), proved 1 of the Interactive Sudoku
  Solver's 5 skyscraper puzzles in 10 s where this one proves 3 (docs/models.md).

Not here: ``arrow`` (the decomposition is already the one linear equality over v(c)),
``xsum`` and ``sandwich`` (their tables have at most a few hundred rows on 9x9, each tight;
a compact model needs big-M rows on the first cell's value or the crusts' positions, whose
relaxation is weak), ``non-consecutive`` (its support rows made HiGHS's root LP slower than the
pairwise rows on ``nonconsecutive9``: docs/models.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import pairwise

from solvers.model.cells import sum_sets
from solvers.model.constraints.kinds import decompose
from solvers.model.constraints.model import Constraint
from solvers.model.constraints.primitives import Linear, Relation

SETS = 256  # a cage's sets modelled by a binary each up to this many

Row = tuple[list[int], list[float], float, float]
INF = float("inf")


class Rows:
    """What a model writes into: the backend's rows (``mip._PrimitiveRows``): ``n``, ``x(cell,
    value)`` (a cell binary's index), ``new()`` (a binary of its own), ``rows`` (the rows, each
    (binaries, weights, lower, upper)), ``add(primitive)``, and ``givens`` (the board's cells,
    0 where empty)."""

    n: int
    rows: list[Row]
    givens: Sequence[int]

    def x(self, cell: int, v: int) -> int: ...
    def new(self) -> int: ...
    def add(self, primitive) -> None: ...


def _ban(rows: Rows, cell: int, allowed: set[int] | range) -> None:
    banned = [rows.x(cell, v) for v in range(1, rows.n + 1) if v not in allowed]
    if banned:
        rows.rows.append((banned, [1.0] * len(banned), -INF, 0.0))


def _all_different(rows: Rows, cells: Sequence[int]) -> None:
    for v in range(1, rows.n + 1):
        rows.rows.append(([rows.x(c, v) for c in cells], [1.0] * len(cells), -INF, 1.0))


def _possible(rows: Rows, cells: Sequence[int], sets: Sequence[int]) -> list[int]:
    """The values some of ``sets`` (bit masks) holds, every other value banned in the cells."""
    held = 0
    for values in sets:
        held |= values
    possible = [v for v in range(1, rows.n + 1) if held >> v & 1]
    for cell in cells:
        _ban(rows, cell, set(possible))  # no set: every value banned, so no solution
    return possible


def _one_set_of(rows: Rows, cells: Sequence[int], sets: Sequence[int]) -> None:
    """The cells hold distinct values making up one of ``sets`` (bit masks, each of
    ``len(cells)`` values)."""
    possible = _possible(rows, cells, sets)
    if not sets:
        return
    picks = [rows.new() for _ in sets] if len(sets) > 1 else []
    if picks:
        rows.rows.append((picks, [1.0] * len(picks), 1.0, 1.0))
    for v in possible:
        here = [rows.x(c, v) for c in cells]
        if not picks:  # one set: each of its values once among the cells
            rows.rows.append((here, [1.0] * len(here), 1.0, 1.0))
        else:
            chosen = [pick for pick, values in zip(picks, sets, strict=True) if values >> v & 1]
            weights = [1.0] * len(here) + [-1.0] * len(chosen)
            rows.rows.append(([*here, *chosen], weights, 0.0, 0.0))


def _fitting(rows: Rows, cells: Sequence[int], sets: Sequence[int]) -> list[int]:
    """The sets that hold every given of the cells (a set binary the givens rule out would
    only be fixed at 0 by presolve: on a 16x16 killer with 120 givens, 2,000 of them)."""
    given = sum(1 << rows.givens[c] for c in cells if rows.givens[c])
    return [values for values in sets if values & given == given]


def _cage(rows: Rows, cells: Sequence[int], totals: Sequence[int]) -> None:
    every = {s for total in totals for s in sum_sets(len(cells), total, rows.n)}
    sets = _fitting(rows, cells, sorted(every))
    if len(sets) <= SETS:
        _one_set_of(rows, cells, sets)
        return
    _all_different(rows, cells)
    _possible(rows, cells, sets)
    if len(totals) == 1:  # one total: its sum row (several: the values cut alone)
        rows.add(Linear(tuple((1, c) for c in cells), "==", totals[0]))


def _killercage(rows: Rows, cells: Sequence[int], c: Constraint) -> None:
    total = c.param("total")
    if total is None:
        _all_different(rows, cells)
    else:
        _cage(rows, cells, (int(total),))


def _multisumcage(rows: Rows, cells: Sequence[int], c: Constraint) -> None:
    _cage(rows, cells, tuple(int(t) for t in c.param("totals")))


def _renban(rows: Rows, cells: Sequence[int], c: Constraint) -> None:
    size, n = len(cells), rows.n
    runs = [sum(1 << v for v in range(first, first + size)) for first in range(1, n - size + 2)]
    _one_set_of(rows, cells, _fitting(rows, cells, runs))


def _order(strict: bool) -> Callable[[Rows, Sequence[int], Constraint], None]:
    gap = 1 if strict else 0

    def model(rows: Rows, cells: Sequence[int], c: Constraint) -> None:
        n, x = rows.n, rows.x
        for a, b in pairwise(cells):
            for w in range(1, n + 1):  # b <= w implies a <= w - gap
                low = [x(b, u) for u in range(1, w + 1)]
                high = [x(a, u) for u in range(1, w - gap + 1)]
                if len(high) == n:
                    continue  # a <= n always
                weights = [1.0] * len(low) + [-1.0] * len(high)
                rows.rows.append(([*low, *high], weights, -INF, 0.0))

    return model


def _support(rows: Rows, first: int, second: int, forbidden: frozenset) -> None:
    """Each value of one cell excludes the other's values not allowed beside it, both ways
    round, as one row a value: ``x[a, v] + sum(x[b, w] forbidden) <= 1``, or where fewer
    values are allowed than forbidden its equal under the other cell's "= 1" row,
    ``x[a, v] <= sum(x[b, w] allowed)`` (the sparser of the two: HiGHS's LP is slower on
    dense rows)."""
    x = rows.x
    for a, b, plan in zip((first, second), (second, first), _plan(forbidden, rows.n), strict=True):
        for v, upper, others in plan:
            weight = 1.0 if upper else -1.0
            row = [x(a, v), *(x(b, w) for w in others)]
            rows.rows.append((row, [1.0] + [weight] * len(others), -INF, upper))


@lru_cache(maxsize=1024)
def _plan(forbidden: frozenset, n: int) -> tuple[list, list]:
    """The support rows of a pair's forbidden (v, w) pairs, as (v, upper bound, the other
    cell's values) for the first cell, then for the second (the same for every pair with
    those forbidden pairs: a board-wide rule has hundreds)."""
    plans: tuple[list, list] = ([], [])
    for plan, banned in zip(plans, (forbidden, {(w, v) for v, w in forbidden}), strict=True):
        for v in range(1, n + 1):
            bad = [w for w in range(1, n + 1) if (v, w) in banned]
            if not bad:
                continue
            if len(bad) <= n - len(bad):
                plan.append((v, 1.0, bad))
            else:  # x[a, v] - sum(allowed) <= 0
                plan.append((v, 0.0, [w for w in range(1, n + 1) if (v, w) not in banned]))
    return plans


def _pairs(rows: Rows, cells: Sequence[int], c: Constraint) -> None:
    """The kind's decomposition with each pair relation (and each linear row of two cells) as
    support rows; any other primitive as the backend writes it."""
    for primitive in decompose(c, rows.n):
        if isinstance(primitive, Relation):
            _support(rows, primitive.first, primitive.second, primitive.forbidden)
        elif isinstance(primitive, Linear) and len(primitive.terms) == 2:
            (j, a), (k, b) = primitive.terms
            forbidden = _breaking(j, k, primitive.op, primitive.constant, rows.n)
            _support(rows, a, b, forbidden)
        else:
            rows.add(primitive)


@lru_cache(maxsize=1024)
def _breaking(j: int, k: int, op: str, constant: int, n: int) -> frozenset:
    """The value pairs (v, w) for which j * v + k * w ``op`` constant fails."""
    holds = {
        "==": lambda t: t == constant,
        "!=": lambda t: t != constant,
        "<=": lambda t: t <= constant,
        ">=": lambda t: t >= constant,
    }[op]
    pairs = ((v, w) for v in range(1, n + 1) for w in range(1, n + 1))
    return frozenset((v, w) for v, w in pairs if not holds(j * v + k * w))


PAIR_KINDS = (
    "difference",
    "ratio",
    "whispers",
    "xv",
    "negative-difference",
    "negative-ratio",
    "negative-xv",
)


def _skyscraper(rows: Rows, cells: Sequence[int], c: Constraint) -> None:
    n, x, out = rows.n, rows.x, rows.rows
    _all_different(rows, cells)
    # reaching[w]: binaries whose sum is "some cell so far holds w or more"
    reaching = {w: [x(cells[0], u) for u in range(w, n + 1)] for w in range(2, n + 1)}
    seen: list[int] = []
    for cell in cells[1:]:
        z = rows.new()  # the cell is taller than every cell before it
        rises = []
        for w in range(2, n + 1):
            # m: "some cell up to this one holds w or more"
            m, before = rows.new(), reaching[w]
            mine = [x(cell, u) for u in range(w, n + 1)]
            out.append(([*before, m], [1.0] * len(before) + [-1.0], -INF, 0.0))
            out.append(([*mine, m], [1.0] * len(mine) + [-1.0], -INF, 0.0))
            out.append(([m, *before, *mine], [1.0] + [-1.0] * (len(before) + len(mine)), -INF, 0.0))
            # z >= m - before (a rise at w); z <= sum of the rises
            out.append(([m, *before, z], [1.0] + [-1.0] * len(before) + [-1.0], -INF, 0.0))
            rises.append((m, before))
            reaching[w] = [m]
        # z <= the sum of the rises (the first cell's binaries recur across w: HiGHS refuses
        # a row naming a binary twice, so they are added up)
        merged: dict[int, float] = {z: 1.0}
        for m, before in rises:
            merged[m] = merged.get(m, 0.0) - 1.0
            for b in before:
                merged[b] = merged.get(b, 0.0) + 1.0
        out.append((list(merged), list(merged.values()), -INF, 0.0))
        seen.append(z)
    total = float(c.param("total"))
    out.append((seen, [1.0] * len(seen), total - 1.0, total - 1.0))


MODELS: dict[str, Callable[[Rows, Sequence[int], Constraint], None]] = {
    "killercage": _killercage,
    "multisumcage": _multisumcage,
    "renban": _renban,
    "thermometer": _order(strict=True),
    "slow-thermometer": _order(strict=False),
    "skyscraper": _skyscraper,
    **dict.fromkeys(PAIR_KINDS, _pairs),
}


def sum_group(rows: Rows, cells: Sequence[int], total: int) -> None:
    """A sum group of the compile step (a cage of another kind, or one the 45 rule implies)
    as a cage: a choice among its sets of values (``mip:sums=sets``)."""
    _cage(rows, cells, (total,))


def add(rows: Rows, constraint: Constraint) -> None:
    """``constraint`` (of a kind in ``MODELS``) written as rows into ``rows``."""
    MODELS[constraint.kind](rows, constraint.cells, constraint)
