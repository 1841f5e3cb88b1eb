"""The WXYZ-wing, from Sukaku Explainer (SE's successor, which rated the public bank
``bench/se_rating.py`` reads): not in Sudoku Explainer 1.2.1, rated 5.5 to 5.6 there
(SudokuMonster/SukakuExplainer, diuf/sudoku/solver/rules/WXYZWing.java, WXYZWingHint.java).

Three cells that all see each other hold four values between them (an almost locked set:
one value too many), and a fourth cell holds just x and z, both among the four, and sees
every one of the three that holds x. If the fourth cell is x, the three lose x and hold the
other three values, z among them; else it is z. Either way z is in the fourth cell or in one
of the three that hold it, so z leaves every cell that sees all of those.
"""

from __future__ import annotations

from solvers.model.cells import cell_name
from solvers.strength.grid import values
from solvers.strength.techniques import Grid, Step


def wxyz_wing(grid: Grid) -> Step | None:
    """The WXYZ-wing whose rating is lowest (5.5, or 5.6 where the set's largest cell has
    three candidates, as Sukaku Explainer's ``getDifficulty``), first found among equals."""
    cand, peers = grid.candidates, grid.peer_sets
    open_cells = [c for c in range(len(cand)) if c not in grid.placed and cand[c].bit_count() > 1]
    pairs = [c for c in open_cells if cand[c].bit_count() == 2]
    best: Step | None = None
    for first in open_cells:
        if cand[first].bit_count() > 4:
            continue
        for second in (p for p in peers[first] if p > first and p in open_cells):
            if (cand[first] | cand[second]).bit_count() > 4:
                continue
            for third in (p for p in peers[first] & peers[second] if p > second):
                union = cand[first] | cand[second] | cand[third]
                if third in grid.placed or cand[third].bit_count() < 2 or union.bit_count() != 4:
                    continue
                trio = (first, second, third)
                largest = max(cand[c].bit_count() for c in trio)
                rating = 5.6 if largest == 3 else 5.5
                if best and best.rating <= rating:
                    continue
                found = _pincer(grid, trio, union, pairs)
                if found:
                    best = Step("WXYZ-wing", rating, found[0], eliminated=found[1])
    return best


def _pincer(
    grid: Grid, trio: tuple[int, int, int], union: int, pairs: list[int]
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
