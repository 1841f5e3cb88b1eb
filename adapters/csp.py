"""``csp``: python-constraint2 (import name ``constraint``).

One variable per cell, givens as one-value domains, one ``AllDifferentConstraint`` per unit; a
killer cage is one more AllDifferent and an ``ExactSumConstraint``.
The library's solver is an option; ``backtracking`` (forward checking) is the default by
measurement: the library's own default, ``optimized``, took seconds to over a minute on top95
puzzles that forward checking solved in tens of milliseconds (README, "Backends").

The library has no time limit. Its search calls the constraints at every step, so each unit's
constraint here counts its calls and ticks a ``Ticker``: past the deadline it raises
SolveTimeout from inside the search, which unwinds it there and then.
"""

from __future__ import annotations

from typing import ClassVar

import constraint

from solvers.backend import Backend, Found
from solvers.board import Board
from solvers.deadline import Deadline, Ticker

SOLVERS = {
    "backtracking": constraint.BacktrackingSolver,
    "optimized": constraint.OptimizedBacktrackingSolver,
    "recursive": constraint.RecursiveBacktrackingSolver,
}


class ConstraintBackend(Backend):
    RULES = frozenset({"x", "windoku", "jigsaw", "killer"})  # opt-in: what it encodes
    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = {"solver": tuple(SOLVERS)}

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        # one solution: getSolution; more: the solution iterator
        return self._first(board, deadline) if limit == 1 else self._count(board, limit, deadline)

    def _first(self, board: Board, deadline: Deadline) -> Found:
        problem, calls = self._problem(board, deadline)
        answer = problem.getSolution()
        stats = {"constraint_checks": calls.count, "solver": self.solver}
        if answer is None:
            return Found(0, None, stats)
        return Found(1, board.with_cells(answer[i] for i in range(len(answer))), stats)

    def _count(self, board: Board, limit: int, deadline: Deadline) -> Found:
        problem, calls = self._problem(board, deadline)
        found, first = 0, None
        for answer in problem.getSolutionIter():
            found += 1
            first = first or board.with_cells(answer[i] for i in range(len(answer)))
            if found >= limit:
                break
        return Found(found, first, {"constraint_checks": calls.count, "solver": self.solver})

    @property
    def solver(self) -> str:
        return self.options["solver"]

    def _problem(self, board: Board, deadline: Deadline):
        n = board.size
        problem = constraint.Problem(SOLVERS[self.solver]())
        for cell, v in enumerate(board.cells):
            problem.addVariable(cell, [v] if v else list(range(1, n + 1)))
        calls = _Calls()
        ticker = Ticker(deadline, lambda: {"constraint_checks": calls.count})
        for unit in board.geometry.units:
            problem.addConstraint(_TimedAllDifferent(calls, ticker), list(unit))
        for cage in board.rules.cages:
            problem.addConstraint(_TimedAllDifferent(calls, ticker), list(cage.cells))
            problem.addConstraint(constraint.ExactSumConstraint(cage.total), list(cage.cells))
        return problem, calls


class _Calls:
    count = 0


class _TimedAllDifferent(constraint.AllDifferentConstraint):
    """AllDifferent that counts its calls and lets the search be stopped at a deadline."""

    def __init__(self, calls: _Calls, ticker: Ticker) -> None:
        super().__init__()
        self.calls, self.ticker = calls, ticker

    def __call__(self, *args, **kwargs):
        self.calls.count += 1
        self.ticker.tick()
        return super().__call__(*args, **kwargs)
