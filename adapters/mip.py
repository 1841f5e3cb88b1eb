"""``mip``: Sudoku as a 0-1 integer program, solved by HiGHS (highspy) or SCIP (pyscipopt).

A binary per cell and value (``cell * N + v - 1``) and equalities, each "= 1": one value per
cell, and each value once per unit of the board's flattened geometry (rows, columns, boxes or
regions, and the units its constraints add). A given fixes its binary's lower bound to 1. No
objective: the first feasible point is a solution. ``solver=highs`` (default, faster by
measurement: README, "Backends") or ``scip``, the one that also comes with
``pip install -e '.[mip]'``.

The deadline is the solver's time limit (HiGHS ``time_limit``, SCIP ``limits/time``), set
before every run with what is left: only that limit's status is a timeout, any other stop
without an answer an ``EngineError`` naming the solver's status. Building a SCIP model in
Python looks at the clock between rows. HiGHS looks at its limit in presolve and in the
search, not while it sets up the root node in between: on a 16x16 with three rules of pairs
(36,000 rows) that ran past the limit (docs/reliability.md, Deadlines), so the
backend says it does not stop itself, and a call with a timeout runs in a worker process that
is killed at the deadline. Counting adds a no-good cut per solution found (its
empty cells' binaries sum to at most their number less one) and runs again. Stats:
branch-and-bound nodes and LP iterations, summed over the runs (both are often 0: presolve
alone solves most puzzles).

HiGHS 1.12's presolve can hand back a solution that breaks the model's rows once undone: its
log says "untransformed violations", a repair LP fails, and when that point is the last one
found the run ends in "Solve error" (HiGHS issues 2653, 2782: "MIP solver claims optimality,
but with ... primal infeasibilities"). On a 9x9 of Kropki and XV dots it made
(``tests/test_adapters.py``) every such violation came from one presolve rule, sparsify (rows
made sparser by adding multiples of equalities): it is turned off (``presolve_rule_off``,
whose bits are numbered by the HiGHS version: 1.12's bit 14 checked by its log, which names
it); the time of 30 such puzzles was the same with it on or off (median CPU 0.110 and 0.108 s).
A run that still ends in "Solve error" is run again without presolve, whose solution is never
undone; only a second failure is an ``EngineError``, naming HiGHS's status.

``model=native`` (default) writes mip's own formulation of each kind it has one for
(``adapters.mip_native``: cages and renban lines as a choice among their sets of values,
thermometers in order encoding, Kropki dots, whispers and XV as aggregated rows, skyscrapers by
the running maximum), handed those constraints unflattened (``solvers.model.compile.handed``);
``model=decomposed`` gives every kind as the shared decomposition does, so that a comparison
shows what the formulations are worth (docs/models.md). With the native model,
``cages=combinations`` (default) gives the compile step's sum groups, the 45 rule's implied ones
among them, the cages' formulation too (``mip_native.sum_group``), and ``cages=rows`` gives
cages and groups alike as the decomposition's all-different and sum row (docs/backends.md has
both measured). The rest of the rules, the board's primitives (``solvers.model.compile``), are
rows over the same binaries (``_PrimitiveRows``); a table row and a "!=" add a binary each,
after the cells', as the native formulations' own binaries do (the cuts name cell binaries only,
so a solution is counted once whatever the others are).

``heuristics=off`` turns off HiGHS's primal heuristics that solve LPs at the root (RENS, RINS,
the root reduced-cost heuristic, feasibility jump: ``HEURISTICS``), and ``restart=off`` its
restart after the root; on a hard killer (the Interactive Sudoku Solver's "Killer sudoku [0
cage, hard]") they took four fifths of the root's LP iterations, and off they prove three hard
killers within 20 s that the defaults do not. Both stay on by default: on a sparse board they
find the first solution, without them an empty 9x9 took 1.9 s against 0.44 and an empty 16x16
9.3 s against 0.63 (docs/backends.md has both measured). Both are HiGHS's: with
``solver=scip`` an ``off`` is refused (a ``UsageError``) rather than ignored."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import ClassVar

import highspy
import numpy as np

from adapters import mip_native
from adapters.primitive_forms import groups_as_cages
from solvers.backends.contract import Backend, Found, Operation, Solutions
from solvers.base.deadline import Deadline
from solvers.base.errors import BackendUnavailable, EngineError, SolveTimeout
from solvers.model.board import Board
from solvers.model.compile import PRIMITIVES, handed
from solvers.model.constraints.primitives import AllDifferent, Domain, Linear, Relation
from solvers.model.geometry import Geometry

INF = highspy.kHighsInf
# With no objective and binaries only, "unbounded or infeasible" can only be infeasible.
HIGHS_INFEASIBLE = (
    highspy.HighsModelStatus.kInfeasible,
    highspy.HighsModelStatus.kUnboundedOrInfeasible,
)
SCIP_INFEASIBLE = ("infeasible", "inforunbd")
# the presolve_rule_off bit of sparsify, by HiGHS version (the module's docstring)
SPARSIFY = {(1, 12): 1 << 14}
# HiGHS's primal heuristics that mip:heuristics=off turns off (its mip_heuristic_run_* options)
HEURISTICS = ("rens", "rins", "root_reduced_cost", "feasibility_jump")
# the options that set HiGHS alone (refused with solver=scip)
HIGHS_ONLY = ("heuristics", "restart")


class MipBackend(Backend):
    ENCODES = frozenset({PRIMITIVES})
    NATIVE = frozenset(mip_native.MODELS)
    INTERRUPTIBLE = False  # the MIP solver's search holds the thread until it ends
    # HiGHS (or the allocator under it) keeps about 470 bytes a puzzle for good, though the
    # adapter makes a fresh Highs() each time (bench/memory.py: 37.1 MB at 1,000 puzzles, 41.3
    # at 10,000, climbing every thousand): a worker is replaced every 500 puzzles
    RECYCLE_AFTER = 500
    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = {
        "solver": ("highs", "scip"),
        "model": ("native", "decomposed"),
        "cages": ("combinations", "rows"),
        "heuristics": ("on", "off"),
        "restart": ("on", "off"),
    }

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        if self.options["solver"] == "scip":
            try:
                import pyscipopt  # noqa: F401
            except ImportError as error:
                raise BackendUnavailable(f"mip:solver=scip is unavailable: {error}") from None

    @classmethod
    def refusal(cls, options: Mapping[str, str]) -> str | None:
        # HiGHS's own switches: SCIP would run as if they were not given
        if options["solver"] != "scip":
            return None
        changed = [
            f"{key}={options[key]}" for key in HIGHS_ONLY if options[key] != cls.OPTIONS[key][0]
        ]
        return (
            f"mip:solver=scip does not take {', '.join(changed)} (options of HiGHS)"
            if changed
            else None
        )

    def native_kinds(self) -> frozenset[str]:
        if self.options["model"] != "native":
            return frozenset()
        if self.options["cages"] == "rows":  # cages as the decomposition's rows
            return self.NATIVE - {"killercage", "multisumcage"}
        return self.NATIVE

    def stops_itself(self, operation: Operation) -> bool:
        return False  # see the module's docstring: killed in a worker at the deadline

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        n, program = board.size, self.program(board, deadline)
        empty = [cell for cell, v in enumerate(board.cells) if not v]
        solutions = Solutions(limit)
        while program.run(deadline):
            cells = np.argmax(program.values()[: n**3].reshape(n * n, n), axis=1) + 1
            if solutions.add(cells.tolist()) or not empty:
                break
            chosen = [cell * n + int(cells[cell]) - 1 for cell in empty]
            program.add([(chosen, [1.0] * len(chosen), -INF, len(chosen) - 1.0)], deadline)
        return solutions.found(board, program.stats)

    def program(self, board: Board, deadline: Deadline) -> _Highs | _Scip:
        """``board``'s integer program for the chosen solver, ready to ``run``."""
        n, (flat, own) = board.size, handed(board, self.native_kinds())
        # natively, the sum groups (the 45 rule's among them) as cages are, a choice of sets
        primitives, groups = flat.primitives_for(self.ENCODES), ()
        if "killercage" in self.native_kinds():
            primitives, groups = groups_as_cages(flat, self.ENCODES)
        rows = _PrimitiveRows(n, primitives)
        rows.givens = board.cells
        for constraint in own:
            mip_native.add(rows, constraint)
        for group in groups:
            mip_native.sum_group(rows, group.cells, group.total)
        lower = np.zeros(rows.binaries)
        lower[[cell * n + v - 1 for cell, v in enumerate(board.cells) if v]] = 1.0
        program = _Highs(lower, self.options) if self.options["solver"] == "highs" else _Scip(lower)
        program.add(_rule_rows(flat.geometry), deadline)
        program.add(rows.rows, deadline)
        return program


