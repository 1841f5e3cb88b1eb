"""What the commands' parsers share: a parser that says a usage error in one line, the input,
scale and backend options, and the readers of their values (seconds, whole numbers, shapes,
addresses, backend options)."""

from __future__ import annotations

import argparse
import re
import sys

from solvers.backends import registry
from solvers.backends.contract import MAX_LIMIT
from solvers.base.deadline import MAX_SECONDS, timeout_of
from solvers.base.errors import InputError, UsageError
from solvers.cli.output import EXIT_STATUSES
from solvers.formats.boards import FORMATS
from solvers.model.geometry import Shape

_ADDRESS = re.compile(r"([a-z]+://)?[\w.\-\[\]:]+:[0-9]{1,5}")

_ADDRESS = re.compile(r"([a-z]+://)?[\w.\-\[\]:]+:[0-9]{1,5}")


class _Names:
    """Every backend's name, read only when a help is printed: reading the installed packages'
    entry points (``registry.names``) would slow every command's start-up."""

    def __str__(self) -> str:
        return ", ".join(registry.names())


class Parser(argparse.ArgumentParser):
    """argparse, with a usage error said in one line (and where to find the help)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see '{self.prog} --help')\n")

    def parse_args(self, args=None, namespace=None):  # type: ignore[override]
        found = super().parse_args(args, namespace)
        if said := unused(found):
            name = (sys.argv[1:] if args is None else args)[0]  # the command: it parsed
            self.exit(2, f"{self.prog} {name}: {said} (see '{self.prog} {name} --help')\n")
        return found


def unused(args: argparse.Namespace) -> str | None:
    """The first option given that would change nothing with the others given, or None: an
    option silently ignored is a mistake a user does not see."""
    jobs, scheduler = getattr(args, "jobs", 1), getattr(args, "scheduler", None)
    if scheduler and jobs != 1:
        return f"--jobs {jobs} and --scheduler: the cluster's workers run the puzzles; give one"
    if getattr(args, "json", None) is True and getattr(args, "format", "auto") != "auto":
        return f"--format {args.format} and --json: the answers are written as JSON; give one"
    if getattr(args, "shuffle", None) == 0 and getattr(args, "seed", None) is not None:
        return f"--seed {args.seed} without --shuffle: the seed is the shuffles'; give --shuffle K"
    return None


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


def input_options(parser: argparse.ArgumentParser, output: bool = False) -> None:
    """FILE, how to read it, and ``--format`` for a command that writes boards (``output``)."""
    parser.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE",
        help="a board, a line-format file, f-puzzles or Interactive Sudoku Solver links (or "
        "f-puzzles JSON), or a shipped set's name; "
        "'-' or nothing reads standard input",
    )
    if output:
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
        type=whole(0),
        default=1,
        metavar="N",
        help="worker processes (default 1: this process; 0: every core; never more than the "
        "puzzles)",
    )
    parser.add_argument(
        "--scheduler",
        type=address,
        metavar="ADDRESS",
        help="run on an existing Dask cluster, e.g. tcp://10.0.0.5:8786 (needs the [dask] extra)",
    )


def backend_options(parser: argparse.ArgumentParser) -> None:
    backend = parser.add_argument(
        "--backend",
        default=None,
        metavar="NAME",
        help="one of %(names)s (default: the fastest available, see "
        f"'sudoku backends'; {registry.REFERENCE} is the reference)",
    )
    backend.names = _Names()  # argparse fills in %(names)s from the action's attributes
    parser.add_argument(
        "--timeout",
        type=seconds,
        metavar="SECONDS",
        help="give up on a puzzle after this many seconds",
    )
    option_argument(parser, "a backend option, e.g. encoding=minimal (repeatable)")


def option_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """``--option KEY=VALUE``, repeatable, read as (key, value) pairs (``options_given``)."""
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", type=option, help=help
    )


def options_given(pairs: list[tuple[str, str]]) -> dict[str, str]:
    """The ``--option`` pairs as a dict; UsageError for a key given twice."""
    options: dict[str, str] = {}
    for key, value in pairs:
        if key in options:
            raise UsageError(f"--option {key} is given twice ({options[key]}, {value})")
        options[key] = value
    return options


def seconds(text: str) -> float:
    try:
        if not text.isascii():  # float() reads any script's digits
            raise ValueError(text)
        return timeout_of(float(text))
    except (ValueError, UsageError):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number of seconds above 0 and at most {MAX_SECONDS:g}"
        ) from None


def whole(least: int, most: int = MAX_LIMIT):

    def parse(text: str) -> int:
        try:
            if not text.isascii():  # int() reads any script's digits
                raise ValueError(text)
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not least <= value <= most:
            raise argparse.ArgumentTypeError(f"{value} is not between {least} and {most}")
        return value

    return parse


def address(text: str) -> str:
    if not _ADDRESS.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a scheduler address such as tcp://10.0.0.5:8786"
        )
    return text.strip()


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
