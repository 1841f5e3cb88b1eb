"""``sat``: a CNF encoding (``adapters.cnf``) solved by PicoSAT through pycosat.

The CNF is built per puzzle. PicoSAT has no clock, but it does have a propagation limit: with a
deadline, ``solve`` runs with a growing limit and looks at the clock between attempts, each
attempt doubling the last but sized to end before the deadline at the rate the last one ran, so
the deadline holds in-process. Counting goes through ``pycosat.itersolve``, which has no such
hook, so a count with a deadline runs in a worker.
``adapters.cnf``'s options choose the encoding and the forms of what a board adds to its units,
and ``model=native`` (the default) or ``decomposed``: the SAT family's own CNF of some kinds
(``adapters.cnf_native``, docs/models.md) or the shared decomposition of every kind.
"""

from __future__ import annotations

import time
from typing import ClassVar

import pycosat

from adapters import cnf
from solvers.backends.contract import Backend, Found, Operation, Solutions
from solvers.base.deadline import Deadline
from solvers.base.errors import SolveTimeout
from solvers.model.board import Board
from solvers.model.compile import EVERY_KIND

FIRST_PROPAGATION_LIMIT = 200_000
# The share of the time left the last attempt is sized to: propagations slow down as PicoSAT
# learns clauses, so the rate measured on a smaller attempt runs ahead of the next one.
FIT_SHARE = 0.8


class PycosatBackend(Backend):
    ENCODES = EVERY_KIND  # a sum rule of its own (adapters.cnf), and every primitive
    INTERRUPTIBLE = False  # PicoSAT's search holds the thread until it ends
    NATIVE = cnf.NATIVE  # model=native: their own CNF (adapters.cnf_native)
    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = cnf.OPTIONS

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        cnf.require_pb("sat", options)

    def native_kinds(self) -> frozenset[str]:
        return cnf.native_kinds(self.options)

    def stops_itself(self, operation: Operation) -> bool:
        return operation is Operation.SOLVE

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        clauses = cnf.encode(board, **self.options)
        stats = {**cnf.settings(board, self.options), "clauses": len(clauses)}
        solutions = Solutions(limit)
        if any(not clause for clause in clauses):  # the givens left a cell or unit no value
            return solutions.found(board, stats)
        if limit == 1:  # one solve, which keeps the deadline
            model = _solve(clauses, deadline, stats)
            models = [] if model is None else [model]
        else:  # PicoSAT's enumeration
            models = _models(
                board, clauses, deadline, stats, not cnf.functional(board, self.options)
            )
        for model in models:
            if solutions.add(cnf.solution_from_model(board, model).cells):
                break
            deadline.check(stats)
        return solutions.found(board, stats)


def _models(board: Board, clauses: list, deadline: Deadline, stats: dict, blocking: bool):
    """Each model once per solution. PicoSAT's own enumeration (``itersolve``) gives each
    model once, which is each solution once when every variable follows from the cells (the
    variables no clause mentions pinned; the value-set, table-row and partial-sum variables are
    functions of the cells); a PB encoding's auxiliary variables need not be, so there
    (``blocking``) each solution is blocked on its cells and solved again."""
    clauses = cnf.pin_unused(clauses, cnf.variable_count(clauses, board))
    if not blocking:
        yield from pycosat.itersolve(clauses, vars=cnf.variable_count(clauses, board))
        return
    while (model := _solve(clauses, deadline, stats)) is not None:
        yield model
        clauses.append(cnf.blocking_clause(board, model))


def _solve(clauses: list, deadline: Deadline, stats: dict) -> list[int] | None:
    """A model, None when unsatisfiable; SolveTimeout when the deadline passes first."""
    if deadline.at is None:
        answer = pycosat.solve(clauses)
    else:
        limit = FIRST_PROPAGATION_LIMIT
        while True:
            start = time.perf_counter()
            answer = pycosat.solve(clauses, prop_limit=limit)
            if answer != "UNKNOWN":
                break
            limit = _next_limit(limit, time.perf_counter() - start, deadline, stats)
            stats["restarts"] = stats.get("restarts", 0) + 1
    return None if answer == "UNSAT" else answer


def _next_limit(limit: int, seconds: float, deadline: Deadline, stats: dict) -> int:
    """Twice the limit that just ran out, or what fits in the time left at the rate just seen
    if that is less. Each attempt starts afresh (PicoSAT keeps nothing between calls), so one
    that cannot go further than the last is not made: the timeout comes at once."""
    rate = limit / max(seconds, 1e-4)
    fits = int(rate * (deadline.remaining() or 0.0) * FIT_SHARE)
    if fits <= limit:
        raise SolveTimeout(stats=stats)
    return min(2 * limit, fits)
