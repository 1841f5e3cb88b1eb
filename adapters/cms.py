"""``cms``: CryptoMiniSat (pycryptosat) over the project's CNF encodings (``adapters.cnf``).

The CNF is built per puzzle in the ``encoding`` chosen (``reduced`` by default, fastest by
measurement: README, "Backends"), with the options of ``sat`` (``adapters.cnf``), ``model=native``
(the default: ``adapters.cnf_native``) or ``decomposed`` among them. Variables
the encoding leaves out (the reduced encoding's decided ones) are pinned false, so that a
model's cells are the solution's. Counting adds a blocking clause per solution, on the cell
variables, so auxiliary variables never count a solution twice.

CryptoMiniSat's stochastic local search (on by default) costs more than the whole search of a
Sudoku CNF (docs/backends.md), so it is switched off (``sls=0``). Its ``time_limit`` is CPU
time, not wall time, so the deadline is kept with conflict budgets sized against the wall
clock (``adapters.budget``). The binding reports no statistics: the stats are the CNF's size.
"""

from __future__ import annotations

from typing import ClassVar

import pycryptosat

from adapters import cnf
from adapters.budget import budgeted
from solvers.backends.contract import Backend, Found, Solutions
from solvers.base.deadline import Deadline
from solvers.base.errors import SolveTimeout
from solvers.model.board import Board
from solvers.model.compile import EVERY_KIND

CHUNK = 50_000  # clauses handed over at once, the clock looked at in between


class CryptoMiniSatBackend(Backend):
    ENCODES = EVERY_KIND  # a sum rule of its own (adapters.cnf), and every primitive
    INTERRUPTIBLE = False  # its search holds the thread; its own Ctrl-C ends it unanswered
    # a fresh solver each puzzle, yet the worker grew by about 60 bytes a puzzle (bench/memory.py:
    # 20.8 MB at 1,000 puzzles, 21.4 at 10,000): replaced every 2,000 (a fork, nothing to build)
    RECYCLE_AFTER = 2000
    NATIVE = cnf.NATIVE  # model=native: their own CNF (adapters.cnf_native)
    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = cnf.OPTIONS

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        cnf.require_pb("cms", options)

    def native_kinds(self) -> frozenset[str]:
        return cnf.native_kinds(self.options)

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        clauses = cnf.encode(board, **self.options)
        stats = {"encoding": self.options["encoding"], "clauses": len(clauses)}
        solutions = Solutions(limit)
        if any(not clause for clause in clauses):  # the givens left a cell or unit no value
            return solutions.found(board, stats)
        solver = pycryptosat.Solver(options={"sls": "0"})
        clauses = cnf.pin_unused(clauses, board.size**3)
        for start in range(0, len(clauses), CHUNK):
            deadline.check(stats)
            solver.add_clauses(clauses[start : start + CHUNK])
        while (model := _solve(solver, deadline, stats)) is not None:
            if solutions.add(cnf.solution_from_model(board, model).cells):
                break
            block = cnf.blocking_clause(board, model)
            if not block:  # no empty cell: the givens are the one solution
                break
            solver.add_clause(block)
        return solutions.found(board, stats)


def _solve(solver: pycryptosat.Solver, deadline: Deadline, stats: dict) -> list[int] | None:
    """A model as signed literals, None when unsatisfiable; SolveTimeout at the deadline."""
    if deadline.at is None:
        satisfiable, values = solver.solve()
    else:
        answer = budgeted(lambda budget: _limited(solver, budget), deadline)
        if answer is None:
            raise SolveTimeout(stats=stats)
        satisfiable, values = answer
    if not satisfiable:
        return None
    return [v if value else -v for v, value in enumerate(values) if v and value is not None]


def _limited(solver: pycryptosat.Solver, budget: int):
    """(satisfiable, values), or None when the conflict budget ran out first."""
    satisfiable, values = solver.solve(confl_limit=budget)
    return None if satisfiable is None else (satisfiable, values)
