"""The library's one exception hierarchy. Only the CLI turns these into messages and exit codes."""

from __future__ import annotations


class SudokuError(Exception):
    """Base of every error the library raises on purpose."""


class InputError(SudokuError):
    """A puzzle that cannot be read or cannot be a Sudoku: the message says what and where."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column

    def __str__(self) -> str:
        where = [f"line {self.line}"] if self.line is not None else []
        where += [f"column {self.column}"] if self.column is not None else []
        return f"{', '.join(where)}: {self.message}" if where else self.message

    def __reduce__(self):
        return type(self), (self.message, self.line, self.column)

    def at_line(self, line: int) -> InputError:
        """The same error, located at ``line`` of a many-puzzle file."""
        return type(self)(self.message, line, self.column)


class UsageError(SudokuError):
    """A request the library cannot honour: an unknown backend or option, a bad argument."""


class BackendUnavailable(SudokuError):
    """A registered backend whose library cannot be imported here."""


class WrongAnswer(SudokuError):
    """A backend returned a grid that breaks the rules or the givens: a bug, never a result."""


class SolveTimeout(SudokuError):
    """The deadline passed before an answer: raised inside a backend to stop its search (with
    the counters gathered so far), and by ``count_solutions`` when it cannot give a count."""

    def __init__(self, message: str = "deadline passed", stats: dict | None = None) -> None:
        super().__init__(message)
        self.stats = dict(stats or {})

    def __reduce__(self):
        return type(self), (str(self), self.stats)


class BackendCrashed(SudokuError):
    """A backend failed without answering: its worker process died (a crash inside a C
    extension, say), or its code raised something that is not one of the library's errors."""


class EngineError(BackendCrashed):
    """An engine ended without an answer for a reason of its own, not the deadline (a solver
    error, a limit of its own): the message names the engine and its status."""


class OutputError(SudokuError):
    """A file the library was asked to write could not be written whole (a full disk, say):
    the message names the file and why; what the file held before is kept."""
