"""The negative constraints of f-puzzles' dots, read into the board-wide kinds and written back.

f-puzzles says them in two keys: ``nonconsecutive: true`` (no two orthogonal neighbours without
a Kropki dot differ by 1) and the ``negative`` list, whose ``"ratio"`` forbids the black dots'
ratios (2, and any other a dot carries) and ``"xv"`` the sums 5 and 10 between neighbours
without a dot of their kind; ``"difference"`` forbids the white dots' differences. A Kropki
negative exempts a pair that carries either colour, since a 1-2 pair may hold either dot; XV's
exempts the pairs that carry an X or a V. (As dclamage/SudokuSolver's f-puzzles import and its
``OrthogonalValueConstraint`` read them, and the TypeScript solver's Kropki registration.)

With no Kropki dot on the board, ``nonconsecutive`` is the ``non-consecutive`` kind itself.
"""

from __future__ import annotations

from typing import Any

from solvers.formats.fpuzzles_parts import Reading, unwritable
from solvers.model.board import Board
from solvers.model.cells import orthogonal_pairs
from solvers.model.constraints.dots import DOT_VALUES
from solvers.model.constraints.model import Constraint

KROPKI = ("difference", "ratio")
NEGATIVES = ("difference", "ratio", "xv")


def read_nonconsecutive(reading: Reading, key: str, value: Any) -> None:
    if value is not True:
        raise reading.refuse(key, f"expected true, found {str(value)[:12]!r}")
    reading.nonconsecutive = True


def read_negative(reading: Reading, key: str, value: Any) -> None:
    if not isinstance(value, list):
        raise reading.refuse(key, 'expected a list such as ["ratio", "xv"]')
    for item in value:
        if item not in NEGATIVES:
            raise reading.refuse(key, f"{str(item)[:20]!r} is no negative constraint it reads")
    reading.negative = tuple(value)


def constraints(reading: Reading, dots: list[Constraint]) -> list[Constraint]:
    """The board-wide constraints the switches say, given the dots read."""
    found: list[Constraint] = []
    kropki = _pairs(dots, KROPKI, reading.size)
    for kind in KROPKI:
        for value in sorted(_forbidden(kind, reading.nonconsecutive, reading.negative, dots)):
            if kind == "difference" and value == 1 and not kropki:
                found.append(Constraint("non-consecutive"))
                continue
            params = (("exempt", kropki),)
            if value != DOT_VALUES[kind]:
                params += ((kind, value),)
            found.append(Constraint(f"negative-{kind}", (), params))
    if "xv" in reading.negative:
        exempt = _pairs(dots, ("xv",), reading.size)
        found.append(Constraint("negative-xv", (), (("exempt", exempt),)))
    return found


def write(board: Board) -> dict[str, Any]:
    """The switches of a board's negative constraints; InputError for one f-puzzles would
    read back otherwise (other exempt pairs than the dots', a value it would not forbid)."""
    rules, n = board.rules.constraints, board.size
    dots = [c for c in rules if c.kind in (*KROPKI, "xv")]
    found: dict[str, Any] = {}
    negative = []
    if any(c.kind == "non-consecutive" for c in rules):
        found["nonconsecutive"] = True
    for kind, family in (("difference", KROPKI), ("ratio", KROPKI), ("xv", ("xv",))):
        mine = [c for c in rules if c.kind == f"negative-{kind}"]
        if not mine:
            continue
        exempt = _pairs(dots, family, n)
        for constraint in mine:
            if {tuple(sorted(p)) for p in constraint.param("exempt", ())} != set(exempt):
                raise unwritable(constraint, n, "exempts other pairs than those with a dot")
        if kind == "xv":
            negative.append("xv")
            continue
        values = {int(c.param(kind, DOT_VALUES[kind])) for c in mine}
        if kind == "difference" and values == {1}:
            found["nonconsecutive"] = True
        elif values == _forbidden(kind, False, (kind,), dots):
            negative.append(kind)
        else:
            raise unwritable(mine[0], n, f"forbids {kind}s {sorted(values)}, not the dots' own")
    if negative:
        found["negative"] = negative
    _check_reads_back(board, found, dots, n)
    return found


def _forbidden(kind: str, nonconsecutive: bool, negative, dots: list[Constraint]) -> set[int]:
    """The differences (or ratios) the switches forbid between neighbours without a dot."""
    values = {1} if kind == "difference" and nonconsecutive else set()
    if kind in negative:
        values.add(DOT_VALUES[kind])
        values |= {int(d.param(kind, DOT_VALUES[kind])) for d in dots if d.kind == kind}
    return values


def _pairs(dots: list[Constraint], kinds: tuple[str, ...], n: int) -> tuple[tuple[int, int], ...]:
    """The pairs that carry a dot of ``kinds``, in the board's order of pairs (as the
    generator lists them, so a puzzle read back is the same board)."""
    marked = {tuple(sorted(d.cells)) for d in dots if d.kind in kinds}
    return tuple(pair for pair in orthogonal_pairs(n) if pair in marked)


def _check_reads_back(board: Board, found: dict[str, Any], dots, n: int) -> None:
    """Whether the switches read back as the board's own negative constraints: the two keys
    say several kinds at once (``nonconsecutive`` with ``"difference"``)."""
    reading = Reading(board.shape, None, ())
    reading.nonconsecutive = found.get("nonconsecutive", False)
    reading.negative = tuple(found.get("negative", ()))
    mine = {c for c in board.rules.constraints if c.kind.startswith("negative-")}
    mine |= {c for c in board.rules.constraints if c.kind == "non-consecutive"}
    back = set(constraints(reading, dots))
    if {_meaning(c) for c in back} != {_meaning(c) for c in mine}:
        extra = sorted(back ^ mine, key=lambda constraint: constraint.kind)
        raise unwritable(
            extra[0], n, "(f-puzzles says the negatives in two switches) would read back otherwise"
        )


def _meaning(constraint: Constraint) -> tuple:
    """A negative constraint as what it forbids, where (non-consecutive with no dots on the
    board) two kinds say the same."""
    if constraint.kind == "non-consecutive":
        return ("negative-difference", (), 1)
    exempt = tuple(sorted(tuple(sorted(p)) for p in constraint.param("exempt", ())))
    family = constraint.kind.removeprefix("negative-")
    return (constraint.kind, exempt, constraint.param(family, DOT_VALUES.get(family)))
