"""One constraint as one readable line: the kind, its cells, then its parameters.

    thermometer r1c1 r1c2 r2c3
    xv r4c5 r4c6 sum=10
    littlekiller r1c2 r2c3 r3c4 total=15
    arrow r1c1 r1c2 r2c3 r3c3 circle=2
    quadruple r4c4 r4c5 r5c4 r5c5 values=1,1,7
    regionsumline r1c3 r1c4 r2c4 regions=0,1,1
    disjointgroups box=3x3
    negative-xv exempt=r1c1-r1c2,r5c5-r6c5

Cells are named as people count them (``r1c2``: row 1, column 2), in the order the kind reads
them. A parameter is ``name=value``: a whole number, except ``values``, ``regions``,
``totals``, ``sums``, ``weights``, ``counts`` and ``pairs`` (whole numbers separated by
commas), ``box`` (``RxC``) and ``exempt`` (cell pairs ``r1c1-r1c2`` separated by commas).
``parse_constraint`` validates what it reads against the kind, so a malformed line is one
InputError naming the token; ``format_constraint`` writes the line back, and the two round-trip.
"""

from __future__ import annotations

import re

from solvers.base.errors import InputError
from solvers.model.cells import cell_name
from solvers.model.constraints.kinds import kind_of
from solvers.model.constraints.model import Constraint

CELL = re.compile(r"r([0-9]+)c([0-9]+)")  # ASCII digits: \d matches any script's
NUMBER = re.compile(r"-?[0-9]+")
DIGITS = 9  # the most digits a number of the text form may have (totals are far smaller)
LISTS = frozenset({"values", "regions", "totals", "sums", "weights", "counts", "pairs"})


def parse_constraint(text: str, n: int) -> Constraint:
    """The constraint a line states on an n x n board; InputError naming what is wrong."""
    kind, *tokens = text.split() or [""]
    if not kind:
        raise InputError("an empty constraint line")
    cells, params = [], []
    for token in tokens:
        name, sep, value = token.partition("=")
        if sep:
            params.append((name, _value(name, value, n)))
        elif params:
            raise InputError(f"{kind}: cell {token!r} comes after the parameters")
        else:
            cells.append(_cell(token, n))
    constraint = Constraint(kind, tuple(cells), tuple(params))
    kind_of(constraint).validate(constraint, n)
    return constraint


def format_constraint(constraint: Constraint, n: int) -> str:
    """The line ``parse_constraint`` reads back as the same constraint."""
    words = [constraint.kind, *(cell_name(cell, n) for cell in constraint.cells)]
    words += [f"{name}={_text(name, value, n)}" for name, value in constraint.params]
    return " ".join(words)


def _cell(token: str, n: int) -> int:
    match = CELL.fullmatch(token)
    if not match:
        raise InputError(f"{token!r} is not a cell such as r1c2")
    if max(len(match[1]), len(match[2])) > DIGITS:  # no board is that large: say so, do not
        raise InputError(f"cell {token[:12]}... is outside the {n}x{n} board")  # convert it
    row, col = int(match[1]), int(match[2])
    if not (1 <= row <= n and 1 <= col <= n):
        raise InputError(f"cell {token} is outside the {n}x{n} board")
    return (row - 1) * n + col - 1


def _number(text: str, name: str) -> int:
    if not NUMBER.fullmatch(text):
        raise InputError(f"{name}={text[:12]!r}: {text[:12]!r} is not a whole number")
    if len(text.lstrip("+-0")) > DIGITS:  # past any total a board holds (and Python's limit)
        raise InputError(f"{name}={text[:12]}...: a number larger than any rule reads")
    return int(text)


def _value(name: str, text: str, n: int) -> int | tuple:
    if name in LISTS:
        return tuple(_number(part, name) for part in text.split(","))
    if name == "box":
        rows, sep, cols = text.partition("x")
        if not sep:
            raise InputError(f"box={text!r} is not of the form RxC, such as 2x3")
        return (_number(rows, name), _number(cols, name))
    if name == "exempt":
        pairs = []
        for pair in filter(None, text.split(",")):
            first, sep, second = pair.partition("-")
            if not sep:
                raise InputError(f"exempt pair {pair!r} is not of the form r1c1-r1c2")
            pairs.append((_cell(first, n), _cell(second, n)))
        return tuple(pairs)
    return _number(text, name)


def _text(name: str, value: int | tuple, n: int) -> str:
    if name in LISTS:
        return ",".join(str(v) for v in value)
    if name == "box":
        return f"{value[0]}x{value[1]}"
    if name == "exempt":
        return ",".join(f"{cell_name(a, n)}-{cell_name(b, n)}" for a, b in value)
    return str(value)
