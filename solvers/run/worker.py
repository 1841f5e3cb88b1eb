"""A worker process that answers a backend's calls and can be killed at a deadline.

Where a library cannot stop at a deadline (Lingeling takes no budget, exact-cover's C search
has no clock), only a process that can be killed keeps it; ``sudoku compare`` runs every
backend in one, so that a crash costs one puzzle. A worker is a forked child serving calls one
at a time over a pipe (a persistent solver lives on in it); a call past its deadline has it
killed, and the next call forks a fresh one. A child that dies without answering becomes a
BackendCrashed. Each call is timed inside the worker, the pipe and the pickling left out.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import resource
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from solvers.backends.contract import Backend, Found, Operation
from solvers.base import signals
from solvers.base.deadline import Deadline
from solvers.base.errors import BackendCrashed, SolveTimeout, UsageError
from solvers.model.board import Board
from solvers.model.geometry import Shape
from solvers.run.children import DIES_WITH_PARENT, become_child, kill_tree, scratch_prefix


class Attempt(NamedTuple):
    """One call of a backend before it is judged: what it found or raised, and its times."""

    found: Found | None
    error: BaseException | None
    seconds: float
    cpu_seconds: float


def attempt(
    engine: Backend,
    operation: Operation,
    board: Board,
    limit: int,
    timeout: float | None,
    contained: bool = False,
) -> Attempt:
    """One call of the backend, its deadline starting with the call, timed alone; a failure
    is handed back for the caller to judge. ``contained`` (in a worker, which ignores
    Ctrl-C): what the backend raises beyond an Exception (a bare BaseException, a
    KeyboardInterrupt of its own) fails this puzzle too, instead of ending the worker."""
    start, cpu = time.perf_counter(), cpu_seconds()
    try:
        deadline = Deadline(timeout)
        found = engine.search(board, deadline, 1 if operation is Operation.SOLVE else limit)
    # a signal's exception (Ctrl-C, SIGTERM) ends the run instead; a backend that calls
    # sys.exit is a backend that failed on this puzzle, not the end of the run
    except (Exception, SystemExit) as error:
        return Attempt(None, error, time.perf_counter() - start, cpu_seconds() - cpu)
    except BaseException as error:
        if not contained:
            raise
        crash = BackendCrashed(raised(error))
        return Attempt(None, crash, time.perf_counter() - start, cpu_seconds() - cpu)
    if not isinstance(found, Found | None):  # a generator, say, cannot cross the pipe
        found = NotAFound(type(found).__name__)
    return Attempt(found, None, time.perf_counter() - start, cpu_seconds() - cpu)


def raised(error: BaseException) -> str:
    return f"backend raised {type(error).__name__}: {error}"


class NotAFound:
    """Stands in for an answer that is not a ``Found``, naming its type for the runner's
    check of the answer's form (``runner._malformed``)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind


def cpu_seconds() -> float:
    """This process's CPU seconds and those of the children it has reaped: a backend that
    races members in children of its own (``portfolio``) is charged what they used."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def peak_rss_kb() -> int:
    """This process's peak resident memory so far, in KiB (Linux's ``ru_maxrss``)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