@lru_cache(maxsize=16)
def _rule_rows(geometry: Geometry) -> list:
    """(binaries, weights, lower, upper) of each equality of the cells and units."""
    n = geometry.size
    rows = [[cell * n + v for v in range(n)] for cell in range(n * n)]
    rows += [[cell * n + v for cell in unit] for unit in geometry.units for v in range(n)]
    return [(row, [1.0] * n, 1.0, 1.0) for row in rows]


class _PrimitiveRows:
    """The rows of primitives on an N board, and how many binaries they need (``binaries``:
    the cells' N**3, and one per table row and per "!=", which picks a side of its constant by
    big-M)."""

    def __init__(self, n: int, primitives) -> None:
        self.n, self.binaries, self.rows = n, n**3, []
        self.givens: tuple[int, ...] = (0,) * n * n  # the board's, for the native models
        for primitive in primitives:
            self.add(primitive)

    def x(self, cell: int, v: int) -> int:
        return cell * self.n + v - 1

    def new(self) -> int:
        self.binaries += 1
        return self.binaries - 1

    def add(self, primitive) -> None:
        n, x, rows = self.n, self.x, self.rows
        if isinstance(primitive, AllDifferent):
            size = len(primitive.cells)
            rows += [
                ([x(c, v) for c in primitive.cells], [1.0] * size, -INF, 1.0)
                for v in range(1, n + 1)
            ]
        elif isinstance(primitive, Relation):
            rows += [
                ([x(primitive.first, a), x(primitive.second, b)], [1.0, 1.0], -INF, 1.0)
                for a, b in sorted(primitive.forbidden)
            ]
        elif isinstance(primitive, Linear):
            self.linear(primitive)
        elif isinstance(primitive, Domain):
            banned = [x(primitive.cell, v) for v in range(1, n + 1) if v not in primitive.values]
            if banned:
                rows.append((banned, [1.0] * len(banned), -INF, 0.0))
        else:
            self.table(primitive.cells, primitive.rows)

    def linear(self, linear: Linear) -> None:
        binaries = [self.x(c, v) for _, c in linear.terms for v in range(1, self.n + 1)]
        weights = [float(k * v) for k, _ in linear.terms for v in range(1, self.n + 1)]
        constant = float(linear.constant)
        bounds = {"==": (constant, constant), "<=": (-INF, constant), ">=": (constant, INF)}
        if linear.op in bounds:
            self.rows.append((binaries, weights, *bounds[linear.op]))
            return
        # "!=": total <= constant - 1 when the side binary is 0, >= constant + 1 when it is 1
        low = sum(min(k, k * self.n) for k, _ in linear.terms)
        high = sum(max(k, k * self.n) for k, _ in linear.terms)
        side = self.new()
        up, down = float(high - constant + 1), float(constant + 1 - low)
        self.rows.append(([*binaries, side], [*weights, -up], -INF, constant - 1))
        self.rows.append(([*binaries, side], [*weights, -down], constant + 1 - down, INF))

    def table(self, cells: tuple[int, ...], table: tuple) -> None:
        chosen = []
        for row in table:
            pick = self.new()
            for cell, values in zip(cells, row, strict=True):
                inside = [self.x(cell, v) for v in sorted(values) if 1 <= v <= self.n]
                self.rows.append(([*inside, pick], [1.0] * len(inside) + [-1.0], 0.0, INF))
            chosen.append(pick)
        self.rows.append((chosen, [1.0] * len(chosen), 1.0, INF))


