"""The constraint model: a ``Constraint`` is an instance of a named ``Kind``.

A constraint is self-contained given the board's size N: everything else it needs is in its
cells or its parameters. Board-wide kinds (anti-knight, non-consecutive, the negative
constraints, disjoint groups, the diagonals) have no cells and mean the whole board; what they
need beyond N travels as parameters (the exempt pairs of a negative constraint, the box shape
of disjoint groups), filled in by whoever builds the board.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from solvers.base.errors import InputError
from solvers.model.cells import cell_name

from .primitives import Primitive

ParamValue = int | tuple


@dataclass(frozen=True)
class Constraint:
    """One rule on a board: its kind's name, its cells (in the order the kind reads them) and
    its parameters as ``(name, value)`` pairs (values are ints or tuples, so it hashes)."""

    kind: str
    cells: tuple[int, ...] = ()
    params: tuple[tuple[str, ParamValue], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(self.cells))
        # One order for the same parameters, however they were listed: by name.
        object.__setattr__(self, "params", tuple(sorted(self.params, key=lambda p: p[0])))

    def param(self, name: str, default: ParamValue | None = None) -> ParamValue | None:
        return dict(self.params).get(name, default)


Check = Callable[[Constraint, Sequence[int], int], list[str]]
Decompose = Callable[[Constraint, int], list[Primitive]]
Validate = Callable[[Constraint, int], None]


@dataclass(frozen=True)
class Kind:
    """A rule kind, defined in one place: its meaning (as a setter states it), its check of a
    filled grid, its decomposition into primitives (of the types in ``primitives`` only), and
    the validation of an instance. ``cells`` is the least and most cell count (``(0, 0)``:
    board-wide); ``params`` the parameter names it reads, ``required`` those it must have;
    ``fpuzzles`` its key in f-puzzles' JSON, where it has one; ``example`` an instance on 9x9
    in the text form, as ``sudoku kinds`` and the documentation show it (a test reads each
    back); ``source`` where its meaning was read (``dclamage X.cs``: the class of that name in
    dclamage/SudokuSolver's ``SudokuSolver/Constraints/``, the solver of f-puzzles links, or its
    ``SolverFactory.cs`` for what it reads from f-puzzles without a class; ``madformuse X.cs``:
    the same in its fork madformuse/SudokuSolver, which reads f-puzzles' ``lockout``), ``sigh
    X.js`` (that file of sigh's Interactive Sudoku Solver's ``js/`` or ``js/solver/``), or
    ``project`` where the project defines it."""

    name: str
    meaning: str
    check: Check
    decompose: Decompose
    primitives: frozenset[type]
    cells: tuple[int, int | None] = (1, None)
    params: frozenset[str] = frozenset()
    required: frozenset[str] = frozenset()
    validate_more: Validate | None = field(default=None, repr=False)
    fpuzzles: str | None = None
    # how f-puzzles draws an entry of the key: "switch" (true), "cell", "cells", "marked" (a
    # cell each, one set), "dot", "lines", "outside" (a clue outside the grid); None where the
    # reader is one of its own (``formats.fpuzzles_kinds.OWN``)
    fpuzzles_shape: str | None = None
    # the parameters' values when not given, on an N x N board: a constraint that gives one of
    # them says the same as one that does not (a ``Board`` keeps the shorter)
    defaults: Callable[[int], dict[str, ParamValue]] | None = field(default=None, repr=False)
    # the one form of a constraint that can be written several ways meaning the same
    canonical: Callable[[Constraint], Constraint] | None = field(default=None, repr=False)
    example: str = ""
    reads: Callable[[Constraint, int], tuple[int, ...]] | None = field(default=None, repr=False)
    source: str = ""
    # a line that may pass a cell again (a whispers line crossing itself or closing a loop):
    # its rule holds between neighbours on the line, so a cell met twice is read twice
    revisits: bool = False

    @property
    def board_wide(self) -> bool:
        return self.cells == (0, 0)

    def scope(self, constraint: Constraint, n: int) -> tuple[int, ...]:
        """The cells whose values the constraint reads: its own (and more where ``reads`` says,
        a minimum's neighbours), or every cell if board-wide."""
        if self.reads is not None:
            return self.reads(constraint, n)
        return tuple(range(n * n)) if self.board_wide else constraint.cells

    def validate(self, constraint: Constraint, n: int) -> None:
        """InputError (one line, naming the constraint) unless the instance is well formed."""
        where = describe(constraint, n)
        if constraint.kind != self.name:
            raise InputError(f"{where}: not a {self.name} constraint")
        least, most = self.cells
        count = len(constraint.cells)
        if self.board_wide and count:
            raise InputError(f"{where}: names cells, but it covers the whole board")
        if count < least or (most is not None and count > most):
            wanted = f"{least}" if least == most else f"{least} or more"
            raise InputError(f"{where}: has {count} cell(s), expected {wanted}")
        for cell in constraint.cells:
            if type(cell) is not int or not 0 <= cell < n * n:
                raise InputError(f"{where}: cell {cell!r} is outside the {n}x{n} board")
        if len(set(constraint.cells)) != count and not self.revisits:
            raise InputError(f"{where}: names a cell twice")
        names = {name for name, _ in constraint.params}
        if len(names) != len(constraint.params):
            raise InputError(f"{where}: names a parameter twice")
        if unknown := sorted(names - self.params):
            raise InputError(f"{where}: unknown parameter {unknown[0]!r}")
        if missing := sorted(self.required - names):
            raise InputError(f"{where}: needs the parameter {missing[0]!r}")
        if self.validate_more is not None:
            self.validate_more(constraint, n)


def describe(constraint: Constraint, n: int) -> str:
    """How messages name a constraint: its kind and first cell (``thermometer at r1c1``)."""
    first = constraint.cells[:1]
    if first and type(first[0]) is int and 0 <= first[0] < n * n:
        return f"{constraint.kind} at {cell_name(first[0], n)}"
    return constraint.kind


def int_param(constraint: Constraint, n: int, name: str, low: int, high: int) -> None:
    """InputError unless the parameter, when present, is a whole number in low..high."""
    value = constraint.param(name)
    if value is not None and (type(value) is not int or not low <= value <= high):
        raise InputError(f"{describe(constraint, n)}: {name} {value!r} is not in {low}..{high}")


def require_steps(constraint: Constraint, n: int, diagonal: bool, what: str) -> None:
    """InputError unless each cell touches the next (orthogonally, or also diagonally)."""
    for a, b in zip(constraint.cells, constraint.cells[1:], strict=False):
        rows, cols = abs(a // n - b // n), abs(a % n - b % n)
        if not (max(rows, cols) == 1 if diagonal else rows + cols == 1):
            raise InputError(
                f"{describe(constraint, n)}: {cell_name(a, n)} and {cell_name(b, n)} "
                f"do not touch{'' if diagonal else ' orthogonally'}, as {what} must"
            )


def require_line(constraint: Constraint, n: int) -> None:
    """InputError unless each cell of a line touches the next, orthogonally or diagonally."""
    require_steps(constraint, n, diagonal=True, what="the cells of a line")


def require_pairs(constraint: Constraint, n: int, name: str) -> None:
    """InputError unless the parameter is a tuple of orthogonally adjacent cell pairs."""
    pairs = constraint.param(name, ())
    where = describe(constraint, n)
    if not isinstance(pairs, tuple):
        raise InputError(f"{where}: {name} is not a list of cell pairs")
    for pair in pairs:
        if not (isinstance(pair, tuple) and len(pair) == 2):
            raise InputError(f"{where}: {name} entry {pair!r} is not a pair of cells")
        a, b = pair
        if not all(type(c) is int and 0 <= c < n * n for c in pair):
            raise InputError(f"{where}: {name} pair {pair!r} is outside the {n}x{n} board")
        if abs(a // n - b // n) + abs(a % n - b % n) != 1:
            raise InputError(
                f"{where}: {cell_name(a, n)} and {cell_name(b, n)} do not touch orthogonally"
            )


def require_box(constraint: Constraint, n: int) -> None:
    """InputError unless the ``box`` parameter is a ``(rows, cols)`` shape that tiles N x N."""
    box = constraint.param("box")
    if not (isinstance(box, tuple) and len(box) == 2 and all(type(s) is int for s in box)):
        raise InputError(f"{describe(constraint, n)}: box {box!r} is not (rows, cols)")
    if box[0] < 1 or box[1] < 1 or box[0] * box[1] != n:
        raise InputError(f"{describe(constraint, n)}: box {box[0]}x{box[1]} does not tile {n}x{n}")
