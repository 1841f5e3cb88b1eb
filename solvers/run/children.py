"""What every child process of ours does first, so that none outlives the run.

A child (a pool worker, a backend's worker) takes a process group of its own and ignores
Ctrl-C, which is the parent's to act on; it blocks it too, since a library may put a handler of
its own in place during a search (PySAT's leaves CaDiCaL unusable). On Linux the kernel kills
the child when its parent dies, even by SIGKILL (``PR_SET_PDEATHSIG``). A child is stopped
with every process it started (``kill_tree``): ``minizinc`` and its solver go with it.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
from typing import Any

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
# Where the kernel kills a child of ours with its parent (``become_child``): there even a
# daemonic process, which its own parent ends with no clean-up, may start one.
DIES_WITH_PARENT = sys.platform.startswith("linux")


def _prctl(option: int, value: int) -> None:
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(option, value, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # no prctl here: the parent's own clean-up is all there is


def become_child(parent: int | None = None) -> None:
    """Ignore and block SIGINT, die at once on SIGTERM and SIGHUP (a Python handler cannot run
    while the child is inside a C library), and die with the parent (``parent``: its pid, to
    catch a parent that died before this was set). The death signal follows the thread that
    forked: fork from one that lives as long as the process (``worker._fork``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    with contextlib.suppress(OSError):  # a process group of its own, which kill_tree ends whole
        os.setpgid(0, 0)
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if parent is not None and os.getppid() != parent:
        os._exit(1)  # the parent is already gone


def become_pool_child(parent: int) -> None:
    """A pool worker's start: ``become_child``, and its temporary files, and those of the
    programs it runs (``minizinc``'s), in a folder of its own (``SCRATCH``), removed as it
    ends, or by ``kill_tree`` when its run stops it."""
    import shutil
    import tempfile
    from multiprocessing import util

    become_child(parent)
    folder = tempfile.mkdtemp(prefix=scratch_prefix())
    os.environ["TMPDIR"] = tempfile.tempdir = folder
    # multiprocessing runs its finalizers as a worker it started ends (no atexit there)
    util.Finalize(None, shutil.rmtree, (folder,), {"ignore_errors": True}, exitpriority=0)


def signalled_here() -> bool:
    """Whether this process is the one a user's signal is meant for: not a child that
    ``multiprocessing`` started (a pool worker, a backend's worker), which its parent stops."""
    import multiprocessing  # start-up that importing the package does not spend (docs/startup.md)

    return multiprocessing.parent_process() is None


# A backend worker's temporary folder (``worker.Worker``) is named for the process that made
# it: one that ``kill_tree`` killed before it could remove its worker's folder (a pool worker
# stopped with its run) has the folder removed by its killer.
SCRATCH = "sudoku-worker-"


def scratch_prefix() -> str:
    """The start of the name of a worker's temporary folder made by this process."""
    return f"{SCRATCH}{os.getpid()}-"


def _remove_scratch(pids: set[int]) -> None:
    import shutil
    import tempfile

    root = tempfile.gettempdir()
    with contextlib.suppress(OSError):
        for name in os.listdir(root):
            owner = name.removeprefix(SCRATCH).split("-")[0]
            if name.startswith(SCRATCH) and owner.isdigit() and int(owner) in pids:
                shutil.rmtree(os.path.join(root, name), ignore_errors=True)


def kill_tree(pid: int) -> None:
    """Kill the process ``pid`` and every process under it (SIGKILL): stopped first, so that
    it starts no more, then its descendants while they can still be found under it; then
    remove the worker folders they made (``SCRATCH``)."""
    import psutil  # only here: stopping a worker is rare beside importing the package

    try:
        root = psutil.Process(pid)
        root.suspend()
    except psutil.Error:  # already gone (the pool ended it as it broke): its folder is not
        _remove_scratch({pid})
        return
    groups, killed = set(), {pid}
    for _pass in range(2):  # a descendant caught starting a child of its own is met again
        with contextlib.suppress(psutil.Error):
            for process in [root, *root.children(recursive=True)]:
                killed.add(process.pid)
                with contextlib.suppress(OSError):
                    groups.add(os.getpgid(process.pid))
                if process is not root:
                    with contextlib.suppress(psutil.Error):
                        process.kill()
    # and whatever was being started meanwhile: a child is born in its parent's process group
    # (a child of ours has one of its own, become_child); never the caller's own group
    for group in groups - {os.getpgrp()}:
        with contextlib.suppress(OSError):
            os.killpg(group, signal.SIGKILL)
    with contextlib.suppress(psutil.Error):
        root.kill()
    _gone(root)  # before its folders are removed: it writes in them no more
    _remove_scratch(killed)


def _gone(process: Any, within: float = 1.0) -> None:
    """Wait until ``process`` is dead (a zombie counts), without reaping it: its parent's
    ``join`` does that."""
    import time

    import psutil

    by = time.monotonic() + within
    with contextlib.suppress(psutil.Error):
        while process.status() != psutil.STATUS_ZOMBIE and time.monotonic() < by:
            time.sleep(0.002)


def adopt_orphans() -> None:
    """Have every process started under this one handed to it, not to init, when its parent
    dies (Linux): a program of the command's own, never a library caller's. ``minizinc`` puts
    its solver in a process group of its own, so a solver whose ``minizinc`` died with its
    worker escaped both the descendants ``kill_tree`` found and the groups it ended (1 run in
    20 of the signal matrix's ``--jobs 2`` cells); adopted, ``end_descendants`` finds it."""
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)


def end_descendants(within: float = 2.0) -> None:
    """Kill every live process under this one, orphans adopted included, until none is left
    or ``within`` seconds have passed (zombies are dead: whoever waits for them reaps them);
    then remove the worker folders of those it killed."""
    import time

    import psutil

    me, by = psutil.Process(), time.monotonic() + within
    killed: set[int] = set()
    while time.monotonic() < by:
        alive = []
        with contextlib.suppress(psutil.Error):
            for process in me.children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    if process.status() != psutil.STATUS_ZOMBIE:
                        alive.append(process)
                        killed.add(process.pid)
                        process.kill()
        if not alive:
            break
        psutil.wait_procs(alive, timeout=0.05)
    _remove_scratch(killed)  # the worker folders (``SCRATCH``) of those it ended
