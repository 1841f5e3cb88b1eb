"""``minizinc``: the puzzle's MiniZinc model (``adapters.mzn``) run through the official Python
package by the ``minizinc`` command and one of the solvers it drives.

``solver``: the solver configurations the installed MiniZinc runs here, found by solving a
tiny model with each once per process (Debian's package lists CPLEX, Gurobi, SCIP and Xpress
too, whose libraries are not installed, and Gecode Gist, a window). Gecode comes first, the
default: it is the only one Debian's package runs (docs/minizinc.md).

Each call is one ``minizinc`` process (the package's analysis of the model, one more, is
skipped: ``_Known``): it flattens the model to FlatZinc, then the solver searches, asked for
``limit`` solutions (``--num-solutions``; all of them past 2**31 - 1). The deadline is
MiniZinc's own time limit, which covers flattening and search; as a call overruns it (the
driver stops its solver, then exits: docs/minizinc.md), the backend says it does not
stop itself, and a call with a timeout runs in a worker process that is killed at the deadline
(the ``minizinc`` process it started ends at its own limit, the same instant). The toolchain's
warnings (Debian's Gecode library predates MiniZinc 2.6's names) are kept out of the user's
output: the package turns them into Python warnings, which are ignored here.

MiniZinc 2.6 reaches a solver's own propagator for a global through the global's ``fzn_`` file
in the solver's library; Debian's Gecode 6.2 library has its globals under their older names
only, so a model's ``all_different`` and ``table`` would reach Gecode decomposed, many times
slower (docs/minizinc.md). The model writes those older names (``adapters.mzn``), which reach
Gecode's own propagators, as the backend runs it and as a user runs the export alike.

``cages``: how a killer cage and the compile step's sum groups (the 45 rule's) are written
(``adapters.mzn_native.sum_group``): ``table`` (default, a table of the fillings) or ``sum``.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import tempfile
import time
import warnings
from datetime import timedelta
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from adapters import mzn
from solvers.backends.contract import Backend, Found, Operation, Solutions
from solvers.base.deadline import Deadline
from solvers.base.errors import BackendUnavailable, EngineError, SolveTimeout
from solvers.formats.symbols import VALUE_OF
from solvers.model.board import Board

INSTALL = "apt-get install minizinc"
PROBE_SECONDS = 10  # for each question asked of minizinc while looking at what it runs


def _started(command: list[str], folder: str | None = None) -> subprocess.Popen:
    """``command`` started in a process group of its own (killed whole), its temporary files
    in ``folder`` if given."""
    return subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=None if folder is None else {**os.environ, "TMPDIR": folder},
        start_new_session=True,
    )


def _output(process: subprocess.Popen, by: float) -> bytes | None:
    """What ``process`` wrote, once it has ended; None if it has not by the monotonic time
    ``by`` (it is killed then, with whatever it started)."""
    try:
        return process.communicate(timeout=max(0.0, by - time.monotonic()))[0]
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return None


# The package runs `minizinc --version` at import, with no time limit: asked first, with one.
if (found := shutil.which("minizinc")) and _output(
    _started([found, "--version"]), time.monotonic() + PROBE_SECONDS
) is None:
    raise BackendUnavailable(f"{found} --version gave no answer in {PROBE_SECONDS} s")
with warnings.catch_warnings(record=True) as _said:  # the package warns as it looks for minizinc
    warnings.simplefilter("always")
    import minizinc

MOST_SOLUTIONS = 2**31 - 1  # the largest --num-solutions MiniZinc reads
PREFERRED = ("gecode",)  # fastest first, by measurement (docs/minizinc.md)
PROBE = "var 1..2: x;\nconstraint x > 1;\nsolve satisfy;\n"


def _driver() -> minizinc.Driver:
    if minizinc.default_driver is None:
        said = [str(w.message).splitlines()[0] for w in _said]  # a version it cannot drive
        why = (said or ["minizinc not usable"])[0] if shutil.which("minizinc") else None
        why = why or "no minizinc command on PATH"
        raise BackendUnavailable(f"{why} ({INSTALL})")
    return minizinc.default_driver


@cache
def runnable_solvers() -> tuple[str, ...]:
    """The names (``gecode``, ...) of the solvers that solve a tiny model here: the preferred
    first, then the others in MiniZinc's order. Solvers that open a window or cannot stop at
    a number of solutions are left out."""
    driver = _driver()
    configs = {s.id: s for found in driver.available_solvers().values() for s in found}
    candidates = [s for s in configs.values() if not s.isGUIApplication and "-n" in s.stdFlags]
    # the probes' files (the model, minizinc's flattened ones) in a folder of their own,
    # removed with whatever a signal stopped midway
    folder = tempfile.mkdtemp(prefix="sudoku-minizinc-probe-")
    model = Path(folder, "probe.mzn")
    model.write_text(PROBE, encoding="utf-8")
    probes: dict[str, subprocess.Popen] = {}
    try:
        for s in candidates:
            command = [str(driver.executable), "--solver", s.id, str(model)]
            probes[s.id.split(".")[-1]] = _started(command, folder)
        by = time.monotonic() + PROBE_SECONDS  # a solver that gives no answer by then is left out
        runs = [name for name, probe in probes.items() if b"x = 2" in (_output(probe, by) or b"")]
    finally:
        for probe in probes.values():
            if probe.poll() is None:
                os.killpg(probe.pid, signal.SIGKILL)
                probe.wait()
        shutil.rmtree(folder, ignore_errors=True)
    return tuple(sorted(runs, key=lambda name: (name not in PREFERRED, runs.index(name))))


_SOLVERS = runnable_solvers()  # at import: a MiniZinc that runs nothing makes it unavailable
if not _SOLVERS:
    raise BackendUnavailable(f"MiniZinc runs none of its solvers here ({INSTALL})")


class MiniZincBackend(Backend):
    ENCODES = mzn.ENCODES
    NATIVE = mzn.NATIVE
    INTERRUPTIBLE = False  # asyncio's clean-up of an interrupted run waits on the minizinc process
    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = {
        "solver": _SOLVERS,
        "model": mzn.OPTIONS["model"],
        "cages": mzn.CAGES,
    }

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        self.solver = minizinc.Solver.lookup(self.options["solver"])
        self.model_kind = self.options["model"]

    def native_kinds(self) -> frozenset[str]:
        return self.NATIVE if self.model_kind == "native" else frozenset()

    def stops_itself(self, operation: Operation) -> bool:
        return False  # see the module's docstring: killed in a worker at the deadline

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        text = minizinc.Model()
        cages = self.options["cages"]
        text.add_string(mzn.model(board, native=self.native_kinds(), cages=cages))
        with warnings.catch_warnings():  # the toolchain's, kept out of the user's output
            warnings.simplefilter("ignore", minizinc.error.MiniZincWarning)
            driver = _Watched(_driver())
            instance = _Known(self.solver, text, driver)
            remaining = deadline.timeout()
            time_limit = None if remaining is None else timedelta(seconds=max(remaining, 1e-3))
            solutions = Solutions(limit)
            found = _enumerate(instance, solutions, time_limit)
            try:
                status, stats = asyncio.run(found)
            except minizinc.MiniZincError as error:
                raise EngineError(_failed(error, driver.process)) from None
        if solutions.count < limit and status not in _FINISHED:
            raise SolveTimeout(stats=stats)
        return solutions.found(board, stats)


class _Known(minizinc.Instance):
    """An instance whose interface is known without asking MiniZinc: every model
    ``adapters.mzn`` writes is a satisfaction problem whose answer is its output item's line.
    The package's own analysis is one more ``minizinc`` run per puzzle, a third of a call's
    time (docs/minizinc.md); the names set here are those its ``analyse`` sets (minizinc
    0.10), and a package that names them otherwise fails its ``method`` assertion on the
    first call, in every test of this backend."""

    def analyse(self) -> None:
        self._method_cache = minizinc.Method.SATISFY
        self._input_cache = {}
        self._output_cache = {"_output_item": str}
        self._has_output_item_cache = True
        self.output_type = _line


class _Watched:
    """The package's driver, keeping the ``minizinc`` process it starts: the package's error
    for a process that failed without a message does not say how it ended (its exit status,
    the signal that killed it), which the backend's error then says."""

    def __init__(self, driver: minizinc.Driver) -> None:
        self.driver, self.process = driver, None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.driver, name)

    async def _create_process(self, *arguments: Any, **options: Any):
        self.process = await self.driver._create_process(*arguments, **options)
        return self.process


