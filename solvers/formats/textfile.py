"""A file's bytes as text: UTF-8 unless a byte-order mark says UTF-16 or UTF-32 (Windows
Notepad's "Unicode" is UTF-16 with its mark), so a puzzle saved so reads as it shows."""

from __future__ import annotations

import codecs
import io
from collections.abc import Iterator
from typing import BinaryIO, TextIO

# UTF-32's little-endian mark starts with UTF-16's: the longer one is tried first
_MARKS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def encoding_of(head: bytes) -> str:
    """The encoding a file's first bytes announce: ``utf-16`` or ``utf-32`` (whose codecs read
    the mark and drop it) for their byte-order marks, else ``utf-8``."""
    return next((name for mark, name in _MARKS if head.startswith(mark)), "utf-8")


def as_text(binary: BinaryIO) -> TextIO:
    """``binary`` read as text in the encoding its first bytes announce; undecodable bytes
    become U+FFFD (a bad cell of that puzzle alone), whatever the locale. A stream that cannot
    be peeked at is read as UTF-8 (a UTF-16 one is then refused by the reader, by name)."""
    peek = getattr(binary, "peek", None)
    head = peek(4)[:4] if peek is not None else b""
    return io.TextIOWrapper(binary, encoding=encoding_of(head), errors="replace")


def open_text(path: str) -> TextIO:
    """The file at ``path`` as text (``as_text``)."""
    return as_text(open(path, "rb"))


class Overlong(str):
    """The start of a line longer than any puzzle, and the whole line's length."""

    length: int


def bounded_lines(handle: TextIO, longest: int) -> Iterator[str]:
    """A text file's lines, none held longer than ``longest`` + 1 characters: the rest of a
    longer line is read in pieces and counted (an ``Overlong``), so that a file with no line
    break (a huge download cut short, /dev/zero) costs no memory."""
    while line := handle.readline(longest + 1):
        if len(line) > longest and not line.endswith("\n"):
            length = len(line)
            while rest := handle.readline(longest):
                length += len(rest)
                if rest.endswith("\n"):
                    break
            line = Overlong(line)
            line.length = length
        yield line
