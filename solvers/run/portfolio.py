"""``portfolio``: a cheap search alone for a head start, then engines with different strengths
raced on the machine's cores, the first proof taken and the others stopped at once.

``HEAD_START`` searches here for ``head`` seconds, which is all most puzzles need; past it,
each member searches in a child forked, and loaded, for the one call (``race``): a run the head
start proves never imports numba. The first proof wins (a solution the verifier accepts, "no
solution", a finished count); the others are killed, and every child is reaped before
``search`` returns or raises. A member that crashes, raises or returns a wrong grid loses;
with no proof, the answer is the worst failure seen (a wrong grid, a crash, the timeout).
It lives in this layer, not beside the searches: forking and killing children is this
layer's work. docs/portfolio.md measures its members and head start.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import signal
import time
from collections.abc import Sequence
from multiprocessing.connection import Connection, Pipe, wait
from typing import Any, ClassVar

from solvers.backends.contract import Backend, Found, Operation
from solvers.backends.spec import BackendSpec
from solvers.base.deadline import Deadline
from solvers.base.errors import BackendCrashed, SolveTimeout
from solvers.model.board import Board
from solvers.model.compile import EVERY_KIND
from solvers.model.geometry import Shape
from solvers.model.verify import problems
from solvers.run.children import become_child
from solvers.run.runner import built
from solvers.run.worker import Attempt, attempt

# The first RACED available are raced: native, the fastest on every shipped set but
# non-consecutive, and CryptoMiniSat, the fastest there; pysat stands in for a missing one. Two:
# on two cores a third only takes time from them. Each is named with the module its library is
# imported as, looked for without importing it (loading numba takes half a second).
MEMBERS = {"native": "numba", "cms": "pycryptosat", "pysat": "pysat"}
RACED = 2
# Searches first, alone, here: it answers most variant puzzles in milliseconds and loads
# nothing. ``head``: its share in seconds (the default first; 0: race at once).
HEAD_START = "propagate"
HEAD_STARTS = ("0.3", "0", "0.05", "0.1", "0.2", "0.5")


_PRESENT = tuple([name for name, lib in MEMBERS.items() if importlib.util.find_spec(lib)][:RACED])
if len(_PRESENT) < RACED:
    # The registry makes this "portfolio is unavailable: ..." for `sudoku backends`.
    raise ImportError(f"portfolio needs two of {', '.join(MEMBERS)}; available: {_PRESENT}")


def _build(name: str) -> Backend:
    return built(BackendSpec(name))


class Portfolio(Backend):
    """``HEAD_START`` alone for its head start, then the first ``RACED`` available
    ``MEMBERS`` raced, one forked child each."""

    # What the head start and every member take (each declares EVERY_KIND; a test holds them
    # to it): a board beyond one of them is refused, never half-raced.
    ENCODES = EVERY_KIND
    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = {"head": HEAD_STARTS}

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        self.head = (HEAD_START, _build(HEAD_START))
        self.head_start = float(self.options["head"])
        # Each member by name: its child loads it (a member given built is forked ready).
        self.members: list[tuple[str, Backend | str]] = [(name, name) for name in _PRESENT]
        # A solution met per kind of board (its shape, classic or not), until the loaded
        # searches have searched it here once; then None.
        self._solved: dict[tuple[Shape, bool], Board | None] = {}

    def prepare(self, shape: Shape) -> None:
        # The members are not loaded here: compare, which prepares untimed, measures the race.
        self.head[1].prepare(shape)

    def close(self) -> None:
        for _name, member in (self.head, *self.members):
            if isinstance(member, Backend):
                member.close()

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        kind = (board.shape, board.rules.is_classic)
        if self._solved.get(kind) is not None:
            self._warm(kind)
        operation = Operation.SOLVE if limit == 1 else Operation.COUNT
        found = self._alone(operation, board, limit, deadline)
        if found is None:
            found = race(self.members, operation, board, limit, deadline)
        if kind not in self._solved and found.solution is not None:
            self._solved[kind] = found.solution
        return found

    def _alone(
        self, operation: Operation, board: Board, limit: int, deadline: Deadline
    ) -> Found | None:
        """The head start's proof, searched here; None when it has none by then (or cannot
        be stopped, or fails: the race answers)."""
        name, first = self.head
        remaining = deadline.remaining()
        if not first.stops_itself(operation) or self.head_start <= 0:
            return None
        if remaining is not None and remaining <= 0:
            raise SolveTimeout(stats=_stats(None, {}, {}))
        start = time.perf_counter()
        share = self.head_start if remaining is None else min(self.head_start, remaining)
        try:
            found = first.search(board, Deadline(share), limit)
        except (Exception, SystemExit):  # its deadline, or a failure the race will meet
            return None
        if not _proves(found, board):
            return None
        seconds = {name: time.perf_counter() - start}
        return Found(found.count, found.solution, dict(found.stats) | _stats(name, seconds, {}))

    def _warm(self, kind: tuple[Shape, bool]) -> None:
        """Each member loaded here searches a solved board of this kind, so that what it
        builds on its first call is made once and every child inherits it. Not before the
        second board of a kind: a single puzzle does not wait for each member's first call."""
        solved = self._solved[kind]
        self._solved[kind] = None
        for _name, member in (self.head, *self.members):
            # a member that fails here fails in its races too, where it is judged
            if isinstance(member, Backend):
                with contextlib.suppress(Exception):
                    member.search(solved, Deadline(1.0), 1)


