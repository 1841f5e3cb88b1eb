"""``cpmpy``: one CPMpy model, solved by any of the solvers CPMpy hands it to.

An integer variable per cell, ``AllDifferent`` per unit of the board's flattened geometry, a
given as an equality, the other primitives as CPMpy's globals (``_primitive``), each sum group
(a cage, or one the 45 rule implies) as a ``Table`` of its fillings where they are at most
``CAGE_TABLE`` (``cages=table``, default), else or with ``cages=sum`` as ``AllDifferent``, its
sum and each cell's values cut to those a filling holds (``_sum_group``). ``solver`` picks
what CPMpy translates it for: ``choco`` (default, fastest by measurement: README, "Backends"),
``ortools`` (CP-SAT), ``z3``, ``exact`` or ``pysat``. Against the direct adapters (``choco``,
``cpsat``, ``z3``, ``pysat``) on the same puzzles, the difference is the cost of the modelling
layer.

``model=native`` (default) gives the kinds CPMpy has a model of its own for
(``adapters.cpmpy_native``: ``Regular`` for skyscrapers, X-sums and sandwiches, maximum less
minimum for renban lines, ``Increasing`` for thermometers, ``Abs`` for Kropki dots and whispers)
as CPMpy's globals, handed those constraints unflattened (``solvers.model.compile.handed``), so
that the solver interface passes on what its solver supports; ``model=decomposed`` gives every
kind as the shared decomposition does (docs/models.md has both measured). Which kinds the
native model gives depends on the solver where measured so (``DECOMPOSED_FOR``: with ``z3``, a
sandwich is decomposed).

The deadline is CPMpy's ``time_limit``, which covers the solver's run but not CPMpy's
transformation of the model before it (decomposing AllDifferent into linear or Boolean
constraints for ``exact`` and ``pysat``, which on 25x25 takes seconds): with those two a call
with a timeout runs in a worker process that is killed at the deadline, as does a count with
``choco``, whose enumeration overruns its limit. Counting is ``solveAll``, which for solvers
without enumeration of their own adds blocking constraints and says so in a warning, silenced
here. Stats: the run's exit status and time, as CPMpy reports.
"""

from __future__ import annotations

import warnings
from typing import ClassVar

import cpmpy as cp
from cpmpy.solvers.solver_interface import ExitStatus

from adapters import cpmpy_native
from adapters.primitive_forms import (
    CAGE_TABLE,
    SMALL_TABLE,
    expanded,
    fillings,
    groups_as_cages,
)
from solvers.backends.contract import Backend, Found, Operation, Solutions
from solvers.base.deadline import Deadline
from solvers.base.errors import SolveTimeout
from solvers.model.board import Board
from solvers.model.compile import PRIMITIVES, handed
from solvers.model.constraints.primitives import OPERATORS, AllDifferent, Domain, Linear, Relation

# CPMpy's transformation for these is long on 25x25 and runs before any limit can be set
UNTIMED_TRANSFORMATION = {"exact", "pysat"}
# CPMpy's solveAll for choco asks Choco for every solution at once, then calls back for each:
# a count stopped by the time limit overran it by a second and more (measured on 9x9).
LATE_COUNT = {"choco"}
FINISHED = (ExitStatus.OPTIMAL, ExitStatus.FEASIBLE, ExitStatus.UNSATISFIABLE)
# The kinds whose native model a solver gets slower than the decomposition, measured
# (docs/models.md, "CPMpy"): z3 has no Regular, and CPMpy's decomposition of the sandwich's
# automaton took a 9x9 sandwich's count past 60 s where the shared decomposition took 6 s
# (its skyscrapers, also Regular, stay native: 9 s against 41 s).
DECOMPOSED_FOR = {"z3": frozenset({"sandwich"})}


