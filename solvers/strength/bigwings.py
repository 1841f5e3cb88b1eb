"""The WXYZ-, VWXYZ- and UVWXYZ-wings, from Sukaku Explainer (SE's successor, which rated the
public bank ``bench/se_rating.py`` reads): not in Sudoku Explainer 1.2.1, rated 5.5 to 5.6,
6.2 to 6.4 and 6.6 there (SudokuMonster/SukakuExplainer, diuf/sudoku/solver/rules/
WXYZWing.java, VWXYZWing.java, UVWXYZWing.java and their ``*Hint.java``).

Three (four, five) cells that all see each other hold four (five, six) values between them
(an almost locked set: one value too many), and one more cell, the pincer, holds just x and
z, both among them, and sees every one of the set's cells that holds x. If the pincer is x,
the set loses x and its cells hold the other values, z among them; else it is z. Either way
z is in the pincer or in one of the set's cells that hold it, so z leaves every cell that
sees all of those.
"""

from __future__ import annotations

from solvers.model.cells import cell_name
from solvers.strength.grid import values
from solvers.strength.techniques import Grid, Step

NAMES = {3: "WXYZ-wing", 4: "VWXYZ-wing", 5: "UVWXYZ-wing"}


def rating(size: int, largest: int) -> float:
    """Sukaku Explainer's ``getDifficulty`` for a wing of ``size`` cells besides the pincer,
    the largest holding ``largest`` values: WXYZ 5.5 + 0.1 where that is 3 (WXYZWingHint),
    VWXYZ 6.2 + 0.1 or 0.2 the nearer it is to 3 (VWXYZWingHint), UVWXYZ 6.6 (UVWXYZWingHint)."""
    if size == 3:
        return round(5.5 + (1 - abs(3 - largest)) * 0.1, 1)
    if size == 4:
        return round(6.2 + (2 - abs(3 - largest)) * 0.1, 1)
    return 6.6


def wxyz_wing(grid: Grid) -> Step | None:
    """The WXYZ-wing whose rating is lowest (5.5, or 5.6 where the set's largest cell has
    three candidates), first found among equals."""
    return wing(grid, 3)


def vwxyz_wing(grid: Grid) -> Step | None:
    """Four cells that see each other with five values, and a pincer (6.2 to 6.4)."""
    return wing(grid, 4)


def uvwxyz_wing(grid: Grid) -> Step | None:
    """Five cells that see each other with six values, and a pincer (6.6)."""
    return wing(grid, 5)


def wing(grid: Grid, size: int) -> Step | None:
    """The wing of ``size`` cells that see each other (``size + 1`` values between them, each
    cell two to ``size + 1``) and a pincer whose rating is lowest, first found among equals."""
    cand, peers = grid.candidates, grid.peer_sets
    most = size + 1
    open_cells = [
        c for c in range(len(cand)) if c not in grid.placed and 1 < cand[c].bit_count() <= most
    ]
    allowed = set(open_cells)
    pairs = [c for c in open_cells if cand[c].bit_count() == 2]
    best: Step | None = None

    def grow(cells: tuple[int, ...], union: int, common: frozenset[int]) -> None:
        nonlocal best
        if len(cells) == size:
            if union.bit_count() != most:
                return
            found_rating = rating(size, max(cand[c].bit_count() for c in cells))
            if best and best.rating <= found_rating:
                return
            found = _pincer(grid, cells, union, pairs)
            if found:
                best = Step(NAMES[size], found_rating, found[0], eliminated=found[1])
            return
        for nxt in sorted(common):
            if nxt > cells[-1] and nxt in allowed and (union | cand[nxt]).bit_count() <= most:
                grow((*cells, nxt), union | cand[nxt], common & peers[nxt])

    for first in open_cells:
        grow((first,), cand[first], peers[first])
    return best


def _pincer(
    grid: Grid, trio: tuple[int, ...], union: int, pairs: list[int]
) -> tuple[str, tuple[tuple[int, int], ...]] | None:
    cand, peers = grid.candidates, grid.peer_sets
    for pincer in pairs:
        if pincer in trio or cand[pincer] & ~union:
            continue
        for x, z in (values(cand[pincer]), reversed(values(cand[pincer]))):
            with_x = [c for c in trio if cand[c] >> x & 1]
            if not all(c in peers[pincer] for c in with_x):
                continue
            # doubly linked (z restricted too) changes nothing here: the argument holds
            with_z = [c for c in trio if cand[c] >> z & 1]
            holders = [pincer, *with_z]
            seen = set.intersection(*(set(peers[c]) for c in holders))
            gone = tuple((c, z) for c in sorted(seen) if cand[c] >> z & 1)
            if gone:
                n = grid.geometry.size
                names = " ".join(cell_name(c, n) for c in trio)
                return f"{names} and pincer {cell_name(pincer, n)}, z={z}", gone
    return None
