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
from solvers.backend import Outcome, Tally, choose_options
from solvers.board import Board
from solvers.deadline import Deadline, OutOfTime

FIRST_PROPAGATION_LIMIT = 200_000


class PycosatBackend:
    name: ClassVar[str] = "sat"
    # reduced is the default by measurement (README, "Backends").
    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = {"encoding": ("reduced", "extended", "minimal")}

    def __init__(self, **options: object) -> None:
        self.encoding = choose_options(self.name, self.OPTIONS, options)["encoding"]

    def native_deadline(self, operation: str) -> bool:
        return operation == "solve"

    def solve(self, board: Board, deadline: Deadline) -> Outcome:
        clauses = cnf.encode(board, self.encoding)
        stats = {"encoding": self.encoding, "clauses": len(clauses)}
        if any(not clause for clause in clauses):
            return Outcome(None, stats)
        model = _solve(clauses, deadline, stats)
        return Outcome(None if model is None else cnf.solution_from_model(board, model), stats)

    def count(self, board: Board, limit: int, deadline: Deadline) -> Tally:
        clauses = cnf.encode(board, self.encoding)
        stats = {"encoding": self.encoding, "clauses": len(clauses)}
        if any(not clause for clause in clauses):
            return Tally(0, stats)
        found = 0
        for _model in pycosat.itersolve(cnf.pin_unused(clauses, board.size**3)):
            found += 1
            if found >= limit:
                break
            deadline.check(stats)
        return Tally(found, stats)


def _solve(clauses: list, deadline: Deadline, stats: dict) -> list[int] | None:
    """A model, None when unsatisfiable; OutOfTime when the deadline passes first."""
    if deadline.at is None:
        answer = pycosat.solve(clauses)
    else:
        limit = FIRST_PROPAGATION_LIMIT
        while (answer := pycosat.solve(clauses, prop_limit=limit)) == "UNKNOWN":
            if deadline.expired():
                raise OutOfTime(stats)
            limit *= 2
            stats["restarts"] = stats.get("restarts", 0) + 1
    return None if answer == "UNSAT" else answer
