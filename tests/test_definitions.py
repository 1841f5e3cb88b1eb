"""Each kind means what the field means by it, told apart from a plausible wrong reading.

For every kind of the vocabulary, a small hand-made board (4x4, or 6x6 where the kind needs
it) whose solution count under the field's meaning differs from its count under a plausible
wrong reading of the same rule. The field's meaning is the one cited in the kind's definition
(``Kind.source``: dclamage/SudokuSolver's ``SudokuSolver/Constraints/<class>.cs``, the solver
of f-puzzles links). Two engines count the board (cpsat and dfs: a model and a search that
share nothing but the compile step), and the kind's own check counts it too over every grid
that keeps the board's rows, columns, boxes and givens; the wrong reading, written out here as
a predicate on a filled grid, counts it over the same grids and must come out otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise

import pytest

from solvers import count_solutions
from solvers.formats.boards import parse
from solvers.model.board import Board
from solvers.model.constraints.kinds import KINDS
from solvers.model.verify import problems

Grid = Sequence[int]
EMPTY4 = "." * 16


def at(grid: Grid, n: int, name: str) -> int:
    """The value of the cell named ``rRcC`` in a filled grid."""
    row, col = name[1:].split("c")
    return grid[(int(row) - 1) * n + int(col) - 1]


def line(grid: Grid, n: int, names: str) -> list[int]:
    return [at(grid, n, name) for name in names.split()]


def neighbours(n: int, steps: Sequence[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """Each pair of cells a step apart, once."""
    for r in range(n):
        for c in range(n):
            for dr, dc in steps:
                if 0 <= r + dr < n and 0 <= c + dc < n:
                    yield r * n + c, (r + dr) * n + c + dc


ORTHOGONAL = ((0, 1), (1, 0))


@dataclass(frozen=True)
class Definition:
    """A board that tells a kind's field meaning from a wrong reading: its text (a ``# rules:``
    line and the givens), the count under the field's meaning, the wrong reading in words and
    as a predicate on a filled grid of the board's shape."""

    kind: str
    board: str
    count: int
    wrong_reading: str
    wrong: Callable[[Grid, int], bool]


def board(rules: str, givens: str = EMPTY4) -> str:
    return f"# rules: {rules}\n{givens}\n"


def knight_right(g: Grid, n: int) -> bool:
    return all(g[a] != g[b] for a, b in neighbours(n, ((1, 2), (1, -2))))


def king_one_way(g: Grid, n: int) -> bool:
    return all(g[a] != g[b] for a, b in neighbours(n, ((1, 1),)))


def touching_nonconsecutive(g: Grid, n: int) -> bool:
    steps = (*ORTHOGONAL, (1, 1), (1, -1))
    return all(abs(g[a] - g[b]) != 1 for a, b in neighbours(n, steps))


def diagonal_one_way_nonconsecutive(g: Grid, n: int) -> bool:
    return all(abs(g[a] - g[b]) != 1 for a, b in neighbours(n, ((1, 1),)))


def knight_right_sums(g: Grid, n: int) -> bool:
    return all(g[a] + g[b] not in (5, 15) for a, b in neighbours(n, ((1, 2), (1, -2))))


def within(distance: int) -> Callable[[Grid, int], bool]:
    """Cells up to ``distance`` steps apart (rows plus columns) hold different values."""
    steps = [(dr, dc) for dr in range(distance + 1) for dc in range(-distance, distance + 1)
             if 0 < dr + abs(dc) <= distance and (dr or dc > 0)]  # fmt: skip
    return lambda g, n: all(g[a] != g[b] for a, b in neighbours(n, steps))