class CpmpyBackend(Backend):
    ENCODES = frozenset({PRIMITIVES})
    INTERRUPTIBLE = False  # the solver's search holds the thread until it ends
    # CPMpy hands its default solver, Choco, a model per puzzle that pychoco keeps for good
    # (about 280 KB a puzzle, native memory: Python's heap stays flat under tracemalloc; a run
    # of 6,600 puzzles grew to 2 GB): served from a worker process replaced this often
    # (docs/reliability.md, "Memory"). Its other solvers pay a fork every 500 puzzles.
    RECYCLE_AFTER = 500
    NATIVE = frozenset(cpmpy_native.MODELS)
    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = {
        "solver": ("choco", "ortools", "z3", "exact", "pysat"),
        "cages": ("table", "sum"),
        "model": ("native", "decomposed"),
    }

    def native_kinds(self) -> frozenset[str]:
        if self.options["model"] != "native":
            return frozenset()
        return self.NATIVE - DECOMPOSED_FOR.get(self.options["solver"], frozenset())

    def stops_itself(self, operation: Operation) -> bool:
        solver = self.options["solver"]
        late = solver in LATE_COUNT and operation is Operation.COUNT
        return solver not in UNTIMED_TRANSFORMATION and not late

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        flat, own = handed(board, self.native_kinds())
        cells = cp.intvar(1, board.size, shape=board.shape.cell_count, name="cell")
        constraints = [cp.AllDifferent([cells[i] for i in unit]) for unit in flat.units]
        constraints += [cells[i] == v for i, v in enumerate(board.cells) if v]
        # each sum group (a cage, the 45 rule's among them) by ``_sum_group``
        primitives, groups = groups_as_cages(flat, self.ENCODES)
        constraints += [_primitive(p, cells) for p in primitives]
        options = self.options
        table = options["cages"] == "table"
        constraints += [_sum_group(group, cells, board.size, table) for group in groups]
        for constraint in own:  # the kinds with a model of CPMpy's own (``cpmpy_native``)
            constraints += cpmpy_native.constraints(cells, constraint, board.size, options)
        solver = cp.SolverLookup.get(self.options["solver"], cp.Model(constraints))
        remaining = deadline.timeout()
        solutions = Solutions(limit)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "Adding constraints to solver object ..."
            if limit == 1:
                if solver.solve(time_limit=remaining):
                    solutions.add(cells.value().tolist())
            else:
                keep = lambda: solutions.add(cells.value().tolist())  # noqa: E731
                solver.solveAll(display=keep, solution_limit=limit, time_limit=remaining)
        status = solver.status()
        stats = {"status": status.exitstatus.name, "runtime_s": status.runtime}
        if solutions.count < limit and not _finished(status, remaining):
            raise SolveTimeout(stats=stats)
        return solutions.found(board, stats)


def _sum_group(group, cells, n: int, table: bool):
    """A sum group's cells holding different values with its total: with ``table``, where
    its fillings are at most ``CAGE_TABLE``, a ``Table`` of them (arc consistent on the whole
    group); else ``AllDifferent``, the sum, and each cell's values cut to those some filling
    holds (what the sum and the all-different leave apart)."""
    scope = [cells[c] for c in group.cells]
    allowed = fillings(len(scope), (group.total,), n, CAGE_TABLE) if table else None
    if allowed is not None:
        return cp.Table(scope, allowed) if allowed else cp.BoolVal(False)
    held = sorted({v for values in group.value_sets(n) for v in range(1, n + 1) if values >> v & 1})
    inside = [cp.InDomain(x, held) for x in scope] if held else [cp.BoolVal(False)]
    return cp.all([cp.AllDifferent(scope), cp.sum(scope) == group.total, *inside])


def _primitive(primitive, cells):
    """CPMpy's constraint for one primitive over the cell variables: a relation as the
    forbidden pairs it is given (``NegativeTable``), a compressed table as a ``Table`` of its
    tuples when they are few, else a Boolean per row equal to the row holding (each fixed by
    the cells, so a count never sees a solution twice)."""
    if isinstance(primitive, AllDifferent):
        return cp.AllDifferent([cells[c] for c in primitive.cells])
    if isinstance(primitive, Relation):
        pair, forbidden = [cells[primitive.first], cells[primitive.second]], primitive.forbidden
        return cp.NegativeTable(pair, sorted(forbidden)) if forbidden else cp.BoolVal(True)
    if isinstance(primitive, Linear):
        total = cp.sum([k * cells[c] for k, c in primitive.terms])
        return OPERATORS[primitive.op](total, primitive.constant)
    if isinstance(primitive, Domain):
        return cp.InDomain(cells[primitive.cell], sorted(primitive.values))
    scope = [cells[c] for c in primitive.cells]
    if not primitive.rows:
        return cp.BoolVal(False)
    tuples = expanded(primitive.rows, SMALL_TABLE)
    if tuples is not None:
        return cp.Table(scope, tuples)
    picks = [cp.boolvar() for _ in primitive.rows]
    inside = [
        picks[i] == cp.all(cp.InDomain(x, sorted(s)) for x, s in zip(scope, row, strict=True))
        for i, row in enumerate(primitive.rows)
    ]
    return cp.all([*inside, cp.any(picks)])


# CPMpy's Choco interface calls a search that stopped without a solution UNSATISFIABLE when its
# own clock says it took less than the time limit, and Choco's clock stops a little before it,
# so a search stopped at its limit can come back UNSATISFIABLE. A proof that ends this near the
# limit is taken for the timeout it most likely was.
NEAR_THE_LIMIT = 0.95


def _finished(status, limit: float | None) -> bool:
    """Whether the solver's status says the search ended by itself (not at the time limit)."""
    if status.exitstatus not in FINISHED:
        return False
    return limit is None or status.runtime < NEAR_THE_LIMIT * limit
