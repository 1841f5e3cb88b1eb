"""Line kinds: the cells of a line, in order, touching orthogonally or diagonally.

- ``palindrome``: reads the same from both ends. ``clone``: the first half of the cells equal
  the second half, cell by cell.
- ``whispers``: neighbours on the line differ by at least ``difference`` (default: half of N
  rounded up, 5 on 9x9).
- ``parityline``: neighbours on the line alternate between odd and even values.
- ``renban``: a set of different, consecutive values in any order.
- ``betweenline``: the cells strictly between the two ends hold values strictly between theirs.
- ``lockout``: the ends (diamonds) differ by at least N // 2 (4 on 9x9) and the cells between
  them hold values outside the closed range of the ends': the f-puzzles key ``lockout``, read
  by madformuse/SudokuSolver (a fork of dclamage/SudokuSolver):
  ``Constraints/LockoutLineConstraint.cs``.
- ``entropic``: every three consecutive cells hold one low, one middle, one high value (1-3,
  4-6, 7-9 on 9x9; thirds of 1..N, the middle one the odd size out where N is no multiple of
  3); a line of two cells holds values of two of them.
- ``zipper``: cells equally far from the centre add up to the same total (the centre's value
  on a line of odd length).
- ``modularline``: every three consecutive cells hold one value of each remainder mod 3 (a
  line of two cells: two remainders), so cells a multiple of three apart share a remainder and
  any others differ: dclamage/SudokuSolver's ``Constraints/ModularLineConstraint.cs`` (f-puzzles
  key ``modularline``), whose links tie every two cells of the line by their distance. With
  ``modulus`` m, every m consecutive cells hold different remainders mod m, as sigh's
  Interactive Sudoku Solver's ``Modular`` line (``js/sudoku_constraint.js``; its builder ties
  the first m cells apart and cells m apart alike, ``js/solver/sudoku_builder.js``).
- ``nabner``: no two cells of the line, neighbours on it or not, hold the same or consecutive
  values: dclamage/SudokuSolver's ``Constraints/NabnerConstraint.cs`` (f-puzzles key
  ``nabner``; the plugin's rule text: "If a digit appears on the line, then the digits
  consecutive with it must not appear").
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, pairwise, permutations

from solvers.base.errors import InputError
from solvers.model.cells import cell_name

from .model import Constraint, Kind, describe, int_param, require_line
from .primitives import AllDifferent, Linear, Primitive, Relation, Table


def _mirror(cells: tuple[int, ...]) -> list[tuple[int, int]]:
    return [(cells[i], cells[-1 - i]) for i in range(len(cells) // 2)]


def _equal(pairs) -> list[Primitive]:
    return [Linear(((1, a), (-1, b)), "==", 0) for a, b in pairs]


def check_palindrome(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    cells, count = constraint.cells, len(constraint.cells)
    return [
        f"{cell_name(cells[i], n)} ({grid[cells[i]]}) and {cell_name(cells[count - 1 - i], n)} "
        f"({grid[cells[count - 1 - i]]}) mirror each other on the palindrome"
        for i in range(count // 2)
        if grid[cells[i]] != grid[cells[count - 1 - i]]
    ]


def decompose_palindrome(constraint: Constraint, n: int) -> list[Primitive]:
    return _equal(_mirror(constraint.cells))


def check_clone(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    half = len(constraint.cells) // 2
    problems = []
    for index in range(half):
        a, b = constraint.cells[index], constraint.cells[half + index]
        if grid[a] != grid[b]:
            problems.append(
                f"{cell_name(b, n)} ({grid[b]}) is a clone of {cell_name(a, n)} ({grid[a]})"
            )
    return problems


def decompose_clone(constraint: Constraint, n: int) -> list[Primitive]:
    cells, half = constraint.cells, len(constraint.cells) // 2
    return _equal(zip(cells[:half], cells[half:], strict=True))


def _gap(constraint: Constraint, n: int) -> int:
    return int(constraint.param("difference", (n + 1) // 2))


def check_whispers(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    cells, gap = constraint.cells, _gap(constraint, n)
    return [
        f"{cell_name(a, n)} ({grid[a]}) and {cell_name(b, n)} ({grid[b]}) differ by less "
        f"than {gap} on the whispers line"
        for a, b in pairwise(cells)
        if abs(grid[a] - grid[b]) < gap
    ]


def decompose_whispers(constraint: Constraint, n: int) -> list[Primitive]:
    gap = _gap(constraint, n)
    near = frozenset((x, y) for x in range(1, n + 1) for y in range(1, n + 1) if abs(x - y) < gap)
    cells = constraint.cells
    return [Relation(cells[i], cells[i + 1], near) for i in range(len(cells) - 1)]


def check_parityline(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    return [
        f"{cell_name(a, n)} ({grid[a]}) and {cell_name(b, n)} ({grid[b]}) are both "
        f"{'even' if grid[a] % 2 == 0 else 'odd'} on the parity line"
        for a, b in pairwise(constraint.cells)
        if grid[a] % 2 == grid[b] % 2
    ]


def decompose_parityline(constraint: Constraint, n: int) -> list[Primitive]:
    values = range(1, n + 1)
    alike = frozenset((x, y) for x in values for y in values if x % 2 == y % 2)
    return [Relation(a, b, alike) for a, b in pairwise(constraint.cells)]


def check_renban(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    values = sorted(grid[cell] for cell in constraint.cells)
    if values == list(range(values[0], values[0] + len(values))):
        return []
    return [f"the renban line at {cell_name(constraint.cells[0], n)} holds {values}, not a run"]


def decompose_renban(constraint: Constraint, n: int) -> list[Primitive]:
    cells, size = constraint.cells, len(constraint.cells)
    runs = [frozenset(range(low, low + size)) for low in range(1, n - size + 2)]
    return [AllDifferent(cells), Table(cells, tuple((run,) * size for run in runs))]


def check_betweenline(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    *middle, last = constraint.cells[1:]
    low, high = sorted((grid[constraint.cells[0]], grid[last]))
    return [
        f"{cell_name(cell, n)} ({grid[cell]}) is not strictly between the ends {low} and {high}"
        for cell in middle
        if not low < grid[cell] < high
    ]


def decompose_betweenline(constraint: Constraint, n: int) -> list[Primitive]:
    first, *middle, last = constraint.cells
    rows = tuple(
        (frozenset({a}), frozenset(range(min(a, b) + 1, max(a, b))), frozenset({b}))
        for a in range(1, n + 1)
        for b in range(1, n + 1)
        if abs(a - b) >= 2
    )
    return [Table((first, cell, last), rows) for cell in middle]


def check_lockout(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    first, *middle, last = constraint.cells
    low, high = sorted((grid[first], grid[last]))
    problems = [
        f"{cell_name(cell, n)} ({grid[cell]}) is not outside the lockout ends {low} to {high}"
        for cell in middle
        if low <= grid[cell] <= high
    ]
    if high - low < n // 2:
        problems.append(f"the lockout ends {low} and {high} are less than {n // 2} apart")
    return problems


def decompose_lockout(constraint: Constraint, n: int) -> list[Primitive]:
    first, *middle, last = constraint.cells
    values = range(1, n + 1)
    ends = [(a, b) for a in values for b in values if abs(a - b) >= n // 2]
    close = frozenset((a, b) for a in values for b in values) - frozenset(ends)
    rows = tuple(
        (frozenset({a}), frozenset(values) - set(range(min(a, b), max(a, b) + 1)), frozenset({b}))
        for a, b in ends
    )
    return [Relation(first, last, close)] + [Table((first, cell, last), rows) for cell in middle]


def _thirds(n: int) -> tuple[range, range, range]:
    """The low, middle and high values of 1..N: thirds, where N is no multiple of 3 the middle
    one the odd size out (1, 2-3, 4 on 4x4; 1-3, 4-5, 6-8 on 8x8), as dclamage/SudokuSolver's
    EntropicLineConstraint.cs sizes them."""
    small, large = n // 3, (n + 2) // 3
    low, middle = (small, large) if n % 3 == 1 else (large, small)
    return range(1, low + 1), range(low + 1, low + middle + 1), range(low + middle + 1, n + 1)


def _windows(cells: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every three consecutive cells of a line (a line of two: its two cells)."""
    return [cells[start : start + 3] for start in range(max(1, len(cells) - 2))]


