"""The constraint kinds: each kind's check and its decomposition agree, instance by instance.

For random instances of every kind on 4x4 and 6x6 boards, every assignment of values to the
constraint's cells (all of them where there are few, else random ones, ones the check accepts
found by local search, and their one-cell changes) gets the same verdict from the check and
from the primitives of the decomposition. The check and the decomposition share no code, so
an agreement is two readings of the rule meeting.
"""

from __future__ import annotations

import itertools
import random
import re

import pytest

from solvers.base.errors import InputError
from solvers.model.constraints.kinds import KINDS, kinds_compiled_by, validate
from solvers.model.constraints.model import Constraint
from solvers.model.constraints.primitives import (
    PRIMITIVE_TYPES,
    AllDifferent,
    Linear,
    Relation,
    Table,
    holds,
)
from solvers.model.geometry import Shape

EXHAUSTIVE = 5000


def walk(rng: random.Random, n: int, length: int, diagonal: bool = True) -> tuple[int, ...]:
    """A random line of distinct cells, each touching the next."""
    steps = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr or dc)]
    steps = steps if diagonal else [(dr, dc) for dr, dc in steps if not (dr and dc)]
    while True:
        cells = [rng.randrange(n * n)]
        while len(cells) < length:
            r, c = divmod(cells[-1], n)
            nexts = [(r + dr) * n + c + dc for dr, dc in steps
                     if 0 <= r + dr < n and 0 <= c + dc < n]  # fmt: skip
            nexts = [cell for cell in nexts if cell not in cells]
            if not nexts:
                break
            cells.append(rng.choice(nexts))
        if len(cells) == length:
            return tuple(cells)


def orthogonal_pairs(n: int) -> list[tuple[int, int]]:
    across = [(r * n + c, r * n + c + 1) for r in range(n) for c in range(n - 1)]
    return across + [(r * n + c, r * n + c + n) for r in range(n - 1) for c in range(n)]


def diagonal_line(rng: random.Random, n: int) -> tuple[int, ...]:
    """A little killer's cells: from a random edge cell, diagonally to the far edge."""
    dr, dc = rng.choice([(1, 1), (1, -1), (-1, 1), (-1, -1)])
    start_r = 0 if dr == 1 else n - 1
    r, c, cells = start_r, rng.randrange(n), []
    while 0 <= r < n and 0 <= c < n:
        cells.append(r * n + c)
        r, c = r + dr, c + dc
    return tuple(cells[: rng.randint(1, 5)])


