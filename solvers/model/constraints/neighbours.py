"""Board-wide neighbour kinds: anti-knight, anti-king, non-consecutive, diagonal
non-consecutive, knightmare, taxicab, self-taxicab, Dutch flatmates.

Each is board-wide (no cells): it holds between every two cells of the board at the given
offsets. Anti-king names only the diagonal touches: orthogonal neighbours already share a row
or a column.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

from solvers.base.errors import InputError
from solvers.model.cells import cell_name

from .model import Constraint, Kind, describe, int_param
from .primitives import AllDifferent, Primitive, Relation, Table

KNIGHT = ((1, -2), (1, 2), (2, -1), (2, 1))
KING_DIAGONAL = ((1, -1), (1, 1))
ORTHOGONAL = ((0, 1), (1, 0))


def _pairs(n: int, offsets: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    """Each unordered pair of cells one of ``offsets`` apart (offsets point downwards or right,
    so no pair comes twice)."""
    return [
        (row * n + col, (row + dr) * n + col + dc)
        for row in range(n)
        for col in range(n)
        for dr, dc in offsets
        if 0 <= row + dr < n and 0 <= col + dc < n
    ]


def _apart(n: int, moves) -> Iterator[tuple[int, int]]:
    """Each two cells one of ``moves`` apart, the lower-numbered first, once each (the checks'
    own walk: they must not share the decompositions' ``_pairs``)."""
    for cell in range(n * n):
        r, c = divmod(cell, n)
        for dr, dc in moves:
            if 0 <= r + dr < n and 0 <= c + dc < n and (other := (r + dr) * n + c + dc) > cell:
                yield cell, other


def _same(grid: Sequence[int], n: int, moves, what: str) -> list[str]:
    return [
        f"{cell_name(a, n)} and {cell_name(b, n)} are {what} apart and both hold {grid[a]}"
        for a, b in _apart(n, moves)
        if grid[a] == grid[b]
    ]


def _both(grid: Sequence[int], n: int, a: int, b: int) -> str:
    return f"{cell_name(a, n)} ({grid[a]}) and {cell_name(b, n)} ({grid[b]})"


def check_anti_knight(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    moves = [(dr, dc) for dr in (-2, -1, 1, 2) for dc in (-2, -1, 1, 2) if abs(dr) != abs(dc)]
    return _same(grid, n, moves, "a knight's move")


def check_anti_king(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    return _same(grid, n, [(-1, -1), (-1, 1), (1, -1), (1, 1)], "a king's move")


def check_non_consecutive(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    return [
        f"{_both(grid, n, a, b)} are neighbours holding consecutive values"
        for a, b in _apart(n, [(0, 1), (1, 0)])
        if abs(grid[a] - grid[b]) == 1
    ]


def check_diagonal_non_consecutive(
    constraint: Constraint, grid: Sequence[int], n: int
) -> list[str]:
    return [
        f"{_both(grid, n, a, b)} touch diagonally holding consecutive values"
        for a, b in _apart(n, [(1, -1), (1, 1)])
        if abs(grid[a] - grid[b]) == 1
    ]


KNIGHTMARE_SUMS = (5, 15)  # dclamage's, on any board, when the rule names none


def check_knightmare(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    sums = set(constraint.param("sums", KNIGHTMARE_SUMS))
    return [
        f"{_both(grid, n, a, b)} are a knight's move apart and add up to {grid[a] + grid[b]}"
        for a, b in _apart(n, [(1, -2), (1, 2), (2, -1), (2, 1)])
        if grid[a] + grid[b] in sums
    ]


def check_taxicab(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    distance = constraint.param("distance")
    moves = [
        (dr, dc)
        for dr in range(-distance, distance + 1)
        for dc in range(-distance, distance + 1)
        if abs(dr) + abs(dc) == distance
    ]
    return _same(grid, n, moves, f"{distance} steps (a taxicab distance)")


def check_self_taxicab(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    problems = []
    for cell in range(n * n):
        value, (r, c) = grid[cell], divmod(cell, n)
        for other in range(cell + 1, n * n):
            if grid[other] == value and abs(other // n - r) + abs(other % n - c) == value:
                problems.append(
                    f"{cell_name(cell, n)} and {cell_name(other, n)} both hold {value}, "
                    f"{value} steps apart (a taxicab distance)"
                )
    return problems


def decompose_anti_knight(constraint: Constraint, n: int) -> list[Primitive]:
    return [AllDifferent(pair) for pair in _pairs(n, KNIGHT)]


def decompose_anti_king(constraint: Constraint, n: int) -> list[Primitive]:
    return [AllDifferent(pair) for pair in _pairs(n, KING_DIAGONAL)]


def consecutive_pairs(n: int) -> frozenset[tuple[int, int]]:
    return frozenset((a, b) for a in range(1, n + 1) for b in range(1, n + 1) if abs(a - b) == 1)


def decompose_non_consecutive(constraint: Constraint, n: int) -> list[Primitive]:
    forbidden = consecutive_pairs(n)
    return [Relation(a, b, forbidden) for a, b in _pairs(n, ORTHOGONAL)]


def decompose_diagonal_non_consecutive(constraint: Constraint, n: int) -> list[Primitive]:
    forbidden = consecutive_pairs(n)
    return [Relation(a, b, forbidden) for a, b in _pairs(n, KING_DIAGONAL)]


def decompose_knightmare(constraint: Constraint, n: int) -> list[Primitive]:
    sums = constraint.param("sums", KNIGHTMARE_SUMS)
    values = range(1, n + 1)
    forbidden = frozenset((x, y) for x in values for y in values if x + y in sums)
    return [Relation(a, b, forbidden) for a, b in _pairs(n, KNIGHT)] if forbidden else []


def taxicab_offsets(distance: int) -> tuple[tuple[int, int], ...]:
    """The offsets ``distance`` steps away (rows plus columns), pointing downwards or right."""
    return tuple(
        (dr, dc)
        for dr in range(distance + 1)
        for dc in range(-distance, distance + 1)
        if dr + abs(dc) == distance and (dr > 0 or dc > 0)
    )


def decompose_taxicab(constraint: Constraint, n: int) -> list[Primitive]:
    return [AllDifferent(pair) for pair in _pairs(n, taxicab_offsets(constraint.param("distance")))]


def decompose_self_taxicab(constraint: Constraint, n: int) -> list[Primitive]:
    return [
        Relation(a, b, frozenset({(distance, distance)}))
        for distance in range(1, n + 1)
        for a, b in _pairs(n, taxicab_offsets(distance))
    ]


def _validate_taxicab(constraint: Constraint, n: int) -> None:
    int_param(constraint, n, "distance", 1, max(1, 2 * n - 2))


LARGEST_PAIR_SUM = 2 * 25  # two cells of the largest board, 25x25


def _validate_knightmare(constraint: Constraint, n: int) -> None:
    sums = constraint.param("sums")
    if sums is None:
        return
    if not isinstance(sums, tuple) or not sums:
        raise InputError(f"{describe(constraint, n)}: sums must be one or more whole numbers")
    # a sum two cells of this board cannot make forbids nothing, as in dclamage's solver,
    # which takes any: so the default's 15 stays sayable on small boards
    if any(type(total) is not int or not 2 <= total <= LARGEST_PAIR_SUM for total in sums):
        raise InputError(
            f"{describe(constraint, n)}: sums {sums!r} are not all in 2..{LARGEST_PAIR_SUM}"
        )


def _sorted_sums(constraint: Constraint) -> Constraint:
    sums = constraint.param("sums")
    if not isinstance(sums, tuple) or any(type(total) is not int for total in sums):
        return constraint
    return replace(constraint, params=(("sums", tuple(sorted(set(sums)))),))


def _middle(n: int) -> int:
    """The value Dutch flatmates is about: ISS's ``Math.ceil(numValues / 2)`` (5 on 9x9)."""
    return (n + 1) // 2


def check_dutch_flatmates(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    middle, problems = _middle(n), []
    for cell, value in enumerate(grid):
        if value != middle:
            continue
        above = cell >= n and grid[cell - n] == 1
        below = cell + n < n * n and grid[cell + n] == n
        if not (above or below):
            problems.append(
                f"{cell_name(cell, n)} holds {middle} with neither a 1 directly above it nor "
                f"a {n} directly below it"
            )
    return problems


def decompose_dutch_flatmates(constraint: Constraint, n: int) -> list[Primitive]:
    """For each cell with its cells above and below (those on the board): a table whose rows
    are "not the middle value", "a 1 above it", "N below it"."""
    middle, every = frozenset({_middle(n)}), frozenset(range(1, n + 1))
    tables: list[Primitive] = []
    for cell in range(n * n):
        row = cell // n
        cells = [c for c in (cell - n, cell, cell + n) if 0 <= c < n * n]
        at = cells.index(cell)
        free = [every] * len(cells)
        rows = [(*free[:at], every - middle, *free[at + 1 :])]
        if row > 0:
            rows.append((*free[: at - 1], frozenset({1}), middle, *free[at + 1 :]))
        if row < n - 1:
            rows.append((*free[:at], middle, frozenset({n}), *free[at + 2 :]))
        tables.append(Table(tuple(cells), tuple(rows)))
    return tables


BOARD = (0, 0)
KINDS = (
    Kind("anti-knight", "No two cells a chess knight's move apart hold the same value.",
         check_anti_knight, decompose_anti_knight, frozenset({AllDifferent}), cells=BOARD,
         fpuzzles="antiknight", fpuzzles_shape="switch", example="anti-knight",
         source="dclamage KnightConstraint.cs"),
    Kind("anti-king", "No two cells a chess king's move apart hold the same value.",
         check_anti_king, decompose_anti_king, frozenset({AllDifferent}), cells=BOARD,
         fpuzzles="antiking", fpuzzles_shape="switch", example="anti-king",
         source="dclamage KingConstraint.cs"),
    Kind("non-consecutive", "No two orthogonally neighbouring cells hold consecutive values.",
         check_non_consecutive, decompose_non_consecutive, frozenset({Relation}), cells=BOARD,
         fpuzzles="nonconsecutive", example="non-consecutive",
         source="dclamage DifferenceConstraint.cs"),
    Kind("diagonal-non-consecutive",
         "No two diagonally neighbouring cells hold consecutive values.",
         check_diagonal_non_consecutive, decompose_diagonal_non_consecutive,
         frozenset({Relation}), cells=BOARD, example="diagonal-non-consecutive",
         source="dclamage DiagonalNonconsecutiveConstraint.cs"),
    Kind("knightmare",
         "No two cells a chess knight's move apart add up to 5 or 15 (or to the sums given).",
         check_knightmare, decompose_knightmare, frozenset({Relation}), cells=BOARD,
         params=frozenset({"sums"}), validate_more=_validate_knightmare,
         defaults=lambda n: {"sums": KNIGHTMARE_SUMS}, canonical=_sorted_sums,
         example="knightmare sums=10", source="dclamage KnightmareConstraint.cs"),
    Kind("taxicab",
         "No two cells the given taxicab distance apart (rows plus columns) hold the same value.",
         check_taxicab, decompose_taxicab, frozenset({AllDifferent}), cells=BOARD,
         params=frozenset({"distance"}), required=frozenset({"distance"}),
         validate_more=_validate_taxicab, example="taxicab distance=4",
         source="dclamage TaxicabConstraint.cs"),
    Kind("self-taxicab",
         "No two cells holding the same value v are v steps apart (rows plus columns).",
         check_self_taxicab, decompose_self_taxicab, frozenset({Relation}), cells=BOARD,
         example="self-taxicab", source="dclamage SelfTaxicabConstraint.cs"),
    Kind("dutchflatmates",
         "Every 5 (the middle value) has a 1 directly above it or a 9 (the largest) directly "
         "below it.",
         check_dutch_flatmates, decompose_dutch_flatmates, frozenset({Table}), cells=BOARD,
         example="dutchflatmates", source="sigh handlers.js"),
)  # fmt: skip
