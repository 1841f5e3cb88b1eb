"""Worker processes that answer backend calls and can be killed at a deadline.

For backends whose library has no way to stop at a deadline (CaDiCaL in PySAT ignores
interrupts, for one), the only deadline that holds is a process that can be killed. A worker is
a forked child that serves calls one at a time over a pipe, so a persistent solver lives on in
it from one puzzle to the next; a call that outlives its deadline has the worker killed, and
the next call forks a fresh one. A child that dies without answering (a crash in a C
extension) raises BackendCrashed; it never takes the caller down with it.
"""

from __future__ import annotations

import multiprocessing
from typing import Any

from solvers.deadline import Deadline, OutOfTime
from solvers.errors import BackendCrashed


class Worker:
    """One forked process serving ``registry.load(backend, **options).<method>(*args)``."""

    def __init__(self, backend: str, options: dict[str, str]) -> None:
        self.backend, self.options = backend, options
        self._process: Any = None
        self._pipe: Any = None

    def call(self, method: str, args: tuple, seconds: float | None) -> Any:
        """The method's answer; OutOfTime after ``seconds``, killing the worker."""
        if self._process is None or not self._process.is_alive():
            self._start()
        self._pipe.send((method, args))
        if not self._pipe.poll(seconds):
            self.stop()
            raise OutOfTime({"killed_after_s": seconds})
        try:
            kind, payload = self._pipe.recv()
        except EOFError:
            code = self._process.exitcode if self._process.join(1) is None else None
            self.stop()
            raise BackendCrashed(f"{self.backend} worker died (exit code {code})") from None
        if kind == "error":
            raise payload
        return payload

    def _start(self) -> None:
        context = multiprocessing.get_context("fork")
        self._pipe, child_end = context.Pipe()
        self._process = context.Process(
            target=_serve, args=(child_end, self.backend, self.options), daemon=True
        )
        self._process.start()
        child_end.close()

    def stop(self) -> None:
        if self._process is not None:
            if self._process.is_alive():
                self._process.kill()
            self._process.join()
            self._pipe.close()
        self._process = self._pipe = None


def _serve(pipe: Any, backend: str, options: dict[str, str]) -> None:
    from solvers import registry

    engine = registry.load(backend, **options)
    while True:
        try:
            method, args = pipe.recv()
        except EOFError:
            return
        try:
            pipe.send(("ok", getattr(engine, method)(*args, Deadline(None))))
        except BaseException as error:
            try:
                pipe.send(("error", error))
            except Exception:
                pipe.send(("error", BackendCrashed(f"worker failed: {error!r}")))
