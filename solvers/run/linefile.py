"""The fast path of ``sudoku solve FILE`` and ``sudoku count FILE`` on line-format files.

A file is cut into byte ranges at line ends, each answered by itself, here or in a worker:
its lines parsed by NumPy (``formats.bulk``), the plain puzzles of each board side solved or
counted by one batch of the run's backend (``Backend.search_many``, through
``bulk.solve_many``, which verifies each solution), and the answers written as text by NumPy.
Everything else a range holds (comments, ``# rules:`` headers, bad lines, puzzles unsolved in
the batch) goes through ``formats.LineReader`` and the per-puzzle task. A range's answer is a
list of *pieces* in line order: bytes ready to write, and (item, answer) pairs. The output is
the per-puzzle path's, byte for byte; a range's items are numbered from its first line and
renumbered as the ranges come back in order.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import numpy as np

from solvers.backends.batch import Flag
from solvers.backends.spec import BackendSpec
from solvers.base.deadline import Deadline
from solvers.base.errors import InputError
from solvers.formats.boards import LineReader, Puzzle, format_board, line_start
from solvers.formats.bulk import (
    format_counts,
    format_rows,
    in_line_order,
    plain_puzzles,
    split_lines,
)
from solvers.formats.source import MAX_PUZZLE, UNREAD
from solvers.formats.textfile import BYTE_ERRORS, as_text
from solvers.model.board import Board
from solvers.model.geometry import Shape

RANGE_BYTES = 1 << 20  # about 12,000 9x9 lines: one batch each
# With --jobs N, each range is a half of an even share of what is left of the file, so that
# ranges shrink toward the end and the workers finish together, but never below TAIL_BYTES,
# where a range's own cost would show
SHARES_PER_JOB, TAIL_BYTES = 2, 1 << 16
# With a timeout, a puzzle may take this long in the batch (at most a tenth of its timeout);
# one that needs more goes to the per-puzzle path, which gives it its whole timeout.
BATCH_SECONDS, BATCH_SHARE = 0.02, 0.1
# A line of more bytes is longer than any puzzle whatever its characters (at most 4 bytes
# each): it is a range of its own, refused unread (the reader refuses a shorter one by length)
OVERLONG_BYTES = 4 * MAX_PUZZLE + 2


@dataclass(frozen=True)
class Job:
    """Every puzzle solved or counted (``mode``, up to ``limit``), answers written as ``fmt``,
    boards of ``shape`` if given, within ``timeout``, in batches of ``spec``'s backend;
    ``task`` answers what the batch did not."""

    mode: str
    limit: int
    fmt: str
    shape: Shape | None
    timeout: float | None
    task: Callable[[Board], Any]
    spec: BackendSpec

    @property
    def each(self) -> float | None:
        """Seconds a puzzle may take in the batch (the rest is the task's)."""
        if self.timeout is None:
            return None
        return min(BATCH_SECONDS, self.timeout * BATCH_SHARE)


@dataclass(frozen=True)
class Range:
    """Bytes ``start`` to ``end`` of a file, lines from ``first_line`` on, read under the
    ``rules`` in force there (as far as the caller knows); ``skip`` is a CSV header's line.
    ``overlong``: one line past ``OVERLONG_BYTES``, refused unread. ``identity``: the file's
    (device, inode, size, mtime) when the run began: a file replaced or written to since is
    refused, never spliced with the one read before."""

    path: str
    start: int
    end: int
    first_line: int = 1
    rules: frozenset[str] = frozenset()
    skip: int = 0
    overlong: bool = False
    identity: tuple[int, ...] | None = None


@dataclass
class Answered:
    """A range's answer: its pieces, lines and puzzles, the rules in force at its end, and the
    error that stopped reading. ``cites``: a message cites a line of the range by number (an
    unreadable rules line), which renumbering does not reach: it is read again."""

    pieces: list
    lines: int
    puzzles: int
    rules: frozenset[str]
    stopped: InputError | None = None
    cites: bool = False


def range_bytes(left: int, jobs: int) -> int:
    """The size of the next range when ``left`` bytes of the file are left for ``jobs``
    processes."""
    if jobs <= 1:
        return RANGE_BYTES
    return min(RANGE_BYTES, max(TAIL_BYTES, left // (jobs * SHARES_PER_JOB)))


def ranges(path: str, skip: int, jobs: int = 1) -> Iterator[Range]:
    """The file's byte ranges (``range_bytes``), each ending after a line end, read from one
    open file. The others than the first count from line 2 (only the first may carry a
    byte-order mark), and are renumbered as they come back."""
    with open(path, "rb") as handle:
        identity = _identity(handle)
        total = identity[2]
        start = 0
        while start < total:
            at = min(start + range_bytes(total - start, jobs), total)
            end = _line_end(handle, at)
            begin = _line_start(handle, start, at) if end - at > OVERLONG_BYTES else end
            for low, high in ((start, begin), (begin, end)):
                if low < high:
                    first = low == 0
                    line, header = (1, skip) if first else (2, 0)
                    yield Range(
                        path, low, high, line, skip=header, overlong=low == begin, identity=identity
                    )
            start = end


def _identity(handle) -> tuple[int, ...]:
    found = os.fstat(handle.fileno())
    return found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns


def _line_end(handle, at: int) -> int:
    """The first position after a line ending (``\\n``, ``\\r\\n`` or a lone ``\\r``) at or
    after ``at`` (or the end of the file), read in pieces: a line may be longer than memory
    should hold."""
    handle.seek(at)
    while piece := handle.read(1 << 16):
        found = [i for i in (piece.find(b"\n"), piece.find(b"\r")) if i >= 0]
        if found:
            i = min(found)
            end = handle.tell() - len(piece) + i + 1
            if piece[i] == ord("\r") and (piece[i + 1 : i + 2] or handle.read(1)) == b"\n":
                end += 1
            return end
    return handle.tell()


def _line_start(handle, start: int, at: int) -> int:
    """Where the line through ``at`` starts, at ``start`` or after (``at - start`` is at most
    one range)."""
    handle.seek(start)
    block = handle.read(at - start)
    return start + max(block.rfind(b"\n"), block.rfind(b"\r")) + 1


def answer_range(job: Job, where: Range, data: bytes | None = None) -> Answered:
    """Every line of a range answered (``data``: its bytes, when the caller has read them)."""
    if where.overlong:
        said = f"over {MAX_PUZZLE:,} characters: no puzzle is that long"
        return Answered([(InputError(said, where.first_line), None)], 1, 0, where.rules)
    if data is None:
        with open(where.path, "rb") as handle:
            if where.identity is not None and _identity(handle) != where.identity:
                said = "the file changed while it was read (replaced or written to): run again"
                return Answered([], 0, 0, where.rules, InputError(said, where.first_line))
            handle.seek(where.start)
            data = handle.read(where.end - where.start)
    buf = np.frombuffer(data, np.uint8)
    lines = split_lines(buf)
    groups = plain_puzzles(buf, lines, job.shape)
    fast = np.zeros(len(lines), bool)
    for group in groups:
        fast[group.lines] = True
    reader = LineReader(job.shape, where.rules)
    read, cites = _read_others(reader, data, lines, fast, where)
    groups = [_still_plain(group, fast) for group in groups]
    solved = _Solved(job, groups)
    read += solved.unanswered(where.first_line)
    read.sort(key=lambda pair: pair[0])
    pieces = solved.pieces(job, read)
    puzzles = solved.count + sum(isinstance(item, Puzzle) for _, item in read)
    return Answered(pieces, len(lines), puzzles, reader.rules, reader.error, cites)


def _still_plain(group, fast: np.ndarray):
    """The group without the lines the reader took."""
    keep = fast[group.lines]
    return group._replace(lines=group.lines[keep], values=group.values[keep])


def _read_others(
    reader: LineReader, data: bytes, lines, fast: np.ndarray, where: Range
) -> tuple[list, bool]:
    """(line index, item) for every line not a plain puzzle under classic rules, clearing
    ``fast`` for the plain lines read so; and ``Answered.cites``."""
    found = []
    others = np.flatnonzero(~fast).tolist()
    at, index = 0, 0
    cites = False
    while True:
        if not reader.rules:  # classic: on to the next line that is not plain
            while at < len(others) and others[at] < index:
                at += 1
            if at == len(others):
                return found, cites
            index = others[at]
        if index >= len(lines):
            return found, cites
        fast[index] = False
        number = where.first_line + index
        if number != where.skip:
            rules = reader.rules
            found += [(index, item) for item in reader.read(number, _raw(data, lines, index))]
            unread = any(name.startswith(UNREAD) for name in reader.rules)  # formats.UNREAD
            cites = cites or (reader.rules is not rules and unread)
        index += 1
        if reader.error is not None:  # nothing after this line counts
            fast[index:] = False
            return found, cites


def _raw(data: bytes, lines, index: int) -> str:
    """Line ``index`` as a text file yields it: decoded, its line ending as ``\\n``."""
    text = data[lines.starts[index] : lines.ends[index]].decode("utf-8", errors=BYTE_ERRORS)
    return text + "\n" if lines.ended[index] else text


class _Solved:
    """The plain puzzles of a range, answered by ``solve_many``, one call per board side: the
    answers as text, the wrong ones as WRONG answers, the others left for the per-puzzle path."""

    def __init__(self, job: Job, groups: list) -> None:
        from solvers.run.bulk import solve_many

        self.answered: list[tuple[np.ndarray, list[bytes] | np.ndarray]] = []
        self.left: list[tuple[int, Board]] = []
        self.judged: dict[int, Any] = {}  # line index: the answer already known
        self.count = 0  # puzzles answered here
        limit = 1 if job.mode == "solve" else job.limit
        for group in groups:
            if not len(group.lines):
                continue
            shape = job.shape or Shape.for_size(group.size)
            found = solve_many(group.values, limit, shape=shape, backend=job.spec, each=job.each)
            ok = found.flags == Flag.SOLVED
            text = _text(job, shape, found, ok)
            if text is None:  # a format only the per-puzzle path can write (or refuse)
                ok[:] = False
            else:
                self.answered.append((group.lines[ok], text))
                self.count += int(ok.sum())
            for k in np.flatnonzero(~ok).tolist():
                board = Board(shape, tuple(group.values[k]))
                self.left.append((int(group.lines[k]), board))
                if found.flags[k] == Flag.WRONG:
                    self.judged[int(group.lines[k])] = _wrong(board, found, k, job)

    def unanswered(self, first_line: int) -> list[tuple[int, Puzzle]]:
        return [(i, Puzzle(board, first_line + i, "line")) for i, board in self.left]

    def pieces(self, job: Job, read: list) -> list:
        """Bytes for the runs of answered lines, (item, answer) for the others."""
        indexes, flat, offsets = in_line_order(self.answered)
        pieces: list[Any] = []
        done = 0
        for index, item in read:
            upto = int(np.searchsorted(indexes, index))
            if upto > done:
                pieces.append(flat[offsets[done] : offsets[upto]])
                done = upto
            if isinstance(item, Puzzle):
                answer = self.judged.get(index) or job.task(item.board)
            else:
                answer = None
            pieces.append((item, answer))
        if len(indexes) > done:
            pieces.append(flat[offsets[done] :])
        return pieces


def _wrong(board: Board, found, k: int, job: Job) -> Any:
    """The WRONG answer of puzzle ``k`` of a batch whose solution failed a check."""
    from solvers.model.verify import problems, wrong_solution
    from solvers.run.answer import Answer, Status

    solution = Board.unchecked(board.shape, tuple(found.solutions[k].tolist()), board.rules)
    found_wrong = problems(board, solution) or ["the backend's own check failed"]
    label = job.spec.label
    detail = wrong_solution(label, found_wrong)
    count = int(found.counts[k]) if job.mode == "count" else None
    return Answer(Status.WRONG, label, count=count, detail=detail)


def _text(job: Job, shape: Shape, found, ok: np.ndarray) -> list[bytes] | np.ndarray | None:
    """The answered puzzles' output lines (rows of bytes, or a list of bytes)."""
    if job.mode == "count":
        return format_counts(found.counts[ok])
    if job.fmt == "line":
        return format_rows(found.solutions[ok])
    if job.fmt == "compact" and shape.size > 9:
        return None
    return [
        format_board(Board(shape, tuple(values)), job.fmt).encode() + b"\n"
        for values in found.solutions[ok].tolist()
    ]


# The caller's side ---------------------------------------------------------------------


def start(path: str, fmt: str) -> int | None:
    """The line of the file's CSV header (0 for none); None when this path would not read it
    as the per-puzzle path does (not the line format, no puzzle, not UTF-8)."""
    with as_text(open(path, "rb")) as handle:
        if handle.encoding != "utf-8":  # UTF-16: this path reads a line's bytes as UTF-8
            return None
        return line_start(handle, fmt)


def puzzle_lines(path: str, skip: int) -> int:
    """The puzzles of a line-format file: its lines after line ``skip`` that are neither
    blank nor a ``#`` comment (read in pieces: a line may be longer than memory should hold)."""
    count, number, start = 0, 1, b""
    with open(path, "rb") as handle:
        while piece := handle.readline(1 << 16):
            start = start or piece.strip()[:1] or b""
            if piece.endswith(b"\n"):
                count += number > skip and start not in (b"", b"#")
                number, start = number + 1, b""
    return count + (number > skip and start not in (b"", b"#"))


def answers(
    job: Job, path: str, skip: int, jobs: int, progress: Callable[[int], None] | None = None
) -> Iterator[Any]:
    """Every piece of the file's answers, in order, with real line numbers. ``skip``:
    ``start``'s answer; ``progress(puzzles)`` is told of each range done."""
    from solvers.run.parallel import spread, workers

    if jobs > 1:
        _load(job.spec)  # here, once: the forked workers start with it loaded
    known = [frozenset()]  # the rules at the end of the last range answered: the best guess
    guessed = ((w, w) for w in (replace(w, rules=known[0]) for w in ranges(path, skip, jobs)))
    line, rules, puzzles = 1, frozenset(), 0
    calls = spread(partial(answer_range, job), guessed, workers(jobs, None))
    with closing(calls):  # a stop, or the consumer gone: the workers go at once
        for where, answered in calls:
            if where.rules != rules or (answered.cites and where.first_line != line):
                # read under other rules than were in force there, or its messages cite its
                # lines by the range's own numbers: read again, here, knowing both
                where = replace(where, rules=rules, first_line=line)
                answered = answer_range(job, where)
            shift = line - where.first_line
            for piece in answered.pieces:
                yield piece if isinstance(piece, bytes) else _renumbered(piece, shift)
            if answered.stopped is not None:
                yield _renumbered((answered.stopped, None), shift)
                return
            line += answered.lines
            puzzles += answered.puzzles
            if progress:
                progress(puzzles)
            rules = known[0] = answered.rules


def _load(spec: BackendSpec) -> None:
    """Load (or compile) the backend's batch search here, with a batch of an empty board."""
    from solvers.run.runner import shared

    empty = Board.empty(Shape(2, 2))
    shared(spec).many(np.zeros((1, 16), np.uint8), empty, 1, Deadline())


def _renumbered(piece: tuple, shift: int) -> tuple:
    item, answer = piece
    if shift == 0:
        return piece
    if isinstance(item, Puzzle):
        return replace(item, line=item.line + shift), answer
    return (item.at_line(item.line + shift) if item.line is not None else item), answer
