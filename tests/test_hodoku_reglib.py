"""HoDoKu's regression library against our techniques: each case of a technique ``rate`` and
``explain`` implement must be found by that technique.

HoDoKu (Bernhard Hobiger's Sudoku program, GPL) ships ``reglib-1.3.txt``: one line a case,
``:<code>[-variant]:<candidates>:<grid>:<deleted candidates>:<eliminations>:<placements>:<extra>``,
the grid 81 characters with a ``+`` before each digit placed but not given, candidates as
``<value><row><col>`` (HoDoKu's src/sudoku/RegressionTester.java reads it, and
Sudoku2.setSudoku builds the candidates: every digit placed and removed from its peers, then
the deleted candidates removed). HoDoKu's test takes every step of the case's type on that
grid and wants one with those eliminations (or placements). Ours finds one step at a time,
so a case passes here when the technique, applied alone from that grid (``found``: on the
grid turned or mirrored as well, where another of its steps comes first), makes every
elimination (or placement) the case names. Variant ``-x`` is a fail case: no step of the
type must be found on the grid.

The file is other people's data and stays out of the project: it is read from
``$HODOKU_REGLIB``, else ``../shared/data/reglib-1.3.txt``, else downloaded at test time from
a public copy of HoDoKu's repository (zh3305/HoDoKu on GitHub) at a pinned commit, its sha256
checked, into pytest's cache; the tests skip when none of those is there.

Of HoDoKu's 1112 cases, 701 are of techniques mapped to ours (``CODES``: 44 codes), 411 of
55 codes we do not implement (``NOT_OURS``, each with why). The default run takes ``SAMPLE``
cases of each code, ``slow`` every case (about ten seconds).
"""

from __future__ import annotations

import hashlib
import os
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pytest
from conftest import SHARED_DATA

from solvers.api import solve
from solvers.formats.boards import parse
from solvers.strength import chains, cycles, direct, stronglinks, uniqueness
from solvers.strength.grid import values
from solvers.strength.human import apply, placed_givens
from solvers.strength.techniques import (
    Grid,
    Step,
    fish,
    hidden_single,
    hidden_subset,
    locked,
    naked_single,
    naked_subset,
    wing,
)

COMMIT = "62c76b90db84eb45b9bfb31161dac8d1cba67d89"  # HoDoKu's "New NO-BUG+1", 2012-04-07
URL = f"https://raw.githubusercontent.com/zh3305/HoDoKu/{COMMIT}/reglib-1.3.txt"
SHA256 = "114f50e820e89fe5848c1c20fe60a38aec95dbcab116e13f306d0d6c93a9f323"
SAMPLE = 2  # cases of each code in the default run
LIMIT = 200  # steps of one technique on one grid before the case counts as not found

Find = Callable[[Grid], Step | None]

# our techniques, each the step functions ``explain`` takes for it, easiest first
OURS: dict[str, tuple[Find, ...]] = {
    "full house": (direct.full_house,),
    "hidden single": (
        partial(hidden_single, in_boxes=True),
        partial(hidden_single, in_boxes=False),
    ),
    "naked single": (naked_single,),
    "pointing": (partial(locked, pointing=True),),
    "claiming": (partial(locked, pointing=False),),
    "naked pair": (partial(naked_subset, k=2),),
    "naked triple": (partial(naked_subset, k=3),),
    "naked quad": (partial(naked_subset, k=4),),
    "hidden pair": (partial(hidden_subset, k=2),),
    "hidden triple": (partial(hidden_subset, k=3),),
    "hidden quad": (partial(hidden_subset, k=4),),
    "X-wing": (partial(fish, k=2),),
    "swordfish": (partial(fish, k=3),),
    "jellyfish": (partial(fish, k=4),),
    # Sukaku Explainer's two strong links on one value (skyscraper, kite, turbot fish, and
    # with a box's places as a group the empty rectangle)
    "2 strong links": (partial(stronglinks.strong_links, count=2),),
    # every X-chain: 2 to 6 strong links, SE's X-cycles and forcing X-chains (any length)
    "X-chain": (
        *(partial(stronglinks.strong_links, count=count) for count in range(2, 7)),
        cycles.x_cycle,
        partial(chains.forcing_chain, x_only=True),
    ),
    "XY-wing": (partial(wing, pivot_size=2),),
    "XYZ-wing": (partial(wing, pivot_size=3),),
    # types 1 to 4; type 3 alone as well, for a rectangle that makes another type too
    "unique rectangle": (
        uniqueness.unique_rectangle,
        partial(uniqueness.unique_rectangle, third_only=True),
    ),
    "BUG type 1": (uniqueness.bug_one,),
    # SE's first chaining producer: X-, Y- and XY-cycles, forcing X-chains and forcing chains
    # (X and Y links, no groups): every nice loop and AIC of single candidates
    "chains": (cycles.cycle_or_forcing_chain,),
}