class _Highs:
    """A HiGHS model of ``len(lower)`` binaries."""

    def __init__(self, lower: np.ndarray, options: dict[str, str] | None = None) -> None:
        """``options``: the backend's (``heuristics``, ``restart``; None: the defaults)."""
        options = {key: MipBackend.OPTIONS[key][0] for key in HIGHS_ONLY} | (options or {})
        self.highs = highspy.Highs()
        self.highs.setOptionValue("output_flag", False)  # no banner, no log
        if options["heuristics"] == "off":  # the module's docstring: the root's LP work
            for heuristic in HEURISTICS:
                self.highs.setOptionValue(f"mip_heuristic_run_{heuristic}", False)
        if options["restart"] == "off":
            self.highs.setOptionValue("mip_allow_restart", False)
        version = (self.highs.versionMajor(), self.highs.versionMinor())
        if version in SPARSIFY:  # the module's docstring: its solutions can break our rows
            self.highs.setOptionValue("presolve_rule_off", SPARSIFY[version])
        count = len(lower)
        self.highs.addVars(count, lower, np.ones(count))
        integer = np.full(count, highspy.HighsVarType.kInteger)
        self.highs.changeColsIntegrality(count, np.arange(count, dtype=np.int32), integer)
        self.stats = {"nodes": 0, "lp_iterations": 0}

    def add(self, rows: list, deadline: Deadline) -> None:
        if not rows:
            return
        starts = np.cumsum([0] + [len(row[0]) for row in rows[:-1]], dtype=np.int32)
        binaries = np.fromiter((b for row in rows for b in row[0]), dtype=np.int32)
        weights = np.fromiter((w for row in rows for w in row[1]), dtype=np.float64)
        bounds = np.array([row[2:] for row in rows], dtype=np.float64)
        status = self.highs.addRows(
            len(rows), bounds[:, 0], bounds[:, 1], len(binaries), starts, binaries, weights
        )
        if status != highspy.HighsStatus.kOk:  # HiGHS refuses the whole batch, silently
            raise EngineError(f"mip: HiGHS refused the model's rows: {status.name}")

    def run(self, deadline: Deadline) -> bool:
        """True: feasible; False: infeasible; SolveTimeout otherwise."""
        status = self._run(deadline)
        retried = status == highspy.HighsModelStatus.kSolveError
        if retried:  # a presolved point that broke a row (the module's docstring)
            self.highs.setOptionValue("presolve", "off")
            status = self._run(deadline)
            self.highs.setOptionValue("presolve", "choose")
        if status in HIGHS_INFEASIBLE:
            return False
        if status == highspy.HighsModelStatus.kOptimal:
            return True
        named = self.highs.modelStatusToString(status)
        if status == highspy.HighsModelStatus.kTimeLimit:
            raise SolveTimeout(stats={**self.stats, "status": named})
        again = " (and again without presolve)" if retried else ""
        raise EngineError(f"mip: HiGHS stopped without an answer: {named}{again}")

    def _run(self, deadline: Deadline) -> highspy.HighsModelStatus:
        remaining = deadline.remaining()
        if remaining is not None:
            if remaining <= 0:
                raise SolveTimeout(stats=self.stats)
            self.highs.setOptionValue("time_limit", max(remaining, 1e-3))
        self.highs.run()
        info = self.highs.getInfo()
        self.stats["nodes"] += info.mip_node_count
        self.stats["lp_iterations"] += info.simplex_iteration_count
        return self.highs.getModelStatus()

    def values(self) -> np.ndarray:
        return np.asarray(self.highs.getSolution().col_value)


