"""One function over a stream of arguments, here or on a process pool, results in order.

For work that comes in large pieces of its own (the byte ranges of a file, answered whole by
``solvers.tools.linefile``): each argument is one call, at most ``IN_FLIGHT_PER_WORKER`` calls
per worker are out at a time, and a call whose worker is lost is sent again (its result is
taken once): ``parallel.in_order``, the loop ``parallel.ordered`` runs its chunks of puzzles in.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any


def jobs_for(jobs: int) -> int:
    """``--jobs``: 0 means every core."""
    return (os.cpu_count() or 1) if jobs == 0 else jobs


def ordered_calls(
    function: Callable[[Any], Any], arguments: Iterable[Any], jobs: int = 1
) -> Iterator[tuple[Any, Any]]:
    """(argument, function(argument)) for each argument in order. With one job the calls run
    here, one at a time, each only once the previous result has been taken."""
    if jobs == 1:
        for argument in arguments:
            yield argument, function(argument)
        return
    from solvers.execution.parallel import Pool, in_order  # concurrent.futures: a pool's own

    yield from in_order(Pool(jobs, None), function, ((a, a) for a in arguments))
