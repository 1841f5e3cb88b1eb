"""A backend as a newcomer would add one: one module, one class (tests only).

Tiny solves by trying, for the first empty cell, each value no peer holds, and recursing: what
a first search looks like. It is registered in the tests with one ``register`` line.
"""

import sys

from solvers.backends.contract import Backend, Found, Solutions
from solvers.base.deadline import Ticker


class Tiny(Backend):
    def search(self, board, deadline, limit):
        solutions = Solutions(limit)
        ticker = Ticker(deadline, dict)
        peers = board.geometry.peers

        def fill(cells):
            if 0 not in cells:
                return solutions.add(cells)
            cell = cells.index(0)
            taken = {cells[p] for p in peers[cell]}
            for value in range(1, board.size + 1):
                if value not in taken:
                    ticker.tick()
                    cells[cell] = value
                    if fill(cells):
                        return True
            cells[cell] = 0
            return False

        fill(list(board.cells))
        return solutions.found(board, {})


class Liar(Backend):
    """Returns the complete pattern board whatever the givens: wrong for most puzzles."""

    def search(self, board, deadline, limit):
        from solvers.model.board import Board

        wrong = list(Board.pattern(board.shape).cells)
        wrong[0], wrong[1] = wrong[1], wrong[0]
        return Found(1, board.with_cells(wrong), {})


class Unsure(Tiny):
    """Tiny, but sure there is no solution when the first cell is empty: a bug that only a
    shuffled copy of a puzzle can show."""

    def search(self, board, deadline, limit):
        if board.cells[0] == 0:
            return Found(0, None, {})
        return super().search(board, deadline, limit)


class Undercounter(Backend):
    """Propagate's answers, but never counts more than one solution: a counting bug."""

    def search(self, board, deadline, limit):
        from solvers.backends.handwritten.rules import PropagatingSearch

        found = PropagatingSearch(deadline, limit).run(board)
        return Found(min(found.count, 1), found.solution, found.stats)


class GivesUp(Backend):
    """Gives up without an answer, as an engine that says "unknown" does, with no deadline."""

    def search(self, board, deadline, limit):
        from solvers.base.errors import SolveTimeout

        raise SolveTimeout(stats={"gave_up": True})


class Misshapen(Backend):
    """Answers in a wrong form, as a careless outside backend might: ``ANSWER`` picks how."""

    ANSWER = "none"

    def search(self, board, deadline, limit):
        from solvers.backends.contract import Found
        from solvers.model.board import Board

        pattern = Board.pattern(board.shape)
        return {
            "none": None,
            "text": Found("2", None),
            "negative": Found(-1),
            "over": Found(limit + 5, pattern),
            "float": Found(1.0, pattern),
            "short": Found(1, Board.pattern(type(board.shape)(3, 3))),  # 9x9 for a 4x4
            "zero": Found(0, pattern),
        }[self.ANSWER]


class Exits(Backend):
    """Calls sys.exit inside its search."""

    def search(self, board, deadline, limit):
        import sys

        sys.exit(0)


class Paced(Backend):
    """Propagate's search, then as much CPU again as ``PACE - 1`` such searches: a slowdown
    that a machine's load does not explain."""

    PACE = 1

    def search(self, board, deadline, limit):
        import time

        from solvers.backends.handwritten.rules import PropagatingSearch

        start = time.process_time()
        found = PropagatingSearch(deadline, limit).run(board)
        until = start + self.PACE * (time.process_time() - start)
        while time.process_time() < until:
            pass
        return Found(found.count, found.solution, found.stats)


class FiveTimesSlower(Paced):
    PACE = 5


class Chatty(Tiny):
    """Tiny, talking as some engines do while they search: a line from C through the C
    library's buffered standard output (HiGHS's debug lines are printed so), and one from
    Python."""

    def search(self, board, deadline, limit):
        import ctypes

        ctypes.CDLL(None).printf(b"chatty from C\n")
        print("chatty from Python")
        return super().search(board, deadline, limit)


class Overcounter(Backend):
    """Propagate's answers, but a unique puzzle counted as two: a counting bug the other way."""

    def search(self, board, deadline, limit):
        from solvers.backends.handwritten.rules import PropagatingSearch

        found = PropagatingSearch(deadline, limit).run(board)
        count = 2 if found.count == 1 and limit >= 2 else found.count
        return Found(count, found.solution, found.stats)


class SaysUnsolvable(Backend):
    """Sure that no puzzle has a solution."""

    def search(self, board, deadline, limit):
        return Found(0, None, {})


class Raises(Backend):
    """Fails on every puzzle, as a backend with a bug in its glue does."""

    def search(self, board, deadline, limit):
        raise RuntimeError("the glue broke")


class Unpicklable(Backend):
    """Propagate's answers, with a statistic that pickle cannot send from a worker process."""

    def search(self, board, deadline, limit):
        from solvers.backends.handwritten.rules import PropagatingSearch

        found = PropagatingSearch(deadline, limit).run(board)
        return Found(found.count, found.solution, {"hook": lambda: None})


class NeedsRoom(Backend):
    """Propagate's answers, with a statistic whose pickling nests almost as deep as the
    recursion limit allows from a fresh stack: more than a worker's main thread has left,
    forked inside its parent's calls."""

    def search(self, board, deadline, limit):
        from solvers.backends.handwritten.rules import PropagatingSearch

        found = PropagatingSearch(deadline, limit).run(board)
        return Found(found.count, found.solution, {"room": _Room()})


class _Room:
    def __reduce__(self):
        def down(n: int) -> int:
            return 0 if n == 0 else down(n - 1)

        down(sys.getrecursionlimit() - 40)
        return int, (7,)


class SolverNotCounter(Backend):
    """Propagate's answers, but gives up counting past the first, as a search that finds a
    solution in time and runs out of it proving there is no second."""

    def search(self, board, deadline, limit):
        from solvers.backends.handwritten.rules import PropagatingSearch
        from solvers.base.errors import SolveTimeout

        if limit > 1:
            raise SolveTimeout(stats={"gave_up": True})
        return PropagatingSearch(deadline, limit).run(board)
