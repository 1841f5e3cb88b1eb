"""Progress of a long run on a terminal, drawn by tqdm: puzzles done of the total, the rate and
the time left, ending on a line of its own. Nothing on a pipe, a file or in CI."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from tqdm import tqdm

# A run quicker than this shows no progress at all: a single board, or a small file, stays as
# clean on a terminal as on a pipe.
DELAY_SECONDS = 0.5


def wanted(err: TextIO) -> bool:
    """Whether progress goes to ``err``: a terminal, outside CI (whose logs keep every \\r)."""
    isatty = getattr(err, "isatty", None)
    return bool(isatty and isatty()) and not os.environ.get("CI")


def bar(err: TextIO, total: int | None, label: str | None = None) -> tqdm:
    """A progress bar on ``err`` counting puzzles, shown once the run has taken a while."""
    from tqdm import tqdm  # here: a command that shows no progress does not pay its import

    return tqdm(
        total=total,
        desc=label,
        unit=" puzzles",
        unit_scale=False,
        file=err,
        delay=DELAY_SECONDS,
        dynamic_ncols=True,
        leave=True,
    )


def puzzle_lines(path: str, skip: int) -> int:
    """The puzzles of a line-format file: its lines after line ``skip`` (a CSV header, or
    0) that are neither blank nor a ``#`` comment, as the reader counts them."""
    count = 0
    with open(path, "rb") as handle:
        for number, line in enumerate(handle, 1):
            text = line.strip()
            if number > skip and text and not text.startswith(b"#"):
                count += 1
    return count
