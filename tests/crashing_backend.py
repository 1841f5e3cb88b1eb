"""A backend that takes its own process down, to show a crash is contained (tests only)."""

import faulthandler
import os
import signal
import time
from typing import ClassVar


class Crasher:
    name = "crasher"
    OPTIONS: ClassVar[dict] = {}

    def __init__(self, **options):
        pass

    def native_deadline(self, operation):
        return False

    def solve(self, board, deadline):
        if board.cells[0] == 1:
            time.sleep(60)  # never answers: the deadline must kill it
        faulthandler.disable()  # pytest's dump of the crash would only be noise here
        os.kill(os.getpid(), signal.SIGSEGV)

    def count(self, board, limit, deadline):
        return self.solve(board, deadline)
