"""Outside backends that misbehave, each in its own way, for tests/test_plugins.py to install
through real entry points: a search that crashes its process, exits, never looks at its
deadline or raises a BaseException on a board whose first cell is empty (and answers every
other board with the project's propagating search), and classes that cannot be backends."""

import ctypes
import os
import sys
import time
from typing import ClassVar

from solvers.backends.contract import Backend, Found
from solvers.backends.handwritten.rules import PropagatingSearch


class Hostile(Backend):
    """Propagate's answers, except on a board whose first cell is empty: there ``misbehave``."""

    def search(self, board, deadline, limit) -> Found:
        if board.cells[0] == 0:
            self.misbehave()
        return PropagatingSearch(deadline, limit).run(board)

    def misbehave(self) -> None:
        raise NotImplementedError


class OsExit(Hostile):
    def misbehave(self) -> None:
        os._exit(3)


class Segfault(Hostile):
    def misbehave(self) -> None:
        import faulthandler

        faulthandler.disable()  # a dump of the crash would only be noise
        ctypes.string_at(0)


class ExitZero(Hostile):
    def misbehave(self) -> None:
        sys.exit(0)


class Deaf(Hostile):
    """Never looks at its deadline."""

    def misbehave(self) -> None:
        while True:
            time.sleep(0.01)


class RaisesBase(Hostile):
    def misbehave(self) -> None:
        raise BaseException("a search that gave up its own way")


class InProcess(Hostile):
    """Declares it may run in the caller's process: it says which process it ran in, by the
    process that started that one."""

    IN_PROCESS = True

    def misbehave(self) -> None:
        raise RuntimeError(f"ran in a child of process {os.getppid()}")


class Isolated(InProcess):
    IN_PROCESS = False


class NotABackend:
    def search(self, board, deadline, limit):
        return Found(0)


def a_function(board, deadline, limit):
    return Found(0)


NOT_A_CLASS = ["a", "list"]  # not even hashable


class EncodesText(Hostile):
    ENCODES = "sum groups"


class EncodesUnknown(Hostile):
    ENCODES = frozenset({"everything"})


class OptionsText(Hostile):
    OPTIONS: ClassVar = {"model": "fast"}


class OptionsEmpty(Hostile):
    OPTIONS: ClassVar = {"model": ()}


class OptionsList(Hostile):
    OPTIONS: ClassVar = ["model"]


class SummaryNumber(Hostile):
    SUMMARY = 5


class LibraryList(Hostile):
    LIBRARY: ClassVar = ["somelib"]


class Described(Hostile):
    SUMMARY = "propagate, from an outside package"
    LIBRARY = "numpy"  # not that it uses it: the listing shows the version of what it names

    def misbehave(self) -> None:
        pass


class ExitsWhenBuilt(Hostile):
    def __init__(self, **options: str) -> None:
        os._exit(4)


class RaisesWhenBuilt(Hostile):
    def __init__(self, **options: str) -> None:
        raise RuntimeError("cannot build")


class ReturnsNone(Backend):
    def search(self, board, deadline, limit):
        return None


class ReturnsText(Backend):
    def search(self, board, deadline, limit):
        return Found("2")


class ReturnsGenerator(Backend):
    """Its answer cannot even be sent from its worker process."""

    def search(self, board, deadline, limit):
        return (solution for solution in ())
