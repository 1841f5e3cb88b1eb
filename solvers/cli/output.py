"""What the commands print: exit statuses, the run's state, tables and progress lines."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable
from typing import TextIO

from solvers.errors import UsageError

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


def worst(*codes: int) -> int:
    return max(codes, key=_SEVERITY.index)


class OutputClosed(Exception):
    """Whoever reads our output has gone (a closed pipe)."""


class OutputFailed(Exception):
    """Our output cannot be written (a full disk, say): the message says why."""


class Run:
    """What one command has seen so far: its exit status, and where messages go."""

    def __init__(self, out: TextIO, err: TextIO) -> None:
        self.out, self.err, self.status = out, err, EXIT_OK

    def emit(self, text: str) -> None:
        self.write(text + "\n")

    def write(self, text: str) -> None:
        """Output as it is; a closed pipe or a failed write is raised as such."""
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
        print(f"sudoku: {text}", file=self.err, flush=True)
        self.status = worst(self.status, status)

    def note(self, text: str) -> None:
        """A remark on stderr that changes nothing about the run's outcome."""
        print(f"sudoku: {text}", file=self.err, flush=True)

    def end(self, status: int) -> None:
        self.status = worst(self.status, status)

    def table(self, rows: list, numbers_right: bool = True) -> None:
        for line in aligned(rows, numbers_right):
            self.emit(line)

    def throughput(self) -> Callable[[int, float], None] | None:
        """A progress line with throughput on a terminal; nothing when stderr is not one."""
        if not self.err.isatty():
            return None

        def show(done: int, seconds: float) -> None:
            rate = done / seconds if seconds > 0 else 0.0
            print(f"\r{done} puzzles, {rate:,.0f} per second", end="", file=self.err, flush=True)

        return show

    def progress(self, label: str) -> Callable[[int, int], None] | None:
        """A progress line ``label done/total`` on a terminal; nothing when it is not one."""
        if not self.err.isatty():
            return None

        def show(done: int, total: int) -> None:
            end = "\n" if done == total else ""
            print(f"\r{label} {done}/{total}", end=end, file=self.err, flush=True)

        return show


def writable(path: str, option: str) -> str:
    """``path`` if a file can be written there, checked before any work: its folder must
    exist and take files; UsageError naming the option otherwise."""
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
    """Open ``path`` for appending, as the one test that holds for every file system (/sys
    and /proc refuse files that their folders' modes would allow); a file that was not there
    is removed again."""
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
    """Rows of cells as lines of columns: the first column to the left, the others to the
    right when they hold numbers; trailing blanks trimmed."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.rjust(w) if i and numbers_right else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]
