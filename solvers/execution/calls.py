"""One function over a stream of arguments, here or on a process pool, results in order.

For work that comes in large pieces of its own (the byte ranges of a file, answered whole by
``solvers.tools.linefile``): each argument is one call, at most ``IN_FLIGHT_PER_WORKER`` calls
per worker are out at a time, and a call whose worker is lost is sent again (its result is
taken once), as ``parallel.ordered`` does for per-puzzle tasks.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import CancelledError
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from solvers.execution.parallel import IN_FLIGHT_PER_WORKER, MAX_TRIES, Pool


def ordered_calls(
    function: Callable[[Any], Any], arguments: Iterable[Any], jobs: int = 1
) -> Iterator[tuple[Any, Any]]:
    """(argument, function(argument)) for each argument in order. With one job the calls run
    here, one at a time, each only once the previous result has been taken."""
    if jobs == 1:
        for argument in arguments:
            yield argument, function(argument)
        return
    pool = Pool(jobs, None)
    pending: deque = deque()
    try:
        for argument in arguments:
            pending.append([argument, pool.executor.submit(function, argument), pool.generation])
            while len(pending) >= IN_FLIGHT_PER_WORKER * jobs:
                yield _result(pool, function, pending.popleft())
        while pending:
            yield _result(pool, function, pending.popleft())
    except BaseException:  # an interrupt, a signal, an error, or the consumer gone (close())
        pool.terminate()
        raise
    pool.close()


def _result(pool: Pool, function, entry: list) -> tuple[Any, Any]:
    argument, future, generation = entry
    for tries in range(1, MAX_TRIES + 1):
        try:
            return argument, future.result()
        except (BrokenProcessPool, CancelledError, OSError, EOFError) as error:
            if tries == MAX_TRIES:
                raise RuntimeError(f"a call failed {tries} times: {error!r}") from error
        pool.renew(generation)
        future, generation = pool.executor.submit(function, argument), pool.generation
    raise AssertionError("unreachable")
