"""``cpsat``: OR-tools CP-SAT.

``model=native`` (default): one integer variable per cell with domain 1..N, givens fixed,
``AddAllDifferent`` per unit, and CP-SAT's own model of each kind it has one for
(``adapters.cpsat_native``: skyscrapers by visibility, renban by its minimum and maximum, ...),
handed those constraints unflattened (``solvers.model.compile.handed``). ``model=decomposed``:
the same cells with every kind as the shared decomposition gives it, so that a comparison shows
what the native models are worth; natively, killer cages and the compile step's sum groups (the
45 rule's implied ones among them) are sums beside an all-different (``cages=sum``, default) or
tables of their fillings (``cages=table``: ``cpsat_native.sum_group``). ``model=boolean``: one
0/1 variable per cell and value, with exactly-one constraints per cell and per unit and value,
and the shared decomposition. Each model compiles the rest of the board's rules, its primitives
(``solvers.model.compile``), with CP-SAT's own constraints (``_Cells``). One worker by default:
it measured fastest for single puzzles (README, "Backends"). CP-SAT's own time limit is the
deadline."""

from __future__ import annotations

from typing import ClassVar

from ortools.sat.python import cp_model

from adapters import cpsat_native
from adapters.primitive_forms import groups_as_cages
from solvers.backends.contract import Backend, Found, Solutions
from solvers.base.deadline import Deadline
from solvers.base.errors import EngineError, SolveTimeout
from solvers.model.board import Board
from solvers.model.compile import PRIMITIVES, handed
from solvers.model.constraints.primitives import (
    OPERATORS,
    AllDifferent,
    Domain,
    Linear,
    Primitive,
    Relation,
)


class CpSatBackend(Backend):
    ENCODES = frozenset({PRIMITIVES})
    NATIVE = frozenset(cpsat_native.MODELS)
    INTERRUPTIBLE = False  # CP-SAT's search holds the thread until it ends
    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = {
        "model": ("native", "decomposed", "boolean"),
        "workers": ("1", "2", "4", "8", "16"),
        "cages": ("sum", "table"),
    }

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        self.model_kind, self.workers = self.options["model"], int(self.options["workers"])

    def native_kinds(self) -> frozenset[str]:
        return self.NATIVE if self.model_kind == "native" else frozenset()

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        # one solution: the solver's own search, on every worker asked for; more: enumeration
        return self._first(board, deadline) if limit == 1 else self._count(board, limit, deadline)

    def _first(self, board: Board, deadline: Deadline) -> Found:
        model, read = self._build(board)
        solver = self._solver(deadline, enumerate_all=False)
        status = solver.solve(model)
        stats = _stats(solver)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Found(1, board.with_cells(read(solver.value)), stats)
        if status == cp_model.INFEASIBLE:
            return Found(0, None, stats)
        raise _stopped(solver, status, model, stats)

    def _count(self, board: Board, limit: int, deadline: Deadline) -> Found:
        model, read = self._build(board)
        solver = self._solver(deadline, enumerate_all=True)
        counter = _StopAt(Solutions(limit), read)
        status = solver.solve(model, counter)
        stats = _stats(solver)
        # OPTIMAL: enumeration finished; INFEASIBLE: none; otherwise it stopped early, which is
        # fine only when it stopped because the limit was reached.
        if counter.solutions.count < limit and status not in (
            cp_model.OPTIMAL,
            cp_model.INFEASIBLE,
        ):
            raise _stopped(solver, status, model, stats)
        return counter.solutions.found(board, stats)

    def _solver(self, deadline: Deadline, enumerate_all: bool) -> cp_model.CpSolver:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1 if enumerate_all else self.workers
        solver.parameters.enumerate_all_solutions = enumerate_all
        remaining = deadline.remaining()
        if remaining is not None:
            solver.parameters.max_time_in_seconds = max(remaining, 1e-3)
        return solver

    def _build(self, board: Board):
        """The model, and a function that reads the cells back from a solver's values."""
        (flat, own), model = handed(board, self.native_kinds()), cp_model.CpModel()
        cells = (_Boolean if self.model_kind == "boolean" else _Integer)(model, board)
        for unit in flat.units:
            cells.unit(unit)
        options = self.options
        # natively, the sum groups (the 45 rule's among them) as cages are (``cages``)
        n, cages = board.size, options["cages"]
        primitives, groups = flat.primitives_for(self.ENCODES), ()
        if self.native_kinds():
            primitives, groups = groups_as_cages(flat, self.ENCODES)
        for primitive in primitives:
            cells.add(primitive)
        for group in groups:
            cpsat_native.sum_group(
                model, [cells.cells[c] for c in group.cells], group.total, n, cages
            )
        for constraint in own:  # only the integer cells have native models (native_kinds)
            cpsat_native.post(model, cells.cells, constraint, n, options)
        return model, cells.read


