"""The line format in bulk: NumPy over the raw bytes of many lines at once.

``split_lines`` finds the lines of a block of bytes (universal newlines: ``\\n``, ``\\r\\n`` and a
lone ``\\r`` each end a line, as Python's text files read them). ``plain_puzzles`` picks the
*plain* lines: exactly N*N symbols (``.``/``0``, ``1``-``9``, ``A``-``Z`` either case) and
nothing else, each symbol a value of an N x N board; for these, and only these, the one-line
reader (``LineReader``) is known to give a classic puzzle of those values, so they can be read
without it. Every other line (blank, comment, rules header, fields after the puzzle, a bad
symbol) is the reader's. ``format_rows`` and ``format_counts`` write the answers back, and
``in_line_order`` puts those of several board sides back in their lines' order.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from solvers.formats.lines import SQUARES
from solvers.formats.symbols import SYMBOL_OF, VALUE_OF
from solvers.model.geometry import Shape

NOT_A_SYMBOL = 255
VALUES = np.full(256, NOT_A_SYMBOL, np.uint8)  # byte -> value
for _symbol, _value in VALUE_OF.items():
    VALUES[ord(_symbol)] = _value
SYMBOL_BYTES = np.frombuffer(SYMBOL_OF.encode("ascii"), np.uint8)  # value -> byte
NEWLINE, RETURN = 10, 13


class Lines(NamedTuple):
    """The lines of a block: where each starts, where its text ends (before its line
    ending), and whether it has a line ending (the last line of a file may not)."""

    starts: np.ndarray
    ends: np.ndarray
    ended: np.ndarray

    def __len__(self) -> int:
        return len(self.starts)


class Plain(NamedTuple):
    """The plain lines of one board side: their indexes among the block's lines, in order,
    and their values, one row each."""

    size: int
    lines: np.ndarray
    values: np.ndarray


def split_lines(buf: np.ndarray) -> Lines:
    """The lines of ``buf`` (uint8), as a text file reads them."""
    after = np.empty_like(buf)
    after[:-1] = buf[1:]
    after[-1:] = 0
    lone_return = (buf == RETURN) & (after != NEWLINE)
    breaks = np.flatnonzero((buf == NEWLINE) | lone_return)
    starts = np.concatenate(([0], breaks + 1))
    ends = np.concatenate((breaks, [len(buf)]))
    crlf = (buf[breaks] == NEWLINE) & (breaks > 0) & (buf[np.maximum(breaks - 1, 0)] == RETURN)
    ends[:-1] -= crlf
    ended = np.ones(len(starts), bool)
    ended[-1] = False
    if starts[-1] == len(buf):  # the block ends with a line ending: no last empty line
        starts, ends, ended = starts[:-1], ends[:-1], ended[:-1]
    return Lines(starts, ends, ended)


def plain_puzzles(buf: np.ndarray, lines: Lines, shape: Shape | None) -> list[Plain]:
    """The plain lines of ``lines``, grouped by board side (most blocks have one group)."""
    lengths = lines.ends - lines.starts
    longest = max(SQUARES)
    present = np.bincount(np.minimum(lengths, longest + 1), minlength=longest + 2)
    found = []
    for length, size in sorted(SQUARES.items()):  # (np.unique imports numpy.ma: start-up)
        if (shape is not None and shape.size != size) or not present[length]:
            continue
        chosen = np.flatnonzero(lengths == length)
        if not len(chosen):
            continue
        values = VALUES[_rows(buf, lines.starts[chosen], length)]
        keep = (values <= size).all(axis=1)
        if keep.any():
            found.append(Plain(size, chosen[keep], np.ascontiguousarray(values[keep])))
    return found


def _rows(buf: np.ndarray, starts: np.ndarray, length: int) -> np.ndarray:
    """The ``length`` bytes from each of ``starts``, one row each."""
    stride = int(starts[1] - starts[0]) if len(starts) > 1 else 0
    if stride > 0 and (np.diff(starts) == stride).all():
        # evenly spaced lines, the usual file: a strided view, no index array
        return np.lib.stride_tricks.as_strided(
            buf[starts[0] :], shape=(len(starts), length), strides=(stride, 1), writeable=False
        )
    return buf[starts[:, None] + np.arange(length)]


def format_rows(values: np.ndarray) -> np.ndarray:
    """(P, N*N) values -> (P, N*N + 1) bytes: each board as a line, with its newline."""
    rows, cells = values.shape
    out = np.empty((rows, cells + 1), np.uint8)
    np.take(SYMBOL_BYTES, values, out=out[:, :cells])
    out[:, cells] = NEWLINE
    return out


def format_counts(counts: np.ndarray) -> list[bytes] | np.ndarray:
    """One line per count: a (P, 2) array of bytes when every count is a single digit."""
    if len(counts) and counts.max() < 10:
        out = np.empty((len(counts), 2), np.uint8)
        out[:, 0] = counts.astype(np.uint8) + ord("0")
        out[:, 1] = NEWLINE
        return out
    return [b"%d\n" % count for count in counts.tolist()]


def in_line_order(answered: list) -> tuple[np.ndarray, bytes, np.ndarray]:
    """(line indexes ascending, all their text, where each line's text starts and ends)."""
    if not answered:
        return np.zeros(0, np.int64), b"", np.zeros(1, np.int64)
    indexes = np.concatenate([lines for lines, _ in answered])
    texts = [_flat(text) for _, text in answered]
    lengths = np.concatenate([length for _, length in texts])
    flat = np.concatenate([data for data, _ in texts])
    order = np.argsort(indexes, kind="stable")
    if len(answered) > 1:  # sides mixed in one range: put the lines back in order
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))[order]
        indexes, lengths = indexes[order], lengths[order]
        moved = np.concatenate(([0], np.cumsum(lengths)))
        flat = flat[np.arange(moved[-1]) + np.repeat(starts - moved[:-1], lengths)]
    offsets = np.concatenate(([0], np.cumsum(lengths)))
    return indexes, flat.tobytes(), offsets


def _flat(text: list[bytes] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Output lines as (all bytes, each line's length)."""
    if isinstance(text, np.ndarray):
        return text.reshape(-1), np.full(len(text), text.shape[1] if text.ndim > 1 else 0)
    joined = np.frombuffer(b"".join(text), np.uint8)
    return joined, np.array([len(line) for line in text], np.int64)
