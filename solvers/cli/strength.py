"""``sudoku strength``: how much each level of inference decides on each puzzle with no
search (``solvers.strength``)."""

from __future__ import annotations

import argparse
import time

from solvers.cli.inputs import puzzles_of
from solvers.cli.output import Run
from solvers.cli.parser import command, shape
from solvers.formats import FORMATS

# the levels' names, weakest first in each family (solvers.strength.LEVELS: a test holds the
# two alike): written here so that building the command line imports no level
LEVEL_NAMES = (
    "up:minimal", "up:extended", "fl:extended", "fc", "gac", "sac",
    "singles", "locked", "subsets", "fish", "wings",
)  # fmt: skip


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
    puzzle_options(parser)
    parser.add_argument(
        "--levels",
        default="up:minimal,up:extended,fc,gac,singles,locked,subsets,fish,wings",
        metavar="L1,L2",
        help="the levels, comma-separated (default: all but the slow fl:extended and sac)",
    )
    parser.add_argument(
        "--json", action="store_true", help="one JSON object per puzzle and level per line"
    )
    parser.set_defaults(run=run)


def puzzle_options(parser: argparse.ArgumentParser) -> None:
    """The input: a file of puzzles or a shipped set by name, read as ``--input-format``."""
    parser.add_argument(
        "file", nargs="?", default="-", metavar="FILE",
        help="a board, a line-format file or a shipped set's name; '-' or nothing: standard input",
    )  # fmt: skip
    parser.add_argument("--input-format", choices=["auto", *FORMATS], default="auto")
    parser.add_argument("--box", type=shape, metavar="RxC", help="box shape, e.g. 2x3")


def run(args: argparse.Namespace, run: Run) -> None:
    from solvers.strength import levels_of, measure

    levels = levels_of(args.levels)
    solved = dict.fromkeys(levels, 0)
    fixed: dict[str, list[int]] = {level: [] for level in levels}
    seconds: dict[str, list[float]] = {level: [] for level in levels}
    for item in puzzles_of(args, run):
        for level in levels:
            began = time.perf_counter()
            outcome = measure(item.board, level)
            took = time.perf_counter() - began
            solved[level] += outcome.solved
            fixed[level].append(outcome.fixed)
            seconds[level].append(took)
            if args.json:
                run.emit_json(
                    {"index": item.line, "level": level, "solved": outcome.solved,
                     "fixed": outcome.fixed, "seconds": round(took, 6)}
                )  # fmt: skip
    if not args.json:
        run.table(_table(levels, solved, fixed, seconds))


def _table(levels, solved, fixed, seconds) -> list[tuple[str, ...]]:
    import statistics

    rows = [("level", "solved", "%", "mean fixed", "median ms", "total s")]
    for level in levels:
        count = len(fixed[level])
        if not count:
            continue
        rows.append(
            (
                level,
                str(solved[level]),
                f"{100 * solved[level] / count:.1f}",
                f"{statistics.fmean(fixed[level]):.1f}",
                f"{1000 * statistics.median(seconds[level]):.2f}",
                f"{sum(seconds[level]):.2f}",
            )
        )
    return rows
