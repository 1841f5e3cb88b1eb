"""``sudoku strength``: how much each level of inference decides on each puzzle."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from solvers.cli.arguments import command, input_options, seconds
from solvers.cli.inputs import puzzles_of
from solvers.cli.levels import DEFAULT_LEVELS, table
from solvers.cli.output import EXIT_TIMEOUT, Run

if TYPE_CHECKING:
    pass

# what each level does, for --help (docs/strength.md, "The levels", says it at length)
LEVELS_SAID = """\
  up:minimal   unit propagation on the minimal CNF (each cell a value, each value at
               most once per unit)
  up:extended  unit propagation on the extended CNF (+ one value per cell, each value
               at least once per unit): decides what singles decide
  fl:extended  failed literals on the extended CNF: a literal whose propagation fails
               is set the other way (slow)
  fc           forward checking: a cell with one value left removes it from its peers
  gac          arc consistency on each unit's all-different (matching), cages and dots
  sac          singleton arc consistency: a value whose trial gac refutes is removed (slow)
  singles      naked and hidden singles
  locked       + locked candidates (pointing, claiming)
  subsets      + naked and hidden pairs, triples, quads
  fish         + X-wing, swordfish, jellyfish
  wings        + XY-wing, XYZ-wing"""


def add_to(commands) -> None:
    parser = command(
        commands,
        "strength",
        "how many puzzles each inference solves with no search, and how many cells it decides",
        "sudoku strength ../shared/data/top95.txt --levels up:minimal,up:extended,gac,sac",
        statuses=False,
    )
    parser.epilog += (
        "\n\nlevels (or all), each run from the givens to its fixpoint with no search:\n"
        f"{LEVELS_SAID}\n"
        "refuted: the puzzles a level proves have no solution (a contradiction), apart from\n"
        "solved; t/o (with --timeout): the puzzles a level ran out of time on; mean known: the\n"
        "cells left with one value, givens included, over the puzzles neither refuted nor\n"
        "timed out (the JSON's fixed, per puzzle).\n"
        "exit status: 0 measured; 3 a level ran out of time on a puzzle (--timeout); 2 bad input\n"
        "or usage (an unknown level, an unreadable puzzle)."
    )
    input_options(parser)
    parser.add_argument(
        "--levels",
        default=DEFAULT_LEVELS,
        metavar="L1,L2",
        help="the levels, comma-separated (default: all but the slow fl:extended and sac)",
    )
    parser.add_argument(
        "--timeout",
        type=seconds,
        metavar="SECONDS",
        help="give up on a level after this many seconds on a puzzle, and report it as timed "
        "out there (default: no limit)",
    )
    parser.add_argument(
        "--json", action="store_true", help="one JSON object per puzzle and level per line"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, run: Run) -> None:
    from solvers.strength.levels import levels_of
    from solvers.strength.tally import measured, tallies

    levels = levels_of(args.levels)
    found = []
    for item in puzzles_of(args, run):
        for one in measured(item.line, item.board, levels, args.timeout):
            found.append(one)
            if one.timed_out:
                run.end(EXIT_TIMEOUT)
            if args.json:
                run.emit_json(
                    {"index": one.puzzle, "level": one.level, "solved": one.solved,
                     "refuted": one.refuted, "timed_out": one.timed_out, "fixed": one.fixed,
                     "seconds": round(one.seconds, 6)}
                )  # fmt: skip
    if not args.json:
        run.table(table(tallies(found), timeouts=args.timeout is not None))
