"""``sudoku strength``: how much each level of inference decides on each puzzle."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from solvers.cli.inputs import puzzles_of
from solvers.cli.output import Run
from solvers.cli.parser import command, input_options

if TYPE_CHECKING:
    from solvers.strength.tally import Tally

# the levels' names, weakest first in each family (solvers.strength.LEVELS: a test holds the
# two alike): written here so that building the command line imports no level
LEVEL_NAMES = (
    "up:minimal", "up:extended", "fl:extended", "fc", "gac", "sac",
    "singles", "locked", "subsets", "fish", "wings",
)  # fmt: skip
# every level but the slow fl:extended and sac
DEFAULT_LEVELS = "up:minimal,up:extended,fc,gac,singles,locked,subsets,fish,wings"


def add_to(commands) -> None:
    parser = command(
        commands,
        "strength",
        "how many puzzles each inference solves with no search, and how many cells it decides",
        "sudoku strength ../shared/data/top95.txt --levels up:minimal,up:extended,gac,sac",
        statuses=False,
    )
    parser.epilog += (
        f"\n\nlevels: {', '.join(LEVEL_NAMES)} (or all)\n"
        "exit status: 0 measured; 2 bad input or usage (an unknown level, an unreadable puzzle)."
    )
    input_options(parser)
    parser.add_argument(
        "--levels",
        default=DEFAULT_LEVELS,
        metavar="L1,L2",
        help="the levels, comma-separated (default: all but the slow fl:extended and sac)",
    )
    parser.add_argument(
        "--json", action="store_true", help="one JSON object per puzzle and level per line"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, run: Run) -> None:
    from solvers.strength import levels_of
    from solvers.strength.tally import measured, tallies

    levels = levels_of(args.levels)
    found = []
    for item in puzzles_of(args, run):
        for one in measured(item.line, item.board, levels):
            found.append(one)
            if args.json:
                run.emit_json(
                    {"index": one.puzzle, "level": one.level, "solved": one.solved,
                     "fixed": one.fixed, "seconds": round(one.seconds, 6)}
                )  # fmt: skip
    if not args.json:
        run.table(table(tallies(found)))


def table(tallied: list[Tally]) -> list[tuple[str, ...]]:
    rows = [("level", "solved", "%", "mean fixed", "median ms", "total s")]
    for tally in tallied:
        rows.append(
            (
                tally.level,
                str(tally.solved),
                f"{tally.solved_pct:.1f}",
                f"{tally.mean_fixed:.1f}",
                f"{1000 * tally.median_s:.2f}",
                f"{tally.total_s:.2f}",
            )
        )
    return rows
