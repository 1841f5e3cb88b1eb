"""A deadline kept in-process by an engine that takes a work budget but has no clock.

``budgeted(run, deadline)`` calls ``run(budget)`` (a conflict budget, say) until it answers;
each budget is sized from the rate the call before it measured, to end within a slice of the
time left, and the clock is looked at in between. CDCL solvers keep what they learned across
the calls, so the next one picks up about where the last stopped.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from solvers.deadline import Deadline

Answer = TypeVar("Answer")
FIRST_BUDGET = 1_000
SLICE_S = 0.05  # each call aims to end within this, or half the time left


def budgeted(run: Callable[[int], Answer | None], deadline: Deadline) -> Answer | None:
    """``run``'s first answer that is not None; None when the deadline passed first."""
    budget = FIRST_BUDGET
    while not deadline.expired():
        start = time.perf_counter()
        answer = run(budget)
        if answer is not None:
            return answer
        left = deadline.remaining()
        spent = max(time.perf_counter() - start, 1e-4)
        budget = max(100, int(budget * min(SLICE_S, left / 2) / spent))
    return None
