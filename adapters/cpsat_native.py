"""CP-SAT's own models of some kinds (``cpsat:model=native``), posted over the cells' integer
variables in place of the shared decomposition (``solvers.model.compile.handed``).

Each model says all its constraint says (its all-different groups too, where the kind has
one), and every auxiliary variable it adds is a function of the cells, as ``adapters.cpsat``
requires for counting: CP-SAT enumerates assignments of all variables.

- ``skyscraper``: a Boolean per cell, "seen", equal to "taller than every cell before it",
  with the running maximum as ``AddMaxEquality`` over the prefix, and the seen Booleans adding
  up to the clue (in place of a table of C(N-1, k-1)**2 rows; MiniZinc's and Choco's
  skyscraper models are built the same way).
- ``renban``: all-different, and its maximum less its minimum is its length less one
  (``AddMaxEquality``, ``AddMinEquality``) in place of a table of runs.
- ``xsum``: a Boolean per position, "within the first X", as ``first >= position``, and the
  sum of the cells within it (each a product enforced by that Boolean) equal to the clue.
- ``sandwich``: the positions of the 1 and the N (each a sum over "holds 1" Booleans: the cells
  are a whole row or column, so each value is there once), the lower and the higher of the two
  (``AddMinEquality``, ``AddMaxEquality``), a Boolean per position "strictly between them", and
  the sum of the cells between them equal to the clue, in place of a table of every filling.
- ``thermometer``, ``slow-thermometer``: ``<`` or ``<=`` between neighbours.
- ``difference``, ``ratio`` (Kropki), ``whispers``: a Boolean per pair saying which of the two
  is the larger, and a linear equality or bound on that side (in place of forbidden pairs).
- ``killercage`` and the compile step's sum groups (the 45 rule's implied ones among them:
  ``sum_group``): all-different, the linear sum, and each cell's domain cut to the values
  that some set of distinct values with the total holds (what the decomposition leaves to
  search); with ``cages=table``, where the fillings (every ordering of every such set) are at
  most ``CAGE_TABLE``, ``add_allowed_assignments`` of them instead, which proved fewer of the
  Interactive Sudoku Solver's killers in 5 s (22 of 28 against 24: docs/backends.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise

from ortools.sat.python import cp_model

from adapters.primitive_forms import CAGE_TABLE, fillings
from solvers.model.cells import sum_sets
from solvers.model.constraints.model import Constraint

Options = Mapping[str, str]  # the backend's options, every one given (``CpSatBackend.OPTIONS``)


def _skyscraper(
    model: cp_model.CpModel, cells: Sequence, c: Constraint, n: int, options: Options
) -> None:
    seen = [model.new_constant(1)]
    tallest = cells[0]
    for cell in cells[1:]:
        # a function of the cells: the cells of a row differ, so a cell is either taller than
        # the tallest before it or shorter
        taller = model.new_bool_var("")
        model.add(cell > tallest).only_enforce_if(taller)
        model.add(cell < tallest).only_enforce_if(~taller)
        seen.append(taller)
        top = model.new_int_var(1, n, "")
        model.add_max_equality(top, [tallest, cell])
        tallest = top
    model.add(sum(seen) == int(c.param("total")))


def _renban(
    model: cp_model.CpModel, cells: Sequence, c: Constraint, n: int, options: Options
) -> None:
    model.add_all_different(cells)
    low, high = model.new_int_var(1, n, ""), model.new_int_var(1, n, "")
    model.add_min_equality(low, cells)
    model.add_max_equality(high, cells)
    model.add(high - low == len(cells) - 1)


def _xsum(
    model: cp_model.CpModel, cells: Sequence, c: Constraint, n: int, options: Options
) -> None:
    first, parts = cells[0], [cells[0]]
    for place, cell in enumerate(cells[1:], start=2):
        within = model.new_bool_var("")
        model.add(first >= place).only_enforce_if(within)
        model.add(first < place).only_enforce_if(~within)
        part = model.new_int_var(0, n, "")
        model.add(part == cell).only_enforce_if(within)
        model.add(part == 0).only_enforce_if(~within)
        parts.append(part)
    model.add(sum(parts) == int(c.param("total")))


def _holds(model: cp_model.CpModel, cell, value: int):
    """A Boolean equal to "``cell`` holds ``value``"."""
    held = model.new_bool_var("")
    model.add(cell == value).only_enforce_if(held)
    model.add(cell != value).only_enforce_if(~held)
    return held


def _sandwich(
    model: cp_model.CpModel, cells: Sequence, c: Constraint, n: int, options: Options
) -> None:
    # the cells are a whole row or column (the kind's validation), a unit: each value once
    ends = [sum(i * _holds(model, cell, end) for i, cell in enumerate(cells)) for end in (1, n)]
    low, high = model.new_int_var(0, n - 1, ""), model.new_int_var(0, n - 1, "")
    model.add_min_equality(low, ends)
    model.add_max_equality(high, ends)
    parts = []
    for i, cell in enumerate(cells[1:-1], start=1):
        after, before = model.new_bool_var(""), model.new_bool_var("")
        model.add(low < i).only_enforce_if(after)
        model.add(low >= i).only_enforce_if(~after)
        model.add(high > i).only_enforce_if(before)
        model.add(high <= i).only_enforce_if(~before)
        between = model.new_bool_var("")
        model.add_bool_and([after, before]).only_enforce_if(between)
        model.add_bool_or([~after, ~before]).only_enforce_if(~between)
        part = model.new_int_var(0, n, "")
        model.add(part == cell).only_enforce_if(between)
        model.add(part == 0).only_enforce_if(~between)
        parts.append(part)
    model.add(sum(parts) == int(c.param("total")))


def _order(strict: bool):
    def post(
        model: cp_model.CpModel, cells: Sequence, c: Constraint, n: int, options: Options
    ) -> None:
        for a, b in pairwise(cells):
            model.add(a < b if strict else a <= b)

    return post


def _either_side(model: cp_model.CpModel, a, b, holds: Callable) -> None:
    """``holds(x, y)`` (a linear constraint, x the larger) for one order of the two cells, a
    Boolean saying which (a function of the cells: the two orders never both hold)."""
    first = model.new_bool_var("")
    model.add(holds(a, b)).only_enforce_if(first)
    model.add(holds(b, a)).only_enforce_if(~first)


def _difference(
    model: cp_model.CpModel, cells: Sequence, c: Constraint, n: int, options: Options
) -> None:
    gap = int(c.param("difference", 1))
    _either_side(model, *cells, lambda x, y: x - y == gap)


def _ratio(
    model: cp_model.CpModel, cells: Sequence, c: Constraint, n: int, options: Options
) -> None:
    times = int(c.param("ratio", 2))
    _either_side(model, *cells, lambda x, y: x == times * y)


def _whispers(
    model: cp_model.CpModel, cells: Sequence, c: Constraint, n: int, options: Options
) -> None:
    gap = int(c.param("difference", (n + 1) // 2))
    for a, b in pairwise(cells):
        _either_side(model, a, b, lambda x, y: x - y >= gap)


def sum_group(model: cp_model.CpModel, cells: Sequence, total: int, n: int, cages: str) -> None:
    """Cells holding different values adding up to ``total`` (a cage, or a sum group of the
    compile step: the 45 rule's among them): with ``cages=table`` where its fillings are at
    most ``CAGE_TABLE``, ``add_allowed_assignments`` of them (a table: CP-SAT keeps it arc
    consistent on the whole cage, where the sum and the all-different each prune alone),
    else ``_cage``."""
    allowed = fillings(len(cells), (total,), n, CAGE_TABLE) if cages == "table" else None
    if allowed is None:
        _cage(model, cells, total, n)
    else:  # no filling: an empty table, which no assignment meets
        model.add_allowed_assignments(list(cells), allowed)


def _killercage(
    model: cp_model.CpModel, cells: Sequence, c: Constraint, n: int, options: Options
) -> None:
    total = c.param("total")
    if total is None:
        model.add_all_different(cells)
    else:
        sum_group(model, cells, int(total), n, options["cages"])


def _cage(model: cp_model.CpModel, cells: Sequence, total: int, n: int) -> None:
    model.add_all_different(cells)
    held = 0
    for values in sum_sets(len(cells), int(total), n):
        held |= values
    possible = [v for v in range(1, n + 1) if held >> v & 1]
    domain = cp_model.Domain.from_values(possible)
    for cell in cells:
        model.add_linear_expression_in_domain(cell, domain)
    model.add(sum(cells) == int(total))


MODELS: dict[str, Callable[[cp_model.CpModel, Sequence, Constraint, int, Options], None]] = {
    "skyscraper": _skyscraper,
    "renban": _renban,
    "xsum": _xsum,
    "sandwich": _sandwich,
    "thermometer": _order(strict=True),
    "slow-thermometer": _order(strict=False),
    "difference": _difference,
    "ratio": _ratio,
    "whispers": _whispers,
    "killercage": _killercage,
}


def post(
    model: cp_model.CpModel, cells: Sequence, constraint: Constraint, n: int, options: Options
) -> None:
    """``constraint`` (of a kind in ``MODELS``) posted over ``cells``, the board's cell
    variables in cell order, as the backend's ``options`` say (a cage with a total by
    ``sum_group`` with ``options["cages"]``)."""
    scope = [cells[i] for i in constraint.cells]
    MODELS[constraint.kind](model, scope, constraint, n, options)
