"""A file's bytes as text: UTF-8 unless a byte-order mark says UTF-16 or UTF-32 (Windows
Notepad's "Unicode" is UTF-16 with its mark), so a puzzle saved so reads as it shows.

An undecodable byte ``b`` is read as the character ``BYTE_BASE + b`` (plane 16's private use
area, which no puzzle uses), one character a byte, or ``MARKED_BASE + b`` in a file whose mark
said UTF-16 or UTF-32: a message can then name it as the byte it is and the encoding it broke
(``UNDECODABLE`` finds both), and a line's cells are counted as the file holds them."""

from __future__ import annotations

import codecs
import io
import re
from typing import BinaryIO, TextIO

BYTE_BASE = 0x10FF00
MARKED_BASE = 0x10FE00  # in a file read by its UTF-16 or UTF-32 mark
BYTE_ERRORS = "sudoku-bytes"  # the codecs error handler reading undecodable bytes so
MARKED_ERRORS = "sudoku-marked-bytes"  # the same for a file read by its mark
# a character that stands for an undecodable byte (``BYTE_BASE + byte``, ``MARKED_BASE + byte``)
UNDECODABLE = re.compile("[\U0010fe00-\U0010ffff]")

# UTF-32's little-endian mark starts with UTF-16's: the longer one is tried first
_MARKS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def _as_characters(base: int):
    def read(error: UnicodeError) -> tuple[str, int]:
        if not isinstance(error, UnicodeDecodeError):
            raise error
        bad = error.object[error.start : error.end]
        return "".join(chr(base + byte) for byte in bad), error.end

    return read


codecs.register_error(BYTE_ERRORS, _as_characters(BYTE_BASE))
codecs.register_error(MARKED_ERRORS, _as_characters(MARKED_BASE))


def undecodable(character: str) -> str:
    """What the character ``UNDECODABLE`` found stands for, in words: the byte and the
    encoding it is not."""
    code = ord(character)
    if code >= BYTE_BASE:
        return f"byte 0x{code - BYTE_BASE:02X} is not UTF-8"
    return f"byte 0x{code - MARKED_BASE:02X} is not UTF-16 or UTF-32, which the file's mark names"


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
    encoding = encoding_of(head)
    errors = BYTE_ERRORS if encoding == "utf-8" else MARKED_ERRORS
    return io.TextIOWrapper(binary, encoding=encoding, errors=errors)