OUTSIDE = {
    "sandwich": lambda n: (0, sum(range(2, n))),
    "xsum": lambda n: (1, n * (n + 1) // 2),
    "skyscraper": lambda n: (1, n),
}


def outside_line(rng: random.Random, n: int) -> tuple[int, ...]:
    """A whole row or column, read from either end."""
    index = rng.randrange(n)
    line = [index * n + i for i in range(n)] if rng.random() < 0.5 else range(index, n * n, n)
    return tuple(line)[:: rng.choice((1, -1))]


def instance(name: str, n: int, rng: random.Random) -> Constraint:
    """A random well-formed constraint of kind ``name`` on an n x n board."""
    values = list(range(1, n + 1))
    # A prime N has no boxes; rows stand in for them (a 1 x N box tiles the board too).
    shape = Shape.for_size(n) if n in (4, 6, 8, 9) else None
    box = (("box", (shape.box_rows, shape.box_cols) if shape else (1, n)),)
    if KINDS[name].board_wide:
        if name.startswith("negative"):
            pairs = rng.sample(orthogonal_pairs(n), 5)
            return Constraint(name, (), (("exempt", tuple(pairs)),))
        if name == "knightmare" and rng.random() < 0.5:
            sums = rng.sample(range(2, 2 * n + 1), rng.randint(1, 3))
            return Constraint(name, (), (("sums", tuple(sorted(sums))),))
        if name == "taxicab":
            return Constraint(name, (), (("distance", rng.randint(1, 2 * n - 2)),))
        return Constraint(name, (), box if name == "disjointgroups" else ())
    if name in ("columnindexer", "rowindexer", "boxindexer"):
        return Constraint(name, (rng.randrange(n * n),), box if name == "boxindexer" else ())
    if name in OUTSIDE:
        return Constraint(name, outside_line(rng, n), (("total", rng.randint(*OUTSIDE[name](n))),))
    if name == "quadruple":
        top = rng.randrange(n - 1) * n + rng.randrange(n - 1)
        values = rng.sample(values * 2, rng.randint(1, 4))
        return Constraint(name, (top, top + 1, top + n, top + n + 1), (("values", tuple(values)),))
    if name == "extraregion":
        return Constraint(name, tuple(rng.sample(range(n * n), rng.randint(2, n))))
    if name in ("odd", "even"):
        return Constraint(name, (rng.randrange(n * n),))
    if name == "candidates":
        marks = tuple(sorted(rng.sample(values, rng.randint(1, n - 1))))
        return Constraint(name, (rng.randrange(n * n),), (("values", marks),))
    if name in ("minimum", "maximum"):  # a touching pair is not compared: draw some
        cells = dict.fromkeys(walk(rng, n, rng.randint(1, 2), diagonal=False))
        cells |= dict.fromkeys(rng.sample(range(n * n), rng.randint(0, 1)))
        return Constraint(name, tuple(cells))
    if name in ("xv", "difference", "ratio"):
        pair = rng.choice(orthogonal_pairs(n))
        params = {
            "xv": (("sum", rng.choice((5, 10))),),
            "difference": rng.choice(((), (("difference", rng.randint(1, n - 1)),))),
            "ratio": rng.choice(((), (("ratio", rng.randint(2, 3)),))),
        }[name]
        return Constraint(name, pair[:: rng.choice((1, -1))], params)
    if name == "arrow":
        circle = rng.choice((1, 2))
        return Constraint(name, walk(rng, n, rng.randint(circle + 1, 4)), (("circle", circle),))
    if name == "killercage":
        cells = walk(rng, n, rng.randint(1, min(4, n)), diagonal=False)
        total = sum(rng.sample(values, len(cells)))
        return Constraint(name, cells, rng.choice(((("total", total),), ())))
    if name == "multisumcage":
        cells = walk(rng, n, rng.randint(1, min(4, n)), diagonal=False)
        totals = {sum(rng.sample(values, len(cells))) for _ in range(rng.randint(1, 3))}
        return Constraint(name, cells, (("totals", tuple(sorted(totals))),))
    if name == "littlekiller":
        cells = diagonal_line(rng, n)
        return Constraint(name, cells, (("total", sum(rng.choices(values, k=len(cells)))),))
    if name == "clone":
        cells = rng.sample(range(n * n), 2 * rng.randint(1, 3))
        return Constraint(name, tuple(cells))
    if name == "regionsumline":
        cells = walk(rng, n, rng.randint(2, 5))
        region_of = shape.geometry.box_of if shape else [cell // n for cell in range(n * n)]
        return Constraint(name, cells, (("regions", tuple(region_of[c] for c in cells)),))
    if name in SIGH_SUMS:
        return SIGH_SUMS[name](rng, n)
    if name in ("numberedroom", "hiddenskyscraper"):
        return Constraint(name, outside_line(rng, n), (("value", rng.randint(1, n)),))
    if name == "lookandsay":
        cells = tuple(rng.sample(range(n * n), rng.randint(1, 5)))
        named = rng.sample(values, rng.randint(1, 2))
        counts = [rng.randint(0, len(cells) // len(named)) for _ in named]
        return Constraint(name, cells, (("values", tuple(named)), ("counts", tuple(counts))))
    if name in ("pairline", "pairgroup"):
        pairs = {(a, b) for a in values for b in values if rng.random() < 0.5} or {(1, 1)}
        if name == "pairgroup":
            pairs |= {(b, a) for a, b in pairs}
        flat = tuple(v for pair in sorted(pairs) for v in pair)
        cells = tuple(rng.sample(range(n * n), rng.randint(2, 4)))
        return Constraint(name, cells, (("pairs", flat),))
    if name == "equalitycage":
        cells = walk(rng, n, rng.choice((2, 4)), diagonal=False)
        return Constraint(name, cells)
    least = {"betweenline": 3, "zipper": 3, "doublearrow": 3}.get(name, 2)
    params = ()
    if name == "whispers" and rng.random() < 0.5:
        params = (("difference", rng.randint(1, n - 1)),)
    if name == "modularline" and rng.random() < 0.5:
        params = (("modulus", rng.randint(2, n)),)
    return Constraint(name, walk(rng, n, rng.randint(least, min(5, n))), params)


def _sum_instance(rng: random.Random, n: int) -> Constraint:
    cells = tuple(rng.sample(range(n * n), rng.randint(1, 4)))
    weights = tuple(rng.choice((-2, -1, 1, 1, 2, 3)) for _ in cells)
    params: tuple = (("weights", weights),) if rng.random() < 0.5 else ()
    values = rng.choices(range(1, n + 1), k=len(cells))
    weights = dict(params).get("weights", (1,) * len(cells))
    total = sum(w * v for w, v in zip(weights, values, strict=True))
    return Constraint("sum", cells, (*params, ("total", total)))


def _lunchbox_instance(rng: random.Random, n: int) -> Constraint:
    cells = walk(rng, n, rng.randint(2, min(5, n)), diagonal=False)
    return Constraint("lunchbox", cells, (("total", rng.randint(0, sum(range(2, n)))),))


def _rellik_instance(rng: random.Random, n: int) -> Constraint:
    cells = walk(rng, n, rng.randint(1, min(4, n)), diagonal=False)
    return Constraint("rellikcage", cells, (("total", rng.randint(1, 2 * n)),))


def _sumline_instance(rng: random.Random, n: int) -> Constraint:
    loop = rng.random() < 0.3
    # up to 4 cells (3 past 6x6): each assignment reads the table's every row
    longest = 4 if n <= 6 else 3
    cells = walk(rng, n, longest) if loop else walk(rng, n, rng.randint(2, longest))
    while loop and max(abs(cells[0] // n - cells[-1] // n), abs(cells[0] % n - cells[-1] % n)) != 1:
        cells = walk(rng, n, longest)
    params = (("total", rng.randint(n // 2, n + 2)),) + ((("loop", 1),) if loop else ())
    return Constraint("sumline", cells, params)


def _circles_instance(rng: random.Random, n: int) -> Constraint:
    return Constraint("countingcircles", tuple(rng.sample(range(n * n), rng.randint(1, 6))))


# the kinds of sigh's Interactive Sudoku Solver in sums.py (and counting.py)
SIGH_SUMS = {
    "sum": _sum_instance,
    "lunchbox": _lunchbox_instance,
    "rellikcage": _rellik_instance,
    "sumline": _sumline_instance,
    "countingcircles": _circles_instance,
}


def assignments(kind, constraint, n, rng, climbs=8):
    """Value tuples for the constraint's scope: all of them, or a sample rich in near misses."""
    scope = kind.scope(constraint, n)
    if len(scope) == n and n <= 6:
        yield from itertools.permutations(range(1, n + 1))
    if n ** len(scope) <= EXHAUSTIVE:
        yield from itertools.product(range(1, n + 1), repeat=len(scope))
        return
    for _ in range(150):
        yield tuple(rng.randint(1, n) for _ in scope)
    for _ in range(climbs):
        accepted = accepted_by_check(kind, constraint, n, scope, rng)
        if accepted is None:
            continue
        yield accepted
        for _ in range(10):
            changed = list(accepted)
            changed[rng.randrange(len(scope))] = rng.randint(1, n)
            yield tuple(changed)


def accepted_by_check(kind, constraint, n, scope, rng, steps=3000):
    """Values the check accepts, found by a local search that never lets problems grow."""
    values = [rng.randint(1, n) for _ in scope]
    problems = len(kind.check(constraint, grid_of(scope, values, n), n))
    for _ in range(steps):
        if not problems:
            return tuple(values)
        index, old = rng.randrange(len(scope)), None
        old, values[index] = values[index], rng.randint(1, n)
        now = len(kind.check(constraint, grid_of(scope, values, n), n))
        if now <= problems:
            problems = now
        else:
            values[index] = old
    return None


def grid_of(scope, values, n) -> list[int]:
    grid = [0] * (n * n)
    for cell, value in zip(scope, values, strict=True):
        grid[cell] = value
    return grid


@pytest.mark.parametrize("name", list(KINDS))
def test_check_and_decomposition_agree(name):
    agree_on_instances(name, (4, 6), instances=6, seed=name)


@pytest.mark.heavy
@pytest.mark.parametrize("name", list(KINDS))
def test_check_and_decomposition_agree_at_length(name):
    agree_on_instances(name, (4, 5, 6, 7, 8, 9), instances=25, seed=name + " at length")


def agree_on_instances(name: str, sizes, instances: int, seed: str) -> None:
    kind = KINDS[name]
    rng = random.Random(seed)
    verdicts = {True: 0, False: 0}
    for n in sizes:
        for _ in range(max(2, instances // 4) if kind.board_wide else instances):
            constraint = instance(name, n, rng)
            kind.validate(constraint, n)
            primitives = kind.decompose(constraint, n)
            assert {type(p) for p in primitives} <= kind.primitives, constraint
            scope = kind.scope(constraint, n)
            for values in assignments(kind, constraint, n, rng):
                grid = grid_of(scope, values, n)
                by_cell = dict(zip(scope, values, strict=True))
                problems = kind.check(constraint, grid, n)
                assert all(isinstance(p, str) and p for p in problems)
                held = all(holds(p, by_cell) for p in primitives)
                assert (not problems) == held, (constraint, values, problems)
                verdicts[held] += 1
    # Both verdicts met: an agreement only on rejections (or only on acceptances) proves little.
    assert verdicts[True] > 0 and verdicts[False] > 0, verdicts


def test_every_kind_is_registered_once_with_a_meaning_and_its_source():
    for name, kind in KINDS.items():
        assert kind.name == name
        assert kind.meaning.endswith(".") and kind.primitives <= set(PRIMITIVE_TYPES)
        # dclamage/SudokuSolver's SudokuSolver/Constraints/<class>.cs, sigh's Interactive
        # Sudoku Solver's js/ file, or the project's own
        assert kind.source == "project" or re.fullmatch(
            r"(dclamage|madformuse) (\w+Constraint|SolverFactory)\.cs|sigh \w+\.js", kind.source
        )


def test_kinds_compiled_by_primitive_types():
    assert kinds_compiled_by(set()) == frozenset()
    assert kinds_compiled_by(set(PRIMITIVE_TYPES)) == frozenset(KINDS)
    relations_only = kinds_compiled_by({AllDifferent, Relation})
    assert {"anti-knight", "anti-king", "non-consecutive", "difference"} <= relations_only
    assert not {"xv", "thermometer", "renban"} & relations_only
    assert "renban" in kinds_compiled_by({AllDifferent, Table})
    assert "arrow" in kinds_compiled_by({Linear})


def cell(name: str, n: int) -> int:
    row, col = name[1:].split("c")
    return (int(row) - 1) * n + int(col) - 1


def filled(n: int, text: str) -> list[int]:
    """A grid from ``r1c1=3 r1c2=4 ...`` (other cells 0), or from n rows of n digits."""
    if "=" not in text:
        return [int(ch) for ch in text.split() if ch] if " " in text else list(map(int, text))
    grid = [0] * (n * n)
    for item in text.split():
        name, value = item.split("=")
        grid[cell(name, n)] = int(value)
    return grid


def on(kind: str, n: int, names: str, **params) -> Constraint:
    cells = tuple(cell(name, n) for name in names.split())
    return Constraint(kind, cells, tuple(params.items()))


CHECKER_12 = "1212212112122121"  # knight moves change colour: always different
CHECKER_13 = "1313313113133131"  # neighbours differ by 2
BANDS = "1212343412123434"  # diagonal touches: one of 1-2 against one of 3-4
LATIN = "1234341221434321"  # r2c3 and r3c2 both 1: a knight's and a king's move
ONES_21 = "2111" + "1" * 12  # r1c1 = 2 beside two 1s
ONES_41 = "4111" + "1" * 12  # r1c1 + r1c2 = 5, r1c1 + r2c1 = 5
# Two maxima side by side (r2c2 = 4, r2c3 = 3) each above its other neighbours, two minima
# side by side (r1c1 = 1, r2c1 = 2) each below its other neighbours: r2c3 is below a
# neighbour and r2c1 above one, which only a maximum (minimum) beside them excuses.
FORTRESS = "1324243142133142"
EXAMPLES = [
    (Constraint("anti-knight"), 4, CHECKER_12, True),
    (Constraint("anti-knight"), 4, LATIN, False),
    (Constraint("anti-king"), 4, BANDS, True),
    (Constraint("anti-king"), 4, LATIN, False),
    (Constraint("non-consecutive"), 4, CHECKER_13, True),
    (Constraint("non-consecutive"), 4, CHECKER_12, False),
    (Constraint("diagonal-non-consecutive"), 4, CHECKER_13, True),  # diagonals equal
    (Constraint("diagonal-non-consecutive"), 4, LATIN, False),  # r1c2 = 2, r2c1 = 3
    (Constraint("knightmare"), 4, LATIN, True),  # knight moves add up to 2-4 and 6-8, never 5
    (Constraint("knightmare"), 4, "r1c1=1 r2c3=4", False),  # 1 + 4 = 5
    (Constraint("knightmare", (), (("sums", (4,)),)), 4, CHECKER_12, True),  # 1 + 2 = 3
    (Constraint("knightmare", (), (("sums", (4,)),)), 4, CHECKER_13, False),  # 1 + 3 = 4
    (Constraint("taxicab", (), (("distance", 3),)), 4, CHECKER_12, True),  # 3 steps: 1 and 2
    (Constraint("taxicab", (), (("distance", 3),)), 4, LATIN, False),  # r1c1 and r2c3 hold 1
    (Constraint("self-taxicab"), 4, "r1c1=3 r1c3=3", True),  # two 3s two steps apart
    (Constraint("self-taxicab"), 4, "r1c1=2 r1c3=2", False),  # two 2s two steps apart
    (Constraint("self-taxicab"), 6, "615243324615536421142536461352253164", True),
    (Constraint("dutchflatmates"), 4, "1423" "2341" "4132" "3214", True),  # each 2: 1 above/4 below
    (Constraint("dutchflatmates"), 4, LATIN, False),  # r2c4 = 2 under a 4, over a 3
    (on("odd", 4, "r1c1"), 4, "r1c1=3", True),
    (on("odd", 4, "r1c1"), 4, "r1c1=4", False),
    (on("even", 4, "r1c1"), 4, "r1c1=4", True),
    (on("even", 4, "r1c1"), 4, "r1c1=1", False),
    (on("maximum", 4, "r2c2"), 4, LATIN, True),  # 4 beside 2, 3, 1, 1
    (on("minimum", 4, "r2c2"), 4, LATIN, False),
    (on("minimum", 4, "r1c1"), 4, LATIN, True),  # a corner: two neighbours, 2 and 3
    (on("minimum", 4, "r3c2"), 4, LATIN, True),  # 1 beside 4, 3, 2, 4
    (on("maximum", 4, "r1c4"), 4, LATIN, True),
    (on("maximum", 4, "r1c3"), 4, LATIN, False),  # 3 beside 4
    (on("maximum", 4, "r2c2 r2c3"), 4, FORTRESS, True),
    (on("maximum", 4, "r2c3"), 4, FORTRESS, False),  # alone, 3 is beside the 4
    (on("maximum", 4, "r2c2 r2c3"), 4, LATIN, False),  # r2c3's 1 beside 3, 2 and 4
    (on("candidates", 4, "r1c1", values=(1, 3)), 4, "r1c1=3", True),
    (on("candidates", 4, "r1c1", values=(1, 3)), 4, "r1c1=2", False),
    (on("minimum", 4, "r1c1 r2c1"), 4, FORTRESS, True),
    (on("minimum", 4, "r2c1"), 4, FORTRESS, False),  # alone, 2 is beside the 1
    (on("minimum", 4, "r1c1 r2c1"), 4, LATIN, False),  # r2c1's 3 beside r3c1's 2
    (on("xv", 4, "r1c1 r1c2", sum=5), 4, "r1c1=1 r1c2=4", True),
    (on("xv", 4, "r1c1 r1c2", sum=5), 4, "r1c1=1 r1c2=3", False),
    (on("xv", 6, "r1c1 r2c1", sum=10), 6, "r1c1=4 r2c1=6", True),
    (on("difference", 4, "r1c1 r1c2"), 4, "r1c1=2 r1c2=3", True),
    (on("difference", 4, "r1c1 r1c2"), 4, "r1c1=2 r1c2=4", False),
    (on("difference", 4, "r1c1 r1c2", difference=2), 4, "r1c1=2 r1c2=4", True),
    (on("ratio", 4, "r1c1 r1c2"), 4, "r1c1=4 r1c2=2", True),
    (on("ratio", 4, "r1c1 r1c2"), 4, "r1c1=3 r1c2=4", False),
    (on("ratio", 6, "r1c1 r1c2", ratio=3), 6, "r1c1=2 r1c2=6", True),
    (Constraint("negative-xv"), 4, "1" * 16, True),
    (Constraint("negative-xv"), 4, ONES_41, False),
    (Constraint("negative-xv", (), (("exempt", ((0, 1), (0, 4))),)), 4, ONES_41, True),
    (Constraint("negative-xv", (), (("exempt", ((1, 0),)),)), 4, ONES_41, False),
    (Constraint("negative-difference"), 4, ONES_21, False),
    (Constraint("negative-difference", (), (("exempt", ((1, 0), (0, 4))),)), 4, ONES_21, True),
    (Constraint("negative-ratio"), 4, ONES_21, False),
    (Constraint("negative-ratio"), 4, ONES_41, True),
    (on("thermometer", 4, "r1c1 r1c2 r2c3"), 4, "r1c1=1 r1c2=2 r2c3=4", True),
    (on("thermometer", 4, "r1c1 r1c2 r2c3"), 4, "r1c1=1 r1c2=2 r2c3=2", False),
    (on("slow-thermometer", 4, "r1c1 r1c2 r2c3"), 4, "r1c1=1 r1c2=2 r2c3=2", True),
    (on("slow-thermometer", 4, "r1c1 r1c2 r2c3"), 4, "r1c1=2 r1c2=1 r2c3=3", False),
    (on("arrow", 4, "r1c1 r1c2 r1c3"), 4, "r1c1=4 r1c2=1 r1c3=3", True),
    (on("arrow", 9, "r1c1 r1c2 r1c3 r1c4", circle=2), 9, "r1c1=1 r1c2=2 r1c3=9 r1c4=3", True),
    (on("arrow", 9, "r1c1 r1c2 r1c3 r1c4", circle=2), 9, "r1c1=1 r1c2=2 r1c3=9 r1c4=2", False),
    (on("doublearrow", 4, "r1c1 r1c2 r1c3 r1c4"), 4, "r1c1=1 r1c2=2 r1c3=3 r1c4=4", True),
    # an arrow from r1c1 (3 = 1 + 2) but not a double arrow: 3 + 4 at the ends
    (on("doublearrow", 4, "r1c1 r1c2 r1c3 r1c4"), 4, "r1c1=3 r1c2=1 r1c3=2 r1c4=4", False),
    # a pill r1c1 r1c2 whose shaft leaves from r1c1, its first cell: 12 = 9 + 3, not 21
    (on("arrow", 9, "r1c1 r1c2 r2c1 r3c1", circle=2), 9, "r1c1=1 r1c2=2 r2c1=9 r3c1=3", True),
    (on("arrow", 9, "r1c1 r1c2 r2c1 r3c1", circle=2), 9, "r1c1=2 r1c2=1 r2c1=9 r3c1=3", False),
    (on("killercage", 4, "r1c1 r1c2 r2c2", total=7), 4, "r1c1=1 r1c2=2 r2c2=4", True),
    (on("killercage", 4, "r1c1 r1c2 r2c2", total=7), 4, "r1c1=2 r1c2=2 r2c2=3", False),
    (on("killercage", 4, "r1c1 r1c2"), 4, "r1c1=1 r1c2=3", True),
    (on("killercage", 4, "r1c1 r1c2"), 4, "r1c1=1 r1c2=1", False),
    (on("multisumcage", 9, "r1c1 r1c2", totals=(5, 14)), 9, "r1c1=9 r1c2=5", True),
    # a digital root cage DR5: 14 counts as 5, 13 does not; values do not repeat
    (on("multisumcage", 9, "r1c1 r1c2", totals=(5, 14)), 9, "r1c1=9 r1c2=4", False),
    (on("multisumcage", 4, "r1c1 r1c2", totals=(4,)), 4, "r1c1=2 r1c2=2", False),
    (on("littlekiller", 4, "r1c1 r2c2 r3c3", total=6), 4, "r1c1=2 r2c2=2 r3c3=2", True),
    (on("littlekiller", 4, "r1c1 r2c2 r3c3", total=6), 4, "r1c1=1 r2c2=1 r3c3=1", False),
    (on("palindrome", 4, "r1c1 r1c2 r1c3"), 4, "r1c1=1 r1c2=2 r1c3=1", True),
    (on("palindrome", 4, "r1c1 r1c2 r1c3"), 4, "r1c1=1 r1c2=2 r1c3=3", False),
    (on("clone", 4, "r1c1 r1c2 r3c3 r3c4"), 4, "r1c1=1 r1c2=2 r3c3=1 r3c4=2", True),
    (on("clone", 4, "r1c1 r1c2 r3c3 r3c4"), 4, "r1c1=1 r1c2=2 r3c3=2 r3c4=1", False),
    (on("whispers", 9, "r1c1 r1c2 r1c3"), 9, "r1c1=1 r1c2=6 r1c3=1", True),
    (on("whispers", 9, "r1c1 r1c2"), 9, "r1c1=1 r1c2=5", False),
    (on("whispers", 6, "r1c1 r1c2"), 6, "r1c1=1 r1c2=4", True),
    (on("whispers", 6, "r1c1 r1c2"), 6, "r1c1=1 r1c2=3", False),
    (on("parityline", 4, "r1c1 r1c2 r2c2"), 4, "r1c1=1 r1c2=4 r2c2=3", True),
    (on("parityline", 4, "r1c1 r1c2 r2c2"), 4, "r1c1=1 r1c2=4 r2c2=2", False),
    (on("renban", 4, "r1c1 r1c2 r2c2"), 4, "r1c1=3 r1c2=1 r2c2=2", True),
    (on("renban", 4, "r1c1 r1c2 r2c2"), 4, "r1c1=1 r1c2=2 r2c2=4", False),
    (on("renban", 4, "r1c1 r1c2 r2c2"), 4, "r1c1=1 r1c2=1 r2c2=2", False),
    (on("betweenline", 4, "r1c1 r1c2 r1c3 r1c4"), 4, "r1c1=4 r1c2=3 r1c3=2 r1c4=1", True),
    (on("betweenline", 4, "r1c1 r1c2 r1c3 r1c4"), 4, "r1c1=4 r1c2=1 r1c3=2 r1c4=1", False),
    (on("lockout", 6, "r1c1 r1c2 r1c3"), 6, "r1c1=2 r1c2=6 r1c3=5", True),
    # outside the ends, not strictly between them (a between line's negation): 5 is an end
    (on("lockout", 6, "r1c1 r1c2 r1c3"), 6, "r1c1=2 r1c2=5 r1c3=5", False),
    (on("lockout", 6, "r1c1 r1c2 r1c3"), 6, "r1c1=2 r1c2=6 r1c3=4", False),  # ends 2 apart
    (on("regionsumline", 4, "r1c1 r1c2 r1c3", regions=(0, 0, 1)), 4, "r1c1=1 r1c2=2 r1c3=3",
     True),
    (on("regionsumline", 4, "r1c1 r1c2 r1c3", regions=(0, 0, 1)), 4, "r1c1=1 r1c2=1 r1c3=3",
     False),
    (on("entropic", 6, "r1c1 r1c2 r1c3 r1c4"), 6, "r1c1=1 r1c2=3 r1c3=5 r1c4=2", True),
    (on("entropic", 6, "r1c1 r1c2 r1c3"), 6, "r1c1=1 r1c2=2 r1c3=5", False),
    # 4x4: 1, 2-3, 4 (the middle third the odd size out); a line of two: two of them
    (on("entropic", 4, "r1c1 r1c2 r1c3"), 4, "r1c1=3 r1c2=1 r1c3=4", True),
    (on("entropic", 4, "r1c1 r1c2 r1c3"), 4, "r1c1=2 r1c2=3 r1c3=4", False),
    (on("entropic", 8, "r1c1 r1c2"), 8, "r1c1=4 r1c2=5", False),  # 1-3, 4-5, 6-8
    (on("zipper", 4, "r1c1 r1c2 r1c3"), 4, "r1c1=1 r1c2=4 r1c3=3", True),
    (on("zipper", 4, "r1c1 r1c2 r1c3"), 4, "r1c1=1 r1c2=4 r1c3=2", False),
    (on("zipper", 4, "r1c1 r1c2 r1c3 r1c4"), 4, "r1c1=1 r1c2=2 r1c3=3 r1c4=4", True),
    (on("zipper", 4, "r1c1 r1c2 r1c3 r1c4"), 4, "r1c1=1 r1c2=2 r1c3=4 r1c4=4", False),
    (on("modularline", 6, "r1c1 r1c2 r1c3 r1c4"), 6, "r1c1=1 r1c2=5 r1c3=6 r1c4=4", True),
    # one low, one middle, one high (an entropic line's rule), yet 1 and 4 alike mod 3
    (on("modularline", 6, "r1c1 r1c2 r1c3"), 6, "r1c1=1 r1c2=4 r1c3=6", False),
    (on("modularline", 4, "r1c1 r1c2"), 4, "r1c1=1 r1c2=4", False),  # a line of two
    (on("nabner", 6, "r1c1 r1c2 r1c3"), 6, "r1c1=1 r1c2=5 r1c3=3", True),
    # no neighbours on the line consecutive, but 1 and 2 both on it
    (on("nabner", 4, "r1c1 r1c2 r1c3"), 4, "r1c1=1 r1c2=4 r1c3=2", False),
    (on("sandwich", 4, "r1c1 r1c2 r1c3 r1c4", total=5), 4, "1234" + "0" * 12, True),
    (on("sandwich", 4, "r1c1 r1c2 r1c3 r1c4", total=0), 4, "1423" + "0" * 12, True),
    (on("sandwich", 4, "r1c1 r1c2 r1c3 r1c4", total=5), 4, "1423" + "0" * 12, False),
    (on("sandwich", 4, "r1c1 r1c2 r1c3 r1c4", total=0), 4, "1123" + "0" * 12, False),
    (on("sandwich", 6, "r1c6 r1c5 r1c4 r1c3 r1c2 r1c1", total=7), 6, "213465" + "0" * 30, True),
    (on("xsum", 4, "r1c1 r1c2 r1c3 r1c4", total=6), 4, "3124" + "0" * 12, True),
    (on("xsum", 4, "r1c1 r1c2 r1c3 r1c4", total=6), 4, "2134" + "0" * 12, False),
    (on("xsum", 4, "r4c1 r3c1 r2c1 r1c1", total=10), 4, LATIN, True),  # 4 3 2 1 upwards
    (on("skyscraper", 4, "r1c1 r1c2 r1c3 r1c4", total=4), 4, LATIN, True),
    (on("skyscraper", 4, "r1c4 r1c3 r1c2 r1c1", total=1), 4, LATIN, True),
    (on("skyscraper", 4, "r3c1 r3c2 r3c3 r3c4", total=2), 4, LATIN, True),  # 2 1 4 3
    (on("skyscraper", 4, "r3c1 r3c2 r3c3 r3c4", total=3), 4, LATIN, False),
    (on("quadruple", 4, "r1c1 r1c2 r2c1 r2c2", values=(1, 2)), 4, LATIN, True),  # 1 2 3 4
    (on("quadruple", 4, "r1c1 r1c2 r2c1 r2c2", values=(1, 1)), 4, LATIN, False),
    (on("quadruple", 4, "r1c1 r1c2 r2c1 r2c2", values=(4, 2)), 4, LATIN, True),
    (on("quadruple", 4, "r2c2 r2c3 r3c2 r3c3", values=(1, 1)), 4, LATIN, True),  # 4 1 1 4
    (on("quadruple", 4, "r2c2 r2c3 r3c2 r3c3", values=(1, 1, 2)), 4, LATIN, False),
    (on("extraregion", 4, "r1c1 r2c3 r4c4"), 4, "r1c1=1 r2c3=2 r4c4=3", True),
    (on("extraregion", 4, "r1c1 r2c3 r4c4"), 4, "r1c1=1 r2c3=2 r4c4=1", False),
    (Constraint("disjointgroups", (), (("box", (2, 2)),)), 4, LATIN, True),
    (Constraint("disjointgroups", (), (("box", (2, 2)),)), 4, CHECKER_12, False),
    (Constraint("diagonal-"), 4, "1234" "3412" "4321" "2143", True),
    (Constraint("diagonal-"), 4, LATIN, False),  # 1 4 4 1
    (Constraint("diagonal+"), 4, "1234" "3412" "4321" "2143", True),
    (Constraint("diagonal+"), 4, LATIN, False),  # 4 1 1 4 from the bottom left
    (on("columnindexer", 4, "r1c2"), 4, "1324" + "0" * 12, True),  # r1c2 = 3: r1c3 holds 2
    (on("columnindexer", 4, "r1c2"), 4, "1342" + "0" * 12, False),
    (on("rowindexer", 4, "r2c1"), 4, "r1c1=4 r2c1=3 r3c1=2 r4c1=1", True),
    (on("rowindexer", 4, "r2c1"), 4, "r1c1=1 r2c1=3 r3c1=4 r4c1=2", False),
    (on("boxindexer", 4, "r1c2", box=(2, 2)), 4, "r1c1=1 r1c2=3 r2c1=2 r2c2=4", True),
    (on("boxindexer", 4, "r1c2", box=(2, 2)), 4, "r1c1=1 r1c2=3 r2c1=4 r2c2=2", False),
    (on("boxindexer", 4, "r3c4", box=(2, 2)), 4, "r3c3=1 r3c4=4 r4c3=3 r4c4=2", True),
    # the kinds of sigh's Interactive Sudoku Solver (sums.py)
    (on("sum", 4, "r1c1 r2c2 r3c3", total=9), 4, "r1c1=3 r2c2=3 r3c3=3", True),  # may repeat
    (on("sum", 4, "r1c1 r2c2 r3c3", total=9), 4, "r1c1=3 r2c2=3 r3c3=4", False),
    (on("sum", 4, "r1c1 r1c2", total=-2, weights=(1, -2)), 4, "r1c1=2 r1c2=2", True),
    (on("sum", 4, "r1c1 r1c2", total=-2, weights=(1, -2)), 4, "r1c1=2 r1c2=1", False),
    # 2 and 6 are the ends, 4 + 3 between them: the bread is the smallest and the largest
    (on("lunchbox", 6, "r1c1 r1c2 r1c3 r1c4 r1c5", total=7), 6,
     "r1c1=5 r1c2=2 r1c3=4 r1c4=3 r1c5=6", True),
    (on("lunchbox", 6, "r1c1 r1c2 r1c3 r1c4 r1c5", total=7), 6,
     "r1c1=3 r1c2=2 r1c3=4 r1c4=1 r1c5=6", False),  # 1 beside 6: nothing between
    (on("lunchbox", 4, "r1c1 r1c2 r1c3", total=0), 4, "r1c1=2 r1c2=2 r1c3=3", False),
    (on("rellikcage", 4, "r1c1 r1c2 r2c1", total=7), 4, "r1c1=1 r1c2=2 r2c1=3", True),
    (on("rellikcage", 4, "r1c1 r1c2 r2c1", total=7), 4, "r1c1=1 r1c2=2 r2c1=4", False),  # all
    (on("rellikcage", 4, "r1c1 r1c2", total=4), 4, "r1c1=4 r1c2=1", False),  # 4 alone
    (on("sumline", 4, "r1c1 r1c2 r1c3 r1c4", total=5), 4, "r1c1=1 r1c2=4 r1c3=2 r1c4=3", True),
    (on("sumline", 4, "r1c1 r1c2 r1c3 r1c4", total=5), 4, "r1c1=2 r1c2=4 r1c3=1 r1c4=3", False),
    # 4 | 4 | 1 + 3 across the loop's join (from r1c1, 3 + 4 passes 4)
    (on("sumline", 4, "r1c1 r1c2 r2c2 r2c1", total=4, loop=1), 4,
     "r1c1=3 r1c2=4 r2c2=4 r2c1=1", True),
    (on("sumline", 4, "r1c1 r1c2 r2c2 r2c1", total=4), 4, "r1c1=3 r1c2=4 r2c2=4 r2c1=1", False),
    (on("sumline", 4, "r1c1 r1c2 r2c2 r2c1", total=4, loop=1), 4,
     "r1c1=2 r1c2=3 r2c2=2 r2c1=1", False),  # adds up to 8, but no start splits it
    # counting.py: 1 once, 2 twice, 3 three times
    (on("countingcircles", 4, "r1c1 r1c2 r2c3 r3c1 r3c2 r4c4"), 4,
     "r1c1=2 r1c2=3 r2c3=3 r3c1=3 r3c2=2 r4c4=1", True),
    (on("countingcircles", 4, "r1c1 r1c2 r2c3 r3c1 r3c2 r4c4"), 4,
     "r1c1=2 r1c2=3 r2c3=3 r3c1=3 r3c2=1 r4c4=1", False),  # 1 twice, 2 once
    # kinds read from sigh's Interactive Sudoku Solver (js/sudoku_constraint.js)
    (on("modularline", 4, "r1c1 r1c2 r1c3", modulus=2), 4, "r1c1=1 r1c2=2 r1c3=3", True),
    (on("modularline", 4, "r1c1 r1c2 r1c3", modulus=2), 4, "r1c1=1 r1c2=3 r1c3=2", False),
    (on("modularline", 6, "r1c1 r1c2 r1c3 r1c4", modulus=4), 6, "r1c1=1 r1c2=2 r1c3=3 r1c4=4",
     True),
    # different mod 3, yet 1 and 5 alike mod 4
    (on("modularline", 6, "r1c1 r1c2 r1c3 r1c4", modulus=4), 6, "r1c1=1 r1c2=2 r1c3=3 r1c4=5",
     False),
    (on("numberedroom", 4, "r1c1 r1c2 r1c3 r1c4", value=1), 4, LATIN, True),  # 1 names itself
    (on("numberedroom", 4, "r1c1 r1c2 r1c3 r1c4", value=2), 4, LATIN, False),
    (on("numberedroom", 4, "r2c1 r2c2 r2c3 r2c4", value=1), 4, LATIN, True),  # 3 4 1 2
    (on("numberedroom", 4, "r2c4 r2c3 r2c2 r2c1", value=1), 4, LATIN, True),  # 2 1 4 3
    (on("numberedroom", 4, "r2c4 r2c3 r2c2 r2c1", value=2), 4, LATIN, False),
    (on("hiddenskyscraper", 4, "r2c1 r2c2 r2c3 r2c4", value=1), 4, LATIN, True),  # 3 4 1 2
    (on("hiddenskyscraper", 4, "r2c1 r2c2 r2c3 r2c4", value=2), 4, LATIN, False),  # 2 hidden later
    (on("hiddenskyscraper", 4, "r1c1 r1c2 r1c3 r1c4", value=4), 4, LATIN, False),  # none hidden
    (on("hiddenskyscraper", 4, "r1c4 r1c3 r1c2 r1c1", value=3), 4, LATIN, True),  # 4 3 2 1
    (Constraint("globalentropy"), 4, "1414" "2323" "1414" "2323", True),
    (Constraint("globalentropy"), 4, LATIN, False),  # r2c2-r3c3: 4 1 1 4, no 2 or 3
    (Constraint("globalentropy"), 6, "135135" "351351" * 2 + "135135" "351351", True),
    (Constraint("globalentropy"), 6, "135135" "246246" * 2 + "135135" "246246", False),  # 1 3 2 4
    (Constraint("globalmod"), 4, "1414" "2323" "1414" "2323", True),  # 1-4, 2, 3
    (Constraint("globalmod"), 4, LATIN, False),
    (Constraint("globalmod"), 6, "135135" "351351" * 2 + "135135" "351351", True),
    (Constraint("globalmod"), 6, "123123" "456456" * 2 + "123123" "456456", False),  # 1 2 4 5
    (on("lookandsay", 4, "r1c1 r1c2 r2c1", values=(1,), counts=(2,)), 4,
     "r1c1=1 r1c2=1 r2c1=3", True),
    (on("lookandsay", 4, "r1c1 r1c2 r2c1", values=(1,), counts=(2,)), 4,
     "r1c1=1 r1c2=2 r2c1=3", False),
    (on("lookandsay", 4, "r1c1 r1c2 r2c1", values=(1, 3), counts=(2, 1)), 4,
     "r1c1=1 r1c2=1 r2c1=1", False),  # three 1s, not exactly two
    (on("lookandsay", 4, "r1c1 r1c2 r2c1", values=(4,), counts=(0,)), 4,
     "r1c1=1 r1c2=1 r2c1=3", True),
    (on("lookandsay", 4, "r1c1 r1c2 r2c1", values=(4,), counts=(0,)), 4,
     "r1c1=1 r1c2=4 r2c1=3", False),
    (on("equalitycage", 4, "r1c1 r1c2"), 4, "r1c1=1 r1c2=4", True),  # odd low, even high
    (on("equalitycage", 4, "r1c1 r1c2"), 4, "r1c1=1 r1c2=3", False),  # both odd
    (on("equalitycage", 4, "r1c1 r1c2"), 4, "r1c1=2 r1c2=1", False),  # both low
    (on("equalitycage", 9, "r1c1 r1c2"), 9, "r1c1=1 r1c2=8", True),
    (on("equalitycage", 9, "r1c1 r1c2 r1c3 r1c4"), 9, "r1c1=5 r1c2=2 r1c3=7 r1c4=4",
     False),  # the 5 is neither low nor high
    (on("equalitycage", 9, "r1c1 r1c2 r1c3 r1c4"), 9, "r1c1=1 r1c2=2 r1c3=7 r1c4=8", True),
    (on("equalitycage", 9, "r1c1 r1c2 r1c3 r1c4"), 9, "r1c1=1 r1c2=2 r1c3=7 r1c4=2", False),
    # (1, 2) allowed, (2, 1) not: the first cell's value first
    (on("pairline", 4, "r1c1 r1c2 r2c2", pairs=(1, 2, 2, 3)), 4, "r1c1=1 r1c2=2 r2c2=3", True),
    (on("pairline", 4, "r1c1 r1c2 r2c2", pairs=(1, 2, 2, 3)), 4, "r1c1=2 r1c2=1 r2c2=2", False),
    # r1c1 and r2c2 are not consecutive on the line: not compared
    (on("pairline", 4, "r1c1 r1c2 r2c2", pairs=(1, 2, 2, 1)), 4, "r1c1=1 r1c2=2 r2c2=1", True),
    (on("pairgroup", 4, "r1c1 r1c2 r2c2", pairs=(1, 3, 3, 1, 1, 4, 4, 1, 3, 4, 4, 3)), 4,
     "r1c1=1 r1c2=3 r2c2=4", True),
    # 1 3 and 3 4 allowed, but r1c1 and r2c2 are in the group too: 1 1 is not
    (on("pairgroup", 4, "r1c1 r1c2 r2c2", pairs=(1, 3, 3, 1, 1, 4, 4, 1, 3, 4, 4, 3)), 4,
     "r1c1=1 r1c2=3 r2c2=1", False),
]  # fmt: skip


@pytest.mark.parametrize("constraint, n, text, expected", EXAMPLES)
def test_hand_made_examples(constraint, n, text, expected):
    kind = KINDS[constraint.kind]
    kind.validate(constraint, n)
    grid = filled(n, text)
    problems = kind.check(constraint, grid, n)
    assert (not problems) == expected, problems
    by_cell = {cell: grid[cell] for cell in kind.scope(constraint, n)}
    assert all(holds(p, by_cell) for p in kind.decompose(constraint, n)) == expected


def test_every_kind_has_a_hand_made_example_each_way():
    verdicts = {(constraint.kind, expected) for constraint, _, _, expected in EXAMPLES}
    assert {(name, verdict) for name in KINDS for verdict in (True, False)} <= verdicts


BAD = [
    (Constraint("anti-knight", (0,)), 4, "names cells, but it covers the whole board"),
    (Constraint("odd", (16,)), 4, "outside the 4x4 board"),
    (Constraint("palindrome", (0, 1, 0)), 4, "names a cell twice"),
    (on("thermometer", 4, "r1c1 r1c2", total=3), 4, "unknown parameter 'total'"),
    (Constraint("xv", (0, 1), (("sum", 5), ("sum", (5,)))), 4, "names a parameter twice"),
    (on("xv", 4, "r1c1 r2c2", sum=10), 4, "do not touch orthogonally"),
    (on("xv", 4, "r1c1 r1c2", sum=7), 4, "sum 7 is not 5 or 10"),
    (on("xv", 4, "r1c1 r1c2"), 4, "needs the parameter 'sum'"),
    (on("difference", 4, "r1c1 r1c2", difference=4), 4, "difference 4 is not in 1..3"),
    (on("ratio", 4, "r1c1 r1c2", ratio=1), 4, "ratio 1 is not in 2..4"),
    (Constraint("negative-ratio", (), (("exempt", ((0, 5),)),)), 4, "do not touch"),
    (Constraint("negative-xv", (), (("exempt", ((0, 16),)),)), 4, "outside the 4x4 board"),
    (on("thermometer", 4, "r1c1 r1c3"), 4, "r1c1 and r1c3 do not touch"),
    (on("killercage", 4, "r1c1 r1c2", total=8), 4, "total 8 is not in 3..7"),
    (on("killercage", 4, "r1c1 r1c2 r1c3 r1c4 r2c4"), 4, "5 cells cannot hold different"),
    (on("arrow", 12, "r1c1 r1c2 r1c3", circle=2), 12, "N must be <= 9"),
    (on("arrow", 9, "r1c1 r1c2", circle=2), 9, "circle 2 is not in 1..1"),
    (on("arrow", 9, "r1c1 r1c2 r1c4", circle=2), 9, "r1c4 touches no cell of the circle"),
    (on("multisumcage", 4, "r1c1 r1c2", totals=(3, 11)), 4, "are not all in 1..10"),
    (on("multisumcage", 4, "r1c1 r1c2"), 4, "needs the parameter 'totals'"),
    (on("littlekiller", 4, "r1c1 r1c2", total=3), 4, "not one diagonal line"),
    (on("littlekiller", 4, "r1c1 r2c2"), 4, "needs the parameter 'total'"),
    (on("clone", 4, "r1c1 r1c2 r3c3"), 4, "halves differ in size"),
    (on("renban", 4, "r1c1 r1c2 r1c3 r1c4 r2c4"), 4, "longer than 4"),
    (on("regionsumline", 4, "r1c1 r1c2", regions=(0,)), 4, "one region per cell"),
    (on("whispers", 4, "r1c1 r1c2", difference=0), 4, "difference 0 is not in 1..3"),
    (on("betweenline", 4, "r1c1 r1c2"), 4, "has 2 cell(s), expected 3 or more"),
    (on("sandwich", 4, "r1c1 r1c2 r2c3 r2c4", total=3), 4, "not a whole row or column"),
    (on("sandwich", 4, "r1c1 r1c2 r1c3", total=3), 4, "has 3 cells, not the 4 of a row"),
    (on("sandwich", 4, "r1c1 r1c2 r1c3 r1c4", total=6), 4, "total 6 is not in 0..5"),
    (on("xsum", 4, "r1c1 r2c1 r3c1 r4c1"), 4, "needs the parameter 'total'"),
    (on("skyscraper", 4, "r1c1 r1c2 r1c3 r1c4", total=5), 4, "total 5 is not in 1..4"),
    (Constraint("skyscraper", tuple(range(16)), (("total", 8),)), 16, "needs a table of"),
    (on("quadruple", 4, "r1c1 r1c2 r1c3 r1c4", values=(1,)), 4, "not a 2x2 square"),
    (on("quadruple", 4, "r1c4 r1c5 r2c4 r2c5", values=(1,)), 5, "not a 2x2 square"),
    (on("quadruple", 4, "r1c1 r1c2 r2c1 r2c2", values=(5,)), 4, "not all in 1..4"),
    (on("quadruple", 4, "r1c1 r1c2 r2c1 r2c2", values=(1, 1, 1)), 4, "three times"),
    (on("extraregion", 4, "r1c1"), 4, "has 1 cell(s), expected 2 or more"),
    (on("extraregion", 4, "r1c1 r1c2 r1c3 r1c4 r2c1"), 4, "5 cells cannot hold different"),
    (Constraint("disjointgroups"), 4, "needs the parameter 'box'"),
    (Constraint("taxicab"), 4, "needs the parameter 'distance'"),
    (Constraint("taxicab", (), (("distance", 7),)), 4, "distance 7 is not in 1..6"),
    (Constraint("knightmare", (), (("sums", (5, 51)),)), 6, "sums (5, 51) are not all in 2..50"),
    (Constraint("disjointgroups", (), (("box", (2, 3)),)), 4, "box 2x3 does not tile 4x4"),
    (on("boxindexer", 4, "r1c1", box=(2,)), 4, "is not (rows, cols)"),
    (Constraint("diagonal+", (0, 5)), 4, "diagonal+ at r1c1: names cells, but it covers"),
    (on("odd", 4, "r1c1 r1c2"), 4, "has 2 cell(s), expected 1"),
    (on("candidates", 4, "r1c1", values=(1, 5)), 4, "values (1, 5) are not all in 1..4"),
    (on("candidates", 4, "r1c1", values=(2, 2)), 4, "names a value twice"),
    (on("candidates", 4, "r1c1"), 4, "needs the parameter 'values'"),
    (Constraint("no-such-kind"), 4, "no constraint kind is named 'no-such-kind'"),
    # the kinds of sigh's Interactive Sudoku Solver (sums.py)
    (on("sum", 4, "r1c1 r1c2", total=9), 4, "total 9 is not in 2..8"),
    (on("sum", 4, "r1c1 r1c2", total=0, weights=(1,)), 4, "one whole number per cell"),
    (on("sum", 4, "r1c1 r1c2", total=0, weights=(1, 0)), 4, "are not all in -100..100 but 0"),
    (on("lunchbox", 4, "r1c1 r1c2 r1c3", total=6), 4, "total 6 is not in 0..5"),
    (on("rellikcage", 4, "r1c1 r1c2"), 4, "needs the parameter 'total'"),
    (on("sumline", 4, "r1c1 r1c2 r1c3", total=4, loop=1), 4, "r1c3 does not touch its first"),
    (Constraint("sumline", tuple(range(9)), (("total", 10),)), 9, "needs a table of about"),
    (Constraint("countingcircles", tuple(range(15))), 9, "15 counting circles need tables of"),
    (on("modularline", 4, "r1c1 r1c2", modulus=5), 4, "modulus 5 is not in 2..4"),
    (on("numberedroom", 4, "r1c1 r1c2 r1c3 r1c4", value=0), 4, "value 0 is not in 1..4"),
    (on("hiddenskyscraper", 4, "r1c1 r1c2 r1c3", value=1), 4, "has 3 cells, not the 4 of a row"),
    (Constraint("globalentropy", (0,)), 4, "names cells, but it covers the whole board"),
    (on("lookandsay", 4, "r1c1 r1c2", values=(1, 2), counts=(1,)), 4, "2 values but 1 counts"),
    (on("lookandsay", 4, "r1c1 r1c2", values=(1, 1), counts=(1, 0)), 4, "names a value twice"),
    (on("lookandsay", 4, "r1c1 r1c2", values=(1, 2), counts=(2, 1)), 4, "counts 3 values in 2"),
    (on("lookandsay", 4, "r1c1 r1c2", values=(5,), counts=(1,)), 4, "values (5,) are not all"),
    (on("equalitycage", 4, "r1c1 r1c2 r1c3"), 4, "3 cells cannot hold as many even"),
    (on("equalitycage", 9, "r1c1 r1c2 r1c3 r1c4 r1c5 r1c6 r1c7 r1c8 r1c9 r2c1"), 9,
     "10 cells cannot hold different low and high"),
    (on("pairline", 4, "r1c1 r1c2", pairs=(1, 2, 3)), 4, "is not a list of value pairs"),
    (on("pairline", 4, "r1c1 r1c2", pairs=(1, 5)), 4, "pairs (1, 5) are not all in 1..4"),
    (on("pairgroup", 4, "r1c1 r1c2", pairs=(1, 2)), 4, "allow (a, b) only with (b, a)"),
]  # fmt: skip


@pytest.mark.parametrize("constraint, n, message", BAD)
def test_bad_instances_are_one_line_input_errors(constraint, n, message):
    with pytest.raises(InputError) as caught:
        validate(constraint, n)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_knightmare_takes_its_default_sums_written_out_on_a_small_board():
    """`knightmare sums=5,15` on a 4x4 means what a bare `knightmare` means there (15 is out of
    reach of two cells, so it forbids nothing), and both count the same boards."""
    from solvers import count_solutions
    from solvers.formats.boards import parse

    empty = "." * 16
    written = parse(f"# rules: knightmare sums=5,15\n{empty}\n")
    bare = parse(f"# rules: knightmare\n{empty}\n")
    assert written == bare
    assert count_solutions(written, 1000) == count_solutions(bare, 1000) == 32