# HoDoKu's code (SolutionType.java), with a variant where it matters, -> our technique
CODES: dict[str, str] = {
    "0000": "full house",
    "0002": "hidden single",
    "0003": "naked single",
    "0100": "pointing",  # Locked Candidates Type 1
    "0101": "claiming",  # Locked Candidates Type 2
    "0110-1": "naked pair",  # Locked Pair: a naked pair in a box and a line at once
    "0111-1": "naked triple",  # Locked Triple
    "0200": "naked pair",
    "0201": "naked triple",
    "0202": "naked quad",
    "0210": "hidden pair",
    "0211": "hidden triple",
    "0212": "hidden quad",
    "0300": "X-wing",
    "0301": "swordfish",
    "0302": "jellyfish",
    "0400": "2 strong links",  # Skyscraper
    "0401": "2 strong links",  # 2-String Kite
    "0402": "2 strong links",  # Empty Rectangle
    "0402-1": "2 strong links",  # Empty Rectangle, two candidates in the box
    "0403": "2 strong links",  # Turbot Fish
    "0404": "2 strong links",  # Dual 2-String Kite: two kites, both their eliminations
    "0405": "2 strong links",  # Dual Empty Rectangle
    "0500": "X-chain",  # Simple Colors Trap
    "0501": "X-chain",  # Simple Colors Wrap
    "0502": "X-chain",  # Multi-Colors 1
    "0503": "X-chain",  # Multi-Colors 2
    "0600-1": "unique rectangle",  # Uniqueness Test 1, no missing candidates
    "0601-1": "unique rectangle",
    "0602-1": "unique rectangle",
    "0603-1": "unique rectangle",
    "0610": "BUG type 1",  # Bivalue Universal Grave + 1
    "0610-x": "BUG type 1",
    "0701": "X-chain",
    "0702": "chains",  # XY-Chain
    "0703": "chains",  # Remote Pairs
    "0706": "chains",  # Continuous Nice Loop
    "0707-1": "chains",  # Discontinuous Nice Loop, a value placed
    "0707-2": "chains",  # Discontinuous Nice Loop, a candidate removed
    "0708-1": "chains",  # AIC, one digit removed
    "0708-2": "chains",  # AIC, two digits
    # W-Wing: two bivalue cells joined by a strong link, an AIC our forcing chains follow
    # (rated as one, 7.0 and up, not as a wing)
    "0803": "chains",
    "0800": "XY-wing",
    "0801": "XYZ-wing",
}

