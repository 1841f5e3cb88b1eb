"""The ``sudoku`` command: solve, count, check, encode, generate, compare, and listings.

A thin shell: each command parses its arguments, calls the library and renders what comes
back. Only this package turns the library's exceptions into one-line messages and exit
statuses.
"""

from __future__ import annotations

import sys
from typing import TextIO

from solvers.cli.output import EXIT_BAD_INPUT, EXIT_OK, EXIT_WRONG_ANSWER, Run
from solvers.cli.parser import build_parser
from solvers.errors import SudokuError, WrongAnswer


def main(
    argv: list[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse has printed its own one-line usage error
        return EXIT_BAD_INPUT if exit_.code else EXIT_OK
    args.argv = sys.argv[1:] if argv is None else list(argv)  # as typed, for the records
    run = Run(out, err)
    try:
        args.run(args, run)
    except WrongAnswer as error:
        run.warn(f"BUG: {error}", EXIT_WRONG_ANSWER)
    except SudokuError as error:
        run.warn(str(error), EXIT_BAD_INPUT)
    except OSError as error:
        run.warn(f"cannot read {error.filename or 'input'}: {error.strerror}", EXIT_BAD_INPUT)
    except KeyboardInterrupt:
        return 130
    return run.status
