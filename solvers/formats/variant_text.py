"""Rules as text: the ``# rules:`` header, region maps, and the shorthands of the classic
variants.

A puzzle's rules are written as its constraints of the vocabulary, each in its own form
(``constraints.text``: ``thermometer r1c1 r1c2 r2c3``, ``killercage r1c1 r1c2
total=3``): in a ``# rules:`` header, separated by ``;`` (``# rules: diagonal+; diagonal-;
anti-knight``), or in a ``constraints:`` section after a grid, one per line. A header's
constraints are kept as text until a puzzle gives N, then read (and checked) for each puzzle
under it. Jigsaw regions are the board's own: a region map is N rows of N symbols, one symbol
per region (``regions=AAABBB...`` on a puzzle's line), under a header that says ``jigsaw``.

Files also say the classic variants by name, read as the constraints they stand for: ``x``
(both diagonals), ``windoku`` (an extra region per window) and ``killer``, with a cage map: N
rows of N symbols where a cage is a group of side-by-side cells with the same symbol, and
``sums`` listing each cage's total in reading order of the cages' first cells. These maps and
sums (``FIELDS``) are written ``cages=aabbc... sums=3,15,...`` on a puzzle's line, and after a
grid as sections: a line ``cages:`` followed by the map's rows, ``sums: 3 15 ...``.
"""

from __future__ import annotations

from collections.abc import Mapping

from solvers.base.errors import InputError
from solvers.model.cells import cell_name, first_seen, reachable, window_units
from solvers.model.geometry import Shape
from solvers.model.variants import Rules

RULE_NAMES = ("x", "windoku", "jigsaw", "killer")  # the variants a header may name
# a puzzle's maps and sums as its file names them (``regions=...`` on a line, ``regions:``
# after a grid): the line and grid forms take the names from here
KILLER_MAP = "cages"
FIELDS = ("regions", KILLER_MAP, "sums")

CLASSIC_NAME = "classic"
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
    from solvers.model.constraints.kinds import KINDS

    return word.lower() in KINDS


def constraints_of(texts: list[str], size: int, line: int) -> tuple:
    """The constraints written in ``texts`` (one each) on a board of ``size``, a board's
    minima and maxima gathered into one constraint each (``cell_kinds``); InputError at
    ``line`` naming the constraint that cannot be read."""
    from solvers.model.constraints.cell_kinds import gather_extremes
    from solvers.model.constraints.text import parse_constraint

    found = []
    for text in texts:
        try:
            found.append(parse_constraint(text, size))
        except InputError as error:
            shown = text if len(text) <= 60 else text[:57] + "..."  # one readable line
            raise InputError(f"constraint {shown!r}: {error.message}", line) from None
    return gather_extremes(found)


def build_rules(
    names: frozenset[str], shape: Shape, fields: Mapping[str, list[str]], line: int
) -> Rules:
    """The Rules a puzzle's header and fields give: ``fields`` holds the text (a list of rows)
    of each of ``FIELDS`` the puzzle gives and of its ``constraints`` section, one constraint a
    row (the header's travel among ``names``). A field implies its rule, and a rule named
    without its field is an error."""
    sums = _sums(" ".join(fields["sums"]), line) if "sums" in fields else None
    regions, cages = fields.get("regions"), fields.get(KILLER_MAP)
    constraints = fields.get("constraints", [])
    size = shape.size
    texts = [name.removeprefix(CONSTRAINT) for name in sorted(names) if name.startswith(CONSTRAINT)]
    read = constraints_of([*texts, *constraints], size, line) if texts or constraints else ()
    names = names | ({"jigsaw"} if regions is not None else set())
    names = names | ({"killer"} if cages is not None else set())
    if "jigsaw" in names and regions is None:
        raise InputError("the rules say jigsaw but no region map is given", line)
    if "killer" in names and cages is None:
        raise InputError("the rules say killer but no cage map is given", line)
    return Rules(
        None if regions is None else region_map(regions, size, line),
        read + variants(names, shape, cages, sums, line),
    )


