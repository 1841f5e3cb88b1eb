"""Rule variants as text: the ``# rules:`` header, region maps and cage maps with their sums.

A region map (jigsaw) is N rows of N symbols, one symbol per region. A cage map (killer) is N
rows of N symbols where a cage is a group of side-by-side cells with the same symbol (the same
symbol may stand again for a cage elsewhere, as long as the two do not touch: written out here,
each cage has a letter of its own while letters last); ``sums`` lists each cage's total, cages
taken in reading order of their first cell. In a line puzzle, each map
is written on one line: ``regions=AAABBB...``, ``cages=aabbc...``, ``sums=3,15,...``.

Constraints of the vocabulary (``solvers.constraints``) are written one per line in their own
form (``formats.constraint_text``: ``thermometer r1c1 r1c2 r2c3``, ``xv r4c5 r4c6 sum=10``):
in a ``# rules:`` header, separated by ``;`` after any variant names (``# rules: x;
thermometer r1c1 r1c2 r2c3; anti-knight``), or in a ``constraints:`` section after a grid, one
per line. A header's constraints are kept as text until a puzzle gives N, then read (and
checked) for each puzzle under it.
"""

from __future__ import annotations

from solvers.errors import InputError
from solvers.variants import RULE_NAMES, Cage, Rules, cell_name, neighbours, reachable

CLASSIC_NAME = "classic"
CAGE_LETTERS = "abcdefghijklmnopqrstuvwxyz"
CONSTRAINT = "constraint: "  # a header's constraint, kept as text among the rule names


def rule_names(text: str, line: int) -> frozenset[str]:
    """The names of a ``# rules:`` header (``classic`` alone resets them), and each of its
    constraints as ``CONSTRAINT`` + its text (read once a puzzle gives N)."""
    names: set[str] = set()
    for segment in text.split(";"):
        words = segment.split()
        if words and words[0].lower() not in {*RULE_NAMES, CLASSIC_NAME} and _is_kind(words[0]):
            names.add(CONSTRAINT + " ".join([words[0].lower(), *words[1:]]))
            continue
        words = segment.lower().replace(",", " ").split()
        unknown = [word for word in words if word not in {*RULE_NAMES, CLASSIC_NAME}]
        if unknown:
            raise InputError(
                f"unknown rule {unknown[0]!r}; rules are {', '.join(RULE_NAMES)} (or classic), "
                "and constraint kinds (sudoku kinds lists them)",
                line,
            )
        names |= set(words)
    if not names:
        raise InputError(
            f"a rules line with no rules: name them ({', '.join(RULE_NAMES)}, or constraints) "
            "or classic",
            line,
        )
    return frozenset(names - {CLASSIC_NAME})


def _is_kind(word: str) -> bool:
    from solvers.constraints import KINDS

    return word.lower() in KINDS


def _kept(name: str) -> bool:
    return name.startswith(CONSTRAINT)


def constraints_of(texts: list[str], size: int, line: int) -> tuple:
    """The constraints written in ``texts`` (one each) on a board of ``size``, a board's
    minima and maxima gathered into one constraint each (``cell_kinds``); InputError at
    ``line`` naming the constraint that cannot be read."""
    from solvers.constraints.cell_kinds import gather_extremes
    from solvers.formats.constraint_text import parse_constraint

    found = []
    for text in texts:
        try:
            found.append(parse_constraint(text, size))
        except InputError as error:
            raise InputError(f"constraint {text!r}: {error.message}", line) from None
    return gather_extremes(found)


def build_rules(
    names: frozenset[str],
    size: int,
    regions: list[str] | None,
    cages: list[str] | None,
    sums: list[int] | None,
    line: int,
    constraints: list[str] = (),
) -> Rules:
    """The Rules a puzzle's header and sections give; a section implies its rule, and a rule
    named without its section is an error. ``constraints``: a section's, one text each (the
    header's travel among ``names``)."""
    texts = [name.removeprefix(CONSTRAINT) for name in sorted(names) if _kept(name)]
    read = constraints_of([*texts, *constraints], size, line) if texts or constraints else ()
    names = names | ({"jigsaw"} if regions is not None else set())
    names = names | ({"killer"} if cages is not None else set())
    if "jigsaw" in names and regions is None:
        raise InputError("the rules say jigsaw but no region map is given", line)
    if "killer" in names and cages is None:
        raise InputError("the rules say killer but no cage map is given", line)
    return Rules.named(
        names,
        regions=None if regions is None else region_map(regions, size, line),
        cages=() if cages is None else cage_map(cages, sums or [], size, line),
        constraints=read,
    )


def region_map(rows: list[str], size: int, line: int) -> tuple[int, ...]:
    """Each cell's region, numbered in order of first appearance."""
    symbols = _grid(rows, size, "region map", line)
    numbers: dict[str, int] = {}
    return tuple(numbers.setdefault(s, len(numbers)) for s in symbols)


