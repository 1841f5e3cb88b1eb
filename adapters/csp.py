"""``csp``: python-constraint2 (import name ``constraint``).

One variable per cell, givens as one-value domains, one ``AllDifferentConstraint`` per unit.
The library's solver is an option; ``backtracking`` (forward checking) is the default by
measurement: the library's own default, ``optimized``, took seconds to over a minute on top95
puzzles that forward checking solved in tens of milliseconds (README, "Backends").

The library has no time limit. Its search calls the constraints at every step, so each unit's
constraint here counts its calls and looks at the clock every few thousand: past the deadline
it raises OutOfTime from inside the search, which unwinds it there and then.
"""

from __future__ import annotations

from typing import ClassVar

import constraint

from solvers.backend import Outcome, Tally, choose_options
from solvers.board import Board
from solvers.deadline import Deadline

SOLVERS = {
    "backtracking": constraint.BacktrackingSolver,
    "optimized": constraint.OptimizedBacktrackingSolver,
    "recursive": constraint.RecursiveBacktrackingSolver,
}
CHECK_CLOCK_EVERY = 2048  # constraint calls between looks at the clock


class ConstraintBackend:
    name: ClassVar[str] = "csp"
    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = {"solver": tuple(SOLVERS)}

    def __init__(self, **options: object) -> None:
        self.solver = choose_options(self.name, self.OPTIONS, options)["solver"]

    def native_deadline(self, operation: str) -> bool:
        return True

    def solve(self, board: Board, deadline: Deadline) -> Outcome:
        problem, clock = self._problem(board, deadline)
        answer = problem.getSolution()
        solution = (
            None if answer is None else board.with_cells(answer[i] for i in range(len(answer)))
        )
        return Outcome(solution, {"constraint_checks": clock.calls, "solver": self.solver})

    def count(self, board: Board, limit: int, deadline: Deadline) -> Tally:
        problem, clock = self._problem(board, deadline)
        found = 0
        for _answer in problem.getSolutionIter():
            found += 1
            if found >= limit:
                break
        return Tally(found, {"constraint_checks": clock.calls, "solver": self.solver})

    def _problem(self, board: Board, deadline: Deadline):
        n = board.size
        problem = constraint.Problem(SOLVERS[self.solver]())
        for cell, v in enumerate(board.cells):
            problem.addVariable(cell, [v] if v else list(range(1, n + 1)))
        clock = _Clock(deadline)
        for unit in board.geometry.units:
            problem.addConstraint(_TimedAllDifferent(clock), list(unit))
        return problem, clock


class _Clock:
    def __init__(self, deadline: Deadline) -> None:
        self.deadline, self.calls = deadline, 0

    def tick(self) -> None:
        self.calls += 1
        if self.calls % CHECK_CLOCK_EVERY == 0:
            self.deadline.check({"constraint_checks": self.calls})


class _TimedAllDifferent(constraint.AllDifferentConstraint):
    """AllDifferent that lets the search be stopped at a deadline."""

    def __init__(self, clock: _Clock) -> None:
        super().__init__()
        self.clock = clock

    def __call__(self, *args, **kwargs):
        self.clock.tick()
        return super().__call__(*args, **kwargs)
