"""A renban read by its runs, where its cells are too open to enumerate.

A renban of k cells holds k different consecutive values: one of the runs s..s+k-1. A run is
possible while the line's cells can take its k values, one each (a matching of cells to the
run's values); a cell keeps a value only where some possible run gives it that value with the
other cells matched to the rest. The values every possible run holds are on the line for sure
(a renban of seven cells on 1-9 always holds 3 to 7): where such a value can only go in line
cells that one outside cell sees, that cell cannot hold it. The whole enumeration
(``kind_lines.renban``) finds as much where it fits its budget; on an open line of six cells
or more it does not (9**6 assignments), and this reading, a matching per run and value, is
what a player does there ("renban r1c1-...-r7c1 of 7 cells: only the runs 1-7, 2-8 or 3-9,
so it holds 3, 4, 5, 6, 7; ...").

Sound from the definition: every solution puts one run on the line, each cell one of its
values, the cells different; that run is possible, each cell's value is matched in it, and
each value of every possible run is on the line.
"""

from __future__ import annotations

from collections.abc import Sequence

from solvers.model.constraints.model import Constraint
from solvers.strength.grid import values
from solvers.strength.kind_must import RATING as POINTING
from solvers.strength.support import cells_text, kind_step, losses
from solvers.strength.techniques import Contradiction, Grid, Step


def runs(masks: Sequence[int], n: int) -> list[int]:
    """The runs (as value masks) the cells can hold, one different value of the run each."""
    k = len(masks)
    found = []
    for start in range(1, n - k + 2):
        run = ((1 << k) - 1) << start
        if _matched([mask & run for mask in masks]):
            found.append(run)
    return found


def _matched(masks: Sequence[int]) -> bool:
    """Whether the cells can take different values, each one of its ``masks``' (augmenting
    paths: Kuhn's bipartite matching)."""
    owner: dict[int, int] = {}

    def place(i: int, tried: set[int]) -> bool:
        for value in values(masks[i]):
            if value in tried:
                continue
            tried.add(value)
            if value not in owner or place(owner[value], tried):
                owner[value] = i
                return True
        return False

    return all(place(i, set()) for i in range(len(masks)))


def renban_runs(grid: Grid, constraint: Constraint) -> Step | None:
    """The renban's cells keep the values some possible run matches them to (rated as the
    kind's own step); None where none goes."""
    n, cells = grid.geometry.size, constraint.cells
    masks = [grid.candidates[cell] for cell in cells]
    possible = _possible(grid, constraint)
    kept = [0] * len(cells)
    for run in possible:
        for i, mask in enumerate(masks):
            others = masks[:i] + masks[i + 1 :]
            for value in values(mask & run & ~kept[i]):
                if _matched([m & run & ~(1 << value) for m in others]):
                    kept[i] |= 1 << value
    gone = losses(grid, cells, kept)
    if not gone:
        return None
    return kind_step(
        "renban", f"renban {cells_text(cells, n)}", _words(possible, len(cells)), gone, n
    )


def renban_pointing(grid: Grid) -> Step | None:
    """The first renban of the board whose values held by every possible run an outside cell
    that sees each of the value's places on the line still has (a rule's pointing, 2.7)."""
    n = grid.geometry.size
    for constraint in grid.constraints:
        if constraint.kind != "renban":
            continue
        cells = constraint.cells
        possible = _possible(grid, constraint)
        every = possible[0]
        for run in possible[1:]:
            every &= run
        for value in values(every):
            bit = 1 << value
            places = [cell for cell in cells if grid.candidates[cell] & bit]
            seen = frozenset.intersection(*(grid.peer_sets[cell] for cell in places))
            gone = tuple(
                (cell, value)
                for cell in sorted(seen)
                if cell not in cells and grid.candidates[cell] & bit
            )
            if gone:
                held = ", ".join(map(str, values(every)))
                at = cells_text(places, n)
                words = f"{_words(possible, len(cells))}, so it holds {held}"
                words += f"; its {value} can only go in {at}"
                step = kind_step("renban", f"renban {cells_text(cells, n)}", words, gone, n)
                return Step(
                    "rule pointing", POINTING, step.where, eliminated=gone, reason=step.reason
                )
    return None


def _possible(grid: Grid, constraint: Constraint) -> list[int]:
    n, cells = grid.geometry.size, constraint.cells
    possible = runs([grid.candidates[cell] for cell in cells], n)
    if not possible:
        where = f"renban {cells_text(cells, n)}"
        raise Contradiction(f"the {where} can hold no run of {len(cells)} values")
    return possible


def _words(possible: Sequence[int], k: int) -> str:
    named = " or ".join(f"{_low(run)}-{_low(run) + k - 1}" for run in possible)
    return f"of {k} cells: only the runs {named}"


def _low(run: int) -> int:
    return (run & -run).bit_length() - 1
