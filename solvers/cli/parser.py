"""The ``sudoku`` parser: each command is the module of its name in ``solvers.cli.commands``,
and only the one a command line runs is imported (start-up); the options the commands share
are ``arguments``'."""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

from solvers.cli.arguments import Parser

# The help lists these first, in this order (the everyday ones, then the comparisons, then what
# can be used); a command added to the folder and not named here comes after them.
HELP_ORDER = [
    "solve",
    "count",
    "check",
    "encode",
    "convert",
    "generate",
    "compare",
    "report",
    "strength",
    "explain",
    "rate",
    "candidates",
    "datasets",
    "backends",
    "kinds",
]
COMMANDS_FOLDER = Path(__file__).resolve().parent / "commands"


def commands() -> list[str]:
    """Every command: a module of ``solvers.cli.commands`` each, found by its file (no import)."""
    found = sorted(p.stem for p in COMMANDS_FOLDER.glob("*.py") if not p.stem.startswith("_"))
    return sorted(found, key=lambda name: (HELP_ORDER + found).index(name))


class _Version(argparse.Action):
    """``--version``, read from the installed package only when asked: importlib.metadata
    would slow every command's start-up."""

    def __init__(self, option_strings, dest, **kwargs) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="show program's version number and exit")  # fmt: skip

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from solvers import __version__

        print(f"{parser.prog} {__version__}")
        parser.exit()


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser of ``argv``: only its command's module is imported (for start-up), or every
    one for the help and the usage errors."""
    every = commands()
    names = [argv[0]] if argv and argv[0] in every else every
    parser = Parser(
        prog="sudoku",
        description="Solve, count and cross-check Sudoku puzzles with interchangeable backends.",
        epilog="Run 'sudoku COMMAND --help' for each command, with an example.",
    )
    parser.add_argument("-V", "--version", action=_Version)
    subparsers = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")
    for name in names:
        importlib.import_module(f"solvers.cli.commands.{name}").add_to(subparsers)
    return parser
