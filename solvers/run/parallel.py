"""The one way work is spread: here, on a process pool, or on a Dask cluster, in input order.

``spread`` gives a function's results on a stream of arguments back in order, whatever ran
where, so a parallel run's output is a serial one's. The input is read lazily with a bounded
number of calls in flight; a call whose worker is lost is sent again and its result taken
once. ``ordered`` runs a per-puzzle task over chunks of puzzles (dispatch then costs little
beside the fastest backend), packed as small tuples (``pack_board``) to cross processes.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing
from functools import partial
from itertools import islice
from typing import TYPE_CHECKING, Any

from solvers.base.errors import UsageError
from solvers.formats.boards import Puzzle
from solvers.formats.source import TooLong
from solvers.model.board import Board
from solvers.run.answer import PackedBoard, pack_board, unpack_board

if TYPE_CHECKING:
    from concurrent.futures import Executor

# Puzzles per task: the first ones a puzzle each, so that a short file spreads over the
# workers and each answer is written as soon as it is known (a run stopped keeps them), then
# about CHUNK_SECONDS at the rate measured so far: long enough that dispatch costs little
# (README, "Running big datasets"), short enough that every worker gets some.
FIRST_CHUNK = 1
FLUSH = object()  # among spread's calls: answer those out before waiting for the next
CHUNK_SIZE = 512
MIN_CHUNK = 1
CHUNK_SECONDS = 0.1
IN_FLIGHT_PER_WORKER = 4  # chunks submitted ahead of the one being written out
MAX_TRIES = 4  # sends of one chunk before its failure is final
CONNECT_SECONDS = 5  # for a Dask scheduler to answer


def run_chunk(task: Callable[[Board], Any], chunk: list[PackedBoard | None]) -> tuple[list, float]:
    """The task on each packed board of a chunk (None stays None), and the seconds it took."""
    start = time.perf_counter()
    answers = [None if packed is None else task(unpack_board(packed)) for packed in chunk]
    return answers, time.perf_counter() - start


class Pool:
    """A process pool or a Dask cluster's executor, replaced when a worker loss breaks it."""

    def __init__(self, jobs: int, scheduler: str | None) -> None:
        self.jobs, self.scheduler = jobs, scheduler
        self.generation = 0
        self._client: Any = None
        self.executor = self._open()

    @property
    def workers(self) -> int:
        if self._client is None:
            return self.jobs
        found = self._client.scheduler_info()["workers"].values()
        return max(1, sum(w.get("nthreads", 1) for w in found))

    def _open(self) -> Executor:
        import multiprocessing  # start-up, with the next (docs/startup.md): one job never pays it
        from concurrent.futures import ProcessPoolExecutor

        from solvers.run.children import become_pool_child

        if self.scheduler is None:
            from solvers.base import signals

            with signals.held():  # its queues and locks, whole (``submit`` says why)
                return ProcessPoolExecutor(
                    self.jobs,
                    mp_context=multiprocessing.get_context("fork"),
                    initializer=become_pool_child,
                    initargs=(os.getpid(),),
                )
        if self._client is None:
            self._client = _connect(self.scheduler)
        return self._client.get_executor()

    def submit(self, function: Callable[[Any], Any], argument: Any) -> Any:
        """The executor's future of ``function(argument)``. A process pool forks its workers
        in a submit (the first, and the first after a renew): a stop that lands inside
        multiprocessing's start leaves a Finalize half made ("Exception ignored ... no
        attribute '_key'" on stderr at exit, 1 run in 30 stopped as the first worker
        appears), so the stopping signals are held until the submit is done, then acted on."""
        if self.scheduler is not None:
            return self.executor.submit(function, argument)
        from solvers.base import signals

        with signals.held():
            return self.executor.submit(function, argument)

    def renew(self, generation: int) -> None:
        """Replace a broken pool once, whichever of its chunks notices first."""
        if generation == self.generation and self.scheduler is None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = self._open()
            self.generation += 1

    def close(self) -> None:
        if self._client is not None:
            self.executor.shutdown(wait=True)  # Dask's executor takes no cancel_futures
            self._client.close()
        else:
            self.executor.shutdown(wait=True, cancel_futures=True)

    def terminate(self) -> None:
        """Stop now (an interrupt, a signal): cancel what waits, kill the workers."""
        if self._client is not None:
            self.executor.shutdown(wait=False)
            self._client.close(timeout=2)
            return
        from solvers.run.children import kill_tree

        processes = list(getattr(self.executor, "_processes", {}).values())
        result_queue = getattr(self.executor, "_result_queue", None)  # shutdown forgets it
        self.executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            kill_tree(process.pid)  # with what it started: a backend's worker, minizinc
        for process in processes:
            process.join(2)
        # A worker killed while it wrote a result left the manager thread waiting in its read
        # for the rest, and the interpreter joins that thread as it exits (the run never
        # ended: 3 in 60 signals to a --jobs 2 bulk run). With the workers gone, the one
        # writer left is ours: closing it ends that read, and the thread with it.
        if result_queue is not None:
            with contextlib.suppress(OSError):
                result_queue._writer.close()
        # Let the pool's manager thread finish closing its wake-up pipe: at exit,
        # concurrent.futures writes to that pipe, and a close racing the write is an EBADF.
        manager = getattr(self.executor, "_executor_manager_thread", None)
        if manager is not None:
            manager.join(2)