class _Cells:
    """A board's cells in a model, the givens fixed (one subclass per ``model`` option), and
    the units and primitives compiled over them: each subclass says how a unit, an
    all-different and a forbidden pair (``AddForbiddenAssignments``, or a clause per pair) are
    posted, and gives ``value`` (an expression of the cell's value), ``is_in`` (a literal that
    is true exactly when the cell holds one of some values) and ``read`` (the cells' values
    from a solver's).

    Every auxiliary variable is a function of the cells (each literal is reified both ways):
    CP-SAT enumerates assignments of all variables, so a free one would count a solution
    twice (a table row picked, or not, for the same cells)."""

    def __init__(self, model: cp_model.CpModel, n: int) -> None:
        self.model, self.n = model, n

    def add(self, primitive: Primitive) -> None:
        model = self.model
        if isinstance(primitive, AllDifferent):
            self.all_different(primitive.cells)
        elif isinstance(primitive, Relation):
            self.forbid(primitive.first, primitive.second, primitive.forbidden)
        elif isinstance(primitive, Linear):
            total = sum(k * self.value(cell) for k, cell in primitive.terms)
            model.add(OPERATORS[primitive.op](total, primitive.constant))
        elif isinstance(primitive, Domain):
            model.add_bool_or([self.is_in(primitive.cell, primitive.values)])
        else:  # a compressed table: some row holds; a row holds when each cell is in its set
            chosen = []
            for row in primitive.rows:
                pick = model.new_bool_var("")
                cells = zip(primitive.cells, row, strict=True)
                inside = [self.is_in(cell, values) for cell, values in cells]
                for literal in inside:
                    model.add_implication(pick, literal)
                model.add_bool_or([pick, *(~literal for literal in inside)])
                chosen.append(pick)
            model.add_bool_or(chosen)


class _Integer(_Cells):
    def __init__(self, model: cp_model.CpModel, board: Board) -> None:
        super().__init__(model, board.size)
        self.cells = [
            model.new_constant(v) if v else model.new_int_var(1, self.n, f"c{i}")
            for i, v in enumerate(board.cells)
        ]

    def read(self, value):
        return (value(cell) for cell in self.cells)

    def value(self, cell: int):
        return self.cells[cell]

    def unit(self, cells) -> None:
        self.all_different(cells)

    def all_different(self, cells) -> None:
        self.model.add_all_different(self.cells[c] for c in cells)

    def forbid(self, first: int, second: int, pairs) -> None:
        if pairs:
            self.model.add_forbidden_assignments(
                [self.cells[first], self.cells[second]], sorted(pairs)
            )

    def is_in(self, cell: int, values):
        held, model = self.model.new_bool_var(""), self.model
        inside = sorted(v for v in values if 1 <= v <= self.n)
        outside = sorted(set(range(1, self.n + 1)) - set(inside))
        for literal, chosen in ((held, inside), (~held, outside)):
            domain = cp_model.Domain.from_values(chosen)
            model.add_linear_expression_in_domain(self.cells[cell], domain).only_enforce_if(literal)
        return held


class _Boolean(_Cells):
    def __init__(self, model: cp_model.CpModel, board: Board) -> None:
        super().__init__(model, board.size)
        n = self.n
        self.holds = [
            [model.new_bool_var(f"c{i}v{v}") for v in range(1, n + 1)] for i in range(n * n)
        ]
        for i, v in enumerate(board.cells):
            model.add_exactly_one(self.holds[i])
            if v:
                model.add(self.holds[i][v - 1] == 1)

    def read(self, value):
        return (next(v + 1 for v, x in enumerate(row) if value(x)) for row in self.holds)

    def value(self, cell: int):
        return sum((v + 1) * self.holds[cell][v] for v in range(self.n))

    def unit(self, cells) -> None:
        for v in range(self.n):
            self.model.add_exactly_one(self.holds[c][v] for c in cells)

    def all_different(self, cells) -> None:
        for v in range(self.n):
            self.model.add_at_most_one(self.holds[c][v] for c in cells)

    def forbid(self, first: int, second: int, pairs) -> None:
        for a, b in pairs:
            self.model.add_bool_or([~self.holds[first][a - 1], ~self.holds[second][b - 1]])

    def is_in(self, cell: int, values):
        held = self.model.new_bool_var("")
        inside = [self.holds[cell][v - 1] for v in sorted(values) if 1 <= v <= self.n]
        self.model.add_bool_or(inside).only_enforce_if(held)
        for literal in inside:
            self.model.add_implication(literal, held)
        return held


class _StopAt(cp_model.CpSolverSolutionCallback):
    """Adds each solution to ``solutions`` and stops the search at their limit."""

    def __init__(self, solutions: Solutions, read) -> None:
        super().__init__()
        self.solutions, self.read = solutions, read

    def on_solution_callback(self) -> None:
        if self.solutions.add(self.read(self.value)):
            self.stop_search()


def _stats(solver: cp_model.CpSolver) -> dict:
    return {
        "branches": solver.num_branches,
        "conflicts": solver.num_conflicts,
        "wall_time_s": solver.wall_time,
    }


def _stopped(
    solver: cp_model.CpSolver, status: int, model: cp_model.CpModel, stats: dict
) -> Exception:
    """Why CP-SAT stopped without an answer: UNKNOWN (and FEASIBLE while counting: some
    solutions, then) is its time limit or an interrupt; anything else (MODEL_INVALID) is an
    engine error naming the status and what is wrong."""
    if status in (cp_model.UNKNOWN, cp_model.FEASIBLE):
        return SolveTimeout(stats=stats)
    why = model.Validate().splitlines()[0] if status == cp_model.MODEL_INVALID else ""
    named = solver.status_name(status) + (f": {why}" if why else "")
    return EngineError(f"cpsat stopped without an answer: {named}")