class _Scip:
    """A SCIP model of ``len(lower)`` binaries, built row by row under the deadline."""

    def __init__(self, lower: np.ndarray) -> None:
        import pyscipopt

        self.quicksum = pyscipopt.quicksum
        self.scip = pyscipopt.Model()
        self.scip.hideOutput()
        self.x = [self.scip.addVar(vtype="B", lb=low) for low in lower.tolist()]
        self.stats = {"nodes": 0, "lp_iterations": 0}

    def add(self, rows: list, deadline: Deadline) -> None:
        self.scip.freeTransform()  # back to the problem stage, where rows can be added
        for binaries, weights, low, high in rows:
            if deadline.expired():
                raise SolveTimeout(stats=self.stats)
            total = self.quicksum(w * self.x[b] for b, w in zip(binaries, weights, strict=True))
            if low == high:
                self.scip.addCons(total == high)
            else:
                if high != INF:
                    self.scip.addCons(total <= high)
                if low != -INF:
                    self.scip.addCons(total >= low)

    def run(self, deadline: Deadline) -> bool:
        remaining = deadline.remaining()
        if remaining is not None:
            if remaining <= 0:
                raise SolveTimeout(stats=self.stats)
            self.scip.setParam("limits/time", max(remaining, 1e-3))
        self.scip.optimize()
        self.stats["nodes"] += self.scip.getNNodes()
        self.stats["lp_iterations"] += self.scip.getNLPIterations()
        status = self.scip.getStatus()
        if status in SCIP_INFEASIBLE:
            return False
        if status == "optimal":
            return True
        if status == "timelimit":
            raise SolveTimeout(stats={**self.stats, "status": status})
        raise EngineError(f"mip:solver=scip: SCIP stopped without an answer: {status}")

    def values(self) -> np.ndarray:
        solution = self.scip.getBestSol()
        return np.array([self.scip.getSolVal(solution, x) for x in self.x])
