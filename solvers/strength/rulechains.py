"""Chains across the constraints' links: where every chain along the units has stalled on a
variant board, the same chains (``chains``) again, following the links and steps the board's
constraints imply (``rulelinks``) as well as the units': static forcing chains, then multiple,
then dynamic forcing chains, rated 9.0 + length (SE's "dynamic forcing chains (+)" level).
Once they have taken over on a grid, the chains along the units alone stand aside
(``units_only``): these hold theirs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial, wraps

from solvers.strength import rulelinks
from solvers.strength.chains import LARGEST, forcing_chain, multiple_chains
from solvers.strength.techniques import Grid, Step

# chains across the constraints' links are SE's "dynamic forcing chains (+)" level: chains that
# use more than the units' links (SE's (+) adds its cheaper techniques inside the chain, ours
# each kind's links and own steps); tried only where every chain along the units has stalled
RULES_BASE = 9.0
# a dynamic chain that reads the wider rules' steps goes no further than this many candidates
# reached: on a killer's open grid the uncapped search took 4.8 s where this one takes 2.8
# (the conclusions found rate as low: long chains rate higher anyway), and what a stopped
# chain reached still follows from its assumption (sound)
RULE_REACH = 60
_RULE_KINDS = (
    ("forcing chain across rules", 7.0, partial(forcing_chain, x_only=False, rules=True)),
    (
        "multiple forcing chains across rules",
        8.0,
        partial(multiple_chains, dynamic=False, base=8.0, name="", rules=True),
    ),
    # the two-cell links alone first: a wider rule's steps at every "off" of every chain cost
    # the most (seconds on a killer's open grid, where the links alone take a tenth of it);
    # with them, each chain stops past RULE_REACH candidates reached
    (
        "dynamic forcing chains across rules",
        8.5,
        partial(
            multiple_chains,
            dynamic=True,
            base=8.5,
            name="",
            rules=True,
            whole=False,
            reach=RULE_REACH,
        ),
    ),
    (
        "dynamic forcing chains across rules",
        8.5,
        partial(multiple_chains, dynamic=True, base=8.5, name="", rules=True, reach=RULE_REACH),
    ),
)
RULE_NAMES = tuple(dict.fromkeys(name for name, _, _ in _RULE_KINDS))


def rule_chains(grid: Grid) -> Step | None:
    """The chains again, following the links and steps of the board's constraints as well as
    the units' (``Chaining`` with ``rules``): static forcing chains, then multiple, then
    dynamic forcing chains, the first kind that finds a step taken (each costs more than the
    one before), rated RULES_BASE + the chain's length increment. None on a board with no
    constraints, and at once on candidates where it found nothing before."""
    if grid.geometry.size > LARGEST or not grid.constraints:
        return None
    links, wide = rulelinks.links(grid), rulelinks.wide(grid)
    if not any(links) and not any(wide):
        return None  # the constraints are all units: the unit chains said it all
    grid.memo[ACROSS] = True  # the unit chains stalled here: from now on these stand for them
    state = tuple(grid.candidates)
    if grid.memo.get("rule chains quiet") == state:
        return None
    for name, base, find in _RULE_KINDS:
        step = find(grid)
        if step is not None:
            rating = round(RULES_BASE + step.rating - base, 1)
            return replace(step, technique=name, rating=rating)
    grid.memo["rule chains quiet"] = state
    return None


ACROSS = "chains across rules"  # grid.memo's mark: the unit chains once stalled on this grid


def units_only(find: Callable[[Grid], Step | None]) -> Callable[[Grid], Step | None]:
    """``find`` (a chain technique along the units), left out on a grid where the unit chains
    have stalled once and ``rule_chains`` took over: its chains hold theirs (the units' links
    and more), so searching both again each round would only pay twice (on a whispers puzzle
    needing 50 rounds of chains across rules, half its time). The puzzle's rating has that
    bound anyway: every step past that point rates RULES_BASE or more."""

    @wraps(find)
    def unless_across(grid: Grid) -> Step | None:
        return None if grid.memo.get(ACROSS) else find(grid)

    return unless_across