def ordered(
    task: Callable[[Board], Any],
    items: Iterable[Any],
    jobs: int = 1,
    scheduler: str | None = None,
    chunk_size: int = CHUNK_SIZE,
    progress: Callable[[int, float], None] | None = None,
) -> Iterator[tuple[Any, Any]]:
    """(item, task(item.board)) for each item in input order, the boards sent in chunks to
    ``workers(jobs, scheduler)``; None for items that are not Puzzles (they pass through, so
    that bad lines keep their place). A run of one job with no cluster answers its puzzles in
    turn without it (``pipeline.run``)."""
    start, done = time.perf_counter(), 0
    timing = [0, 0.0]  # puzzles and worker seconds of the chunks received so far

    def chunks() -> Iterator[Any]:
        stream = iter(items)
        while chunk := read_ahead(stream, _next_size(timing, chunk_size))[0]:
            yield chunk, [pack_board(i.board) if isinstance(i, Puzzle) else None for i in chunk]
            if isinstance(chunk[-1], TooLong):
                yield FLUSH

    # closed here, not when collected: the pool stops as soon as this generator does
    with closing(spread(partial(run_chunk, task), chunks(), workers(jobs, scheduler))) as results:
        for chunk, (answers, seconds) in results:
            timing[0] += len(chunk)
            timing[1] += seconds
            yield from zip(chunk, answers, strict=True)
            done += len(chunk)
            if progress:
                progress(done, time.perf_counter() - start)


def read_ahead(items: Iterator[Any], most: int) -> tuple[list[Any], bool]:
    """Up to ``most`` items, and whether reading stopped early, after a line or document past
    every limit (``TooLong``): what comes after it may be long in coming (a source fed
    forever), so the puzzles before it are answered first."""
    found: list[Any] = []
    for item in islice(items, most):
        found.append(item)
        if isinstance(item, TooLong):
            return found, True
    return found, False


def workers(jobs: int, scheduler: str | None) -> Pool | None:
    """Where ``spread`` runs its calls: None for here (one job, no cluster), else a pool."""
    return None if jobs == 1 and scheduler is None else Pool(jobs, scheduler)


def spread(
    function: Callable[[Any], Any], calls: Iterable[tuple[Any, Any]], pool: Pool | None
) -> Iterator[tuple[Any, Any]]:
    """(tag, function(argument)) for each (tag, argument) of ``calls``, in order: here with
    no pool; on ``pool`` at most ``IN_FLIGHT_PER_WORKER`` calls per worker out at a time, a
    call whose worker is lost sent again (up to ``MAX_TRIES`` sends). The pool is closed at
    the end, and stopped at once on an interrupt, an error, or the consumer gone. A call that
    is ``FLUSH`` has every call out answered before the next one is waited for."""
    if pool is None:
        for call in calls:
            if call is not FLUSH:
                yield call[0], function(call[1])
        return
    pending: deque = deque()
    try:
        for call in calls:
            if call is FLUSH:
                while pending:
                    yield _result(pool, function, pending.popleft())
                continue
            tag, argument = call
            pending.append([tag, argument, pool.submit(function, argument), pool.generation])
            while len(pending) >= IN_FLIGHT_PER_WORKER * pool.workers:
                yield _result(pool, function, pending.popleft())
        while pending:
            yield _result(pool, function, pending.popleft())
    except BaseException:
        pool.terminate()
        raise
    pool.close()