def check_entropic(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    third = {value: index for index, values in enumerate(_thirds(n)) for value in values}
    return [
        f"{', '.join(cell_name(cell, n) for cell in window)} hold "
        f"{[grid[cell] for cell in window]}: not one low, one middle and one high"
        for window in _windows(constraint.cells)
        if len({third[grid[cell]] for cell in window}) < len(window)
    ]


def decompose_entropic(constraint: Constraint, n: int) -> list[Primitive]:
    groups = [frozenset(values) for values in _thirds(n)]
    return [
        Table(window, tuple(permutations(groups, len(window))))
        for window in _windows(constraint.cells)
    ]


def check_zipper(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    cells, count = constraint.cells, len(constraint.cells)
    totals = {grid[cells[i]] + grid[cells[count - 1 - i]] for i in range(count // 2)}
    if count % 2:
        totals.add(grid[cells[count // 2]])
    if len(totals) <= 1:
        return []
    return [f"the zipper line at {cell_name(cells[0], n)} has totals {sorted(totals)}"]


def decompose_zipper(constraint: Constraint, n: int) -> list[Primitive]:
    pairs = _mirror(constraint.cells)
    found: list[Primitive] = [
        Linear(((1, a), (1, b), (-1, c), (-1, d)), "==", 0) for (a, b), (c, d) in pairwise(pairs)
    ]
    if len(constraint.cells) % 2:
        centre, (a, b) = constraint.cells[len(constraint.cells) // 2], pairs[-1]
        found.append(Linear(((1, a), (1, b), (-1, centre)), "==", 0))
    return found


def _modulus(constraint: Constraint) -> int:
    return int(constraint.param("modulus", 3))


def check_modularline(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    cells, modulus, problems = constraint.cells, _modulus(constraint), []
    for start in range(max(1, len(cells) - modulus + 1)):
        window = cells[start : start + modulus]
        if len({grid[cell] % modulus for cell in window}) < len(window):
            problems.append(
                f"{', '.join(cell_name(cell, n) for cell in window)} hold "
                f"{[grid[cell] for cell in window]}: two of them alike mod {modulus} on the "
                "modular line"
            )
    return problems


def decompose_modularline(constraint: Constraint, n: int) -> list[Primitive]:
    values, modulus = range(1, n + 1), _modulus(constraint)
    alike = frozenset((x, y) for x in values for y in values if x % modulus == y % modulus)
    unlike = frozenset((x, y) for x in values for y in values) - alike
    cells = constraint.cells
    return [
        Relation(cells[i], cells[j], unlike if (j - i) % modulus == 0 else alike)
        for i, j in combinations(range(len(cells)), 2)
    ]


def check_nabner(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
    values = sorted(grid[cell] for cell in constraint.cells)
    where = cell_name(constraint.cells[0], n)
    return [
        f"the Nabner line at {where} holds {low} and {high}, "
        f"{'twice the same' if low == high else 'consecutive'} values"
        for low, high in pairwise(values)
        if high - low <= 1
    ]


def decompose_nabner(constraint: Constraint, n: int) -> list[Primitive]:
    values = range(1, n + 1)
    close = frozenset((x, y) for x in values for y in values if abs(x - y) <= 1)
    return [Relation(a, b, close) for a, b in combinations(constraint.cells, 2)]


def _validate_clone(constraint: Constraint, n: int) -> None:
    if len(constraint.cells) % 2:
        raise InputError(f"{describe(constraint, n)}: the two halves differ in size")


def _validate_whispers(constraint: Constraint, n: int) -> None:
    require_line(constraint, n)
    int_param(constraint, n, "difference", 1, n - 1)


def _validate_different(constraint: Constraint, n: int) -> None:
    """A line whose values all differ (renban, Nabner) is at most N long."""
    require_line(constraint, n)
    if len(constraint.cells) > n:
        raise InputError(f"{describe(constraint, n)}: longer than {n}, the values cannot differ")


def _validate_modularline(constraint: Constraint, n: int) -> None:
    require_line(constraint, n)
    int_param(constraint, n, "modulus", 2, n)


def _kind(name, meaning, check, decompose, primitives, least=2, **more) -> Kind:
    # f-puzzles draws each as a line, but a clone (two groups of cells: read on its own)
    shape = more.pop("fpuzzles_shape", "lines" if more.get("fpuzzles") else None)
    return Kind(
        name, meaning, check, decompose, frozenset(primitives), cells=(least, None),
        validate_more=more.pop("validate", require_line), fpuzzles_shape=shape, **more,
    )  # fmt: skip


KINDS = (
    _kind("palindrome", "The line reads the same from either end.", check_palindrome,
          decompose_palindrome, {Linear}, fpuzzles="palindrome",
          example="palindrome r5c3 r5c4 r4c5", source="dclamage PalindromeConstraint.cs"),
    _kind("clone", "The two groups of cells hold the same values, cell by cell.", check_clone,
          decompose_clone, {Linear}, validate=_validate_clone, fpuzzles="clone",
          fpuzzles_shape=None, example="clone r1c1 r1c2 r9c8 r9c9",
          source="dclamage CloneConstraint.cs"),
    _kind("whispers", "Neighbours on the line differ by at least 5 (on 9x9).",
          check_whispers, decompose_whispers, {Relation}, validate=_validate_whispers,
          params=frozenset({"difference"}), fpuzzles="whispers", revisits=True,
          defaults=lambda n: {"difference": (n + 1) // 2},
          example="whispers r2c2 r2c3 r2c4 r3c4", source="dclamage WhispersConstraint.cs"),
    _kind("parityline", "Neighbours on the line alternate between odd and even values.",
          check_parityline, decompose_parityline, {Relation},
          example="parityline r9c4 r9c5 r8c5 r8c6", source="project"),
    _kind("renban", "The line holds a set of different consecutive values, in any order.",
          check_renban, decompose_renban, {AllDifferent, Table}, validate=_validate_different,
          fpuzzles="renban", example="renban r7c7 r7c8 r8c8",
          source="dclamage RenbanConstraint.cs"),
    _kind("betweenline", "Values on the line lie strictly between the values at its ends.",
          check_betweenline, decompose_betweenline, {Table}, least=3,
          fpuzzles="betweenline", example="betweenline r6c1 r6c2 r6c3 r7c4",
          source="dclamage BetweenLineConstraint.cs"),
    _kind("lockout", "The ends differ by at least 4 (on 9x9) and the cells between them hold "
          "values outside the ends' range.", check_lockout, decompose_lockout,
          {Relation, Table}, fpuzzles="lockout", example="lockout r9c6 r8c7 r9c8",
          source="madformuse LockoutLineConstraint.cs"),
    _kind("entropic", "Any three consecutive cells on the line hold one of 1-3, one of 4-6 "
          "and one of 7-9.", check_entropic, decompose_entropic, {Table},
          validate=require_line, fpuzzles="entropicline",
          example="entropic r8c2 r8c3 r8c4 r8c5", source="dclamage EntropicLineConstraint.cs"),
    _kind("zipper", "Cells equally far from the line's centre add up to the same total, "
          "the centre's value if there is one.", check_zipper, decompose_zipper, {Linear},
          least=3, fpuzzles="zipperline", example="zipper r4c1 r4c2 r4c3 r5c3 r6c3",
          source="dclamage ZipperLineConstraint.cs"),
    _kind("modularline", "Any three consecutive cells on the line hold different remainders mod "
          "3 (m cells with modulus=m).",
          check_modularline, decompose_modularline, {Relation},
          validate=_validate_modularline, params=frozenset({"modulus"}),
          defaults=lambda n: {"modulus": 3}, fpuzzles="modularline",
          example="modularline r6c6 r6c7 r6c8 r7c8", source="dclamage ModularLineConstraint.cs"),
    _kind("nabner", "No two cells on the line hold the same or consecutive values.",
          check_nabner, decompose_nabner, {Relation}, validate=_validate_different,
          fpuzzles="nabner", example="nabner r3c6 r4c7 r5c8",
          source="dclamage NabnerConstraint.cs"),
)  # fmt: skip
