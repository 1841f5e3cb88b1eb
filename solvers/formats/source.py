"""A source's numbered content lines, as every format reads them: blank and ``#`` comment lines
skipped, ``# rules:`` lines taken in, a byte-order mark accepted, and each line that no puzzle
can be (longer than any puzzle, holding a NUL byte or an undecodable byte) refused by name.

A refused line is a problem of its own and reading goes on, except where a puzzle is read whole
from several lines (an f-puzzles JSON document, ``whole``): there the line goes on as a
``Refused`` text, and the document that holds it is refused with it, never read without it. A
UTF-16 file without its mark, a line of NUL bytes with no end (/dev/zero), or a bad rules line
stops reading or marks the puzzles under it.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from typing import TextIO

from solvers.base.errors import InputError, UsageError
from solvers.formats import variant_text
from solvers.formats.textfile import UNDECODABLE, undecodable

# Characters of the longest puzzle in any form: an f-puzzles JSON document or link
# (fpuzzles_link.MAX_JSON), a grid with its sections; a line puzzle is held to lines.MAX_LINE.
MAX_PUZZLE = 1_000_000
_RULES = re.compile(r"#\s*rules\s*:(.*)", re.IGNORECASE)
_RULES_LIKE = re.compile(r"#\s*rules?\b\s*[:=]?(.*)", re.IGNORECASE)  # '# rule: x', '# rules x'
# A bad ``# rules:`` line is its own error; the puzzles under it, up to the next rules line,
# are each an error too (their rules are unknown), and the rest of the file is read as usual.
UNREAD = "unread rules line "


class Overlong(str):
    """The first characters of a line longer than any puzzle (``binary``: they hold a NUL
    byte, as /dev/zero's do: no text file)."""

    binary: bool


def bounded_lines(handle: TextIO, longest: int) -> Iterator[str]:
    """A text file's lines, none held longer than ``longest`` + 1 characters: a longer line
    is an ``Overlong`` as soon as its first ``longest`` + 1 characters are read, and its rest
    is read in pieces and dropped when the next line is asked for, so that a file with no line
    break (a huge download cut short) costs no memory and its message comes at once."""
    while line := handle.readline(longest + 1):
        if len(line) > longest and not line.endswith("\n"):
            start = Overlong(line)
            start.binary = "\x00" in line
            yield start
            while (rest := handle.readline(longest)) and not rest.endswith("\n"):
                pass
            continue
        yield line


class TooLong(InputError):
    """A line or JSON document past every limit, refused as soon as it passes it: its end,
    and so what comes after it, may be long in coming (a source fed forever), so a reader that
    reads ahead stops at it and answers the puzzles before it first."""


class Refused(str):
    """A line of a puzzle read whole that no puzzle can hold, with why (``error``)."""

    error: InputError


def refused(text: str, error: InputError) -> Refused:
    found = Refused(text)
    found.error = error
    return found


def under_unread_rules(rules: frozenset[str], number: int) -> InputError | None:
    """The error of the puzzle at line ``number`` when ``rules`` are an unreadable line's."""
    marks = [name for name in rules if name.startswith(UNREAD)]
    if not marks:
        return None
    unread = marks[0].removeprefix(UNREAD)
    return InputError(f"under the rules line {unread}, which cannot be read", number)


def _misspelled_rules(text: str, number: int) -> InputError | None:
    """The error of a comment that reads as a rules header misspelled (``# rule: x``,
    ``# rules x``, ``# rules = x``): read as a comment, its puzzles would be solved as classic
    ones. A comment whose words after ``rule`` are no rules (``# rules of thumb``) is one."""
    found = _RULES_LIKE.fullmatch(text)
    if found is None:
        return None
    try:
        variant_text.rule_names(found.group(1), number)
    except InputError:
        return None
    shown = text if len(text) <= 60 else text[:57] + "..."
    rules = found.group(1).strip()
    fixed = f"# rules: {rules}" if len(rules) <= 40 else "# rules: ..."
    return InputError(f"{shown!r} looks like a rules header: write {fixed!r}", number)


def line_problem(raw: str, number: int) -> InputError | None:
    """Why line ``number`` can be no part of a puzzle, if it cannot."""
    if isinstance(raw, Overlong) or len(raw) > MAX_PUZZLE:
        return TooLong(f"over {MAX_PUZZLE:,} characters: no puzzle is that long", number)
    if "\x00" in raw:
        return InputError("a NUL byte: puzzles are plain text", number)
    if bad := UNDECODABLE.search(raw):
        message = f"{undecodable(bad.group())}: save the file as UTF-8"
        return InputError(message, number, bad.start() + 1)
    return None


class Source:
    """Numbered content lines (see the module's docstring). ``whole``: refused lines go on as
    ``Refused`` texts (set once an f-puzzles source is known)."""

    def __init__(self, lines: Iterable[str]) -> None:
        bounded = bounded_lines(lines, MAX_PUZZLE) if isinstance(lines, io.TextIOBase) else lines
        self._lines = enumerate(bounded, start=1)
        self._pending: list[tuple[int, str, str, list[InputError]]] = []  # read ahead
        self.rules: frozenset[str] = frozenset()
        self.problems: list[InputError] = []  # found since the caller last took them
        self.error: InputError | None = None  # why reading stopped early, if it did
        self.refused = 0  # lines refused before the first content line
        self.in_grid = False  # past a grid's first line: a rules line there is misplaced
        self.whole = False
        self.raw = ""  # the last content or comment line read, as it came
        self.read = 0  # characters of the lines read so far (of an over-long one, its start)
        self._stop_at: int | None = None  # reading stops past so many (``block``)
        self._past: int | None = None  # the line that went past them

    def next_content(self, eager: bool = False) -> tuple[int, str] | None:
        """The next content line, None at the end; ``eager``: (its number, "") as soon as a
        line is refused, so that its message need not wait for the next puzzle."""
        if self._pending:
            number, text, self.raw, problems = self._pending.pop(0)
            self.problems += problems
            return number, text
        if self.error:
            return None
        for number, raw in self._lines:
            self.read += len(raw)
            if self._stop_at is not None and self.read > self._stop_at:
                self._past = number
                return None
            text = self._content(number, raw)
            if self.error:
                return None
            if text:
                return number, text
            if eager and self.problems:
                return number, ""
        return None

    def look_ahead(self, until, most: int) -> list[tuple[int, str]]:
        """Content lines read ahead, up to the first for which ``until(text)`` holds or
        ``most`` of them; they are read again, with their problems, by ``next_content``."""
        seen: list[tuple[int, str, str, list[InputError]]] = []
        while len(seen) < most and (item := self.next_content()) is not None:
            seen.append((*item, self.raw, self.take_problems()))
            if until(item[1]):
                break
        self._pending = seen + self._pending
        return [(number, text) for number, text, _, _ in seen]

    def _content(self, number: int, raw: str) -> str:
        if not isinstance(raw, str):
            raise UsageError(
                f"line {number} is {type(raw).__name__}, not str: open the file in text mode "
                "(encoding='utf-8')"
            )
        if number == 1:
            if raw.startswith("\ufffd\ufffd") and "\x00" in raw:  # FF FE or FE FF, then NULs
                self.error = InputError("this is a UTF-16 file; save it as UTF-8", number)
                return ""
            if not isinstance(raw, Overlong):
                raw = raw.removeprefix("\ufeff")
        if (problem := line_problem(raw, number)) is not None:
            if isinstance(raw, Overlong) and raw.binary:  # /dev/zero: no line end will come
                binary = f"NUL bytes and no line end in {MAX_PUZZLE:,} characters"
                self.error = InputError(f"{binary}: this is no text file", number)
                return ""
            if not self.whole:
                self.problems.append(problem)
                return ""
            self.raw = refused(raw.rstrip("\n"), problem)
            return self.raw.strip() or "\x00"
        text = raw.strip()
        rules = _RULES.fullmatch(text)
        if rules and self.in_grid:
            message = "a rules line inside a puzzle: put it before the puzzle's first line"
            self.problems.append(InputError(message, number))
            return ""
        if rules:
            try:
                self.rules = variant_text.rule_names(rules.group(1), number)
            except InputError as error:
                self.problems.append(error)
                self.rules = frozenset({f"{UNREAD}{number}"})
            return ""
        if text.startswith("#") and (misspelled := _misspelled_rules(text, number)):
            self.problems.append(misspelled)
            self.rules = frozenset({f"{UNREAD}{number}"})
            return ""
        self.raw = raw
        return "" if text.startswith("#") else text

    def take_problems(self) -> list[InputError]:
        found, self.problems = self.problems, []
        return found

    def leftover(self) -> list[InputError]:
        """The problems not taken yet, then why reading stopped, if it did."""
        return self.take_problems() + ([self.error] if self.error else [])

    def chain(self, first: tuple[int, str], eager: bool = False) -> Iterator[tuple[int, str]]:
        yield first
        while (item := self.next_content(eager)) is not None:
            yield item

    def block(self, first: tuple[int, str], what: str) -> Iterator[tuple[int, str]]:
        """``chain`` for the one puzzle a source holds written over several lines (a grid with
        its sections): an InputError naming its first line as soon as the lines from there
        (blank, comment and refused ones too) pass ``MAX_PUZZLE`` characters, so that a grid fed
        forever costs no memory and reading stops with a message."""
        self._stop_at = self.read - len(self.raw) + MAX_PUZZLE
        yield from self.chain(first)
        if self._past is not None:
            raise InputError(
                f"{what} that runs past {MAX_PUZZLE:,} characters (at line {self._past:,}) "
                "starts here: no puzzle is that long",
                first[0],
            )

    def chain_indented(self, first: tuple[int, str]) -> Iterator[tuple[int, str]]:
        """``chain`` with each line's leading whitespace kept (``first`` the last line read),
        by which a JSON document's first line is told from its nested ones; a refused line
        stays ``Refused``."""
        yield first[0], _rstripped(self.raw)
        while (item := self.next_content()) is not None:
            yield item[0], _rstripped(self.raw)


def _rstripped(raw: str) -> str:
    text = raw.rstrip()
    return refused(text, raw.error) if isinstance(raw, Refused) else text
