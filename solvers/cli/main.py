"""`sudoku`'s entry: the command read and run (``main``), the library's exceptions turned into
one-line messages and exit statuses, and Ctrl-C, SIGTERM and SIGHUP into an orderly stop
(the package's docstring says how)."""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, TextIO

from solvers.base import signals

if TYPE_CHECKING:
    from solvers.cli.output import Run

ENDING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
STOPPING_SIGNALS = (signal.SIGINT, *ENDING_SIGNALS)

# No command multiplies matrices, but NumPy's BLAS starts a thread per core when it loads, and
# each spins a while before it sleeps: on 16 cores a second of CPU per process (docs/native.md,
# "On a quiet 16-core machine"). One thread, unless the user chose otherwise; set before
# NumPy loads.
for _variable in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")


class Ended(BaseException):
    """A signal asked the run to end (raised from its handler, so the run unwinds)."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


def main(
    argv: list[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """The command (``argv``: the process's own when None) writing to ``out`` and ``err``:
    its exit status. A signal from the first line here on ends it with 128 + its number and
    no traceback: the handlers go in before the commands' modules load and the arguments are
    parsed (docs/reliability.md, "Gaps")."""
    try:
        with _ending_signals(argv is None):
            return _command(argv, out, err)
    except (KeyboardInterrupt, Ended) as stop:  # before the run began, or as it ended
        return 128 + getattr(stop, "number", signal.SIGINT)
    except Exception:
        if signals.stopped_by is None:
            raise
        return 128 + signals.stopped_by  # a library's own exception made of the stop's


def _command(argv: list[str] | None, out: TextIO | None, err: TextIO | None) -> int:
    # imported here, under main's handlers: a signal while they load ends the run cleanly
    from solvers.base.errors import SudokuError, WrongAnswer
    from solvers.cli.output import (
        EXIT_BAD_INPUT,
        EXIT_OK,
        EXIT_WRONG_ANSWER,
        OutputClosed,
        OutputFailed,
        Run,
        answers_apart,
    )
    from solvers.cli.parser import build_parser
    from solvers.run.children import adopt_orphans, end_descendants

    out, err = out or sys.stdout, err or sys.stderr
    if err is None:  # stderr closed: messages are lost, but the exit status is not
        err = open(os.devnull, "w")  # noqa: SIM115
    parser = build_parser(sys.argv[1:] if argv is None else argv)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse has printed its own one-line usage error
        return EXIT_BAD_INPUT if exit_.code else EXIT_OK
    args.argv = sys.argv[1:] if argv is None else list(argv)  # as typed, for the records
    if out is None or getattr(out, "closed", False):
        print("sudoku: standard output is closed: the answers would be lost", file=err)
        return EXIT_BAD_INPUT
    # a command that runs engines keeps their prints out of its answers; the others write
    # where they are told (-o /dev/stdout is the standard output)
    apart = answers_apart(out) if getattr(args, "engines", False) else contextlib.nullcontext(out)
    program = argv is None and getattr(args, "engines", False)  # not a caller's process
    if program:
        adopt_orphans()
    with apart as out:
        run = Run(out, err)
        try:
            try:
                args.run(args, run)
            except Exception:
                if signals.stopped_by is not None:  # the stop, whatever a library made of it
                    raise Ended(signals.stopped_by) from None
                raise
        except WrongAnswer as error:
            run.warn(f"BUG: {error}", EXIT_WRONG_ANSWER)
        except SudokuError as error:
            run.warn(str(error), EXIT_BAD_INPUT)
        except OutputClosed:
            return _quiet_end(out, run)
        except OutputFailed as error:
            run.warn(str(error), EXIT_BAD_INPUT)
        except OSError as error:
            run.warn(_os_failure(error), EXIT_BAD_INPUT)
        except (KeyboardInterrupt, Ended) as stop:
            if program:
                end_descendants()
            return 128 + getattr(stop, "number", signal.SIGINT)
    return run.status


WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EPIPE}


def _os_failure(error: OSError) -> str:
    if error.errno in WRITE_ERRORS:
        return f"cannot write {error.filename or 'the output'}: {error.strerror}"
    said = f"cannot read {_path_said(error.filename)}: {error.strerror}"
    return said + _board_said(error)


def _board_said(error: OSError) -> str:
    """What a missing FILE of digits and dots alone is, read as a board: one cell short of a
    board is a mistyped board far more often than a file's name."""
    name = error.filename if isinstance(error.filename, str) else ""
    if error.errno != errno.ENOENT or len(name) < 16 or name.strip(".0123456789"):
        return ""
    return f" (nor a board: {len(name)} cells, and a line puzzle has N*N for N in 4..25)"


def _path_said(name: object) -> str:
    """A path as a one-line message names it: an empty one said so (it read as 'input'),
    one of thousands of characters (a board mistyped as FILE) cut to its start."""
    if name is None:
        return "input"
    name = os.fsdecode(name) if isinstance(name, bytes) else str(name)
    if not name:
        return "'' (an empty path)"
    if len(name) > 100:
        return f"{name[:40]}... (a path of {len(name):,} characters)"
    return name


def _quiet_end(out: TextIO, run: Run) -> int:
    """The reader of our output went away (``| head -1``): a normal end, as for other Unix
    tools; what is still buffered goes nowhere, and no error is printed at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, out.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (a test's StringIO)
    return run.status


@contextlib.contextmanager
def _ending_signals(program: bool) -> Iterator[None]:
    """Within: SIGTERM and SIGHUP raise Ended in the main thread, Ctrl-C KeyboardInterrupt;
    the first alone, since the run is then ending and a second signal must not break its
    clean-up with a traceback. The program (not a caller's ``main``) goes on ignoring them
    as it exits."""
    global _program, _pid
    signals.stopped_by, _program, _pid = None, program, os.getpid()
    signals.when_held = _arm
    old = {}
    for number in STOPPING_SIGNALS:
        if program and number == signal.SIGHUP and signal.getsignal(number) == signal.SIG_IGN:
            continue  # ignored from the start (``nohup``): the run is to outlive its terminal
        with contextlib.suppress(ValueError):  # not the main thread: leave signals alone
            old[number] = signal.signal(number, _stop)
    restore = signals.redeliver_swallowed(_stop, (KeyboardInterrupt, Ended))
    try:
        yield
    finally:
        restore()
        signals.when_held = None  # a library caller's later imports are its own
        stopped = signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
        if not (program and stopped):
            for number, handler in old.items():
                signal.signal(number, handler)


_program = False  # the handlers are the program's (``main`` of the ``sudoku`` command)
_pid = 0  # the process they are for


def _stop(number: int, _frame) -> None:
    if os.getpid() != _pid:
        # a child forked with them in, before it put in its own (``become_child``): Ctrl-C is
        # the parent's to act on, SIGTERM and SIGHUP end the child at once; a traceback of
        # the child's (a KeyboardInterrupt in a pool worker's start) is no part of the run
        if number == signal.SIGINT:
            return
        os._exit(128 + number)
    for each in STOPPING_SIGNALS:
        signal.signal(each, signal.SIG_IGN)
    _arm(number)
    if number == signal.SIGINT:
        raise KeyboardInterrupt
    raise Ended(number)


def _arm(number: int) -> None:
    """The run is stopping (a handler ran, or a signal was held off while a library loads):
    the first signal is the one its status names, and a program ends by the backstop."""
    if signals.stopped_by is None:
        signals.stopped_by = number
        # the program's own process alone: a worker forked with the hook in (as ``_stop``
        # says) leaves a Ctrl-C to its parent, so no backstop ends it 1.5 s on
        if _program and os.getpid() == _pid:
            signals.backstop(number, _end_descendants)


def _end_descendants() -> None:
    from solvers.run.children import end_descendants

    end_descendants(0.2)
