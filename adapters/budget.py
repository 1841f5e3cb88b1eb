"""A deadline kept in-process by an engine that takes a work budget but has no clock.

``budgeted(run, deadline, pace)`` calls ``run(budget)`` (a conflict budget, say) until it
answers, looking at the clock in between. Each budget is sized to end within a slice of the
time left, at the rate the last budget that ran out was spent, and is at most twice the budget
before it: a CDCL solver's cost per conflict is far from even (its clause-database reductions
and inprocessing come at set conflict counts), so a cheap call foretells the next one badly.
The ``Pace`` (the last budget and its rate) is kept with the engine it measured, so the first
budget of the next call is sized the same way: a count calls once per solution, and a call that
starts with a few milliseconds left must not start with a budget made for a fresh puzzle.
CDCL solvers keep what they learned across the calls, so the next one picks up about where the
last stopped.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from solvers.base.deadline import Deadline

Answer = TypeVar("Answer")
FIRST_BUDGET = 1_000  # before any rate is known
LEAST_BUDGET = 10
SLICE_S = 0.05  # each call aims to end within this, or a quarter of the time left
SHARE_OF_LEFT = 0.25


class Pace:
    """The budgets one engine ran at: the last one given, and the units per second the last
    one that ran out was spent at (None before any has). Keep one per engine instance whose
    speed it measures (a persistent solver); a fresh one per call otherwise."""

    __slots__ = ("budget", "per_second")

    def __init__(self, first: int = FIRST_BUDGET) -> None:
        self.budget = first
        self.per_second: float | None = None

    def next_budget(self, left: float) -> int:
        """The budget for a call with ``left`` seconds to go."""
        if self.per_second is not None:
            aim = min(SLICE_S, left * SHARE_OF_LEFT)
            self.budget = max(LEAST_BUDGET, min(2 * self.budget, int(self.per_second * aim)))
        return self.budget

    def ran_out(self, budget: int, seconds: float) -> None:
        self.per_second = budget / max(seconds, 1e-4)


def budgeted(
    run: Callable[[int], Answer | None], deadline: Deadline, pace: Pace | None = None
) -> Answer | None:
    """``run``'s first answer that is not None; None when the deadline passed first.
    ``pace``: the engine's own, carried from call to call (default: a fresh one)."""
    pace = pace or Pace()
    while not deadline.expired():
        budget = pace.next_budget(deadline.remaining())
        start = time.perf_counter()
        answer = run(budget)
        if answer is not None:
            return answer
        pace.ran_out(budget, time.perf_counter() - start)
    return None