def cage_map(rows: list[str], sums: list[int], size: int, line: int) -> tuple[Cage, ...]:
    """The cages of a map: groups of side-by-side cells with one symbol, in reading order,
    each with its sum; every cell must be in one (``.`` marks none, an error)."""
    symbols = _grid(rows, size, "cage map", line)
    if "." in symbols:
        cell = symbols.index(".")
        raise InputError(f"{cell_name(cell, size)} is in no cage: killer cages every cell", line)
    groups = _groups(symbols, size)
    if len(sums) != len(groups):
        raise InputError(f"{len(groups)} cages in the map but {len(sums)} sums", line)
    return tuple(Cage(total, tuple(cells)) for total, cells in zip(sums, groups, strict=True))


def sums_of(text: str, line: int) -> list[int]:
    words = text.replace(",", " ").split()
    bad = [w for w in words if not (w.isascii() and w.isdigit())]
    if bad:
        raise InputError(f"sum {bad[0]!r} is not a whole number", line)
    huge = [w for w in words if len(w.lstrip("0")) > 6]  # int() refuses thousands of digits
    if huge:
        raise InputError(f"sum {huge[0][:12]}... is larger than any cage can add up to", line)
    return [int(w) for w in words]


def record(rules: Rules, size: int) -> dict:
    """The rules as JSON fields (none for classic): their names, the region map, the cages,
    each constraint in its text form."""
    if rules.is_classic:
        return {}
    found: dict = {"rules": rules.label}
    if rules.constraints:
        from solvers.formats.constraint_text import format_constraint

        found["constraints"] = [format_constraint(c, size) for c in rules.constraints]
    if rules.regions is not None:
        found["regions"] = "".join(chr(ord("A") + r) for r in rules.regions)
    if rules.cages:
        found["cages"] = [
            {"total": cage.total, "cells": [cell_name(c, size) for c in cage.cells]}
            for cage in rules.cages
        ]
    return found


def header(rules: Rules, size: int) -> str:
    """The ``# rules:`` line that reads back as ``rules`` on a board of ``size`` (region maps
    and cages come with each puzzle: ``fields``)."""
    from solvers.formats.constraint_text import format_constraint

    variants = " ".join(name for name in RULE_NAMES if name in rules.names)
    written = [format_constraint(c, size) for c in rules.constraints]
    return "# rules: " + ("; ".join(filter(None, [variants, *written])) or CLASSIC_NAME)


def fields(rules: Rules, size: int) -> str:
    """A line puzzle's variant fields (empty for classic rules and units-only ones)."""
    words = []
    if rules.regions is not None:
        words.append("regions=" + "".join(chr(ord("A") + r) for r in rules.regions))
    if rules.cages:
        words.append("cages=" + "".join(letter_cages(rules.cages, size)))
        words.append("sums=" + ",".join(str(cage.total) for cage in rules.cages))
    return " ".join(words)


def letter_cages(cages: tuple[Cage, ...], size: int) -> list[str]:
    """A symbol per cell: a letter of its own for each cage (a-z, then A-Z) when there are
    52 cages or fewer; beyond, each cage the first letter none of the cages it touches has."""
    alphabet = CAGE_LETTERS + CAGE_LETTERS.upper()
    letters = ["."] * (size * size)
    for index, cage in enumerate(cages):
        if len(cages) <= len(alphabet):
            letter = alphabet[index]
        else:
            taken = {letters[other] for cell in cage.cells for other in neighbours(cell, size)}
            letter = next(x for x in alphabet if x not in taken)
        for cell in cage.cells:
            letters[cell] = letter
    return letters


def _grid(rows: list[str], size: int, what: str, line: int) -> list[str]:
    """The symbols of a map written as N rows (one string of N*N symbols also works)."""
    if len(rows) == 1 and len(rows[0]) == size * size:
        return list(rows[0])
    if len(rows) != size:
        raise InputError(f"the {what} has {len(rows)} rows, expected {size}", line)
    symbols = []
    for number, row in enumerate(rows, start=1):
        cells = row.split() if len(row.split()) > 1 else list(row)
        if len(cells) != size:
            raise InputError(
                f"row {number} of the {what} has {len(cells)} cells, expected {size}", line
            )
        symbols += cells
    return symbols


def _groups(symbols: list[str], size: int) -> list[list[int]]:
    """Connected groups of equal symbols, in reading order of their first cell."""
    seen: set[int] = set()
    groups = []
    for start, symbol in enumerate(symbols):
        if start not in seen:
            group = reachable(start, size, lambda cell, symbol=symbol: symbols[cell] == symbol)
            seen.update(group)
            groups.append(sorted(group))
    return groups
