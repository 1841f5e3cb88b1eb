"""``z3``: the SMT solver Z3 (z3-solver).

``cells=bool`` (default, fastest by measurement: README, "Backends"): a Boolean per cell and
value, exactly one per cell and per unit and value (``PbEq``). ``cells=int``,
``cells=bitvec``: an integer (bit-vector) per cell in 1..N, ``Distinct`` per unit.
``model=native`` gives Z3 its own model of the kinds it has one for (``adapters.z3_native``:
over Boolean cells, support clauses and pseudo-Boolean sums for cages, thermometers, Kropki
dots, whispers, renban and skyscrapers; over integer and bit-vector cells, integer arithmetic
for those and X-sums, sandwiches, between lines), handed those constraints unflattened
(``solvers.model.compile.handed``); ``model=decomposed`` gives every kind as the shared
decomposition does, so that a comparison shows what the native models are worth
(docs/models.md). Natively over Boolean cells, the compile step's sum groups (the 45 rule's
implied ones among them) are modelled as cages are, by ``cages``: ``combinations`` (default,
a selector per set of values, as the CNF backends) or ``pb`` (``PbEq`` sums). Over Boolean
cells, the rules' linear rows (arrows, little killers, cages of ``model=decomposed``) are, by
``sums``, one ``PbEq`` each (``pb``, default) or the automaton of their partial sums
(``diagram``, ``adapters.z3_sums``); the 45 rule's implied rows, and rows whose automaton
would be large, stay ``PbEq`` either way.

One solver per geometry (every unit of the board's flattened rules) holds the units, in a
``Context`` of its own, built in steps that look at the deadline (``adapters.persistent``); the
givens are assumptions, so what Z3 learns follows from the units alone, as in ``pysat``.
The rest of the rules, the board's primitives (``solvers.model.compile``), go in a push/pop scope
with a count's blocking clauses, one primitive at a time with a look at the deadline after
each, as Z3's own terms (``_Primitives``; a table with no auxiliary variable). Z3's timeout
is per ``check`` and sticky: it is set before each. A row is read back by evaluating one term
(its cells concatenated), far quicker than reading it cell by cell.
"""

from __future__ import annotations

from typing import ClassVar

import z3

from adapters import z3_native
from adapters.persistent import Build, PerGeometry
from adapters.primitive_forms import groups_as_cages
from adapters.z3_sums import SUMS, diagram, small_enough
from solvers.backends.contract import Backend, Found, Solutions
from solvers.base.deadline import Deadline
from solvers.base.errors import EngineError, SolveTimeout
from solvers.model.board import Board
from solvers.model.compile import PRIMITIVES, handed
from solvers.model.constraints.primitives import OPERATORS, AllDifferent, Domain, Linear, Relation
from solvers.model.geometry import Geometry

NO_TIMEOUT = 4294967295  # z3's "never", in milliseconds
COUNTERS = ("conflicts", "decisions")


class Z3Backend(Backend):
    ENCODES = frozenset({PRIMITIVES})
    NATIVE = frozenset(z3_native.MODELS)
    INTERRUPTIBLE = False  # Z3's check holds the thread until it ends
    # the kept solver (one per shape, asked with the givens as assumptions) grows by about 120
    # bytes a puzzle for good (bench/memory.py: 52.4 MB at 1,000 puzzles, 53.5 at 10,000, a
    # step every thousand): a worker is replaced every 2,000 puzzles, and the new one builds
    # the shape's solver again (0.3 s for a 9x9: 0.15 ms a puzzle over 2,000)
    RECYCLE_AFTER = 2000
    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = {
        "cells": ("bool", "int", "bitvec"),
        "model": ("native", "decomposed"),
        "cages": ("combinations", "pb"),
        "sums": SUMS,
    }

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        self._kept: PerGeometry[_Model] = PerGeometry(self._build)

    def native_kinds(self) -> frozenset[str]:
        if self.options["model"] != "native":
            return frozenset()
        # over Boolean cells, only the kinds whose models are written over the literals
        return frozenset(z3_native.LITERALS) if self.options["cells"] == "bool" else self.NATIVE

    def prepare(self, shape) -> None:
        self._kept.get(shape.geometry)

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        flat, own = handed(board, self.native_kinds())
        n, cages = board.size, self.options.get("cages", "combinations")
        # natively over Boolean cells, the sum groups (the 45 rule's among them) as cages are
        boolean = self.native_kinds() and self.options["cells"] == "bool"
        given, groups = flat.primitives_for(self.ENCODES), ()
        if boolean:
            given, groups = groups_as_cages(flat, self.ENCODES)
        model = self._kept.get(flat.geometry, deadline)
        solver, before = model.solver, _counters(model.solver)
        givens = [model.holds(cell, v) for cell, v in enumerate(board.cells) if v]
        empty = [cell for cell, v in enumerate(board.cells) if not v]
        solutions = Solutions(limit)
        solver.push()
        try:
            # building the terms of a 16x16's pair rules alone takes seconds
            primitives = _Primitives(model, self.options["sums"], flat.implied_linears)
            for primitive in given:
                solver.add(primitives.terms(primitive))
                deadline.check({"building": "the board's rules"})
            for group in groups:
                solver.add(z3_native.literal_group(model.holds, group.cells, group.total, n, cages))
                deadline.check({"building": "the board's rules"})
            for constraint in own:
                if model.boolean:
                    solver.add(z3_native.literal_terms(model.holds, constraint, n, cages))
                else:
                    solver.add(z3_native.terms(model.values(), constraint, board.size))
                deadline.check({"building": "the board's rules"})
            while _check(solver, givens, deadline) == z3.sat:
                cells = model.read(solver.model())
                if solutions.add(cells) or not empty:
                    break
                solver.add(z3.Or([z3.Not(model.holds(cell, cells[cell])) for cell in empty]))
        except SolveTimeout as timeout:
            raise SolveTimeout(stats={**timeout.stats, **_counters(solver, before)}) from None
        finally:
            solver.pop()
        return solutions.found(board, _counters(solver, before))

    def _build(self, geometry: Geometry) -> Build:
        """The rules of ``geometry`` in a new solver, a row or a unit at a time."""
        n, model = geometry.size, _Model(self.options["cells"], geometry.size)
        rows = [range(r * n, r * n + n) for r in range(n)]
        for row in rows:
            model.declare(row)
            model.solver.add([model.domain(cell) for cell in row])
            yield
        for unit in geometry.units:
            model.solver.add(model.unit(unit))
            yield
        for row in rows:
            model.reading.append(model.read_term(row))
            yield
        return model


