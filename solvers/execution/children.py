"""What every child process of ours does first, so that none outlives the run.

A child (a pool worker, a backend's worker process) ignores Ctrl-C: the interrupt reaches the
whole process group, and it is the parent's to act on (it stops its children itself). And on
Linux the kernel kills the child when its parent dies, even by SIGKILL, when nothing of ours
had the chance to clean up (``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

_PR_SET_PDEATHSIG = 1


def become_child(parent: int | None = None, from_main_thread: bool = True) -> None:
    """Ignore SIGINT, die at once on SIGTERM and SIGHUP (whatever Python handlers the parent
    had when it forked: a handler cannot run while the child is inside a C library), and die
    with the parent (``parent``: its pid, to catch a parent that died before this was set).

    ``from_main_thread`` False: the kernel's death signal is left unset, because it follows
    the thread that forked, not the process, and would kill a worker that outlives a caller's
    thread; such a child ends when its pipe to the parent closes instead."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)
    if from_main_thread and sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # no prctl here: the parent's own clean-up is all there is
    if parent is not None and os.getppid() != parent:
        os._exit(1)  # the parent is already gone
