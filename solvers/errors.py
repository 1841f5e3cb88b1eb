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

    def at_line(self, line: int) -> InputError:
        """The same error, located at ``line`` of a many-puzzle file."""
        return type(self)(self.message, line, self.column)


class ConflictingGivens(InputError):
    """Givens that break a rule before any search: a unit holds a value twice."""


class UsageError(SudokuError):
    """A request the library cannot honour: an unknown backend or option."""


class BackendUnavailable(SudokuError):
    """A registered backend whose library cannot be imported here."""


class WrongAnswer(SudokuError):
    """A backend returned a grid that breaks the rules or the givens: a bug, never a result."""


class SolveTimeout(SudokuError):
    """``count_solutions`` ran out of time before it could give an exact answer."""


class BackendCrashed(SudokuError):
    """A backend's worker process died (a crash inside a C extension, say) before answering."""
