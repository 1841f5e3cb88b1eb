"""The human levels: a player's techniques, easiest first, one step at a time.

``singles`` (naked and hidden singles, and each constraint's own steps: ``kinds``),
``locked`` (+ pointing, then claiming), ``subsets``
(+ naked and hidden pairs, triples, quads), ``fish`` (+ X-wing, swordfish, jellyfish),
``wings`` (+ XY-wing, XYZ-wing): each level holds the techniques of the ones before it. At
each step the easiest technique that finds something is applied (Sudoku Explainer's order), so
the steps are the ones a player following the ratings takes; the level's fixpoint does not
depend on that order, since every technique only removes candidates and stays valid once its
pattern is there. A board's constraints take their steps after the singles and before the
harder classic techniques: a rule's own step reads one rule's cells, as a single reads one
unit, and the explanation stays in the puzzle's own terms (docs/strength.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from solvers.base.deadline import Deadline, Ticker
from solvers.model.board import Board
from solvers.strength import (
    bigwings,
    chains,
    cycles,
    direct,
    exclusion,
    kind_fill,
    kind_must,
    kind_pairs,
    kind_runs,
    kind_squares,
    kinds,
    rulechains,
    stronglinks,
    uniqueness,
)
from solvers.strength.grid import Outcome, outcome, start, units_of
from solvers.strength.techniques import (
    Contradiction,
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

LEVELS = ("singles", "locked", "subsets", "fish", "wings")
# beyond the levels ``strength`` measures, the techniques ``rate`` and ``explain`` go on with:
# Sukaku Explainer's strong links (X-chains of 2 to 6), uniqueness (on a puzzle with one
# solution, board of units alone), Sukaku Explainer's WXYZ- to UVWXYZ-wings, aligned pair
# exclusion, then chains
EXTRA = ("strong-links", "uniqueness", "wxyz-wing", "exclusion", "chains")

Technique = Callable[[Grid], Step | None]
# (level, technique) in Sudoku Explainer's order (diuf/sudoku/solver/Solver.java: its direct,
# indirect and chaining producers), which is by rating but for a few: the order a step is
# looked for, the first that finds something taken
ORDERED: tuple[tuple[str, Technique], ...] = (
    ("singles", direct.full_house),
    ("singles", partial(hidden_single, in_boxes=True)),
    ("singles", partial(hidden_single, in_boxes=False)),
    ("locked", direct.direct_locked),
    ("subsets", partial(direct.direct_hidden, k=2)),
    ("singles", naked_single),
    ("singles", kinds.kind_step),
    ("subsets", partial(direct.direct_hidden, k=3)),
    ("locked", partial(locked, pointing=True)),
    ("locked", kind_must.rule_pointing),  # a rule's must-hold value pointed out of it (2.7)
    ("locked", kind_runs.renban_pointing),  # the same for a renban too open to enumerate (2.7)
    ("locked", partial(locked, pointing=False)),
    ("locked", kind_must.rule_claiming),  # a unit's value locked in a rule's cells (2.8)
    ("locked", kind_pairs.rules_together),  # two rules that share a cell, read at once (2.8)
    ("locked", kind_squares.squares_together),  # two 2x2 squares of an entropy or mod 3 (2.8)
    ("locked", kind_fill.rule_fills_house),  # a house's other cells hold what a rule leaves (2.8)
    ("subsets", partial(naked_subset, k=2)),
    ("fish", partial(fish, k=2)),
    ("subsets", partial(hidden_subset, k=2)),
    ("subsets", partial(naked_subset, k=3)),
    ("fish", partial(fish, k=3)),
    ("subsets", partial(hidden_subset, k=3)),
    # Sukaku Explainer's strong links, where its Solver.java puts them (2: before the wings)
    ("strong-links", partial(stronglinks.strong_links, count=2)),
    ("wings", partial(wing, pivot_size=2)),
    ("wings", partial(wing, pivot_size=3)),
    ("uniqueness", uniqueness.unique_rectangle),
    ("subsets", partial(naked_subset, k=4)),
    ("fish", partial(fish, k=4)),
    ("subsets", partial(hidden_subset, k=4)),
    ("strong-links", partial(stronglinks.strong_links, count=3)),
    ("wxyz-wing", bigwings.wxyz_wing),  # where Sukaku Explainer's Solver.java puts it
    ("uniqueness", uniqueness.bug_one),
    ("uniqueness", uniqueness.bug_two),
    ("uniqueness", uniqueness.bug_four),  # SE's one BUG producer: type 4 rates as type 2
    ("strong-links", partial(stronglinks.strong_links, count=4)),
    ("wxyz-wing", bigwings.vwxyz_wing),
    ("exclusion", exclusion.aligned_pair_exclusion),
    ("strong-links", partial(stronglinks.strong_links, count=5)),
    ("wxyz-wing", bigwings.uvwxyz_wing),
    ("strong-links", partial(stronglinks.strong_links, count=6)),
    # SE's first chaining producer: one sorted list
    ("chains", rulechains.units_only(cycles.cycle_or_forcing_chain)),
    ("chains", rulechains.units_only(chains.nishio)),
    ("chains", rulechains.units_only(chains.multiple_forcing)),
    ("chains", rulechains.units_only(chains.dynamic_forcing)),
    # the chains across the constraints' links, once every chain along the units has stalled
    # (SE's dynamic forcing chains (+) level, 9.0: docs/strength.md); from then on they stand
    # for the chains along the units on that grid (``rulechains.units_only``)
    ("chains", rulechains.rule_chains),
)
# the rating a puzzle that still stalls needs at least: SE's next technique, dynamic forcing
# chains (+), starts at 9.0 (chaining/Chaining.java getDifficulty, level 1)
BEYOND = 9.0


def _place(grid: Grid, cell: int, value: int) -> None:
    bit = 1 << value
    grid.candidates[cell] = bit
    grid.placed.add(cell)
    for peer in grid.geometry.peers[cell]:
        grid.candidates[peer] &= ~bit


def apply(grid: Grid, step: Step) -> None:
    for cell, value in step.placed:
        _place(grid, cell, value)
    for cell, value in step.eliminated:
        grid.candidates[cell] &= ~(1 << value)


def placed_givens(board: Board) -> Grid:
    """The board's candidates with its givens placed (removed from their peers)."""
    grid = Grid(units_of(board), start(board), constraints=board.rules.constraints)
    for cell, value in enumerate(board.cells):
        if value:
            _place(grid, cell, value)
    return grid


def steps(grid: Grid, level: str = EXTRA[-1]) -> Iterator[Step]:
    """Each step the techniques up to ``level`` take on ``grid``, applied to it before it is
    yielded, until they find nothing more or every cell is placed; Contradiction when the
    candidates leave a cell or a value in a unit no place."""
    every = LEVELS + EXTRA
    allowed = every[: every.index(level) + 1]
    techniques = [find for name, find in ORDERED if name in allowed]
    while len(grid.placed) < len(grid.candidates):
        step = next((found for find in techniques if (found := find(grid))), None)
        if step is None:
            return
        apply(grid, step)
        yield step


def level(board: Board, deadline: Deadline, name: str) -> Outcome:
    """The fixpoint of the techniques up to level ``name`` on ``board``; SolveTimeout at the
    first step past ``deadline``."""
    grid = placed_givens(board)
    ticker = Ticker(deadline, dict)
    try:
        for _ in steps(grid, name):
            ticker.tick()
    except Contradiction:
        return outcome(board, [0] * len(board.cells))
    return outcome(board, grid.candidates)