class Worker:
    """One forked process serving the backend that ``build`` makes (in the child), replaced
    after every ``recycle`` calls if given: what a leaking library kept goes with it."""

    def __init__(self, build: Callable[[], Backend], name: str, recycle: int | None = None) -> None:
        self.build, self.name, self.recycle = build, name, recycle
        self._served = 0  # calls the running process has served
        self._process: Any = None
        self._pipe: Any = None
        self._stops: dict[Operation, bool] = {}
        self._scratch: str | None = None

    def stops_itself(self, operation: Operation) -> bool:
        self._ensure_started()
        return self._stops[operation]

    def attempt_each(
        self,
        operation: Operation,
        boards: list[Board],
        limit: int,
        inner: float | None,
        kill_after: float | None,
    ) -> list[Attempt]:
        """Each board in turn, sent in one request (a busy worker keeps its caches warm) and
        answered one by one; a board past ``kill_after``, or whose worker dies, is its timeout
        or crash, and the boards after it go to a fresh worker."""
        attempts: list[Attempt] = []
        while len(attempts) < len(boards):
            self._ensure_started()  # a fresh process has served none
            rest = boards[len(attempts) :]
            if self.recycle:
                rest = rest[: self.recycle - self._served]
            self._request(("each", operation, rest, limit, inner))
            for _board in rest:
                self._served += 1
                try:
                    attempts.append(self._reply(kill_after))
                except (SolveTimeout, BackendCrashed) as error:
                    attempts.append(Attempt(None, error, kill_after or 0.0, 0.0))
                    break
            if self.recycle and self._served >= self.recycle:
                self.stop()
        return attempts

    def peak_rss_kb(self) -> int:
        """The worker's peak resident memory so far, in KiB (0 when it is not running)."""
        if self._process is None or not self._process.is_alive():
            return 0
        self._request(("usage",))
        return self._reply(None)

    def prepare(self, shape: Shape) -> None:
        self._request(("prepare", shape))
        self._reply(None)

    def _request(self, request: tuple) -> None:
        self._ensure_started()
        self._pipe.send(request)

    def _reply(self, seconds: float | None) -> Any:
        """The next reply; SolveTimeout (the worker killed) if none comes within ``seconds``,
        BackendCrashed if the worker dies first. Interrupted, the worker is killed too."""
        try:
            if not self._pipe.poll(seconds):
                self.stop()
                raise SolveTimeout(stats={"killed_after_s": seconds})
            kind, payload = self._pipe.recv()
        except (EOFError, ConnectionError):  # the worker died mid-reply
            self._process.join(1)
            code = self._process.exitcode
            self.stop()
            raise BackendCrashed(f"{self.name} worker died (exit code {code})") from None
        except BaseException:
            self.stop()
            raise
        if kind == "error":
            raise payload
        return payload

    def _ensure_started(self) -> None:
        if self._process is not None and self._process.is_alive():
            return
        self.stop()
        if not may_start_workers():
            raise UsageError(
                f"{self.name} needs a worker process to keep a timeout, and this process is"
                " daemonic (a multiprocessing.Pool or Dask worker), which may not have children"
                " here: call without a timeout, or from a non-daemonic pool"
                " (concurrent.futures.ProcessPoolExecutor; Dask workers started with"
                " DASK_DISTRIBUTED__WORKER__DAEMON=False)"
            )
        context = multiprocessing.get_context("fork")
        # a stop that lands inside multiprocessing's start (a Finalize half made: "Exception
        # ignored ... no attribute '_key'" on stderr at exit) is acted on once it is done
        with signals.held():
            self._pipe, child_end = context.Pipe()
            self._scratch = tempfile.mkdtemp(prefix=scratch_prefix())
            process = context.Process(
                target=_serve,
                args=(child_end, self._pipe, self.build, os.getpid(), self._scratch),
                daemon=True,
            )
            try:
                _fork(process)
            finally:
                child_end.close()
            self._process = process  # only once started: a worker that never was is not kept
        try:
            self._stops = self._reply(None)
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Kill the worker with every process it started; remove its temporary files."""
        if self._process is not None:
            if self._process.is_alive():
                kill_tree(self._process.pid)
            self._process.join()
            self._pipe.close()
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
        self._process = self._pipe = self._scratch = None
        self._served = 0


def may_start_workers() -> bool:
    """Whether this process may start a worker: any process where a child dies with its
    parent (Linux), else one that is not daemonic."""
    return DIES_WITH_PARENT or not multiprocessing.current_process().daemon


# A child is forked from a thread that lives as long as the process: the kernel's death
# signal (``become_child``) follows the thread that forked, and a caller's thread may end
# while its worker lives on. The main thread forks its own; the others ask this one.
_forker: concurrent.futures.ThreadPoolExecutor | None = None
_forker_lock = threading.Lock()
_starting = threading.Lock()  # one start at a time: the daemonic flag is lifted for each


def _fork(process: multiprocessing.process.BaseProcess) -> None:
    global _forker
    if threading.current_thread() is threading.main_thread():
        _start(process)
        return
    with _forker_lock:
        if _forker is None:
            _forker = concurrent.futures.ThreadPoolExecutor(1, "sudoku-forker")
    _forker.submit(_start, process).result()


def _start(process: multiprocessing.process.BaseProcess) -> None:
    """Start ``process``, from a daemonic process too (a Dask worker under its nanny, a
    multiprocessing.Pool's worker): multiprocessing refuses one children, since its parent
    ends it with no clean-up and they would be orphaned; ours die with it instead (the death
    signal of ``become_child``), so the refusal is lifted for the start alone."""
    with _starting:
        this = multiprocessing.current_process()
        daemonic = this.daemon
        this.daemon = False
        try:
            process.start()
        finally:
            this.daemon = daemonic


def _unlock_after_fork() -> None:
    # a child forked by _start inherits _starting held: it starts workers of its own unheld
    global _starting
    _starting = threading.Lock()


os.register_at_fork(after_in_child=_unlock_after_fork)


def _serve(
    pipe: Any, parents_end: Any, build: Callable[[], Backend], parent: int, scratch: str
) -> None:
    """Answer the parent's requests until the pipe closes (the parent's end is closed here, so
    that its death is an end of file). What the backend prints goes nowhere; its temporary
    files, and its programs', go in ``scratch``, which the parent removes."""
    become_child(parent)
    parents_end.close()
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.environ["TMPDIR"] = tempfile.tempdir = scratch
    _answer(pipe, build)


