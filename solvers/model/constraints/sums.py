"""Kinds about order and sums: thermometers, arrows, killer cages, little killers.

- ``thermometer``: cells from the bulb, strictly increasing; ``slow-thermometer``: never
  decreasing.
- ``arrow``: the first ``circle`` cells (default 1) form the circle, read left to right as a
  decimal number (several cells only up to N = 9); the rest is the shaft, whose values add up
  to that number. Values on the shaft may repeat (outside a shared unit). The shaft leaves
  from any cell of a pill: its first cell touches one of the circle's.
- ``doublearrow``: a line with a circle at each end; the values between them add up to the
  two circles' values together: dclamage/SudokuSolver's ``Constraints/DoubleArrowConstraint.cs``
  (f-puzzles key ``doublearrow``: the line's first and last cells are the circles).
- ``killercage``: the cells hold different values adding up to ``total`` when it is given.
- ``multisumcage``: the cells hold different values adding up to one of ``totals``:
  dclamage/SudokuSolver's ``Constraints/MultiSumKillerCageConstraint.cs``; its
  ``SolverFactory.cs`` reads f-puzzles' drawn ``cage`` whose text is ``DR<n>`` (a digital
  root) as such a cage, its totals n, n + 9, ... that its cell count can reach.
- ``littlekiller``: the cells of a diagonal, from the clue outward, add up to ``total``.

Kinds of sigh's Interactive Sudoku Solver (ISS: github.com/sigh/Interactive-Sudoku-Solver), each
as its ``js/sudoku_constraint.js`` states it and its ``js/solver/handlers.js`` enforces it:

- ``sum``: the cells (any cells; values may repeat) add up to ``total``, each value times its
  weight where ``weights`` gives one per cell (ISS ``Sum``, whose coefficients are these).
- ``lunchbox``: the cells hold different values; those between the smallest and the largest,
  in the cells' order, add up to ``total`` (ISS ``Lunchbox``; on a whole row, a sandwich).
- ``rellikcage``: the cells hold different values, and no one or more of them add up to
  ``total`` (ISS ``RellikCage``).
- ``sumline``: the line splits into consecutive stretches that each add up to ``total``; with
  ``loop=1`` the last cell touches the first and a stretch may run across that join (ISS
  ``SumLine``, its handler's partial sums reset at the total). Its decomposition is one table
  of every allowed tuple of the line, so a line whose table would pass ``MAX_LINE_ROWS`` rows
  is refused (a line of 8 or more cells at total 10 on 9x9).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, combinations, pairwise

from solvers.base.errors import InputError
from solvers.model.cells import cell_name

from .model import Constraint, Kind, describe, int_param, require_line, require_steps
from .primitives import AllDifferent, Linear, Primitive, Table


def _order_problems(constraint: Constraint, grid: Sequence[int], n: int, strict: bool):
    problems = []
    for a, b in pairwise(constraint.cells):
        if grid[b] < grid[a] or (strict and grid[b] == grid[a]):
            problems.append(
                f"{cell_name(b, n)} ({grid[b]}) is not "
                f"{'above' if strict else 'at least'} {cell_name(a, n)} ({grid[a]}) on the line"
            )
    return problems


def check_thermometer(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    return _order_problems(constraint, grid, n, strict=True)


def check_slow_thermometer(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    return _order_problems(constraint, grid, n, strict=False)


def decompose_thermometer(constraint: Constraint, n: int) -> list[Primitive]:
    return [Linear(((1, a), (-1, b)), "<=", -1) for a, b in pairwise(constraint.cells)]


def decompose_slow_thermometer(constraint: Constraint, n: int) -> list[Primitive]:
    return [Linear(((1, a), (-1, b)), "<=", 0) for a, b in pairwise(constraint.cells)]


def _circle(constraint: Constraint) -> int:
    return int(constraint.param("circle", 1))


def check_arrow(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    size = _circle(constraint)
    circle, shaft = constraint.cells[:size], constraint.cells[size:]
    number = int("".join(str(grid[cell]) for cell in circle))
    total = sum(grid[cell] for cell in shaft)
    if total == number:
        return []
    return [f"the arrow from {cell_name(circle[0], n)} adds up to {total}, not {number}"]


def decompose_arrow(constraint: Constraint, n: int) -> list[Primitive]:
    size = _circle(constraint)
    circle, shaft = constraint.cells[:size], constraint.cells[size:]
    terms = [(10 ** (size - 1 - place), cell) for place, cell in enumerate(circle)]
    return [Linear(tuple(terms + [(-1, cell) for cell in shaft]), "==", 0)]


def check_doublearrow(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    first, *between, last = constraint.cells
    ends, total = grid[first] + grid[last], sum(grid[cell] for cell in between)
    if ends == total:
        return []
    return [
        f"the double arrow from {cell_name(first, n)} to {cell_name(last, n)} adds up to "
        f"{total} between its circles, not their {ends}"
    ]


def decompose_doublearrow(constraint: Constraint, n: int) -> list[Primitive]:
    first, *between, last = constraint.cells
    return [Linear(((1, first), (1, last), *((-1, cell) for cell in between)), "==", 0)]


def _twice(values: list[int], where: str) -> list[str]:
    return [f"the cage at {where} holds {v} twice" for v in sorted(set(values))
            if values.count(v) > 1]  # fmt: skip


def check_killercage(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    values, where = [grid[cell] for cell in constraint.cells], cell_name(constraint.cells[0], n)
    problems, total = _twice(values, where), constraint.param("total")
    if total is not None and sum(values) != total:
        problems.append(f"the cage at {where} adds up to {sum(values)}, not {total}")
    return problems


def decompose_killercage(constraint: Constraint, n: int) -> list[Primitive]:
    found: list[Primitive] = [AllDifferent(constraint.cells)]
    total = constraint.param("total")
    if total is not None:
        found.append(Linear(tuple((1, cell) for cell in constraint.cells), "==", int(total)))
    return found


def check_multisumcage(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    values, where = [grid[cell] for cell in constraint.cells], cell_name(constraint.cells[0], n)
    problems, totals = _twice(values, where), constraint.param("totals")
    if sum(values) not in totals:
        problems.append(f"the cage at {where} adds up to {sum(values)}, none of {list(totals)}")
    return problems


def decompose_multisumcage(constraint: Constraint, n: int) -> list[Primitive]:
    cells, totals = constraint.cells, set(constraint.param("totals"))
    sets = [frozenset(s) for s in combinations(range(1, n + 1), len(cells)) if sum(s) in totals]
    return [AllDifferent(cells), Table(cells, tuple((s,) * len(cells) for s in sets))]


def check_littlekiller(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    total = sum(grid[cell] for cell in constraint.cells)
    if total == constraint.param("total"):
        return []
    return [
        f"the diagonal from {cell_name(constraint.cells[0], n)} adds up to {total}, "
        f"not {constraint.param('total')}"
    ]


def decompose_littlekiller(constraint: Constraint, n: int) -> list[Primitive]:
    terms = tuple((1, cell) for cell in constraint.cells)
    return [Linear(terms, "==", int(constraint.param("total")))]


def _validate_arrow(constraint: Constraint, n: int) -> None:
    where = describe(constraint, n)
    int_param(constraint, n, "circle", 1, min(3, len(constraint.cells) - 1))
    size = _circle(constraint)
    if size > 1 and n > 9:
        raise InputError(f"{where}: a circle of several cells reads digits, so N must be <= 9")
    circle, shaft = constraint.cells[:size], constraint.cells[size:]
    require_steps(Constraint(constraint.kind, shaft), n, True, "an arrow's cells")
    # f-puzzles draws a pill's shaft from any of its cells (dclamage/SudokuSolver's
    # SolverFactory.cs reads the shaft as the line past its first cell, whichever that is)
    if not any(_touch(cell, shaft[0], n) for cell in circle):
        raise InputError(
            f"{where}: the shaft's first cell {cell_name(shaft[0], n)} touches no "
            "cell of the circle"
        )


def _touch(a: int, b: int, n: int) -> bool:
    return max(abs(a // n - b // n), abs(a % n - b % n)) == 1


def _validate_killercage(constraint: Constraint, n: int) -> None:
    count = len(constraint.cells)
    if count > n:
        raise InputError(f"{describe(constraint, n)}: {count} cells cannot hold different values")
    low, high = count * (count + 1) // 2, count * (2 * n - count + 1) // 2
    int_param(constraint, n, "total", low, high)


def _validate_multisumcage(constraint: Constraint, n: int) -> None:
    _validate_killercage(constraint, n)
    totals, where = constraint.param("totals"), describe(constraint, n)
    if not isinstance(totals, tuple) or not totals:
        raise InputError(f"{where}: totals must be one or more whole numbers")
    if any(type(total) is not int or not 1 <= total <= n * (n + 1) // 2 for total in totals):
        raise InputError(f"{where}: totals {totals!r} are not all in 1..{n * (n + 1) // 2}")


def _validate_littlekiller(constraint: Constraint, n: int) -> None:
    int_param(constraint, n, "total", 1, n * n)
    cells = constraint.cells
    steps = {(b // n - a // n, b % n - a % n) for a, b in pairwise(cells)}
    if len(steps) > 1 or any(abs(dr) != 1 or abs(dc) != 1 for dr, dc in steps):
        raise InputError(f"{describe(constraint, n)}: the cells are not one diagonal line")


def _weights(constraint: Constraint) -> tuple[int, ...]:
    return tuple(constraint.param("weights", (1,) * len(constraint.cells)))


def check_sum(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    cells, total = constraint.cells, constraint.param("total")
    weights = constraint.param("weights") or [1] * len(cells)
    found = sum(weights[i] * grid[cell] for i, cell in enumerate(cells))
    if found == total:
        return []
    return [f"the sum at {cell_name(cells[0], n)} is {found}, not {total}"]


def decompose_sum(constraint: Constraint, n: int) -> list[Primitive]:
    terms = tuple(zip(_weights(constraint), constraint.cells, strict=True))
    return [Linear(terms, "==", int(constraint.param("total")))]


def _validate_sum(constraint: Constraint, n: int) -> None:
    weights, where = constraint.param("weights"), describe(constraint, n)
    if weights is not None:
        if not isinstance(weights, tuple) or len(weights) != len(constraint.cells):
            raise InputError(f"{where}: weights must give one whole number per cell")
        if any(type(w) is not int or w == 0 or abs(w) > 100 for w in weights):
            raise InputError(f"{where}: weights {weights!r} are not all in -100..100 but 0")
    low = sum(min(w, w * n) for w in _weights(constraint))
    high = sum(max(w, w * n) for w in _weights(constraint))
    int_param(constraint, n, "total", low, high)


def _plain_weights(constraint: Constraint) -> Constraint:
    """Weights of 1 for every cell say what no weights say."""
    if constraint.param("weights") != (1,) * len(constraint.cells):
        return constraint
    params = tuple(p for p in constraint.params if p[0] != "weights")
    return Constraint(constraint.kind, constraint.cells, params)


def check_lunchbox(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    values, where = [grid[cell] for cell in constraint.cells], cell_name(constraint.cells[0], n)
    if problems := [p.replace("cage", "lunchbox") for p in _twice(values, where)]:
        return problems
    low, high = sorted((values.index(min(values)), values.index(max(values))))
    found, total = sum(values[low + 1 : high]), constraint.param("total")
    if found == total:
        return []
    return [f"the lunchbox at {where} holds {found} between its ends, not {total}"]


def decompose_lunchbox(constraint: Constraint, n: int) -> list[Primitive]:
    """Every way to place its smallest value ``low`` and largest ``high``: the cells between
    them hold a set of values strictly between with the total, the other cells the rest of
    that range (all different, so each set is held exactly)."""
    cells, total = constraint.cells, int(constraint.param("total"))
    count, rows = len(cells), []
    for low in range(1, n + 1):
        for high in range(low + count - 1, n + 1):
            inside = range(low + 1, high)
            for first, last in combinations(range(count), 2):
                for filling in combinations(inside, last - first - 1):
                    if sum(filling) != total:
                        continue
                    rest = frozenset(inside) - frozenset(filling)
                    for ends in ((low, high), (high, low)):
                        row = [rest] * count
                        row[first + 1 : last] = [frozenset(filling)] * (last - first - 1)
                        row[first], row[last] = frozenset({ends[0]}), frozenset({ends[1]})
                        rows.append(tuple(row))
    return [AllDifferent(cells), Table(cells, tuple(rows))]


def _validate_lunchbox(constraint: Constraint, n: int) -> None:
    count = len(constraint.cells)
    if count > n:
        raise InputError(f"{describe(constraint, n)}: {count} cells cannot hold different values")
    int_param(constraint, n, "total", 0, sum(range(2, n)))


def _sums_to(values: Sequence[int], total: int) -> tuple[int, ...] | None:
    for size in range(1, len(values) + 1):
        for some in combinations(values, size):
            if sum(some) == total:
                return some
    return None


def check_rellikcage(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    values, where = [grid[cell] for cell in constraint.cells], cell_name(constraint.cells[0], n)
    problems = [p.replace("cage", "rellik cage") for p in _twice(values, where)]
    if (some := _sums_to(values, constraint.param("total"))) is not None:
        shown = "+".join(map(str, some))
        problems.append(f"the rellik cage at {where} holds {shown} = {constraint.param('total')}")
    return problems


def decompose_rellikcage(constraint: Constraint, n: int) -> list[Primitive]:
    cells, total = constraint.cells, int(constraint.param("total"))
    sets = [
        frozenset(values)
        for values in combinations(range(1, n + 1), len(cells))
        if not any(sum(s) == total for size in range(1, len(values) + 1)
                   for s in combinations(values, size))
    ]  # fmt: skip
    return [AllDifferent(cells), Table(cells, tuple((s,) * len(cells) for s in sets))]


def _validate_rellikcage(constraint: Constraint, n: int) -> None:
    count = len(constraint.cells)
    if count > n:
        raise InputError(f"{describe(constraint, n)}: {count} cells cannot hold different values")
    int_param(constraint, n, "total", 1, n * (n + 1) // 2)


MAX_LINE_ROWS = 20_000


def _stretches(values: Sequence[int], total: int) -> bool:
    """Whether the values, in order, split into stretches that each add up to ``total``."""
    running = 0
    for value in values:
        running += value
        if running > total:
            return False
        running %= total
    return running == 0


def check_sumline(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    values, total = [grid[cell] for cell in constraint.cells], constraint.param("total")
    starts = range(len(values)) if constraint.param("loop", 0) else (0,)
    if any(_stretches(values[s:] + values[:s], total) for s in starts):
        return []
    return [
        f"the sum line at {cell_name(constraint.cells[0], n)} does not split into stretches "
        f"of {total}"
    ]


def _line_tuples(length: int, total: int, n: int) -> list[tuple[int, ...]]:
    """Every tuple of ``length`` values 1..n whose running sum meets each multiple of ``total``
    and ends on one (built stretch by stretch: the running sum so far is the state)."""
    found: list[tuple[int, ...]] = []

    def extend(prefix: list[int], running: int) -> None:
        if len(prefix) == length:
            if running == 0:
                found.append(tuple(prefix))
            return
        for value in range(1, min(n, total - running) + 1):
            prefix.append(value)
            extend(prefix, (running + value) % total)
            prefix.pop()

    extend([], 0)
    return found


def _line_count(length: int, total: int, n: int) -> int:
    states = {0: 1}
    for _ in range(length):
        following: dict[int, int] = {}
        for running, ways in states.items():
            for value in range(1, min(n, total - running) + 1):
                after = (running + value) % total
                following[after] = following.get(after, 0) + ways
        states = following
    return states.get(0, 0)


def decompose_sumline(constraint: Constraint, n: int) -> list[Primitive]:
    cells, total = constraint.cells, int(constraint.param("total"))
    tuples = _line_tuples(len(cells), total, n)
    if constraint.param("loop", 0):  # a stretch may run across the join: any rotation
        count = len(cells)
        turns = ((t[count - s :] + t[: count - s] for s in range(count)) for t in tuples)
        tuples = list(dict.fromkeys(chain.from_iterable(turns)))
    rows = tuple(tuple(frozenset({value}) for value in t) for t in tuples)
    return [Table(cells, rows)]


def _validate_sumline(constraint: Constraint, n: int) -> None:
    require_line(constraint, n)
    where, cells = describe(constraint, n), constraint.cells
    int_param(constraint, n, "total", 1, n * n)
    int_param(constraint, n, "loop", 0, 1)
    if constraint.param("loop", 0) and not _touch(cells[-1], cells[0], n):
        raise InputError(
            f"{where}: a loop's last cell {cell_name(cells[-1], n)} does not touch its first"
        )
    total = constraint.param("total")
    if total is None:
        return
    rows = _line_count(len(cells), total, n) * (len(cells) if constraint.param("loop", 0) else 1)
    if rows > MAX_LINE_ROWS:
        raise InputError(
            f"{where}: a sum line of {len(cells)} cells at total {total} needs a table of "
            f"about {rows} rows, over the {MAX_LINE_ROWS} its decomposition takes"
        )


LINE = (2, None)
KINDS = (
    Kind("thermometer", "Values strictly increase along the thermometer, starting from the bulb.",
         check_thermometer, decompose_thermometer, frozenset({Linear}), cells=LINE,
         validate_more=require_line, fpuzzles="thermometer", fpuzzles_shape="lines",
         example="thermometer r1c1 r1c2 r2c3", source="dclamage ThermometerConstraint.cs"),
    Kind("slow-thermometer", "Values never decrease along the thermometer, starting from the bulb.",
         check_slow_thermometer, decompose_slow_thermometer, frozenset({Linear}), cells=LINE,
         validate_more=require_line, fpuzzles="slowthermometer", fpuzzles_shape="lines",
         example="slow-thermometer r9c1 r8c1 r7c1", source="dclamage SlowThermometerConstraint.cs"),
    Kind("arrow", "The values along the arrow add up to the number in its circle.", check_arrow,
         decompose_arrow, frozenset({Linear}), cells=LINE, params=frozenset({"circle"}),
         defaults=lambda n: {"circle": 1}, validate_more=_validate_arrow, fpuzzles="arrow",
         example="arrow r1c5 r2c5 r3c5 r3c6 circle=1", source="dclamage ArrowSumConstraint.cs"),
    Kind("doublearrow",
         "The values between the circles at the line's two ends add up to the circles' values.",
         check_doublearrow, decompose_doublearrow, frozenset({Linear}), cells=(3, None),
         validate_more=require_line, fpuzzles="doublearrow", fpuzzles_shape="lines",
         example="doublearrow r4c7 r5c7 r6c7 r7c7", source="dclamage DoubleArrowConstraint.cs"),
    Kind("killercage",
         "Values do not repeat in the cage and add up to its total, when one is given.",
         check_killercage, decompose_killercage, frozenset({AllDifferent, Linear}),
         params=frozenset({"total"}), validate_more=_validate_killercage, fpuzzles="killercage",
         example="killercage r1c1 r1c2 r2c1 total=12", source="dclamage KillerCageConstraint.cs"),
    Kind("multisumcage", "Values do not repeat in the cage and add up to one of its totals.",
         check_multisumcage, decompose_multisumcage, frozenset({AllDifferent, Table}),
         params=frozenset({"totals"}), required=frozenset({"totals"}),
         validate_more=_validate_multisumcage, example="multisumcage r8c1 r8c2 r9c1 totals=6,15,24",
         source="dclamage MultiSumKillerCageConstraint.cs"),
    Kind("littlekiller", "The values along the marked diagonal add up to the clue.",
         check_littlekiller, decompose_littlekiller, frozenset({Linear}),
         params=frozenset({"total"}), required=frozenset({"total"}),
         validate_more=_validate_littlekiller, fpuzzles="littlekillersum",
         example="littlekiller r1c2 r2c3 r3c4 total=15",
         source="dclamage LittleKillerConstraint.cs"),
    # the kinds of sigh's Interactive Sudoku Solver (module docstring)
    Kind("sum", "The values add up to the total, each times its weight when weights are given; "
         "values may repeat.", check_sum, decompose_sum, frozenset({Linear}),
         params=frozenset({"total", "weights"}), required=frozenset({"total"}),
         validate_more=_validate_sum, canonical=_plain_weights,
         example="sum r1c1 r1c2 r2c2 total=12", source="sigh sudoku_constraint.js"),
    Kind("lunchbox", "Values differ; those between the smallest and the largest, in the cells' "
         "order, add up to the total.", check_lunchbox, decompose_lunchbox,
         frozenset({AllDifferent, Table}), cells=(2, None), params=frozenset({"total"}),
         required=frozenset({"total"}), validate_more=_validate_lunchbox,
         example="lunchbox r1c1 r1c2 r1c3 r1c4 r1c5 total=7", source="sigh handlers.js"),
    Kind("rellikcage", "Values do not repeat in the cage and no one or more of them add up to "
         "its total.", check_rellikcage, decompose_rellikcage, frozenset({AllDifferent, Table}),
         params=frozenset({"total"}), required=frozenset({"total"}),
         validate_more=_validate_rellikcage, example="rellikcage r1c1 r1c2 r2c1 total=5",
         source="sigh sudoku_constraint.js"),
    Kind("sumline", "The line splits into consecutive stretches that each add up to the total "
         "(a loop: around the loop).", check_sumline, decompose_sumline, frozenset({Table}),
         cells=LINE, params=frozenset({"total", "loop"}), required=frozenset({"total"}),
         defaults=lambda n: {"loop": 0}, validate_more=_validate_sumline,
         example="sumline r1c1 r1c2 r2c3 r3c3 total=10", source="sigh handlers.js"),
)  # fmt: skip
