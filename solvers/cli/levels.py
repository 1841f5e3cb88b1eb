"""The levels of inference as the commands name and show them: their names (weakest first in
each family), the default set, and the table ``strength`` and ``compare --strength`` print."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solvers.strength.tally import Tally

# the levels' names, weakest first in each family (solvers.strength.levels.LEVELS: a test holds the
# two alike): written here so that building the command line imports no level
LEVEL_NAMES = (
    "up:minimal", "up:extended", "fl:extended", "fc", "gac", "sac",
    "singles", "locked", "subsets", "fish", "wings",
)  # fmt: skip
# every level but the slow fl:extended and sac
DEFAULT_LEVELS = "up:minimal,up:extended,fc,gac,singles,locked,subsets,fish,wings"


def table(tallied: list[Tally], timeouts: bool = False) -> list[tuple[str, ...]]:
    """The levels' table: solved (and its %), refuted, with ``timeouts`` the timed out, the
    mean cells decided on the puzzles left (``-`` when none), the median and total times."""
    rows = [("level", "solved", "%", "refuted", *(("t/o",) if timeouts else ()), "mean known",
             "median ms", "total s")]  # fmt: skip
    for tally in tallied:
        mean = "-" if tally.mean_fixed is None else f"{tally.mean_fixed:.1f}"
        rows.append(
            (
                tally.level,
                str(tally.solved),
                f"{tally.solved_pct:.1f}",
                str(tally.refuted),
                *((str(tally.timed_out),) if timeouts else ()),
                mean,
                f"{1000 * tally.median_s:.2f}",
                f"{tally.total_s:.2f}",
            )
        )
    return rows