def variants(
    names: frozenset[str] | set[str],
    shape: Shape,
    cages: list[str] | None = None,
    sums: list[int] | None = None,
    line: int | None = None,
) -> tuple:
    """The constraints the variants ``names`` stand for (killer's from its cage map)."""
    if cages is None and not {"x", "windoku"} & set(names):
        return ()  # a classic board's reading loads no kind
    from solvers.model.constraints.model import Constraint

    found = []
    if "x" in names:
        found += [Constraint("diagonal+"), Constraint("diagonal-")]
    if "windoku" in names:
        try:
            windows = window_units(shape.box_rows, shape.box_cols)
        except InputError as error:
            raise error.at_line(line) from None
        found += [Constraint("extraregion", window) for window in windows]
    if cages is not None:
        found += [
            Constraint("killercage", cells, (("total", total),))
            for cells, total in cage_map(cages, sums or [], shape.size, line)
        ]
    return tuple(found)


def region_map(rows: list[str], size: int, line: int) -> tuple[int, ...]:
    """Each cell's region, numbered in order of first appearance."""
    return first_seen(_grid(rows, size, "region map", line))


def cage_map(rows: list[str], sums: list[int], size: int, line: int) -> list[tuple]:
    """The cages of a map, as (cells, total): groups of side-by-side cells with one symbol,
    in reading order, each with its sum; every cell must be in one (``.`` marks none, an
    error), and each total be one that distinct values reach."""
    from solvers.model.cells import sum_sets

    symbols = _grid(rows, size, "cage map", line)
    if "." in symbols:
        cell = symbols.index(".")
        raise InputError(f"{cell_name(cell, size)} is in no cage: killer cages every cell", line)
    groups = _groups(symbols, size)
    if len(sums) != len(groups):
        raise InputError(f"{len(groups)} cages in the map but {len(sums)} sums", line)
    for cells, total in zip(groups, sums, strict=True):
        if not sum_sets(len(cells), total, size):
            raise InputError(
                f"the cage at {cell_name(cells[0], size)} (total {total}): no {len(cells)} "
                f"distinct values from 1..{size} add up to {total}",
                line,
            )
    return list(zip(map(tuple, groups), sums, strict=True))


def _sums(text: str, line: int) -> list[int]:
    words = text.replace(",", " ").split()
    bad = [w for w in words if not (w.isascii() and w.isdigit())]
    if bad:
        raise InputError(f"sum {bad[0]!r} is not a whole number", line)
    huge = [w for w in words if len(w.lstrip("0")) > 6]  # int() refuses thousands of digits
    if huge:
        raise InputError(f"sum {huge[0][:12]}... is larger than any cage can add up to", line)
    return [int(w) for w in words]


def record(rules: Rules, size: int) -> dict:
    """The rules as JSON fields (none for classic): their label, the region map, each
    constraint in its text form."""
    if rules.is_classic:
        return {}
    found: dict = {"rules": rules.label}
    if rules.constraints:
        from solvers.model.constraints.text import format_constraint

        found["constraints"] = [format_constraint(c, size) for c in rules.constraints]
    if rules.regions is not None:
        found["regions"] = region_letters(rules.regions)
    return found


def header(rules: Rules, size: int) -> str:
    """The ``# rules:`` line that reads back as ``rules`` on a board of ``size`` (a region
    map comes with each puzzle: ``fields``)."""
    from solvers.model.constraints.text import format_constraint

    jigsaw = "jigsaw" if rules.regions is not None else ""
    written = [format_constraint(c, size) for c in rules.constraints]
    return "# rules: " + ("; ".join(filter(None, [jigsaw, *written])) or CLASSIC_NAME)


def fields(rules: Rules, size: int) -> str:
    """A line puzzle's fields: its region map, if it has one."""
    if rules.regions is None:
        return ""
    return "regions=" + region_letters(rules.regions)


def region_letters(regions: tuple[int, ...]) -> str:
    """A region map as one line of letters, ``A`` for region 0."""
    return "".join(chr(ord("A") + r) for r in regions)


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