# HoDoKu's codes we do not implement, and why (a code with no case in 1.3 is left out)
NOT_OURS: dict[str, str] = {
    **dict.fromkeys(
        ["0310", "0311", "03111", "0312", "03121", "0320", "0321", "03211", "0322", "03221"],
        "finned and sashimi fish: not implemented",
    ),
    **dict.fromkeys(
        ["0331", "0332", "0340", "0341", "03411", "0342", "03421", "0362", "03621", "0363", "0364"],
        "Franken and mutant fish: not implemented",
    ),
    **dict.fromkeys(
        ["0600-2", "0601-2", "0602-2", "0603-2"],
        "a rectangle with a corner missing a candidate: our rectangles need both in all four",
    ),
    **dict.fromkeys(
        ["0604-1", "0604-2", "0605-1", "0605-2"], "uniqueness types 5, 6: not implemented"
    ),
    **dict.fromkeys(["0606-1", "0606-2", "0606-x"], "hidden rectangle: not implemented"),
    **dict.fromkeys(["0607-1", "0608-1"], "avoidable rectangles: not implemented"),
    **dict.fromkeys(
        [
            "0709-1",
            "0709-2",
            "0710-1",
            "0710-2",
            "0710-3",
            "0710-4",
            "0711-1",
            "0711-2",
            "0711-3",
            "0711-4",
        ],
        "grouped nice loops and AICs: SE's chains have no group nodes",
    ),
    **dict.fromkeys(
        ["0901-1", "0901-2", "0902-1", "0902-2", "0903", "0903-1", "0904-1", "0904-2"],
        "almost locked sets: not implemented",
    ),
    "1101": "Sue de Coq: not implemented",
    **dict.fromkeys(["1201", "1202"], "templates: not implemented"),
}


# cases whose UR type 3 is a naked set of more than half the unit's open cells, which SE (and
# so we) takes as the hidden set of the rest (UniqueLoopType3HiddenHint), by line of 1.3: run
# in the default run as well, beyond the sample
HIDDEN_SET = (929, 930)


@dataclass(frozen=True)
class Case:
    line: int
    code: str  # with its variant: ``0600-1``
    grid: str
    deleted: tuple[tuple[int, int], ...]
    eliminations: tuple[tuple[int, int], ...]
    placements: tuple[tuple[int, int], ...]

    @property
    def fail_case(self) -> bool:
        return self.code.endswith("-x")


def _positions(field: str) -> tuple[tuple[int, int], ...]:
    """``436 257`` -> ((cell of r3c6, 4), (cell of r5c7, 2))."""
    return tuple(
        ((int(item[1]) - 1) * 9 + int(item[2]) - 1, int(item[0])) for item in field.split()
    )


def read(path: Path) -> list[Case]:
    found = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = text.strip()
        if not text.startswith(":"):
            continue
        parts = (text.split(":") + [""] * 8)[1:8]
        code, _, grid, deleted, eliminations, placements, _ = parts
        found.append(
            Case(
                number,
                code,
                grid,
                _positions(deleted),
                _positions(eliminations),
                _positions(placements),
            )
        )
    return found


def _download(into: Path) -> Path | None:
    target = into / "reglib-1.3.txt"
    if not target.is_file():
        try:
            with urllib.request.urlopen(URL, timeout=15) as reply:
                body = reply.read()
        except (urllib.error.URLError, OSError):
            return None
        if hashlib.sha256(body).hexdigest() != SHA256:
            return None
        target.write_bytes(body)
    return target