def self_within(g: Grid, n: int) -> bool:
    """No two cells holding v are up to v steps apart."""
    return not any(
        g[a] == g[b] and abs(a // n - b // n) + abs(a % n - b % n) <= g[a]
        for a in range(n * n)
        for b in range(a + 1, n * n)
    )


def compared_with_each(names: str, above: bool) -> Callable[[Grid, int], bool]:
    """Every marked cell against every orthogonal neighbour, marked or not."""

    def wrong(g: Grid, n: int) -> bool:
        for name in names.split():
            row, col = (int(x) - 1 for x in name[1:].split("c"))
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                r, c = row + dr, col + dc
                if 0 <= r < n and 0 <= c < n:
                    here, there = g[row * n + col], g[r * n + c]
                    if (here <= there) if above else (here >= there):
                        return False
        return True

    return wrong


def sandwiched(values: list[int], n: int, inclusive: bool) -> int:
    a, b = sorted((values.index(1), values.index(n)))
    return sum(values[a : b + 1] if inclusive else values[a + 1 : b])


def seen(values: list[int]) -> int:
    return 1 + sum(1 for x, y in pairwise(values) if y > x)


def box_position(n: int, rows: int, cols: int, name: str, column_major: bool) -> int:
    """A cell's position in its box, 1-based, counted along the box's rows (or its columns)."""
    row, col = (int(x) - 1 for x in name[1:].split("c"))
    r, c = row % rows, col % cols
    return (c * rows + r if column_major else r * cols + c) + 1


def box_cell(n: int, rows: int, cols: int, name: str, position: int, column_major: bool) -> int:
    """The index of the cell at ``position`` (1-based) of the box holding ``name``."""
    row, col = (int(x) - 1 for x in name[1:].split("c"))
    top, left = row - row % rows, col - col % cols
    r, c = divmod(position - 1, cols) if not column_major else divmod(position - 1, rows)[::-1]
    return (top + r) * n + left + c


def mirrored_sums(values: list[int]) -> set[int]:
    """The sums of the cells equally far from the line's centre, the centre left out."""
    return {values[i] + values[-1 - i] for i in range(len(values) // 2)}


def threes(values: list[int]) -> list[list[int]]:
    """Every three consecutive values."""
    return [values[i : i + 3] for i in range(len(values) - 2)]


def group(value: int, n: int) -> int:
    """Low, middle or high: thirds of 1..N cut evenly from the bottom (1-2, 3, 4 on 4x4)."""
    return (value - 1) * 3 // n


# the bottom half of a 6x6 grid given: the top half's completions are few enough to list
HALF6 = "." * 18 + "351462513624246351"

DEFINITIONS = [
    Definition(
        "anti-knight", board("anti-knight", "165432" "432165" + "." * 24), 4,
        "only the knight's moves two across and one down (half the moves)", knight_right,
    ),
    Definition(
        "anti-king", board("anti-king", "132546" "546132" + "." * 24), 11,
        "only the diagonal touches from top left to bottom right", king_one_way,
    ),
    Definition(
        "non-consecutive", board("non-consecutive", "135246" "462513" + "." * 24), 2,
        "diagonal touches may not be consecutive either", touching_nonconsecutive,
    ),
    Definition(
        "diagonal-non-consecutive", board("diagonal-non-consecutive"), 8,
        "only the diagonal touches from top left to bottom right",
        diagonal_one_way_nonconsecutive,
    ),
    Definition(
        "knightmare", board("knightmare"), 32,
        "only the knight's moves two across and one down (half the moves)", knight_right_sums,
    ),
    Definition(
        "taxicab", board("taxicab distance=3"), 24,
        "cells up to the distance apart, not exactly the distance", within(3),
    ),
    Definition(
        "self-taxicab", board("self-taxicab", "." * 24 + "461352" "253164"), 2,
        "two cells holding v up to v steps apart, not exactly v", self_within,
    ),
    Definition(
        "dutchflatmates", board("dutchflatmates"), 8,
        "each 2 (the middle value) beside a 1 or a 4 above or below it, either way round",
        lambda g, n: all(
            {g[j] for j in (i - n, i + n) if 0 <= j < n * n} & {1, n}
            for i, v in enumerate(g)
            if v == (n + 1) // 2
        ),
    ),
    Definition(
        "odd", board("odd r1c1", ".1.." + "." * 12), 24,
        "odd counted from 0 (the first value, 1, is the 0th: even)",
        lambda g, n: at(g, n, "r1c1") % 2 == 0,
    ),
    Definition(
        "even", board("even r1c1", ".1.." + "." * 12), 48,
        "even counted from 0 (the first value, 1, is the 0th: even)",
        lambda g, n: at(g, n, "r1c1") % 2 == 1,
    ),
    Definition(
        "candidates", board("candidates r1c1 values=1"), 72,
        "the pencil marks are the values the cell cannot hold",
        lambda g, n: at(g, n, "r1c1") != 1,
    ),
    Definition(
        "minimum", board("minimum r1c1 r2c1"), 66,
        "each minimum compared with every neighbour, the other minimum too",
        compared_with_each("r1c1 r2c1", above=False),
    ),
    Definition(
        "maximum", board("maximum r2c2 r2c3"), 12,
        "each maximum compared with every neighbour, the other maximum too",
        compared_with_each("r2c2 r2c3", above=True),
    ),
    Definition(
        "xv", board("xv r1c1 r1c2 sum=10", HALF6), 3,
        "an X means N + 1 on a board of N, as 10 on 9x9",
        lambda g, n: at(g, n, "r1c1") + at(g, n, "r1c2") == n + 1,
    ),
    Definition(
        "difference", board("difference r1c1 r1c2 difference=2"), 96,
        "the values differ by at least the dot's value",
        lambda g, n: abs(at(g, n, "r1c1") - at(g, n, "r1c2")) >= 2,
    ),
    Definition(
        "ratio", board("ratio r1c1 r1c2"), 96,
        "the first cell is twice the second, in the order the dot names them",
        lambda g, n: at(g, n, "r1c1") == 2 * at(g, n, "r1c2"),
    ),
    Definition(
        "negative-xv", board("negative-xv"), 8,
        "only the X is negative: no unmarked neighbours add up to 10 (the V unmarked)",
        lambda g, n: all(g[a] + g[b] != 10 for a, b in neighbours(n, ORTHOGONAL)),
    ),
    Definition(
        "negative-difference", board("negative-difference", HALF6), 1,
        "every Kropki dot is negative: no unmarked neighbours in ratio 1:2 either",
        lambda g, n: all(
            abs(g[a] - g[b]) != 1 and 2 * g[a] != g[b] and 2 * g[b] != g[a]
            for a, b in neighbours(n, ORTHOGONAL)
        ),
    ),
    Definition(
        "negative-ratio", board("negative-ratio", "." * 18 + "615432" "164523" "523164"), 1,
        "no unmarked neighbours in any whole ratio (1:3 and 1:4 too)",
        lambda g, n: all(
            max(g[a], g[b]) % min(g[a], g[b]) != 0 for a, b in neighbours(n, ORTHOGONAL)
        ),
    ),
    Definition(
        "thermometer", board("thermometer r1c2 r2c3"), 72,
        "values never decrease along it (a slow thermometer)",
        lambda g, n: at(g, n, "r1c2") <= at(g, n, "r2c3"),
    ),
    Definition(
        "slow-thermometer", board("slow-thermometer r1c2 r2c3"), 216,
        "values strictly increase along it (a thermometer)",
        lambda g, n: at(g, n, "r1c2") < at(g, n, "r2c3"),
    ),
    Definition(
        "arrow", board("arrow r1c1 r1c2 r2c1 r3c1 r4c1 r4c2 circle=2"), 12,
        "a pill read from the cell its shaft leaves by: r1c2 the tens, r1c1 the units",
        lambda g, n: 10 * at(g, n, "r1c2") + at(g, n, "r1c1")
        == sum(line(g, n, "r2c1 r3c1 r4c1 r4c2")),
    ),
    Definition(
        "doublearrow", board("doublearrow r1c1 r1c2 r1c3 r1c4"), 96,
        "an arrow from the first circle: it sums the rest of the line",
        lambda g, n: at(g, n, "r1c1") == sum(line(g, n, "r1c2 r1c3 r1c4")),
    ),
    Definition(
        "killercage", board("killercage r2c2 r2c3 r3c3 total=6"), 54,
        "values may repeat in the cage where no row, column or box forbids it",
        lambda g, n: sum(line(g, n, "r2c2 r2c3 r3c3")) == 6,
    ),
    Definition(
        "multisumcage", board("multisumcage r1c1 r1c2 totals=3,7"), 96,
        "only the first total counts",
        lambda g, n: sum(line(g, n, "r1c1 r1c2")) == 3,
    ),
    Definition(
        "littlekiller", board("littlekiller r1c1 r2c2 r3c3 r4c4 total=8"), 40,
        "values do not repeat along the diagonal, as in a cage",
        lambda g, n: sum(v := line(g, n, "r1c1 r2c2 r3c3 r4c4")) == 8 and len(set(v)) == 4,
    ),
    Definition(
        "palindrome", board("palindrome r1c2 r2c3 r3c2 r4c3"), 48,
        "the line's first half repeated, cell by cell, as its second half (a clone)",
        lambda g, n: line(g, n, "r1c2 r2c3") == line(g, n, "r3c2 r4c3"),
    ),
    Definition(
        "clone", board("clone r1c1 r1c2 r3c3 r3c4"), 48,
        "the two groups hold the same values in any order",
        lambda g, n: set(line(g, n, "r1c1 r1c2")) == set(line(g, n, "r3c3 r3c4")),
    ),
    Definition(
        "whispers", board("whispers r2c2 r3c3 r4c4"), 60,
        "neighbours differ by more than half of N (at least 5 on 9x9, 3 on 4x4)",
        lambda g, n: all(abs(a - b) > n / 2 for a, b in pairwise(line(g, n, "r2c2 r3c3 r4c4"))),
    ),
    Definition(
        "parityline", board("parityline r1c2 r2c3 r3c2 r4c3"), 8,
        "the line holds as many odd values as even ones, in any order",
        lambda g, n: sum(v % 2 for v in line(g, n, "r1c2 r2c3 r3c2 r4c3")) == 2,
    ),
    Definition(
        "renban", board("renban r1c2 r2c3 r3c4"), 36,
        "the values run up or down by one along the line, in order",
        lambda g, n: len({b - a for a, b in pairwise(line(g, n, "r1c2 r2c3 r3c4"))} - {0}) == 1
        and all(abs(b - a) == 1 for a, b in pairwise(line(g, n, "r1c2 r2c3 r3c4"))),
    ),
    Definition(
        "betweenline", board("betweenline r1c1 r2c2 r3c3 r4c4"), 24,
        "between the ends or equal to one of them",
        lambda g, n: all(
            min(at(g, n, "r1c1"), at(g, n, "r4c4")) <= v <= max(at(g, n, "r1c1"), at(g, n, "r4c4"))
            for v in line(g, n, "r2c2 r3c3")
        ),
    ),
    Definition(
        "lockout", board("lockout r1c1 r2c2 r3c3 r4c4"), 8,
        "not strictly between the ends (a between line negated): an end's value allowed",
        lambda g, n: abs(at(g, n, "r1c1") - at(g, n, "r4c4")) >= n // 2
        and not any(
            min(at(g, n, "r1c1"), at(g, n, "r4c4")) < v < max(at(g, n, "r1c1"), at(g, n, "r4c4"))
            for v in line(g, n, "r2c2 r3c3")
        ),
    ),
    Definition(
        "entropic", board("entropic r1c1 r1c2 r1c3", HALF6), 8,
        "only neighbours on the line in different thirds (1-2, 3-4, 5-6 on 6x6)",
        lambda g, n: all(
            group(a, n) != group(b, n) for a, b in pairwise(line(g, n, "r1c1 r1c2 r1c3"))
        ),
    ),
    Definition(
        "entropic", board("entropic r1c1 r2c2 r3c3", "1..." + "." * 12), 24,
        "thirds cut from the bottom, 1-2, 3, 4 on 4x4, where dclamage's middle third is the odd "
        "size out (1, 2-3, 4)",
        lambda g, n: len({group(v, n) for v in line(g, n, "r1c1 r2c2 r3c3")}) == 3,
    ),
    Definition(
        "zipper", board("zipper r1c1 r2c2 r1c3", HALF6), 4,
        "cells equally far from the centre add up to the same total, not the centre's value",
        lambda g, n: len(mirrored_sums(line(g, n, "r1c1 r2c2 r1c3"))) == 1,
    ),
    Definition(
        "modularline", board("modularline r1c1 r2c2 r2c3 r1c4", HALF6), 1,
        "low, middle and high thirds (an entropic line's rule) for the remainders",
        lambda g, n: all(
            len({group(v, n) for v in three}) == 3
            for three in threes(line(g, n, "r1c1 r2c2 r2c3 r1c4"))
        ),
    ),
    Definition(
        "nabner", board("nabner r1c1 r2c2 r3c3", HALF6), 3,
        "only neighbours on the line may not be the same or consecutive",
        lambda g, n: all(abs(a - b) > 1 for a, b in pairwise(line(g, n, "r1c1 r2c2 r3c3"))),
    ),
    Definition(
        "sandwich", board("sandwich r1c1 r1c2 r1c3 r1c4 total=5"), 48,
        "the 1 and the N themselves counted in the sum",
        lambda g, n: sandwiched(line(g, n, "r1c1 r1c2 r1c3 r1c4"), n, inclusive=True) == 5,
    ),
    Definition(
        "xsum", board("xsum r1c1 r1c2 r1c3 r1c4 total=6"), 48,
        "the X cells after the first one add up to the clue",
        lambda g, n: sum(
            (v := line(g, n, "r1c1 r1c2 r1c3 r1c4"))[1 : 1 + v[0]]
        ) == 6,
    ),
    Definition(
        "skyscraper", board("skyscraper r1c1 r1c2 r1c3 r1c4 total=3"), 72,
        "the clue counts each step up from one cell to the next, plus the first cell",
        lambda g, n: seen(line(g, n, "r1c1 r1c2 r1c3 r1c4")) == 3,
    ),
    Definition(
        "quadruple", board("quadruple r2c2 r2c3 r3c2 r3c3 values=1,1"), 36,
        "a value written twice needs to appear once",
        lambda g, n: 1 in line(g, n, "r2c2 r2c3 r3c2 r3c3"),
    ),
    Definition(
        "extraregion", board("extraregion r1c1 r2c3 r4c4"), 72,
        "a region of k cells holds 1 to k, as a region of N cells holds 1 to N",
        lambda g, n: sorted(line(g, n, "r1c1 r2c3 r4c4")) == [1, 2, 3],
    ),
    Definition(
        "disjointgroups", board("disjointgroups box=2x2"), 168,
        "only boxes side by side (in one band) compared",
        lambda g, n: all(g[a] != g[a + 2] for a in range(16) if a % 4 < 2),
    ),
    Definition(
        "diagonal+", board("diagonal+", "." * 18 + "...1.." "215364" "643521"), 4,
        "the diagonal from top left to bottom right",
        lambda g, n: len({g[i * n + i] for i in range(n)}) == n,
    ),
    Definition(
        "diagonal-", board("diagonal-", "." * 18 + "..1..." "253614" "146532"), 6,
        "the diagonal from bottom left to top right",
        lambda g, n: len({g[i * n + n - 1 - i] for i in range(n)}) == n,
    ),
    Definition(
        "regionsumline", board("regionsumline r1c1 r1c2 r1c3 r2c2 regions=0,0,1,0"), 24,
        "a region's cells summed wherever they lie on the line, not each stretch",
        lambda g, n: sum(line(g, n, "r1c1 r1c2 r2c2")) == at(g, n, "r1c3"),
    ),
    Definition(
        "columnindexer", board("columnindexer r1c2", "....." "1.." + "." * 8), 36,
        "read as a row indexer: a value v in row r puts an r in row v of its column",
        lambda g, n: g[(at(g, n, "r1c2") - 1) * n + 1] == 1,
    ),
    Definition(
        "rowindexer", board("rowindexer r2c1", "....." "1.." + "." * 8), 36,
        "read as a column indexer: a value v in column c puts a c in column v of its row",
        lambda g, n: g[n + at(g, n, "r2c1") - 1] == 1,
    ),
    Definition(
        "boxindexer", board("boxindexer r1c2 box=2x2", "2..." + "." * 12), 24,
        "positions in the box counted down its columns, not along its rows",
        lambda g, n: g[box_cell(n, 2, 2, "r1c2", at(g, n, "r1c2"), column_major=True)]
        == box_position(n, 2, 2, "r1c2", column_major=True),
    ),
    # the kinds of sigh's Interactive Sudoku Solver (sums.py): js/sudoku_constraint.js's
    # descriptions and js/solver/handlers.js's enforcement
    Definition(
        "sum", board("sum r1c1 r3c3 total=4"), 54,
        "values do not repeat, as in a killer cage",
        lambda g, n: at(g, n, "r1c1") + at(g, n, "r3c3") == 4 and at(g, n, "r1c1") != 2,
    ),
    Definition(
        "lunchbox", board("lunchbox r1c1 r1c2 r1c3 total=3"), 48,
        "the bread is the 1 and the N, as in a sandwich, whatever else the lunchbox holds",
        lambda g, n: {1, n} <= set(v := line(g, n, "r1c1 r1c2 r1c3")) and v[1] == 3,
    ),
    Definition(
        "rellikcage", board("rellikcage r1c1 r1c2 total=4"), 96,
        "only all the cage's values together may not add up to the total",
        lambda g, n: at(g, n, "r1c1") + at(g, n, "r1c2") != 4,
    ),
    Definition(
        "sumline", board("sumline r1c1 r1c2 r1c3 r1c4 total=5"), 96,
        "the line adds up to a multiple of the total, wherever the stretches end",
        lambda g, n: sum(line(g, n, "r1c1 r1c2 r1c3 r1c4")) % 5 == 0,
    ),
    Definition(
        "sumline", board("sumline r1c1 r1c2 r2c2 r2c1 total=5 loop=1"), 192,
        "a loop read as a line from its first cell: no stretch across the join",
        lambda g, n: (v := line(g, n, "r1c1 r1c2 r2c2 r2c1"))[0] + v[1] == 5,
    ),
    Definition(
        "countingcircles", board("countingcircles r1c1 r2c3 r3c2"), 30,
        "each circle's value is how many circles there are",
        lambda g, n: set(line(g, n, "r1c1 r2c3 r3c2")) == {3},
    ),
    # kinds read from sigh's Interactive Sudoku Solver (js/sudoku_constraint.js)
    Definition(
        "modularline", board("modularline r1c1 r2c2 r3c3 r4c4 modulus=2"), 64,
        "the modulus ignored: any three consecutive cells different mod 3",
        lambda g, n: all(
            len({v % 3 for v in window}) == len(window)
            for window in windows(line(g, n, "r1c1 r2c2 r3c3 r4c4"), 3)
        ),
    ),
    Definition(
        "numberedroom", board("numberedroom r1c1 r1c2 r1c3 r1c4 value=3", "....1" + "." * 11),
        18, "the Xth cell counted from the far end of the row",
        lambda g, n: line(g, n, "r1c1 r1c2 r1c3 r1c4")[n - at(g, n, "r1c1")] == 3,
    ),
    Definition(
        "hiddenskyscraper", board("hiddenskyscraper r1c1 r2c1 r3c1 r4c1 value=2"), 96,
        "the clue counts the hidden skyscrapers",
        lambda g, n: hidden(line(g, n, "r1c1 r2c1 r3c1 r4c1")) == 2,
    ),
    Definition(
        "globalentropy", board("globalentropy", "213645" "456213" "5.4..." + "." * 18), 1,
        "only the nine 2x2 squares that tile the board, not the overlapping ones",
        lambda g, n: tiled(g, n, ({1, 2}, {3, 4}, {5, 6})),
    ),
    Definition(
        "globalmod", board("globalmod", "261345" "435261" "5.6..." + "." * 18), 1,
        "only the nine 2x2 squares that tile the board, not the overlapping ones",
        lambda g, n: tiled(g, n, ({1, 4}, {2, 5}, {3, 6})),
    ),
    Definition(
        "lookandsay", board("lookandsay r1c1 r2c2 r3c3 r4c4 values=1,2 counts=2,0"), 32,
        "a count of 0 says nothing of its value",
        lambda g, n: line(g, n, "r1c1 r2c2 r3c3 r4c4").count(1) == 2,
    ),
    Definition(
        "equalitycage", board("equalitycage r1c2 r2c2 r2c3 r3c3"), 24,
        "as many even as odd values, low and high values in any number",
        lambda g, n: sum(v % 2 for v in line(g, n, "r1c2 r2c2 r2c3 r3c3")) == 2,
    ),
    Definition(
        "pairline", board("pairline r1c1 r2c2 r3c3 pairs=1,2,1,3,1,4,2,3,2,4,3,4"), 24,
        "a pair allowed either way round: (2, 1) as (1, 2)",
        lambda g, n: len(set(line(g, n, "r1c1 r2c2"))) == len(set(line(g, n, "r2c2 r3c3"))) == 2,
    ),
    Definition(
        "pairgroup",
        board("pairgroup r1c1 r2c2 r3c3 pairs=1,1,1,3,1,4,2,2,2,4,3,1,3,3,4,1,4,2,4,4"), 72,
        "only cells next to each other in the list compared, as on a pair line",
        lambda g, n: all(
            abs(a - b) != 1 for a, b in pairwise(line(g, n, "r1c1 r2c2 r3c3"))
        ),
    ),
]  # fmt: skip


def hidden(values: list[int]) -> int:
    """How many values a taller one before them hides."""
    return sum(1 for i in range(1, len(values)) if values[i] < max(values[:i]))


def windows(values: list[int], size: int) -> list[list[int]]:
    return [values[start : start + size] for start in range(max(1, len(values) - size + 1))]


def tiled(g: Grid, n: int, groups) -> bool:
    """Each 2x2 square of a tiling of the board holds a value of each group."""
    tops = [r * n + c for r in range(0, n, 2) for c in range(0, n, 2)]
    return all(all({g[t], g[t + 1], g[t + n], g[t + n + 1]} & s for s in groups) for t in tops)


@pytest.fixture(scope="module")
def grids() -> Callable[[Board], list[tuple[int, ...]]]:
    """Every grid that keeps a board's rows, columns, boxes and givens, whatever its rules."""
    kept: dict[tuple, list[tuple[int, ...]]] = {}

    def fill(puzzle: Board) -> list[tuple[int, ...]]:
        key = (puzzle.shape, puzzle.cells)
        if key not in kept:
            kept[key] = list(completions(puzzle))
        return kept[key]

    return fill


def completions(puzzle: Board) -> Iterator[tuple[int, ...]]:
    """The grids that fill the board's blanks keeping its rows, columns and boxes (not its
    constraints), in order."""
    n, peers = puzzle.size, puzzle.shape.geometry.peers
    cells = list(puzzle.cells)
    if any(v and any(cells[p] == v for p in peers[i]) for i, v in enumerate(cells)):
        return
    blanks = [i for i, v in enumerate(cells) if not v]

    def place(k: int) -> Iterator[tuple[int, ...]]:
        if k == len(blanks):
            yield tuple(cells)
            return
        cell = blanks[k]
        taken = {cells[p] for p in peers[cell]}
        for value in range(1, n + 1):
            if value not in taken:
                cells[cell] = value
                yield from place(k + 1)
        cells[cell] = 0

    yield from place(0)


@pytest.mark.parametrize("definition", DEFINITIONS, ids=[d.kind for d in DEFINITIONS])
def test_each_kind_counts_a_hand_made_board_by_the_fields_meaning(definition, grids):
    """The field's count from two engines and from the kind's own check over every grid; the
    wrong reading (``Definition.wrong_reading``) counts otherwise."""
    puzzle = parse(definition.board)
    assert definition.kind in {c.kind for c in puzzle.rules.constraints}
    n = puzzle.size
    candidates = grids(puzzle)
    by_check = sum(
        1
        for g in candidates
        if not problems(puzzle, Board.unchecked(puzzle.shape, g, puzzle.rules))
    )
    by_wrong = sum(1 for g in candidates if definition.wrong(g, n))
    counts = {e: count_solutions(puzzle, 1000, e) for e in ("cpsat", "dfs")}
    assert counts == {"cpsat": definition.count, "dfs": definition.count}
    assert by_check == definition.count
    source = KINDS[definition.kind].source
    assert by_wrong != definition.count, f"{source} read as {definition.wrong_reading!r}"


def test_every_kind_is_told_from_a_wrong_reading():
    assert {d.kind for d in DEFINITIONS} == set(KINDS)
