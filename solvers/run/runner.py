"""The one path from a puzzle to a judged answer: a ``Runner`` per backend spec.

A runner builds its backend with the spec's options, keeps the deadline (here when the backend
stops by itself, else in a worker process it kills), warms the backend up per board shape
untimed, and judges every answer: a solution is verified against the rules and the givens
before the puzzle is called solved. ``shared(spec)`` is the runner this process reuses for a
spec (a deliberate cache: a persistent solver lives on between calls); a forked child starts
with none of its parent's.
"""

from __future__ import annotations

import atexit
import multiprocessing.util  # noqa: F401 (registers its exit hook before ours)
import os
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from solvers.backends.contract import Backend, Found, Operation
from solvers.backends.spec import BackendSpec
from solvers.base.errors import (
    BackendCrashed,
    BackendUnavailable,
    InputError,
    SolveTimeout,
    UsageError,
)
from solvers.model.board import Board
from solvers.model.geometry import Shape
from solvers.model.verify import problems, wrong_solution
from solvers.run import judge
from solvers.run.answer import Answer, Status
from solvers.run.children import signalled_here
from solvers.run.worker import (
    Attempt,
    NotAFound,
    Worker,
    attempt,
    may_start_workers,
    peak_rss_kb,
    raised,
)

if TYPE_CHECKING:
    import numpy as np

    from solvers.backends.batch import Batch
    from solvers.base.deadline import Deadline

# A backend that stops by itself is given the deadline; its worker (if it runs in one) is
# killed only as a backstop, this long after the deadline.
BACKSTOP = (1.5, 1.0)  # seconds = timeout * 1.5 + 1.0
# Errors that say the request was wrong, not the backend: they go back to the caller.
_CALLERS_FAULT = (InputError, UsageError, BackendUnavailable)


def built(spec: BackendSpec, *, load: bool = True) -> Backend:
    """The backend of ``spec`` (resolved on first need) built with every option, loaded for
    ``search`` (``Backend.load``) unless ``load`` is False: a batch (``search_many``) loads
    what it needs itself."""
    backend = spec.cls(**dict(spec.configuration))
    if load:
        backend.load()
    return backend


