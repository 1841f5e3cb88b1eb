"""A point in time a search must stop by, and the signal a search raises when it passes it."""

from __future__ import annotations

import time


class OutOfTime(Exception):
    """Raised inside a backend when its deadline passes; carries the stats gathered so far."""

    def __init__(self, stats: dict | None = None) -> None:
        super().__init__("deadline passed")
        self.stats = stats or {}


class Deadline:
    """``seconds`` from now, or never when ``seconds`` is None."""

    def __init__(self, seconds: float | None = None) -> None:
        self.seconds = seconds
        self.at = None if seconds is None else time.perf_counter() + seconds

    def expired(self) -> bool:
        return self.at is not None and time.perf_counter() >= self.at

    def remaining(self) -> float | None:
        """Seconds left (never below zero), or None for no limit."""
        return None if self.at is None else max(0.0, self.at - time.perf_counter())

    def check(self, stats: dict | None = None) -> None:
        """Raise OutOfTime if the deadline has passed."""
        if self.expired():
            raise OutOfTime(stats)


NO_DEADLINE = Deadline(None)