def _result(pool: Pool, function: Callable[[Any], Any], entry: list) -> tuple[Any, Any]:
    from concurrent.futures import CancelledError
    from concurrent.futures.process import BrokenProcessPool

    tag, argument, future, generation = entry
    for tries in range(1, MAX_TRIES + 1):
        try:
            return tag, future.result()
        except (BrokenProcessPool, CancelledError, OSError, EOFError) as error:
            lost = error
        except Exception as error:  # a lost Dask worker surfaces as one of distributed's own
            if type(error).__module__.split(".")[0] != "distributed":
                raise
            lost = error
        if tries == MAX_TRIES:
            raise RuntimeError(f"a call failed {tries} times: {lost!r}") from lost
        pool.renew(generation)
        future, generation = pool.submit(function, argument), pool.generation
    raise AssertionError("unreachable")


def _connect(address: str) -> Any:
    """A Dask client of the scheduler at ``address``; UsageError for one that cannot be
    reached or does not speak Dask."""
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--scheduler needs Dask: pip install 'sudoku-solvers[dask]'") from None
    _probe(address)
    # Dask's own timeout does not bound its client's start against every server: a plain
    # HTTP server that passed the probe held it for more than 10 minutes; waited on here
    made: list = []

    def connect() -> None:
        try:
            made.append(Client(address, timeout=CONNECT_SECONDS))
        except Exception as error:  # refused, timed out, or garbage on the wire (Dask's)
            made.append(error)

    starting = threading.Thread(target=connect, name="sudoku-dask-connect", daemon=True)
    starting.start()
    starting.join(2 * CONNECT_SECONDS)
    if not made:
        raise UsageError(
            f"cannot reach the Dask scheduler at {address}: no answer in {2 * CONNECT_SECONDS} s"
        )
    if isinstance(made[0], Exception):
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {made[0]}")
    return made[0]


def _probe(address: str) -> None:
    """A plain TCP connection first: a port nobody listens on is named at once (Dask itself
    retries a refused connection until its timeout), and so is a server that does not greet
    as a Dask scheduler does, at once, with a message in Dask's frames (a plain HTTP server
    waits for a request)."""
    import socket

    scheme, _, rest = address.rpartition("://")
    if scheme not in ("", "tcp"):
        return
    host, _, port = rest.rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), CONNECT_SECONDS) as line:
            greeting = _first_bytes(line, 16)
    except (OSError, ValueError) as error:
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    if len(greeting) < 16:
        why = f"it sent nothing in {CONNECT_SECONDS} s" if not greeting else "it closed at once"
        raise UsageError(f"{address} is not a Dask scheduler: {why}")
    # Dask's frames: the message's length, then how many frames it holds (8 bytes each)
    length, frames = int.from_bytes(greeting[:8], "little"), int.from_bytes(greeting[8:], "little")
    if not (16 <= length < 1 << 20 and 1 <= frames < 64):
        raise UsageError(f"{address} is not a Dask scheduler: it answered {greeting[:16]!r}")


def _first_bytes(line: Any, count: int) -> bytes:
    """Up to ``count`` bytes the server sends first, waiting up to CONNECT_SECONDS in all."""
    received, by = b"", time.monotonic() + CONNECT_SECONDS
    while len(received) < count and (left := by - time.monotonic()) > 0:
        line.settimeout(left)
        try:
            part = line.recv(count - len(received))
        except TimeoutError:
            break
        if not part:
            break
        received += part
    return received


def _next_size(timing: list, most: int) -> int:
    puzzles, seconds = timing
    if not puzzles or seconds <= 0:
        return min(FIRST_CHUNK, most)
    return max(MIN_CHUNK, min(most, int(CHUNK_SECONDS * puzzles / seconds)))