class Runner:
    """One backend, built with the spec's options, and everything needed to ask it safely.

    ``isolate``: True runs every call in a worker process; None (the default) only the calls
    with a timeout that the backend cannot keep by itself, every call of a backend that runs
    contained (``BackendSpec.contained``) where this process may have children, and in the
    process a user signals (``children.signalled_here``) every call of a backend that is not
    ``INTERRUPTIBLE``.
    """

    def __init__(self, spec: BackendSpec | str, *, isolate: bool | None = None) -> None:
        # a spec named as text is parsed (a test's, a benchmark's: the commands and the library
        # hand a ``BackendSpec`` on); an unknown backend or option fails here
        spec = spec if isinstance(spec, BackendSpec) else BackendSpec.parse(spec)
        self.spec = spec.resolve()
        self.label = self.spec.label
        self.options = dict(self.spec.configuration)
        self.isolate = isolate
        self.contained = self.spec.contained
        self.setup_seconds = 0.0  # building the backend, preparing shapes, warming up
        self._engine: Backend | None = None
        self._unloaded: Backend | None = None  # built for batches alone (``many``)
        self._worker: Worker | None = None
        self._warm: set[Shape] = set()

    @property
    def engine(self) -> Backend:
        """The backend in this process, built on first use (timed as setup)."""
        if self._engine is None:
            start = time.perf_counter()
            if self._unloaded is not None:  # the batches' backend, now loaded for search too
                self._engine, self._unloaded = self._unloaded, None
                self._engine.load()
            else:
                self._engine = built(self.spec)
            self.setup_seconds += time.perf_counter() - start
        return self._engine

    @property
    def worker(self) -> Worker:
        if self._worker is None:
            recycle = self.spec.cls.RECYCLE_AFTER
            self._worker = Worker(self._engine_for_worker, self.label, recycle)
        return self._worker

    def _engine_for_worker(self) -> Backend:
        # Runs in the forked child: the parent's backend if it was built, else a new one.
        return self._engine or built(self.spec)

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the worker and free the backend."""
        if self._worker is not None:
            self._worker.stop()
            self._worker = None
        for engine in (self._engine, self._unloaded):
            if engine is not None:
                engine.close()
        self._engine = self._unloaded = None

    # Asking --------------------------------------------------------------------------

    def solve(self, board: Board, timeout: float | None = None) -> Answer:
        """One solution, verified; or why there is none."""
        return self.each(Operation.SOLVE, [board], 1, timeout)[0]

    def count(self, board: Board, limit: int, timeout: float | None = None) -> Answer:
        """Solutions counted up to ``limit`` (the first one verified)."""
        return self.each(Operation.COUNT, [board], limit, timeout)[0]

    def solve_each(self, boards: Sequence[Board], timeout: float | None = None) -> list[Answer]:
        """Each board solved in turn, each timed alone (in one round trip to a worker)."""
        return self.each(Operation.SOLVE, boards, 1, timeout)

    def count_each(
        self, boards: Sequence[Board], limit: int, timeout: float | None = None
    ) -> list[Answer]:
        """Each board's solutions counted up to ``limit`` in turn, each timed alone."""
        return self.each(Operation.COUNT, boards, limit, timeout)

    def each(
        self, operation: Operation, boards: Sequence[Board], limit: int, timeout: float | None
    ) -> list[Answer]:
        """``operation`` on each board in turn, each timed alone and judged (a refused one is
        not attempted)."""
        answers = [judge.refusal(self.label, self.spec.name, board) for board in boards]
        asked = [board for board, answer in zip(boards, answers, strict=True) if answer is None]
        attempts = iter(self.attempt_each(asked, timeout, operation, limit) if asked else ())
        return [
            self.judge(operation, board, limit, timeout, next(attempts))
            if answer is None
            else answer
            for board, answer in zip(boards, answers, strict=True)
        ]

    def many(
        self,
        values: np.ndarray,
        board: Board,
        limit: int,
        deadline: Deadline,
        each: float | None = None,
    ) -> Batch:
        """The backend's batch search (``Backend.search_many``) in this process, unjudged: the
        caller verifies every row (``bulk.verified``). The backend built for ``search`` if it
        is, else one built without loading it: a batch loads what it needs itself, and a later
        ``search`` loads that same one."""
        engine = self._engine
        if engine is None:
            if self._unloaded is None:
                start = time.perf_counter()
                self._unloaded = built(self.spec, load=False)
                self.setup_seconds += time.perf_counter() - start
            engine = self._unloaded
        return engine.search_many(values, board, limit, deadline, each)

    def attempt_each(
        self,
        boards: Sequence[Board],
        timeout: float | None = None,
        operation: Operation = Operation.SOLVE,
        limit: int = 1,
    ) -> list[Attempt]:
        """What ``each`` times, before judging: for a benchmark's timed region. Boards whose
        givens break a rule are the caller's to leave out (``judge`` does not look)."""
        if self._isolated(operation, timeout):
            try:
                inner, kill_after = self._deadlines(operation, timeout)
                return self.worker.attempt_each(operation, list(boards), limit, inner, kill_after)
            except Exception as error:  # a contained backend that fails as it is built
                if not self.contained or isinstance(error, _CALLERS_FAULT):
                    raise
                return [Attempt(None, error, 0.0, 0.0)] * len(boards)
        engine = self.engine
        return [attempt(engine, operation, board, limit, timeout) for board in boards]

    def peak_rss_kb(self) -> int:
        """Peak resident memory, in KiB, of the process the calls ran in; 0 for an isolated
        runner whose worker is not running (killed at a deadline, and not yet replaced)."""
        if self._worker is not None and (worker_peak := self._worker.peak_rss_kb()):
            return worker_peak
        return 0 if self.isolate or self.contained else peak_rss_kb()

    def warm_up(self, shape: Shape, timeout: float | None = None) -> None:
        """Untimed, once per shape: what the backend keeps per shape, and one solve of a
        complete board, so that a library's first-call initialisation is not charged to the
        first puzzle. A failure here is left for the puzzles to meet (and count)."""
        if shape in self._warm:
            return
        self._warm.add(shape)
        start = time.perf_counter()
        try:
            if self._isolated(Operation.SOLVE, timeout):
                self.worker.prepare(shape)
            else:
                self.engine.prepare(shape)
            self.each(Operation.SOLVE, [Board.pattern(shape)], 1, timeout)
        except (SolveTimeout, BackendCrashed, *_CALLERS_FAULT):
            pass
        except Exception:  # a contained backend that fails as it is built, say
            if not self.contained:
                raise
        self.setup_seconds += time.perf_counter() - start

    # Judging -------------------------------------------------------------------------

    def judge(
        self,
        operation: Operation,
        board: Board,
        limit: int,
        timeout: float | None,
        tried: Attempt,
    ) -> Answer:
        """What an attempt means: a timeout, an error, or a solution checked by the verifier.
        An answer that came after the timeout counts as a timeout."""
        times = {"seconds": tried.seconds, "cpu_seconds": tried.cpu_seconds}
        error = tried.error
        if isinstance(error, SolveTimeout):
            return Answer(Status.TIMEOUT, self.label, stats=error.stats, **times)
        if isinstance(error, _CALLERS_FAULT):
            raise error
        if error is not None:
            detail = str(error) if isinstance(error, BackendCrashed) else raised(error)
            return Answer(Status.ERROR, self.label, detail=detail, **times)
        found = tried.found
        if malformed := _malformed(found, board, limit):
            detail = f"backend {self.label} returned a malformed answer: {malformed}"
            return Answer(Status.WRONG, self.label, detail=detail, **times)
        stats = dict(found.stats)
        if timeout is not None and tried.seconds > timeout:
            return Answer(Status.TIMEOUT, self.label, stats=stats, **times)
        count = min(found.count, limit) if operation is Operation.COUNT else None
        if found.count < 1:
            return Answer(Status.UNSOLVABLE, self.label, count=count, stats=stats, **times)
        wrong = (
            ["it counted solutions but returned none"]
            if found.solution is None
            else problems(board, found.solution)
        )
        if wrong:
            detail = wrong_solution(self.label, wrong)
            return Answer(
                Status.WRONG, self.label, count=count, stats=stats, detail=detail, **times
            )
        return Answer(Status.SOLVED, self.label, found.solution, count, stats=stats, **times)

    def _isolated(self, operation: Operation, timeout: float | None) -> bool:
        if self.isolate is not None:
            return self.isolate
        if self.contained and may_start_workers():
            return True
        if self.spec.cls.RECYCLE_AFTER:  # a library that keeps memory per call
            return True
        if not self.spec.cls.INTERRUPTIBLE and signalled_here():
            return True
        return timeout is not None and not self.engine.stops_itself(operation)

    def _deadlines(self, operation: Operation, timeout: float | None) -> tuple:
        """(the deadline the backend is given, when its worker is killed)."""
        if timeout is None:
            return None, None
        if self._engine is not None:
            stops = self._engine.stops_itself(operation)
        else:
            stops = self.worker.stops_itself(operation)
        if not stops:
            return timeout, timeout
        scale, extra = BACKSTOP
        return timeout, timeout * scale + extra


