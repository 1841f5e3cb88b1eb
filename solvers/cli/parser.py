"""The ``sudoku`` parser: every command by the module that declares it, only its command's
module imported (start-up); the options the commands share are ``arguments``'."""

from __future__ import annotations

import argparse
import importlib

from solvers.cli.arguments import Parser

# Each command by the module that declares it, in the order of the help: its namesake, but for
# the listings, which share one. The modules are named in full: a command is imported only
# when it is the one run (start-up), and this table is every module the parser reaches.
COMMANDS = {
    "solve": "solvers.cli.solve",
    "count": "solvers.cli.count",
    "check": "solvers.cli.check",
    "encode": "solvers.cli.encode",
    "convert": "solvers.cli.convert",
    "generate": "solvers.cli.generate",
    "compare": "solvers.cli.compare",
    "report": "solvers.cli.report",
    "strength": "solvers.cli.strength",
    "explain": "solvers.cli.explain",
    "rate": "solvers.cli.rate",
    "candidates": "solvers.cli.candidates",
    "datasets": "solvers.cli.listing",
    "backends": "solvers.cli.listing",
    "kinds": "solvers.cli.listing",
}


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
    named = COMMANDS.get(argv[0]) if argv else None
    modules = dict.fromkeys(COMMANDS.values()) if named is None else [named]
    parser = Parser(
        prog="sudoku",
        description="Solve, count and cross-check Sudoku puzzles with interchangeable backends.",
        epilog="Run 'sudoku COMMAND --help' for each command, with an example.",
    )
    parser.add_argument("-V", "--version", action=_Version)
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")
    for module in modules:
        importlib.import_module(module).add_to(commands)
    return parser