@pytest.fixture(scope="module")
def library(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> list[Case]:
    given = os.environ.get("HODOKU_REGLIB")
    path = Path(given) if given else SHARED_DATA / "reglib-1.3.txt"
    if not path.is_file():
        cache = getattr(request.config, "cache", None)  # absent under -p no:cacheprovider
        found = _download(cache.mkdir("hodoku") if cache else tmp_path_factory.mktemp("hodoku"))
        if found is None:
            pytest.skip(
                f"HoDoKu's reglib-1.3.txt: not in $HODOKU_REGLIB or {path}, and {URL} unreachable"
            )
        path = found
    return read(path)


def board_grid(case: Case) -> Grid:
    """The candidates HoDoKu's Sudoku2.setSudoku makes of the case: every digit of the grid
    placed (given or not), then the deleted candidates removed; known unique when it is."""
    digits = case.grid.replace("+", "")
    grid = placed_givens(parse(digits))
    for cell, value in case.deleted:
        grid.candidates[cell] &= ~(1 << value)
    grid.unique = uniqueness.one_solution(grid)
    return grid


def made(grid: Grid, step: Step) -> set[tuple[int, int]]:
    """The candidates a step removes: its eliminations, and with a value placed the cell's
    other values and that value in the cell's peers (HoDoKu writes BUG+1 as the
    eliminations in its cell)."""
    gone = set(step.eliminated)
    for cell, value in step.placed:
        gone |= {(cell, v) for v in values(grid.candidates[cell]) if v != value}
        gone |= {(p, value) for p in grid.geometry.peers[cell] if grid.candidates[p] >> value & 1}
    return gone


# the eight symmetries of the square, each a board's symmetry too (rows, columns and boxes
# go to rows, columns and boxes): our techniques take the first step they meet in row-major
# order, so on a board turned or mirrored another step of the same technique comes first
TURNS: tuple[Callable[[int, int], tuple[int, int]], ...] = (
    lambda r, c: (r, c),
    lambda r, c: (c, r),
    lambda r, c: (8 - r, c),
    lambda r, c: (r, 8 - c),
    lambda r, c: (8 - r, 8 - c),
    lambda r, c: (c, 8 - r),
    lambda r, c: (8 - c, r),
    lambda r, c: (8 - c, 8 - r),
)


class Unsound(Exception):
    """A step of ours that places a value the solution does not hold, or removes one it
    does."""


def truth(case: Case) -> list[int]:
    """The solution of the case's puzzle (its grid's digits as givens), by our solver."""
    return list(solve(parse(case.grid.replace("+", ""))).solution.cells)


def turned(
    case: Case, turn: int, mirror: bool, solution: list[int]
) -> tuple[Grid, dict[tuple[int, int], tuple[int, int]], list[int]]:
    """The case's grid turned by ``TURNS[turn]``, the values v read as 10 - v where
    ``mirror``; what the case wants there, each with where it was; and ``solution`` so
    turned."""
    grid = board_grid(case)
    where = [9 * r + c for r, c in (TURNS[turn](i // 9, i % 9) for i in range(81))]

    def value(v: int) -> int:
        return 10 - v if mirror else v

    candidates = [0] * 81
    for cell, mask in enumerate(grid.candidates):
        candidates[where[cell]] = sum(1 << value(v) for v in values(mask))
    grid.candidates = candidates
    grid.placed = {where[cell] for cell in grid.placed}
    wanted = case.placements or case.eliminations
    moved = [0] * 81
    for cell, v in enumerate(solution):
        moved[where[cell]] = value(v)
    return grid, {(where[cell], value(v)): (cell, v) for cell, v in wanted}, moved


def settle(grid: Grid) -> bool:
    """Place every open cell left with one value (its value leaves its peers), as ``explain``
    does before any harder technique and as the chains expect; whether any was."""
    singles = [
        c for c, m in enumerate(grid.candidates) if c not in grid.placed and m & (m - 1) == 0
    ]
    for cell in singles:
        apply(
            grid, Step("naked single", 2.3, "its cell", ((cell, values(grid.candidates[cell])[0]),))
        )
    return bool(singles)


# our chain techniques: SE's forcing chains (with X links alone for X-chains)
CHAINED = {"X-chain": True, "chains": False}


def proves(grid: Grid, cell: int, value: int, x_only: bool, placed: bool) -> bool:
    """Whether SE's forcing chain for the candidate, as ``chains.forcing_chain`` follows it
    from every candidate (keeping the step it rates lowest), shows it false (or, ``placed``,
    true): from the candidate on, its implications reach it off (from it off, on)."""
    key = cell << chains.SHIFT | value
    chain = chains.Chaining(grid, x=True, y=not x_only, dynamic=False)
    if placed:
        return key in chain.run([], [key], stop=False).on
    return key in chain.run([key], [], stop=False).off


def found(case: Case) -> int | None:
    """How many ways it takes our technique for the case to make every elimination (or
    placement) the case names, applied alone from the case's grid until it finds nothing
    more; None when no way does. A chain technique first: 0 when its forcing chains show
    each of them on the case's grid (``proves``), as HoDoKu's test takes every step of the
    type there. The ways: the grid's symmetries (``TURNS``, then each with the values
    mirrored), and for a technique of several step functions (``X-chain``) each function
    alone. Ours takes the first step it meets: a step taken before the case's own may spoil
    its pattern (an XYZ-wing's pivot losing a value) one way and not another, and each
    elimination of a case that makes several (a color wrap's) may come another way. Where
    the technique finds nothing more, the cells it left with one value are placed
    (``settle``) and it is asked again; only its own steps count. Every step taken is
    checked against the puzzle's solution (``Unsound``)."""
    family = OURS[CODES[case.code]]
    missing = set(case.placements or case.eliminations)
    if CODES[case.code] in CHAINED:
        grid = board_grid(case)
        x_only = CHAINED[CODES[case.code]]
        missing = {m for m in missing if not proves(grid, *m, x_only, bool(case.placements))}
        if not missing:
            return 0
    ways = [
        (finds, mirror, turn)
        for finds in (family, *((find,) for find in family if len(family) > 1))
        for mirror in (False, True)
        for turn in range(8)
    ]
    solution = truth(case)
    for index, (finds, mirror, turn) in enumerate(ways):
        grid, wanted, true = turned(case, turn, mirror, solution)
        for _ in range(LIMIT):
            step = next((s for find in finds if (s := find(grid))), None)
            if step is None and not settle(grid):
                break
            if step is None:
                continue
            # every step on the way is sound: HoDoKu's grids are puzzles with one solution
            if any(true[c] != v for c, v in step.placed) or any(
                true[c] == v for c, v in step.eliminated
            ):
                raise Unsound(f"line {case.line}: {step.describe(9)}")
            made_here = set(step.placed) if case.placements else made(grid, step)
            missing -= {wanted[m] for m in made_here if m in wanted}
            if not missing:
                return index + 1
            apply(grid, step)
    return None


def test_every_code_of_the_library_is_mapped_or_named_as_not_ours(library):
    codes = {case.code for case in library}
    assert codes - set(CODES) - set(NOT_OURS) == set()
    assert not set(CODES) & set(NOT_OURS)


def _codes(sample: bool) -> list:
    """Each code's first ``SAMPLE`` cases in the default run, all of them under ``slow``."""
    return [
        pytest.param(
            code,
            SAMPLE if sample else None,
            id=f"{code}-{'sample' if sample else 'all'}",
            marks=() if sample else pytest.mark.slow,
        )
        for code in CODES
    ]


def _check(case: Case) -> str | None:
    """What is wrong with our technique on the case, None when nothing is."""
    if case.fail_case:
        grid = board_grid(case)
        first = next((s for find in OURS[CODES[case.code]] if (s := find(grid))), None)
        return f"line {case.line}: found {first.describe(9)} in a fail case" if first else None
    return None if found(case) is not None else f"line {case.line}"


@pytest.mark.parametrize(("code", "count"), _codes(True) + _codes(False))
def test_our_technique_finds_each_case_of_its_hodoku_code(library, code, count):
    cases = [case for case in library if case.code == code][:count]
    if not cases:
        pytest.skip(f"no case of {code} in this library")
    missed = [why for case in cases if (why := _check(case))]
    assert not missed, f"{CODES[code]} misses HoDoKu's {code} cases: {', '.join(missed)}"


@pytest.mark.parametrize("line", HIDDEN_SET)
def test_unique_rectangle_type_three_of_a_hidden_set_finds_its_case(library, line):
    (case,) = [case for case in library if case.line == line]
    assert _check(case) is None
