"""A backend that takes its own process down, to show a crash is contained (tests only)."""

import faulthandler
import os
import signal
import time

from solvers.backends.contract import Backend


class Crasher(Backend):
    """Never answers a board whose first cell is 1 (the deadline must kill it); crashes its
    process with a segfault on any other."""

    def stops_itself(self, operation):
        return False

    def search(self, board, deadline, limit):
        if board.cells[0] == 1:
            time.sleep(60)
        faulthandler.disable()  # pytest's dump of the crash would only be noise here
        os.kill(os.getpid(), signal.SIGSEGV)


class KillOnce:
    """A per-puzzle task that kills its own worker process the first time it meets ``victim``
    (a marker file remembers it), and otherwise answers the number of givens."""

    def __init__(self, victim, marker: str) -> None:
        self.victim, self.marker = victim, marker

    def __call__(self, board):
        if board == self.victim and not os.path.exists(self.marker):
            with open(self.marker, "w", encoding="utf-8") as handle:
                handle.write(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
        return board.givens()


class CrashOnEmpty(Backend):
    """Segfaults its process on a board with no givens; otherwise the pattern of a real
    backend (propagate). Only a worker process can contain it: stops_itself is False."""

    def stops_itself(self, operation):
        return False

    def search(self, board, deadline, limit):
        from solvers.backends.handwritten.rules import PropagatingSearch

        if not any(board.cells):
            faulthandler.disable()
            os.kill(os.getpid(), signal.SIGSEGV)
        return PropagatingSearch(deadline, limit).run(board)
