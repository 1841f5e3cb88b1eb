"""Importing an outside package's module in a child process first, where it can do no harm.

A module runs its own code as it is imported: one that ends its process (``os._exit``, a
segfault in a C library), never returns (waits on a lock, a network, ``time.sleep``) or raises
what a caller would take for a signal (``KeyboardInterrupt``) would take the command with it.
``import_faults`` imports each module in a child interpreter of its own, with the caller's
``sys.path``, all at once and within ``IMPORT_SECONDS``, and says what went wrong; only a
module that imports cleanly there is imported by the caller. What a module prints as it loads
goes nowhere. Built-in backends are never probed: they are the project's own.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass

# Long enough for a package that loads a large library (numba, torch) on a loaded machine;
# a module that takes longer is taken for one that never returns.
IMPORT_SECONDS = 20.0
_MOST = 4096  # bytes of a verdict: within a pipe's buffer, so the child never waits to write it

# Run by ``python -c`` with the module's name, the caller's pid and its sys.path (JSON). The
# verdict goes to the original standard output; the module's own output to standard error,
# which the caller discards. The child dies with the caller (a SIGKILLed command leaves no
# import hanging on), and has a session of its own, killed whole at the deadline.
_CHILD = """
import ctypes, importlib, json, os, signal, sys
verdict = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)
try:
    ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
except (OSError, AttributeError):
    pass
if os.getppid() != int(sys.argv[2]):
    os._exit(1)
sys.path[:] = json.loads(sys.argv[3])
try:
    importlib.import_module(sys.argv[1])
except BaseException as error:
    said = {"raised": type(error).__name__, "message": str(error)[:500]}
    said["missing"] = isinstance(error, ImportError)
    verdict.write(json.dumps(said))
else:
    verdict.write('"ok"')
verdict.flush()
os._exit(0)
"""


@dataclass(frozen=True)
class ImportFault:
    """Why a module cannot be imported here: one line; ``missing`` for an ImportError (a
    library that is not installed), whose text is the error's own."""

    why: str
    missing: bool = False


def import_faults(
    modules: Iterable[str], seconds: float = IMPORT_SECONDS
) -> dict[str, ImportFault | None]:
    """Each module's fault (None: it imports cleanly), from one child process per module, all
    started at once and stopped ``seconds`` after. Modules that cannot be probed here (no
    interpreter to start) are left out of the answer: the caller imports them as it would."""
    started: dict[str, subprocess.Popen] = {}
    path = json.dumps(sys.path)
    try:
        for module in dict.fromkeys(modules):
            try:
                started[module] = subprocess.Popen(
                    [sys.executable, "-c", _CHILD, module, str(os.getpid()), path],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
            except OSError:
                continue
        by = time.monotonic() + seconds
        return {module: _fault(module, process, by, seconds) for module, process in started.items()}
    finally:  # an interrupted caller leaves no child behind
        for process in started.values():
            if process.returncode is None:
                _kill(process)


def _fault(module: str, process: subprocess.Popen, by: float, seconds: float) -> ImportFault | None:
    try:
        process.wait(timeout=max(0.0, by - time.monotonic()))
    except subprocess.TimeoutExpired:
        _kill(process)
        return ImportFault(f"importing {module} did not end within {seconds:g} s")
    _kill(process)  # what the module started goes with it
    try:
        verdict = json.loads(_written(process))
    except ValueError:
        verdict = None
    if verdict == "ok":
        return None
    if isinstance(verdict, dict):
        message = " ".join(str(verdict["message"]).split())
        if verdict["missing"]:
            return ImportFault(message, missing=True)
        raised = f"importing {module} raised {verdict['raised']}"
        return ImportFault(f"{raised}: {message}" if message else raised)
    code = process.returncode
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = str(-code)
        return ImportFault(f"importing {module} killed its process (signal {name})")
    return ImportFault(f"importing {module} ended its process (exit code {code})")


def _written(process: subprocess.Popen) -> bytes:
    """What the ended child wrote as its verdict: whatever is in the pipe (a descendant that
    left its process group may hold the pipe open, so no waiting for its end)."""
    fd = process.stdout.fileno()
    os.set_blocking(fd, False)
    try:
        return os.read(fd, _MOST)
    except BlockingIOError:
        return b""
    finally:
        process.stdout.close()


def _kill(process: subprocess.Popen) -> None:
    """Kill ``process`` and whatever it started (its session's process group)."""
    with contextlib.suppress(OSError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        process.kill()
    process.wait()