def _malformed(found: object, board: Board, limit: int) -> str | None:
    """What is wrong with the form of a backend's answer (an outside backend's above all),
    or None: the verifier judges the solution itself afterwards."""
    if not isinstance(found, Found):
        kind = found.kind if isinstance(found, NotAFound) else type(found).__name__
        return f"search returned {kind}, not a Found"
    count, solution = found.count, found.solution
    if isinstance(count, bool) or not isinstance(count, int):
        return f"its count {count!r} is not a whole number"
    if not 0 <= count <= limit:
        return f"its count {count} is outside 0..{limit}"
    if not isinstance(found.stats, Mapping):
        return f"its stats are {type(found.stats).__name__}, not a mapping"
    if solution is not None:
        if not isinstance(solution, Board) or solution.shape != board.shape:
            return f"its solution is not a {board.size}x{board.size} board"
        if count == 0:
            return "it counted no solution but returned one"
    return None


# The runners this process reuses --------------------------------------------------------

_shared: dict[BackendSpec, Runner] = {}
# One lock per backend name, not per spec: two specs of one library still share it (Z3's one
# context per process, numba's compiler), and a runner's worker pipe serves one call at a time.
_locks: dict[str, threading.RLock] = {}
_cache_lock = threading.Lock()


def shared(spec: BackendSpec | str) -> Runner:
    """The runner this process keeps for ``spec`` (built on first use, closed at exit). From
    several threads, ask it only inside ``borrowed``."""
    key = spec if isinstance(spec, BackendSpec) else BackendSpec.parse(spec)
    with _cache_lock:
        runner = _shared.get(key)
        if runner is None:
            runner = _shared[key] = Runner(key)
            _locks.setdefault(key.name, threading.RLock())
    return runner


@contextmanager
def borrowed(spec: BackendSpec | str) -> Iterator[Runner]:
    """The shared runner for ``spec``, held by this thread alone until the block ends: calls
    from other threads to the same backend wait their turn."""
    runner = shared(spec)
    with _locks[runner.spec.name]:
        yield runner


def close_shared() -> None:
    with _cache_lock:
        for runner in _shared.values():
            with _locks[runner.spec.name]:
                runner.close()
        _shared.clear()


def _forget_parents_runners() -> None:
    # A forked child must not use (or stop) its parent's workers: it drops them unclosed, and
    # starts with fresh locks (another thread of the parent may have held one at the fork).
    global _cache_lock
    _shared.clear()
    _locks.clear()
    _cache_lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_parents_runners)
# At exit, ours first: exit hooks run last-registered first, and multiprocessing's own (made
# when multiprocessing.util is first imported) ends daemon children with SIGTERM and waits,
# which a library's native signal handler in the child can ignore. Ours kills them outright.
atexit.register(close_shared)