class _Model:
    """One geometry's solver, in a context of its own, and its variables: ``vars[cell]`` a row
    of Booleans (one per value) for ``bool``, else one integer or bit-vector."""

    def __init__(self, kind: str, n: int) -> None:
        ctx = z3.Context()
        self.solver, self.n, self.boolean = z3.Solver(ctx=ctx), n, kind == "bool"
        self.kind, self.width = kind, n if self.boolean else n.bit_length()  # bits per cell read
        self.vars: list = []  # a row at a time (``declare``), between looks at the deadline
        self.reading: list[z3.ExprRef] = []  # a term per row (``read_term``)
        self.integers: list[z3.ArithRef] = []  # a term per cell (``values``)

    def declare(self, cells: range) -> None:
        """The variables of ``cells``, the next cells in order."""
        ctx, n = self.solver.ctx, self.n
        for i in cells:
            if self.boolean:
                self.vars.append([z3.Bool(f"c{i}v{v}", ctx) for v in range(n)])
            elif self.kind == "int":
                self.vars.append(z3.Int(f"c{i}", ctx))
            else:
                self.vars.append(z3.BitVec(f"c{i}", self.width, ctx))

    def domain(self, cell: int) -> z3.BoolRef:
        """The cell holds one value of 1..N."""
        x = self.vars[cell]
        if self.boolean:
            return _exactly_one(x)
        if z3.is_bv(x):
            return z3.And(z3.UGE(x, 1), z3.ULE(x, self.n))
        return z3.And(x >= 1, x <= self.n)

    def values(self) -> list[z3.ArithRef]:
        """Each cell's value as an integer term, for ``int`` and ``bitvec`` cells
        (``adapters.z3_native`` writes its arithmetic over these): the variable, or the
        bit-vector read as an integer. Made on first need, then kept."""
        if not self.integers:
            self.integers = [z3.BV2Int(x) if z3.is_bv(x) else x for x in self.vars]
        return self.integers

    def holds(self, cell: int, v: int) -> z3.BoolRef:
        return self.vars[cell][v - 1] if self.boolean else self.vars[cell] == v

    def unit(self, cells: tuple[int, ...], at_most: bool = False) -> list:
        """The cells hold different values: each value once (a unit of N cells), or at most
        once."""
        if self.boolean and at_most:
            return [z3.AtMost(*(self.vars[c][v] for c in cells), 1) for v in range(self.n)]
        if self.boolean:
            return [_exactly_one([self.vars[c][v] for c in cells]) for v in range(self.n)]
        return [z3.Distinct([self.vars[c] for c in cells])]

    def read_term(self, cells: range) -> z3.ExprRef:
        """One term whose value holds each of ``cells`` (a row) in ``width`` bits, the first
        lowest: one evaluation reads a row."""
        if self.boolean:
            one, zero = (z3.BitVecVal(b, 1, self.solver.ctx) for b in (1, 0))
            rows = [self.vars[cell] for cell in reversed(cells)]
            return z3.Concat([z3.If(x, one, zero) for row in rows for x in reversed(row)])
        if z3.is_bv(self.vars[0]):
            return z3.Concat([self.vars[cell] for cell in reversed(cells)])
        return z3.Sum([self.vars[c] * 2 ** ((c - cells[0]) * self.width) for c in cells])

    def read(self, found: z3.ModelRef) -> list[int]:
        mask, cells = (1 << self.width) - 1, []
        for term in self.reading:
            row = found.eval(term, model_completion=True).as_long()
            for k in range(self.n):
                bits = row >> (k * self.width) & mask
                cells.append(bits.bit_length() if self.boolean else bits)
        return cells


