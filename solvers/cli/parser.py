"""The ``sudoku`` command line: the top-level parser, and the arguments commands share.

Each command's own arguments are declared in its module (``solvers.cli.<command>``), which
also holds the function that runs it.
"""

from __future__ import annotations

import argparse

from solvers import registry
from solvers.board import Shape
from solvers.cli.output import EXIT_STATUSES
from solvers.errors import InputError
from solvers.formats import FORMATS


def build_parser() -> argparse.ArgumentParser:
    from solvers.cli import check, compare, count, encode, generate, listing, report, solve

    parser = argparse.ArgumentParser(
        prog="sudoku",
        description="Solve, count and cross-check Sudoku puzzles with interchangeable backends.",
        epilog="Run 'sudoku COMMAND --help' for each command, with an example.",
    )
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")
    for module in (solve, count, check, encode, generate, compare, report, listing):
        module.add_to(commands)
    return parser


def command(
    commands, name: str, summary: str, example: str, statuses: bool = True
) -> argparse.ArgumentParser:
    """A subcommand with its summary, an example and (by default) the exit statuses."""
    epilog = f"example:\n  {example}" + (f"\n\n{EXIT_STATUSES}" if statuses else "")
    return commands.add_parser(
        name,
        help=summary,
        description=summary[0].upper() + summary[1:] + ".",
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def input_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE",
        help="a board or a line-format file; '-' or nothing reads standard input",
    )
    parser.add_argument(
        "--format",
        choices=["auto", *FORMATS],
        default="auto",
        help="output form (default: the input's form; line for many puzzles)",
    )
    parser.add_argument(
        "--input-format",
        choices=["auto", *FORMATS],
        default="auto",
        help="read the input as this format instead of detecting it",
    )
    parser.add_argument(
        "--box",
        type=shape,
        metavar="RxC",
        help="box shape, e.g. 2x3 for a 6x6 board with 2-row, 3-column boxes",
    )


def scale_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="worker processes (default 1: this process; 0: every core)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on an existing Dask cluster, e.g. tcp://10.0.0.5:8786 (needs the [dask] extra)",
    )


def backend_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--backend",
        default=None,
        metavar="NAME",
        help=f"one of {', '.join(registry.names())} (default: the fastest available, see "
        f"'sudoku backends'; {registry.REFERENCE} is the reference)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="give up on a puzzle after this many seconds",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        type=option,
        help="a backend option, e.g. encoding=minimal (repeatable)",
    )


def shape(text: str) -> Shape:
    try:
        return Shape.parse(text)
    except InputError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def option(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE")
    return key.strip(), value.strip()
