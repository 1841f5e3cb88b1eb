"""``choco``: the Choco constraint solver (pychoco, Choco compiled to a native library).

An integer variable per cell (a given is a one-value domain) and ``all_different`` per unit of
the board's flattened geometry, whose propagation is chosen by ``consistency``: ``AC`` (default,
fastest by measurement: README, "Backends") is arc consistency by bipartite matching (Régin),
which python-constraint's AllDifferent lacks. ``model=native`` (default) posts Choco's own model
of each kind it has one for (``adapters.choco_native``: skyscrapers, sandwiches and X-sums by
``regular`` automata, renban by ``min`` and ``max``, ...), handed those constraints unflattened
(``solvers.model.compile.handed``); ``model=decomposed`` gives every kind as the shared
decomposition does, so that a comparison shows what the native models are worth
(docs/models.md); natively, the compile step's sum groups (the 45 rule's implied ones among
them) are posted as cages are, by ``cages``: ``table`` (default, a table of the fillings) or
``sum`` (``choco_native.sum_group``). The rest of the rules, the board's primitives
(``solvers.model.compile``), are posted as Choco's own constraints (``_post``). ``search`` names
Choco's search strategy over the cells (``default``: Choco's own choice; docs/models.md says
which measured best). A model per puzzle: Choco's models cannot take constraints back, so
nothing is kept between puzzles.

The deadline is Choco's time limit, given as a string in seconds (``"0.500s"``: a string in
milliseconds such as ``"500ms"`` is silently no limit at all), which runs from the first
``solve`` across the solves of a count. A value of ``consistency`` Choco does not know ends the
whole process (a Java exception), which is why the option's values are a fixed list.
"""

from __future__ import annotations

from typing import ClassVar

from pychoco import Model, backend

from adapters import choco_native
from adapters.primitive_forms import SMALL_TABLE, WRITTEN, expanded, groups_as_cages
from solvers.backends.contract import Backend, Found, Solutions
from solvers.base.deadline import Deadline
from solvers.base.errors import SolveTimeout
from solvers.model.board import Board
from solvers.model.compile import PRIMITIVES, handed
from solvers.model.constraints.primitives import AllDifferent, Domain, Linear, Relation

CONSISTENCIES = ("AC", "AC_REGIN", "AC_ZHANG", "BC", "FC", "NEQS", "DEFAULT")
# Choco's search strategies over the cells (``Solver.set_..._search``): "default" is Choco's
# own choice for the model, the others name one heuristic. Not activity-based search: it
# restarts, and the restarted search finds a solution again, so a count counts it twice
SEARCHES = {
    "default": None,
    "domwdeg": "set_dom_over_w_deg_search",
    "domwdegref": "set_dom_over_w_deg_ref_search",
    "mindom": "set_min_dom_lb_search",
    "chs": "set_conflict_history_search",
}


class ChocoBackend(Backend):
    ENCODES = frozenset({PRIMITIVES})
    NATIVE = frozenset(choco_native.MODELS)
    INTERRUPTIBLE = False  # Choco's native search holds the thread until it ends
    # pychoco keeps some native heap per model for good (docs/backends.md, "Memory"):
    # a worker is replaced every 500 puzzles
    RECYCLE_AFTER = 500
    OPTIONS: ClassVar[dict[str, tuple[str, ...]]] = {
        "model": ("native", "decomposed"),
        "consistency": CONSISTENCIES,
        "search": tuple(SEARCHES),
        "cages": ("table", "sum"),
    }

    def native_kinds(self) -> frozenset[str]:
        return self.NATIVE if self.options["model"] == "native" else frozenset()

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        model, cells = self._model(board)
        solver = model.get_solver()
        if strategy := SEARCHES[self.options["search"]]:
            getattr(solver, strategy)(*cells)
        remaining = deadline.timeout()
        if remaining is not None:
            solver.limit_time(f"{max(remaining, 0.001):.3f}s")  # seconds, as a string
        solutions = Solutions(limit)
        while solver.solve():
            if solutions.add(cell.get_value() for cell in cells):
                return solutions.found(board, _stats(solver))
        if solver.get_search_state() != "TERMINATED":  # STOPPED: the time limit
            raise SolveTimeout(stats=_stats(solver))
        return solutions.found(board, _stats(solver))

    def _model(self, board: Board):
        (flat, own), consistency = handed(board, self.native_kinds()), self.options["consistency"]
        model = Model()
        cells = [model.intvar(v, v) if v else model.intvar(1, board.size) for v in board.cells]
        for unit in flat.units:
            model.all_different([cells[i] for i in unit], consistency).post()
        options = self.options
        # natively, the sum groups (the 45 rule's among them) as cages are (``cages``)
        n, cages = board.size, options["cages"]
        primitives, groups = flat.primitives_for(self.ENCODES), ()
        if self.native_kinds():
            primitives, groups = groups_as_cages(flat, self.ENCODES)
        for primitive in primitives:
            _post(model, primitive, cells, consistency)
        for group in groups:
            scope = [cells[c] for c in group.cells]
            choco_native.sum_group(model, scope, (group.total,), n, cages)
        for constraint in own:
            choco_native.post(model, cells, constraint, n, options)
        return model, cells


def _post(model: Model, primitive, cells: list, consistency: str) -> None:
    """Posts Choco's constraint for one primitive over the cell variables."""
    if isinstance(primitive, AllDifferent):
        model.all_different([cells[c] for c in primitive.cells], consistency).post()
    elif isinstance(primitive, Relation):
        pair, forbidden = [cells[primitive.first], cells[primitive.second]], primitive.forbidden
        if forbidden:
            model.table(pair, [list(p) for p in sorted(forbidden)], feasible=False).post()
    elif isinstance(primitive, Linear):
        coefficients, scope = zip(*primitive.terms, strict=True)
        variables = [cells[c] for c in scope]
        model.scalar(
            variables, list(coefficients), WRITTEN[primitive.op], primitive.constant
        ).post()
    elif isinstance(primitive, Domain):
        model.member(cells[primitive.cell], sorted(primitive.values)).post()
    else:
        _table(model, [cells[c] for c in primitive.cells], primitive.rows)


def _table(model: Model, scope: list, rows: tuple) -> None:
    tuples = expanded(rows, SMALL_TABLE)
    if tuples is None:  # too many: a Boolean per row, equal to the row holding (so a count
        # sees a solution once)
        picks = [
            model.and_(
                [model.member(x, sorted(s)) for x, s in zip(scope, row, strict=True)]
            ).reify()
            for row in rows
        ]
        model.or_(picks).post()
    elif tuples:
        model.table(scope, [list(t) for t in tuples]).post()
    else:
        model.arithm(scope[0], "<", 1).post()  # no tuple: no value fits


def _stats(solver) -> dict:
    # Solver.get_node_count() of pychoco 0.4.0 returns the time: ask the backend for the nodes.
    return {
        "nodes": backend.get_node_count(solver._handle),
        "fails": solver.get_fail_count(),
        "backtracks": solver.get_backtrack_count(),
    }
