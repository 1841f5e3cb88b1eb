"""``csp``: python-constraint2 (import name ``constraint``).

One variable per cell, givens as one-value domains, one ``AllDifferentConstraint`` per unit of
the board's flattened geometry. The rest of its rules, the board's primitives
(``solvers.model.compile``), are the library's own constraints (``_compiled``).
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

from solvers.backends.contract import Backend, Found, Solutions
from solvers.base.deadline import Deadline, Ticker
from solvers.model.board import Board
from solvers.model.compile import PRIMITIVES, flatten
from solvers.model.constraints.primitives import AllDifferent, Domain, Linear, Relation

SOLVERS = {
    "backtracking": constraint.BacktrackingSolver,
    "optimized": constraint.OptimizedBacktrackingSolver,
    "recursive": constraint.RecursiveBacktrackingSolver,
}


class ConstraintBackend(Backend):
    ENCODES = frozenset({PRIMITIVES})
    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = {"solver": tuple(SOLVERS)}

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        problem, calls = self._problem(board, deadline)
        solutions = Solutions(limit)
        if limit == 1:  # the library's own search for one
            answers = [answer] if (answer := problem.getSolution()) is not None else []
        else:
            answers = problem.getSolutionIter()
        for answer in answers:
            if solutions.add(answer[i] for i in range(len(answer))):
                break
        return solutions.found(board, {"constraint_checks": calls.count, "solver": self.solver})

    @property
    def solver(self) -> str:
        return self.options["solver"]

    def _problem(self, board: Board, deadline: Deadline):
        n, flat = board.size, flatten(board)
        problem = constraint.Problem(SOLVERS[self.solver]())
        for cell, v in enumerate(board.cells):
            problem.addVariable(cell, [v] if v else list(range(1, n + 1)))
        calls = _Calls()
        ticker = Ticker(deadline, lambda: {"constraint_checks": calls.count})
        for unit in flat.units:
            problem.addConstraint(_TimedAllDifferent(calls, ticker), list(unit))
        for primitive in flat.primitives_for(self.ENCODES):
            if isinstance(primitive, AllDifferent):
                problem.addConstraint(_TimedAllDifferent(calls, ticker), list(primitive.cells))
            else:
                problem.addConstraint(*_compiled(primitive))
        return problem, calls


def _compiled(primitive) -> tuple[constraint.Constraint, list[int]]:
    """The library's constraint for a primitive other than all-different, and its cells: a
    relation, a "!=" row and a table as functions (the library has no table constraint)."""
    if isinstance(primitive, Relation):
        forbidden = primitive.forbidden
        allowed = lambda a, b: (a, b) not in forbidden  # noqa: E731
        return constraint.FunctionConstraint(allowed), [primitive.first, primitive.second]
    if isinstance(primitive, Linear):
        weights, cells = zip(*primitive.terms, strict=True)
        if primitive.op in SUMS:
            # a sum of ones without multipliers: the library's plain path, a little faster
            multipliers = None if set(weights) == {1} else list(weights)
            return SUMS[primitive.op](primitive.constant, multipliers), list(cells)
        constant = primitive.constant

        def differs(*values: int) -> bool:
            return sum(map(int.__mul__, weights, values)) != constant

        return constraint.FunctionConstraint(differs), list(cells)
    if isinstance(primitive, Domain):
        return constraint.InSetConstraint(set(primitive.values)), [primitive.cell]
    rows = primitive.rows

    def in_a_row(*values: int) -> bool:
        return any(all(map(frozenset.__contains__, row, values)) for row in rows)

    return constraint.FunctionConstraint(in_a_row), list(primitive.cells)


class _NoFit:
    """A sum constraint whose pre-processing, when no value of some cell fits, leaves that
    domain empty (no solution) instead of raising: python-constraint2 2.9 raises ValueError
    ("min() arg is an empty sequence") there, and only there (957 such cases of 5,000 random
    small sums, each one with no solution by brute force)."""

    def preProcess(self, variables, domains, constraints, vconstraints) -> None:
        try:
            super().preProcess(variables, domains, constraints, vconstraints)
        except ValueError:
            del domains[variables[0]][:]


class _Exact(_NoFit, constraint.ExactSumConstraint):
    pass


class _Max(_NoFit, constraint.MaxSumConstraint):
    pass


class _Min(_NoFit, constraint.MinSumConstraint):
    pass


SUMS = {"==": _Exact, "<=": _Max, ">=": _Min}


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
