"""What the commands print: exit statuses, the run's state, tables and progress bars."""

from __future__ import annotations

import contextlib
import ctypes
import io
import json
import os
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TextIO

from solvers.base.errors import UsageError
from solvers.run.answer import Answer, Status

if TYPE_CHECKING:
    from tqdm import tqdm

    from solvers.formats.boards import Puzzle

EXIT_OK = 0
EXIT_UNSOLVABLE = 1
EXIT_BAD_INPUT = 2
EXIT_TIMEOUT = 3
EXIT_DISAGREE = 4
EXIT_WRONG_ANSWER = 5
EXIT_REGRESSION = 6  # compare --against: a backend got significantly slower or lost puzzles
# When puzzles end differently, the exit status is the most serious of them.
_SEVERITY = [
    EXIT_OK,
    EXIT_UNSOLVABLE,
    EXIT_TIMEOUT,
    EXIT_REGRESSION,
    EXIT_DISAGREE,
    EXIT_BAD_INPUT,
    EXIT_WRONG_ANSWER,
]

EXIT_STATUSES = """\
exit status: 0 every puzzle solved; 1 at least one has no solution; 3 at least one timed out;
2 bad input or usage (2 wins over 3, which wins over 1); 5 a backend returned a wrong answer."""


# A run quicker than this shows no progress at all: a single board, or a small file, stays as
# clean on a terminal as on a pipe.
DELAY_SECONDS = 0.5


def worst(*codes: int) -> int:
    return max(codes, key=_SEVERITY.index)


@contextlib.contextmanager
def answers_apart(out: TextIO) -> Iterator[TextIO]:
    """Within, the answers go to a descriptor of their own and descriptor 1 points at stderr:
    an engine that prints (HiGHS's debug lines from C, here or in a worker) cannot mix its text
    into the answers. ``out`` that is not the process's standard output is handed back."""
    try:
        own = out is sys.stdout and out.fileno() == 1
    except (AttributeError, ValueError, io.UnsupportedOperation):
        own = False
    if not own:
        yield out
        return
    out.flush()
    answers_fd = os.dup(1)
    try:
        os.dup2(2, 1)
    except OSError:  # stderr closed: engines' text goes nowhere
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    answers = open(  # noqa: SIM115
        answers_fd, "w", encoding=out.encoding, errors=out.errors, closefd=False
    )
    try:
        yield answers
    finally:
        with contextlib.suppress(OSError):
            answers.flush()
        # what a C library buffered goes to stderr, not after the answers
        with contextlib.suppress(OSError, AttributeError, TypeError):
            ctypes.CDLL(None).fflush(None)
        os.dup2(answers_fd, 1)
        os.close(answers_fd)


def progress_wanted(err: TextIO) -> bool:
    """Whether progress goes to ``err``: a terminal, outside CI (whose logs keep every \\r)."""
    isatty = getattr(err, "isatty", None)
    return bool(isatty and isatty()) and not os.environ.get("CI")


class OutputClosed(Exception):
    """Whoever reads our output has gone (a closed pipe)."""


class OutputFailed(Exception):
    """Our output cannot be written (a full disk, say): the message says why."""