def _answer(pipe: Any, build: Callable[[], Backend]) -> None:
    try:
        engine = build()
        stops = {operation: engine.stops_itself(operation) for operation in Operation}
    except BaseException as error:
        _send(pipe, ("error", error))
        return
    pipe.send(("ok", stops))
    while True:
        try:
            kind, *args = pipe.recv()
        except EOFError:
            return
        if kind == "each":
            operation, boards, limit, inner = args
            for board in boards:
                _send(pipe, ("ok", attempt(engine, operation, board, limit, inner, True)))
        elif kind == "usage":
            _send(pipe, ("ok", peak_rss_kb()))
        else:
            try:
                engine.prepare(args[0])
            except Exception as error:
                _send(pipe, ("error", error))
                continue
            _send(pipe, ("ok", None))


def _send(pipe: Any, reply: tuple[str, Any]) -> None:
    """Send a reply; one that cannot be pickled goes back as a BackendCrashed.

    A search's exception is sent without its traceback, whose frames (hundreds, from a deep
    recursive search) go at once rather than in a collection during the pickling. Pickling
    that still meets the recursion limit (seen after a deep search stopped by its deadline,
    in a process where a gc callback was installed before the fork: hypothesis's, in the test
    run) is done again on a thread of its own, whose count of nested calls starts afresh."""
    if reply[0] == "ok" and isinstance(reply[1], Attempt) and reply[1].error is not None:
        reply[1].error.with_traceback(None)
    try:
        try:
            pipe.send(reply)
        except RecursionError:
            _on_a_thread(pipe.send, reply)
    except Exception as error:
        # the reply itself is not shown: an answer's repr is a whole grid and its stats
        failure = BackendCrashed(f"worker could not send its reply: {error}")
        pipe.send(
            ("ok", Attempt(None, failure, 0.0, 0.0)) if reply[0] == "ok" else ("error", failure)
        )


def _on_a_thread(call: Callable[[Any], None], argument: Any) -> None:
    """``call(argument)`` on a new thread, waited for; what it raises is raised here."""
    raised: list[BaseException] = []

    def run() -> None:
        try:
            call(argument)
        except BaseException as error:
            raised.append(error)

    thread = threading.Thread(target=run, name="sudoku-reply")
    thread.start()
    thread.join()
    if raised:
        raise raised[0]
