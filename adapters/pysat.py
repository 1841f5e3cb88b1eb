"""``pysat``: the extended CNF loaded once per board shape into a persistent PySAT solver.

Each puzzle's givens are passed as assumptions, never added as clauses. The reuse is sound
because the solver's clause database only ever holds the rules, which are true of every puzzle
of the shape, and what CDCL learns is implied by that database alone (assumptions are decisions,
not clauses). So every learned clause is a consequence of the rules and stays valid for the next
puzzle; that is why it gets faster than rebuilding the CNF.

Counting needs blocking clauses, and a board whose rules hold more than its units the clauses
of the rest (``adapters.cnf.rule_extras``, in the forms its options name, as for ``sat``: with
``model=native``, the default, the SAT family's own CNF of some kinds, ``adapters.cnf_native``),
none of which are rules. Each count (and each solve of a board with more than units) gets a
fresh activation literal ``a``: those clauses are added as ``(-a OR clause)`` and ``a`` is assumed;
afterwards the unit clause ``-a`` switches them off for good. Anything learned from them
contains ``-a`` and is satisfied from then on, so the rules stay untouched. A count blocks each
solution on its cell variables, so auxiliary variables never count a solution twice. Switched
off, those variables still cost every later call, so a solver that has numbered ``RETIRE_AFTER``
variables per cell variable beyond the cells is built afresh.

The deadline holds in-process for every engine that takes a conflict budget
(``adapters.budget``), CaDiCaL included (the default, fastest by measurement; PySAT gives it no
``interrupt``, and holds the GIL while it searches, but it honours budgets). Each solver keeps
the pace of its budgets from call to call, so that a call with little time left starts with a
budget sized for it. What no budget bounds is one of CaDiCaL's passes over the whole formula
(reducing its learned clauses, probing), which a call may start just before the deadline: on a
25x25 that is the overrun left (docs/reliability.md, Deadlines, has the figures). Lingeling
takes no budget and MapleCM overruns it: with a deadline they run in a worker process that is
killed at it.
Kissat (no assumptions, no incremental use) and PySAT's CryptoMiniSat (no budget; the ``cms``
backend has it) are left out.
"""

from __future__ import annotations

from typing import ClassVar

from pysat.formula import IDPool
from pysat.solvers import Solver

from adapters import cnf
from adapters.budget import Pace, budgeted
from adapters.persistent import Build, PerGeometry
from solvers.backends.contract import Backend, Found, Operation, Solutions
from solvers.base.deadline import Deadline
from solvers.base.errors import SolveTimeout
from solvers.model.board import Board
from solvers.model.compile import EVERY_KIND
from solvers.model.geometry import Geometry, Shape

ENGINES = {  # option value -> PySAT's name; the default first
    "cadical": "cadical153",
    "cadical195": "cadical195",
    "glucose": "glucose4",
    "minisat": "minisat22",
    "maplechrono": "maplechrono",
    "maplecm": "maplecm",
    "maplesat": "maplesat",
    "mergesat": "mergesat3",
    "lingeling": "lingeling",
}
# Lingeling's conf_budget and solve_limited raise NotImplementedError; MapleCM's calls overrun
# their budget, far past a short deadline on a 25x25: both run in a worker (docs/backends.md).
UNBUDGETED = {"lingeling", "maplecm"}
LOAD_CHUNK = 10_000  # rule clauses made and loaded between looks at the deadline (a short step)
# variables numbered per cell variable beyond the cells before a solver is rebuilt (the module's
# docstring says why; docs/vocabulary.md has the measurements)
RETIRE_AFTER = 4
# conflicts in a solver's first budget, before its rate is known: short on a fresh 25x25
# (docs/reliability.md, Deadlines), and enough for most 9x9 puzzles
FIRST_BUDGET = 100


