"""``sat``: a CNF encoding (``adapters.cnf``) solved by PicoSAT through pycosat.

The CNF is built per puzzle. PicoSAT has no clock, but it does have a propagation limit: with a
deadline, ``solve`` runs with a growing limit and looks at the clock between attempts, each
attempt sized to end near the deadline, so the deadline holds in-process. Counting goes through
``pycosat.itersolve``, which has no such hook, so a count with a deadline runs in a worker.
"""

from __future__ import annotations

from typing import ClassVar

import pycosat

from adapters import cnf
from solvers.backend import Backend, Found, Operation
from solvers.board import Board
from solvers.deadline import Deadline
from solvers.errors import SolveTimeout

FIRST_PROPAGATION_LIMIT = 200_000


class PycosatBackend(Backend):
    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = {"encoding": cnf.ENCODINGS}

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        self.encoding = options["encoding"]

    def stops_itself(self, operation: Operation) -> bool:
        return operation is Operation.SOLVE

    def solve(self, board: Board, deadline: Deadline) -> Found:
        clauses = cnf.encode(board, self.encoding)
        stats = {"encoding": self.encoding, "clauses": len(clauses)}
        if any(not clause for clause in clauses):
            return Found(0, None, stats)
        model = _solve(clauses, deadline, stats)
        if model is None:
            return Found(0, None, stats)
        return Found(1, cnf.solution_from_model(board, model), stats)

    def count(self, board: Board, limit: int, deadline: Deadline) -> Found:
        clauses = cnf.encode(board, self.encoding)
        stats = {"encoding": self.encoding, "clauses": len(clauses)}
        if any(not clause for clause in clauses):
            return Found(0, None, stats)
        found, first = 0, None
        for model in pycosat.itersolve(cnf.pin_unused(clauses, board.size**3)):
            found += 1
            first = first or cnf.solution_from_model(board, model)
            if found >= limit:
                break
            deadline.check(stats)
        return Found(found, first, stats)


def _solve(clauses: list, deadline: Deadline, stats: dict) -> list[int] | None:
    """A model, None when unsatisfiable; SolveTimeout when the deadline passes first."""
    if deadline.at is None:
        answer = pycosat.solve(clauses)
    else:
        limit = FIRST_PROPAGATION_LIMIT
        while (answer := pycosat.solve(clauses, prop_limit=limit)) == "UNKNOWN":
            if deadline.expired():
                raise SolveTimeout(stats=stats)
            limit *= 2
            stats["restarts"] = stats.get("restarts", 0) + 1
    return None if answer == "UNSAT" else answer