def race(
    members: Sequence[tuple[str, Backend | str]],
    operation: Operation,
    board: Board,
    limit: int,
    deadline: Deadline,
) -> Found:
    """``operation`` on ``board`` by every member at once, each in a forked child (a name is
    loaded there, timed with its search); the first proof wins, its stats naming the winner
    and each member's seconds. SolveTimeout at the deadline; BackendCrashed when every member
    failed without a wrong grid, which comes back as the Found to be judged."""
    start = time.perf_counter()
    children: dict[Connection, tuple[str, int]] = {}
    seconds: dict[str, float] = {}
    cpu: dict[str, float] = {}
    failures: list[tuple[str, Attempt]] = []
    try:
        for name, member in members:
            reader, pid = _fork(member, operation, board, limit, deadline)
            children[reader] = (name, pid)
        pending = set(children)
        while pending:
            ready = wait(list(pending), deadline.remaining())
            if not ready:
                break  # the deadline
            for reader in ready:
                pending.discard(reader)
                name, pid = children[reader]
                try:
                    tried = reader.recv()
                except (EOFError, OSError):  # died without answering
                    crash = BackendCrashed(f"{name} died without answering")
                    tried = Attempt(None, crash, time.perf_counter() - start, 0.0)
                seconds[name] = tried.seconds
                if _proves(found := tried.found, board):
                    _stop(children, seconds, cpu, start)  # for each member's CPU seconds
                    stats = dict(found.stats) | _stats(name, seconds, cpu)
                    return Found(found.count, found.solution, stats)
                failures.append((name, tried))
    finally:
        _stop(children, seconds, cpu, start)
    stats = _stats(None, seconds, cpu)
    for _name, tried in failures:  # a grid that is not a solution: the runner judges it wrong
        if isinstance(tried.found, Found):
            return Found(tried.found.count, tried.found.solution, stats | dict(tried.found.stats))
    crashes = [(n, t.error) for n, t in failures if not isinstance(t.error, SolveTimeout)]
    if crashes and len(failures) == len(members):
        raise BackendCrashed("; ".join(f"{n}: {_said(e)}" for n, e in crashes))
    raise SolveTimeout(stats=stats)


def _fork(
    member: Backend | str, operation: Operation, board: Board, limit: int, deadline: Deadline
) -> tuple[Connection, int]:
    """A child that makes one attempt and sends it back; (the reading end, its pid)."""
    reader, writer = Pipe(duplex=False)
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 1
        try:
            reader.close()
            become_child(parent)
            tried = _attempt(member, operation, board, limit, deadline)
            try:
                writer.send(tried)
            except Exception as error:  # an answer that cannot be pickled
                writer.send(Attempt(None, BackendCrashed(_said(error)), tried.seconds, 0.0))
            code = 0
        finally:
            os._exit(code)  # no exit hooks of the parent's (its runners, its workers)
    writer.close()
    return reader, pid


def _attempt(
    member: Backend | str, operation: Operation, board: Board, limit: int, deadline: Deadline
) -> Attempt:
    """One attempt, in the child, with the deadline that is left: a member given by name is
    loaded first (a failure to load fails the attempt)."""
    start = time.perf_counter()
    try:
        engine = member if isinstance(member, Backend) else _build(member)
    except (Exception, SystemExit) as error:
        return Attempt(None, error, time.perf_counter() - start, 0.0)
    tried = attempt(engine, operation, board, limit, deadline.remaining())
    return tried._replace(seconds=time.perf_counter() - start)


def _proves(found: object, board: Board) -> bool:
    """Whether an answer proves something: no solution, or one the verifier takes."""
    if not isinstance(found, Found):
        return False
    if found.count < 1:
        return True
    return found.solution is not None and not problems(board, found.solution)


def _stop(
    children: dict[Connection, tuple[str, int]],
    seconds: dict[str, float],
    cpu: dict[str, float],
    start: float,
) -> None:
    """Kill and reap every child, keeping each one's CPU seconds and, for those stopped, the
    seconds they ran."""
    for name, pid in children.values():  # all killed before any is waited for
        with contextlib.suppress(ProcessLookupError):  # it had finished
            os.kill(pid, signal.SIGKILL)
        seconds.setdefault(name, time.perf_counter() - start)
    for reader, (name, pid) in list(children.items()):
        cpu[name] = _reap(pid)
        reader.close()
        del children[reader]


def _reap(pid: int) -> float:
    """Wait for a killed (or finished) child; its user and system CPU seconds."""
    while True:
        try:
            _pid, _status, usage = os.wait4(pid, 0)
        except InterruptedError:
            continue
        except ChildProcessError:
            return 0.0
        return usage.ru_utime + usage.ru_stime


def _stats(winner: str | None, seconds: dict[str, float], cpu: dict[str, float]) -> dict[str, Any]:
    stats: dict[str, Any] = {"winner": winner or "none"}
    for name, value in seconds.items():
        stats[f"{name}_s"] = round(value, 4)
    stats["members_cpu_s"] = round(sum(cpu.values()), 4)
    return stats


def _said(error: BaseException | None) -> str:
    if isinstance(error, BackendCrashed):
        return str(error)
    return f"{type(error).__name__}: {error}"
