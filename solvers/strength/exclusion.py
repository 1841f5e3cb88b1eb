"""Aligned pair exclusion, as Sudoku Explainer 1.2.1 finds and rates it (6.2):
diuf/sudoku/solver/rules/AlignedPairExclusion.java, AlignedExclusionHint.java.

Two open cells, each with a bivalue peer, and at least two bivalue cells that see both (the
excluders). A pair of values for the two cells is ruled out when they see each other and the
values are equal, or when an excluder holds nothing but those values (it would be left
empty). A value of one cell that no remaining pair gives it leaves that cell. As SE, a cell
is a base only while none of its peers is a naked single still to place, and the pairs are
taken in SE's order (row-major cells, every pair of them); boards up to 9x9, as the chains.
"""

from __future__ import annotations

from itertools import combinations

from solvers.model.cells import cell_name
from solvers.strength.chains import LARGEST
from solvers.strength.grid import values
from solvers.strength.techniques import Grid, Step

RATING = 6.2  # AlignedExclusionHint.getDifficulty, degree 2


def aligned_pair_exclusion(grid: Grid) -> Step | None:
    """The first aligned pair exclusion that removes a candidate, None when there is none."""
    if grid.geometry.size > LARGEST:
        return None
    cand, peers = grid.candidates, grid.peer_sets
    pending = {c for c in range(len(cand)) if c not in grid.placed and cand[c].bit_count() == 1}
    excluders: dict[int, set[int]] = {}
    for c in range(len(cand)):
        if c in grid.placed or cand[c].bit_count() < 2 or peers[c] & pending:
            continue
        pairs = {p for p in peers[c] if p not in grid.placed and cand[p].bit_count() == 2}
        if pairs:
            excluders[c] = pairs
    for first, second in combinations(excluders, 2):
        common = excluders[first] & excluders[second]
        if len(common) < 2:
            continue
        aligned = second in peers[first]
        allowed = [
            (a, b)
            for a in values(cand[first])
            for b in values(cand[second])
            if not (aligned and a == b)
            and not any(cand[e] & ~((1 << a) | (1 << b)) == 0 for e in common)
        ]
        gone = tuple(
            (c, v)
            for index, c in enumerate((first, second))
            for v in values(cand[c])
            if all(pair[index] != v for pair in allowed)
        )
        if gone:
            n = grid.geometry.size
            where = f"{cell_name(first, n)} {cell_name(second, n)}"
            names = " ".join(cell_name(e, n) for e in sorted(common))
            return Step(
                "aligned pair exclusion", RATING, f"{where}, excluders {names}", eliminated=gone
            )
    return None
