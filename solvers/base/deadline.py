"""A point in time a search must stop by, and the ticker a search calls to keep it.

A search raises ``SolveTimeout`` (carrying the counters it gathered) when its deadline passes.
It learns that from a ``Ticker``: one ``tick()`` per step of its inner loop, which looks at the
clock only every so many ticks. How many is not a constant of each search: the ticker measures
how long its ticks take and spaces its looks about ``LOOK_EVERY_S`` apart, so a search with
cheap steps (the reference DFS) and one with costly steps (a propagation) both stop promptly and
neither pays for looking too often.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from solvers.base.errors import SolveTimeout, UsageError

LOOK_EVERY_S = 0.002  # seconds between looks at the clock, aimed for
MAX_SECONDS = 7 * 24 * 3600.0  # the longest timeout taken: a week


def timeout_of(value: object, what: str = "timeout") -> float | None:
    """A timeout (or another time, named by ``what``) a caller gave: None (no limit), or a
    number of seconds above 0 and at most a week; UsageError for anything else (a string, NaN,
    infinity, 0, a negative number)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise UsageError(f"{what} {value!r} is not a number of seconds")
    if not 0 < value <= MAX_SECONDS:  # NaN fails this too
        raise UsageError(
            f"{what} {value!r} is not a number of seconds above 0 and at most {MAX_SECONDS:g}"
        )
    return float(value)


class Deadline:
    """``seconds`` from now, or never when ``seconds`` is None."""

    __slots__ = ("at", "seconds")

    def __init__(self, seconds: float | None = None) -> None:
        self.seconds = seconds
        self.at = None if seconds is None else time.perf_counter() + seconds

    def expired(self) -> bool:
        return self.at is not None and time.perf_counter() >= self.at

    def remaining(self) -> float | None:
        """Seconds left (never below zero), or None for no limit."""
        return None if self.at is None else max(0.0, self.at - time.perf_counter())

    def timeout(self) -> float | None:
        """The time left as a timeout to hand to a call (None for no limit); SolveTimeout when
        none is left."""
        left = self.remaining()
        if left is not None and left <= 0:
            raise SolveTimeout("deadline passed")
        return left

    def check(self, stats: dict | None = None) -> None:
        """Raise SolveTimeout (with ``stats``) if the deadline has passed."""
        if self.expired():
            raise SolveTimeout(stats=stats)


class Ticker:
    """``tick()`` once per search step; raises SolveTimeout with ``stats()`` once the deadline
    has passed. The clock is read every ``every`` ticks, ``every`` doubling while looks come
    sooner than ``LOOK_EVERY_S`` apart and halving when they come much later."""

    __slots__ = ("deadline", "every", "last", "left", "stats")

    def __init__(self, deadline: Deadline, stats: Callable[[], dict]) -> None:
        self.deadline, self.stats = deadline, stats
        self.every = self.left = 1 if deadline.at is not None else 2**62
        self.last = time.perf_counter()

    def tick(self) -> None:
        self.left -= 1
        if self.left:
            return
        now = time.perf_counter()
        if now >= self.deadline.at:
            raise SolveTimeout(stats=self.stats())
        if now - self.last < LOOK_EVERY_S:
            self.every *= 2
        elif now - self.last > 4 * LOOK_EVERY_S and self.every > 1:
            self.every //= 2
        self.left, self.last = self.every, now