class _Primitives:
    """The terms of primitives over ``model``'s cells."""

    def __init__(self, model: _Model, sums: str = "pb", implied: tuple = ()) -> None:
        self.model, self.vars, self.n, self.sums = model, model.vars, model.n, sums
        # the 45 rule's rows, implied by the rest, stay pseudo-Boolean rows under
        # sums=diagram: as automata they cost more than they cut (docs/models.md)
        self.implied = frozenset(implied)

    def terms(self, primitive) -> list:
        if isinstance(primitive, AllDifferent):
            return self.model.unit(primitive.cells, at_most=True)
        if isinstance(primitive, Relation):
            first, second = primitive.first, primitive.second
            holds = self.model.holds
            return [
                z3.Or(z3.Not(holds(first, a)), z3.Not(holds(second, b)))
                for a, b in sorted(primitive.forbidden)
            ]
        if isinstance(primitive, Linear):
            if (
                self.model.boolean
                and self.sums == "diagram"
                and primitive.op != "!="
                and primitive not in self.implied
                and small_enough(primitive, self.n)
            ):
                return diagram(self.model.holds, primitive, self.n)
            return [self.linear(primitive)]
        if isinstance(primitive, Domain):
            return [self.is_in(primitive.cell, primitive.values)]
        rows = [
            z3.And([self.is_in(c, values) for c, values in zip(primitive.cells, row, strict=True)])
            for row in primitive.rows
        ]
        return [z3.Or(rows) if rows else self._false()]

    def is_in(self, cell: int, values) -> z3.BoolRef:
        chosen = [self.model.holds(cell, v) for v in sorted(values) if 1 <= v <= self.n]
        return z3.Or(chosen) if chosen else self._false()

    def linear(self, linear: Linear) -> z3.BoolRef:
        op, constant = linear.op, linear.constant
        if self.model.boolean:
            weighted = [
                (x, k * (v + 1)) for k, c in linear.terms for v, x in enumerate(self.vars[c])
            ]
            if op == "!=":
                return z3.Not(z3.PbEq(weighted, constant))
            return {"==": z3.PbEq, "<=": z3.PbLe, ">=": z3.PbGe}[op](weighted, constant)
        return OPERATORS[op](*self.total(linear))

    def total(self, linear: Linear):
        """The sum of ``linear``'s terms and its constant, as integers, or as bit-vectors wide
        enough that neither wraps (compared signed: ``<=`` on bit-vectors is signed)."""
        terms = [(k, self.vars[c]) for k, c in linear.terms]
        if not z3.is_bv(self.vars[0]):
            return z3.Sum([k * x for k, x in terms]), linear.constant
        largest = sum(abs(k) * self.n for k, _ in terms) + abs(linear.constant)
        width = largest.bit_length() + 2
        extend = lambda x: z3.ZeroExt(width - self.model.width, x)  # noqa: E731
        total = z3.Sum([extend(x) * z3.BitVecVal(k, width, x.ctx) for k, x in terms])
        return total, z3.BitVecVal(linear.constant, width, total.ctx)

    def _false(self) -> z3.BoolRef:
        return z3.BoolVal(False, self.model.solver.ctx)


def _exactly_one(literals: list) -> z3.BoolRef:
    return z3.PbEq([(x, 1) for x in literals], 1)


def _check(solver: z3.Solver, assumptions: list, deadline: Deadline):
    """sat or unsat; SolveTimeout at the deadline."""
    remaining = deadline.timeout()
    solver.set("timeout", NO_TIMEOUT if remaining is None else max(1, int(remaining * 1000)))
    answer = solver.check(*assumptions)
    if answer == z3.unknown:
        reason = solver.reason_unknown()
        if reason in ("timeout", "canceled"):  # its time limit, or an interrupt
            raise SolveTimeout(stats={"reason": reason})
        raise EngineError(f"z3 stopped without an answer: {reason}")
    return answer


def _counters(solver: z3.Solver, before: dict | None = None) -> dict[str, int]:
    """Z3's running totals of conflicts and decisions (the SAT core calls them "sat ..."),
    less ``before``."""
    found = solver.statistics()
    keys, totals = set(found.keys()), {}
    for name in COUNTERS:
        key = next((k for k in (name, f"sat {name}") if k in keys), None)
        totals[name] = (found.get_key_value(key) if key else 0) - (before or {}).get(name, 0)
    return totals
