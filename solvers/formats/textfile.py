"""A file's bytes as text: UTF-8 unless a byte-order mark says UTF-16 or UTF-32 (Windows
Notepad's "Unicode" is UTF-16 with its mark), so a puzzle saved so reads as it shows.

An undecodable byte ``b`` is read as the character ``BYTE_BASE + b`` (plane 16's private use
area, which no puzzle uses), one character a byte: a message can then name it as the byte it
is (``UNDECODABLE`` finds it), and a line's cells are counted as the file holds them."""

from __future__ import annotations

import codecs
import io
import re
from typing import BinaryIO, TextIO

BYTE_BASE = 0x10FF00
BYTE_ERRORS = "sudoku-bytes"  # the codecs error handler reading undecodable bytes so
# a character that stands for an undecodable byte (``BYTE_BASE + byte``)
UNDECODABLE = re.compile("[\U0010ff00-\U0010ffff]")

# UTF-32's little-endian mark starts with UTF-16's: the longer one is tried first
_MARKS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def _as_characters(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeDecodeError):
        raise error
    bad = error.object[error.start : error.end]
    return "".join(chr(BYTE_BASE + byte) for byte in bad), error.end


codecs.register_error(BYTE_ERRORS, _as_characters)


def encoding_of(head: bytes) -> str:
    """The encoding a file's first bytes announce: ``utf-16`` or ``utf-32`` (whose codecs read
    the mark and drop it) for their byte-order marks, else ``utf-8``."""
    return next((name for mark, name in _MARKS if head.startswith(mark)), "utf-8")


def as_text(binary: BinaryIO) -> TextIO:
    """``binary`` read as text in the encoding its first bytes announce; an undecodable byte
    is read as one character that ``UNDECODABLE`` finds, whatever the locale. A stream that cannot
    be peeked at is read as UTF-8 (a UTF-16 one is then refused by the reader, by name)."""
    peek = getattr(binary, "peek", None)
    head = peek(4)[:4] if peek is not None else b""
    return io.TextIOWrapper(binary, encoding=encoding_of(head), errors=BYTE_ERRORS)