def _failed(error: minizinc.MiniZincError, process) -> str:
    """Why the ``minizinc`` run failed, in one line: MiniZinc's own message (its first lines,
    joined), or how the process ended when it said nothing (its exit status, or the signal
    that killed it). The package's error is not raised as it is: it loses its message
    crossing to the runner's process (it is rebuilt from its arguments, which are not its
    constructor's), and a message may run over many lines."""
    said = [line.strip() for line in str(error).splitlines() if line.strip()]
    if said and not said[0].startswith("MiniZinc stopped with a non-zero exit code"):
        reason = " ".join(said[:2])
        return "minizinc failed: " + (reason if len(reason) <= 200 else reason[:197] + "...")
    code = None if process is None else process.returncode
    if code is not None and code < 0:
        try:
            return f"minizinc failed without a message, killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"minizinc failed without a message, killed by signal {-code}"
    return f"minizinc failed without a message (exit status {code})"


def _line(**output: Any) -> str:
    """A solution as the JSON stream gives it (``cell``, when it is not all given, and the
    output item's text): the line."""
    return output["_output_item"]


_FINISHED = (minizinc.Status.ALL_SOLUTIONS, minizinc.Status.UNSATISFIABLE)


async def _enumerate(
    instance: minizinc.Instance,
    solutions: Solutions,
    time_limit: timedelta | None,
):
    """MiniZinc's last status and the statistics, each solution added to ``solutions`` as it
    comes."""
    status, raw, limit = minizinc.Status.UNKNOWN, {}, solutions.limit
    asked = {"all_solutions": True} if limit > MOST_SOLUTIONS else {"nr_solutions": limit}
    async for result in instance.solutions(time_limit=time_limit, **asked):
        status = result.status
        raw.update(result.statistics)
        if result.solution is not None:
            solutions.add(VALUE_OF[symbol] for symbol in result.solution.strip())
    return status, _stats(raw)


# MiniZinc's and the solver's statistics by the project's names where the meaning is the same
# (solvers.backends.contract.STATS: a CP solver's failures are its conflicts); the rest by
# their own.
NAMES = {
    "nodes": "nodes",
    "failures": "conflicts",
    "solveTime": "solve_time_s",
    "flatTime": "flat_time_s",
    "initTime": "init_time_s",
    "propagations": "propagator_runs",
    "peakDepth": "peak_depth",
    "flatIntConstraints": "flat_constraints",
}


def _stats(raw: dict[str, Any]) -> dict[str, Any]:
    found = {name: raw[key] for key, name in NAMES.items() if raw.get(key) is not None}
    return {k: v.total_seconds() if isinstance(v, timedelta) else v for k, v in found.items()}
