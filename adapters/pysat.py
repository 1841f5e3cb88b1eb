"""``pysat``: the extended CNF loaded once per board shape into a persistent PySAT solver.

Each puzzle's givens are passed as assumptions, never added as clauses. The reuse is sound
because the solver's clause database only ever holds the rules, which are true of every puzzle
of the shape, and what CDCL learns is implied by that database alone (assumptions are decisions,
not clauses). So every learned clause is a consequence of the rules and stays valid for the next
puzzle; that is why it gets faster than rebuilding the CNF.

Counting needs blocking clauses, and a killer puzzle its cages, which are not rules. Each count
(and each solve of a killer puzzle) gets a fresh activation literal ``a``: those clauses are
added as ``(-a OR clause)`` and ``a`` is assumed; afterwards the unit clause ``-a`` switches
them off for good. Anything learned from them contains ``-a`` and is satisfied from then on, so
the rules stay untouched.

CaDiCaL (the default, fastest by measurement) takes no conflict budget and ignores PySAT's
interrupt, so with a deadline it runs in a worker process that can be killed; Glucose and
MiniSat run under a growing conflict budget in-process.
"""

from __future__ import annotations

from typing import ClassVar

from pysat.solvers import Solver

from adapters import cnf
from solvers.backend import Backend, Found, Operation
from solvers.board import Board, Geometry, Shape
from solvers.deadline import Deadline
from solvers.errors import BackendUnavailable, SolveTimeout
from solvers.variants import RULE_NAMES

ENGINES = {"cadical": "cadical153", "glucose": "glucose4", "minisat": "minisat22"}
# MiniSat-like engines take a conflict budget: a deadline holds in-process by running under a
# growing budget and looking at the clock in between. CaDiCaL takes none (and ignores
# interrupts), so with a deadline it runs in a worker process that can be killed.
BUDGETED = {"glucose", "minisat"}
FIRST_CONFLICT_BUDGET = 1_000
KEPT = 8  # persistent solvers kept at once (jigsaw puzzles each have a geometry of their own)


class IncrementalBackend(Backend):
    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = {
        "solver": tuple(ENGINES),
        "cages": cnf.CAGE_ENCODINGS,
    }
    RULES = frozenset(RULE_NAMES)

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        self.engine, self.cages = options["solver"], options["cages"]
        usable, why = cnf.pb_available() if self.cages == "pb" else (True, "")
        if not usable:
            raise BackendUnavailable(f"pysat:cages=pb is unavailable: {why}")
        # One persistent solver per geometry (a shape under its unit rules), with the next free
        # variable for activation literals.
        self._solvers: dict[Geometry, Solver] = {}
        self._next_free: dict[Geometry, int] = {}

    def stops_itself(self, operation: Operation) -> bool:
        return self.engine in BUDGETED

    def prepare(self, shape: Shape) -> None:
        """Load the shape's rules into its persistent solver ahead of timing (setup)."""
        self.solver_for(shape.geometry)

    def solver_for(self, geometry: Geometry) -> Solver:
        """The geometry's persistent solver, loaded with the rules on first use (setup); the
        least recently used one is freed when more than ``KEPT`` are held."""
        solver = self._solvers.pop(geometry, None)
        if solver is None:
            rules = cnf.rule_clauses(geometry, "extended")
            solver = Solver(name=ENGINES[self.engine], bootstrap_with=rules)
            self._next_free[geometry] = geometry.size**3 + 1
        self._solvers[geometry] = solver  # now the most recently used
        while len(self._solvers) > KEPT:
            oldest = next(iter(self._solvers))
            self._solvers.pop(oldest).delete()
            del self._next_free[oldest]
        return solver

    def solve(self, board: Board, deadline: Deadline) -> Found:
        solver = self.solver_for(board.geometry)
        before = solver.accum_stats()
        active = self._activate(solver, board) if board.rules.cages else None
        try:
            extra = [active] if active else []
            satisfiable = self._run(solver, [*cnf.given_literals(board), *extra], deadline)
            model = solver.get_model() if satisfiable else None
        finally:
            if active:
                solver.add_clause([-active])
        stats = _delta(before, solver.accum_stats())
        if satisfiable is None:
            raise SolveTimeout(stats=stats)
        if not satisfiable:
            return Found(0, None, stats)
        return Found(1, cnf.solution_from_model(board, model), stats)

    def count(self, board: Board, limit: int, deadline: Deadline) -> Found:
        solver = self.solver_for(board.geometry)
        before = solver.accum_stats()
        active = self._activate(solver, board)
        assumptions = [*cnf.given_literals(board), active]
        found, first = 0, None
        try:
            while found < limit:
                satisfiable = (
                    None if deadline.expired() else self._run(solver, assumptions, deadline)
                )
                if satisfiable is None:
                    raise SolveTimeout(stats=_delta(before, solver.accum_stats()))
                if not satisfiable:
                    break
                found += 1
                model = solver.get_model()
                first = first or cnf.solution_from_model(board, model)
                solver.add_clause([-active, *cnf.blocking_clause(board, model)])
        finally:
            solver.add_clause([-active])
        return Found(found, first, _delta(before, solver.accum_stats()))

    def _activate(self, solver: Solver, board: Board) -> int:
        """A fresh activation literal, with the board's cage clauses (if any) behind it."""
        geometry = board.geometry
        active = self._next_free[geometry]
        clauses, self._next_free[geometry] = cnf.cage_clauses(board, active + 1, self.cages)
        for clause in clauses:
            solver.add_clause([-active, *clause])
        return active

    def _run(self, solver: Solver, assumptions: list[int], deadline: Deadline) -> bool | None:
        """True, False, or None when the deadline passed first."""
        if deadline.at is None or self.engine not in BUDGETED:
            return solver.solve(assumptions=assumptions)
        budget = FIRST_CONFLICT_BUDGET
        while True:
            solver.conf_budget(budget)
            answer = solver.solve_limited(assumptions=assumptions)
            if answer is not None:
                return answer
            if deadline.expired():
                return None
            budget *= 2  # what was learned stays: the next call picks up where this one stopped

    def close(self) -> None:
        """Free the native solvers (the runner that owns this backend closes it)."""
        for solver in self._solvers.values():
            solver.delete()
        self._solvers.clear()


def _delta(before: dict, after: dict) -> dict:
    return {key: after[key] - before.get(key, 0) for key in after}