class IncrementalBackend(Backend):
    ENCODES = EVERY_KIND  # a sum rule of its own (adapters.cnf), and every primitive
    INTERRUPTIBLE = False  # the SAT solver's search holds the thread until it ends
    NATIVE = cnf.NATIVE  # model=native: their own CNF (adapters.cnf_native)
    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = {"solver": tuple(ENGINES), **cnf.EXTRA_OPTIONS}

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        self.engine = self.options["solver"]
        cnf.require_pb("pysat", self.options)
        # One persistent solver per geometry (a shape under its unit rules)
        self._kept: PerGeometry[_Loaded] = PerGeometry(self._load, lambda kept: kept.delete())

    def native_kinds(self) -> frozenset[str]:
        return cnf.native_kinds(self.options)

    def stops_itself(self, operation: Operation) -> bool:
        return self.engine not in UNBUDGETED

    def prepare(self, shape: Shape) -> None:
        """Load the shape's rules into its persistent solver ahead of timing (setup)."""
        self._kept.get(shape.geometry)

    def _load(self, geometry: Geometry) -> Build:
        # Made and loaded in chunks, the deadline looked at in between: a 25x25 windoku's
        # 870,000 clauses take about a second to make in Python and another for CaDiCaL to
        # take, each longer than a whole short deadline.
        solver, built = Solver(name=ENGINES[self.engine]), False
        try:
            chunk: list[cnf.Clause] = []
            for group in cnf.rule_groups(geometry, "extended"):
                chunk += group
                if len(chunk) >= LOAD_CHUNK:
                    solver.append_formula(chunk)
                    chunk = []
                    yield
            solver.append_formula(chunk)
            built = True
        finally:
            if not built:  # a build dropped half way (closed, or pushed out) frees its solver
                solver.delete()
        return _Loaded(solver, cnf.variables(geometry.size))

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        loaded = self._kept.get(board.geometry, deadline)
        solver = loaded.solver
        before = solver.accum_stats()
        # a count's blocking clauses and what the board adds to its units go behind a fresh
        # activation literal, switched off at the end
        behind = limit > 1 or cnf.beyond_units(board)
        active = loaded.activate(board, self.options) if behind else None
        assumptions = [*cnf.given_literals(board), *([active] if active else [])]
        solutions = Solutions(limit)
        try:
            while True:  # one call under assumptions; each solution blocked in turn
                satisfiable = (
                    None if deadline.expired() else self._run(loaded, assumptions, deadline)
                )
                if satisfiable is None:
                    raise SolveTimeout(stats=_delta(before, solver.accum_stats()))
                if not satisfiable:
                    break
                model = solver.get_model()
                if solutions.add(cnf.solution_from_model(board, model).cells):
                    break
                solver.add_clause([-active, *cnf.blocking_clause(board, model)])
            # the counters read before a worn solver is freed
            return solutions.found(board, _delta(before, solver.accum_stats()))
        finally:
            if active:
                solver.add_clause([-active])
            self._retire_if_worn(board.geometry)

    def _retire_if_worn(self, geometry: Geometry) -> None:
        loaded = self._kept.peek(geometry)
        if loaded is not None and loaded.pool.top > (1 + RETIRE_AFTER) * geometry.size**3:
            self._kept.drop(geometry)

    def _run(self, loaded: _Loaded, assumptions: list[int], deadline: Deadline) -> bool | None:
        """True, False, or None when the deadline passed first."""
        solver = loaded.solver
        if deadline.at is None or self.engine in UNBUDGETED:
            return solver.solve(assumptions=assumptions)

        def run(budget: int) -> bool | None:
            solver.conf_budget(budget)
            return solver.solve_limited(assumptions=assumptions)

        return budgeted(run, deadline, loaded.pace)

    def close(self) -> None:
        """Free the native solvers (the runner that owns this backend closes it)."""
        self._kept.close()


class _Loaded:
    """A geometry's persistent solver, and the pool its activation literals and the auxiliary
    variables of what boards add to its units are numbered from (never reused: old ones stay
    switched off)."""

    def __init__(self, solver: Solver, pool: IDPool) -> None:
        self.solver, self.pool = solver, pool
        # its conflict rate, from call to call: a 25x25's first budget of a call is sized by
        # the time left, as its last was
        self.pace = Pace(first=FIRST_BUDGET)

    def activate(self, board: Board, options: dict[str, str]) -> int:
        """A fresh activation literal, with the clauses of what the board adds to its units
        (if anything) behind it."""
        active = self.pool.id()
        for clause in cnf.rule_extras(board, self.pool, options):
            self.solver.add_clause([-active, *clause])
        return active

    def delete(self) -> None:
        self.solver.delete()


def _delta(before: dict, after: dict) -> dict:
    return {key: after[key] - before.get(key, 0) for key in after}