class Run:
    """What one command has seen so far: its exit status, and where messages go."""

    def __init__(self, out: TextIO, err: TextIO) -> None:
        self.out, self.err, self.status = out, err, EXIT_OK
        self.bar: tqdm | None = None
        # Answers written to the terminal the bar is drawn on clear the bar first.
        self._shared_terminal = progress_wanted(err) and getattr(out, "isatty", bool)()

    def emit(self, text: str) -> None:
        self.write(text + "\n")

    def write(self, text: str) -> None:
        if self._shared_terminal:
            self._clear_bar()
        try:
            self.out.write(text)
            self.out.flush()
        except BrokenPipeError:
            raise OutputClosed from None
        except OSError as error:
            raise OutputFailed(f"cannot write the output: {error.strerror}") from None

    def emit_json(self, record: dict) -> None:
        self.emit(json.dumps(record))

    def warn(self, text: str, status: int) -> None:
        self.note(text)
        self.end(status)

    def note(self, text: str) -> None:
        """A remark on stderr that changes nothing about the run's outcome."""
        try:
            self._clear_bar()
            print(f"sudoku: {text}", file=self.err, flush=True)
        except (OSError, ValueError):
            self._lose_stderr()

    def _lose_stderr(self) -> None:
        """Stderr cannot be written (``2> >(head -1)`` has closed it, or its disk is full): the
        messages stop and the run goes on, its answers on stdout and its exit status whole.
        Descriptor 2 itself goes to /dev/null, so neither what stays buffered (flushed at exit)
        nor an engine's or a later worker's text meets the closed pipe."""
        self.bar = None  # dropped, not closed: closing draws on the closed stderr
        with contextlib.suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.err.fileno())
            os.close(devnull)
        self.err = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115

    def end(self, status: int) -> None:
        self.status = worst(self.status, status)

    def table(self, rows: list, numbers_right: bool = True) -> None:
        for line in aligned(rows, numbers_right):
            self.emit(line)

    def progress_bar(self, total: int | None, label: str | None = None) -> tqdm | None:
        """A progress bar on a terminal (``end_progress`` ends it); None elsewhere, or in CI."""
        self.end_progress()
        if progress_wanted(self.err):
            from tqdm import tqdm  # here: a command that shows no progress does not pay for it

            self.bar = tqdm(
                total=total,
                desc=label,
                unit=" puzzles",
                unit_scale=False,
                file=self.err,
                delay=DELAY_SECONDS,
                dynamic_ncols=True,
                leave=True,
            )
        return self.bar

    def end_progress(self) -> None:
        if self.bar is not None:
            bar, self.bar = self.bar, None
            bar.close()

    def progress(self, label: str) -> Callable[[int, int], None] | None:
        """``show(done, total)`` for one task of a known size: a bar on a terminal, ended when
        ``done`` reaches ``total``; None when stderr is not a terminal."""
        if not progress_wanted(self.err):
            return None
        bar = self.progress_bar(None, label)

        def show(done: int, total: int) -> None:
            if bar is not self.bar:
                return  # ended already (the run went on to something else)
            bar.total = total
            bar.update(done - bar.n)
            if done >= total:
                self.end_progress()

        return show

    def _clear_bar(self) -> None:
        if self.bar is not None:
            self.bar.clear()


def counted(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def make_folder(path: str, option: str) -> None:
    """The folder ``path`` a command fills (``encode --output-dir``) made with its parents, as
    an output folder is by ``pip download -d`` or ``python -m build -o``; UsageError naming the
    option if it cannot. A FILE an option names is another matter (``writable``): its folder
    must be there, as for ``curl -o`` or ``gcc -o``, so a typo in it makes no folder."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as error:
        raise UsageError(f"cannot create {option} {path}: {error.strerror}") from None


def writable(path: str, option: str) -> str:
    """``path`` if a file can be written there, checked before any work; UsageError naming
    the option otherwise (a folder that is not there is not made: ``make_folder``)."""
    if not path:
        raise UsageError(f"cannot write {option}: the path is empty")
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise UsageError(f"cannot write {option} {path}: it is a folder")
    if not os.path.isdir(folder):
        raise UsageError(f"cannot write {option} {path}: no folder {folder}")
    if not os.access(folder, os.W_OK):
        raise UsageError(f"cannot write {option} {path}: the folder {folder} is not writable")
    _try_open(path, option)
    return path


def _try_open(path: str, option: str) -> None:
    """Open ``path`` for appending, the one test that holds on every file system (/sys and
    /proc refuse files their folders' modes allow); a file that was not there is removed."""
    existed = os.path.lexists(path)
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as error:
        raise UsageError(f"cannot write {option} {path}: {error.strerror}") from None
    if not existed:
        with contextlib.suppress(OSError):
            os.remove(path)


def aligned(rows: list, numbers_right: bool = True) -> list[str]:
    """Rows of cells as lines of columns: the first to the left, the others to the right when
    ``numbers_right``."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.rjust(w) if i and numbers_right else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]


def report_unsolved(run: Run, item: Puzzle, answer: Answer, timeout: float | None) -> None:
    """A line on stderr for a puzzle that was not solved."""
    where = "" if item.format not in ("line", "fpuzzles") else f"line {item.line}: "
    if answer.status is Status.UNSOLVABLE:
        run.warn(f"{where}no solution", EXIT_UNSOLVABLE)
    elif answer.status is Status.TIMEOUT:
        # with no --timeout, an engine that gave up without an answer (z3's "unknown")
        said = (
            "no answer: the engine gave up" if timeout is None else f"timeout after {timeout:g} s"
        )
        run.warn(f"{where}{said}", EXIT_TIMEOUT)
    elif answer.status is Status.WRONG:
        run.warn(f"{where}BUG: {answer.detail}", EXIT_WRONG_ANSWER)
    elif answer.status in (Status.ERROR, Status.UNSUPPORTED):
        run.warn(f"{where}{answer.detail}", EXIT_BAD_INPUT)
