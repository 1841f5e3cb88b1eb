"""Board-wide kinds on every 2x2 square of cells: global entropy, global mod 3.

Read from sigh's Interactive Sudoku Solver (``js/sudoku_constraint.js``: ``GlobalEntropy``,
``GlobalMod``; its builder gives every 2x2 square of the grid, overlapping ones included, a
``LocalEntropy`` or ``LocalMod3`` handler, ``js/solver/sudoku_builder.js`` and
``js/solver/handlers.js``):

- ``globalentropy``: each 2x2 square holds a low (1-3), a middle (4-6) and a high (7-9) value;
  on other sizes the thirds of 1..N as the entropic line sizes them (``lines._thirds``).
- ``globalmod``: each 2x2 square holds a value of each remainder mod 3 (1-4-7, 2-5-8, 3-6-9).

Four cells, three groups: one group appears twice. Each square decomposes into a compressed
table of the 36 ways to give its four cells groups covering all three.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product

from solvers.model.cells import cell_name

from .lines import _thirds
from .model import Constraint, Kind
from .primitives import Primitive, Table

Groups = Callable[[int], list[frozenset[int]]]


def _squares(n: int) -> list[tuple[int, int, int, int]]:
    return [
        (r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1)
        for r in range(n - 1)
        for c in range(n - 1)
    ]


def entropy_groups(n: int) -> list[frozenset[int]]:
    return [frozenset(third) for third in _thirds(n)]


def mod_groups(n: int) -> list[frozenset[int]]:
    return [frozenset(v for v in range(1, n + 1) if v % 3 == r) for r in (1, 2, 0)]


def _checker(groups: Groups, what: str):
    def check(constraint: Constraint, grid: Sequence[int], n: int) -> list[str]:
        problems = []
        for row in range(n - 1):
            for col in range(n - 1):
                top = row * n + col
                values = {grid[top], grid[top + 1], grid[top + n], grid[top + n + 1]}
                missing = [sorted(g) for g in groups(n) if not values & g]
                if missing:
                    problems.append(
                        f"the 2x2 square at {cell_name(top, n)} holds no value of "
                        f"{missing[0]} ({what})"
                    )
        return problems

    return check


def _decomposer(groups: Groups):
    def decompose(constraint: Constraint, n: int) -> list[Primitive]:
        sets = groups(n)
        rows = tuple(
            tuple(sets[g] for g in choice)
            for choice in product(range(3), repeat=4)
            if set(choice) == {0, 1, 2}
        )
        return [Table(cells, rows) for cells in _squares(n)]

    return decompose


KINDS = (
    Kind("globalentropy", "Every 2x2 square of cells holds a low (1-3), a middle (4-6) and a "
         "high (7-9) value.", _checker(entropy_groups, "global entropy"),
         _decomposer(entropy_groups), frozenset({Table}), cells=(0, 0),
         example="globalentropy", source="sigh sudoku_constraint.js"),
    Kind("globalmod", "Every 2x2 square of cells holds a value of each remainder mod 3 "
         "(1-4-7, 2-5-8, 3-6-9).", _checker(mod_groups, "global mod 3"),
         _decomposer(mod_groups), frozenset({Table}), cells=(0, 0),
         example="globalmod", source="sigh sudoku_constraint.js"),
)  # fmt: skip
