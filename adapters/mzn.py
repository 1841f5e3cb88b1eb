"""A puzzle as a self-contained MiniZinc model: the ``minizinc`` backend's model and what
``sudoku encode --to minizinc`` writes.

One integer variable per cell, ``cell[row, column]`` (from 1), declared with the givens fixed
in place (``_`` for an empty cell), so the model shows the puzzle as a grid. The rules are the
compile step's (``solvers.model.compile.flatten``), one ``constraint`` item each (``ModelWriter``):
each unit of the geometry (rows, columns, regions and every all-different group of N cells)
an all-different named in a comment, then each primitive (``solvers.model.constraints.primitives``;
an all-different group with a sum as an all-different and a sum), the constraints of the kinds
``NATIVE`` excepted: those are written first by MiniZinc's own models (``adapters.mzn_native``:
``regular``, ``max``, ``min``; a killer cage and the compile step's sum groups, the 45 rule's
among them, as a ``table`` of their fillings: ``CAGES``), unless the caller asks for the
decomposition. The search annotation
branches on the cell with the fewest values left for the failures its constraints caused
(``dom_w_deg``), its least value first. The output item
prints the solved grid as one line in the project's line format, what ``sudoku solve --format
line`` prints.

Each global is included by its own file (``include "globals.mzn"`` fails with Debian's MiniZinc
2.6 and Gecode 6.2, whose library redefines globals under the older signatures), and the two
that Gecode 6.2's library has only under their older names are written by those names,
``all_different_int`` and ``table_int``: so a model run as exported reaches Gecode's own
propagators there, where ``all_different`` and ``table`` would reach it decomposed (a newer
MiniZinc maps the older names to the current ones, with a deprecation warning; docs/minizinc.md
has the measurement). All-different carries ``:: domain``, asking for
the strongest (matching) propagation; a solver without it ignores it. A binary relation is a
``table`` of its allowed pairs and a compressed table a ``table`` of its tuples when they are
few (``SMALL_TABLE``), else an array of Booleans, one per row, each equal to a conjunction of
``cell in {...}``, some of them true (docs/minizinc.md has the measurements).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from adapters import mzn_native
from adapters.primitive_forms import SMALL_TABLE, WRITTEN, expanded, groups_as_cages
from solvers.formats.symbols import SYMBOLS
from solvers.model.board import Board
from solvers.model.compile import PRIMITIVES, handed
from solvers.model.constraints.primitives import AllDifferent, Domain, Linear, Primitive, Relation

# what the model encodes beyond units: every primitive, an all-different with a sum as the two
ENCODES = frozenset({PRIMITIVES})
NATIVE = frozenset(mzn_native.MODELS)  # the kinds with a model of MiniZinc's own
# native: those kinds by MiniZinc's own models, or decomposed as every engine's are; the
# default first, by measurement (docs/models.md)
OPTIONS = {"model": ("native", "decomposed")}
# natively, how a cage and the compile step's sum groups (the 45 rule's) are written: a table
# of their fillings or a sum beside an all-different (``mzn_native.sum_group``); the default
# first, by measurement (docs/minizinc.md). The backend's option; the export writes the default
CAGES = ("table", "sum")

RELATIONS = ("table", "clauses")  # how a binary relation is written; the first by measurement
# dom_w_deg, by measurement on published puzzles (docs/minizinc.md)
SEARCH = "solve :: int_search([cell[r, c] | r, c in 1..n], dom_w_deg, indomain_min) satisfy;"


class ModelWriter:
    """The items of one board's model: the cells, then one constraint per primitive."""

    def __init__(self, board: Board, relation: str = RELATIONS[0]) -> None:
        self.board, self.size, self.relation_form = board, board.size, relation
        self.includes: list[str] = []
        self.declarations: list[str] = []  # a large table's row Booleans
        self.constraints: list[str] = []

    def all_different(self, cells: Sequence[int], name: str = "") -> None:
        """The cells hold distinct values (two cells: a plain ``!=``, an anti-knight's pair)."""
        if len(cells) == 2:
            self._add(f"{self._cell(cells[0])} != {self._cell(cells[1])}", name)
            return
        self._include("all_different_int.mzn")
        self._add(f"all_different_int({self._array(cells)}) :: domain", name)

    def linear(self, terms: Sequence[tuple[int, int]], op: str, total: int, name: str = "") -> None:
        """``sum(coefficient * value of cell) op total``: a plain ``sum`` when every
        coefficient is 1."""
        if not terms:
            left = "0"
        elif all(k == 1 for k, _ in terms):
            left = f"sum({self._array([cell for _, cell in terms])})"
        else:
            left = " ".join(
                f"{'-' if k < 0 else '+'} {'' if abs(k) == 1 else f'{abs(k)}*'}{self._cell(c)}"
                for k, c in terms
            ).removeprefix("+ ")
        self._add(f"{left} {WRITTEN[op]} {total}", name)

    def relation(self, first: int, second: int, forbidden: frozenset[tuple[int, int]]) -> None:
        """The two cells never hold a forbidden pair of values."""
        values = range(1, self.size + 1)
        if not any(a in values and b in values for a, b in forbidden):
            return  # nothing the cells can hold is forbidden
        if self.relation_form == "clauses":  # one clause per forbidden pair
            x, y = self._cell(first), self._cell(second)
            for a, b in sorted(p for p in forbidden if p[0] in values and p[1] in values):
                self._add(f"{x} != {a} \\/ {y} != {b}")
            return
        allowed = [(a, b) for a in values for b in values if (a, b) not in forbidden]
        self._table((first, second), allowed)

    def domain(self, cell: int, values: Iterable[int]) -> None:
        """The cell holds one of ``values``."""
        self._add(_member(self._cell(cell), values))

    def table(self, cells: Sequence[int], rows: Sequence[Sequence[frozenset[int]]]) -> None:
        """The cells match one row of a compressed table (a set of values per cell): the
        table's tuples when they are few, else a Boolean per row, some of them true.

        The row Booleans are declared, each equal to its row's conjunction: MiniZinc then
        reifies them both ways, so each is a function of the cells. Written as a bare
        disjunction, MiniZinc half-reifies it (``set_in_imp``), and a row Boolean left free
        where two rows hold would count that solution twice on a solver that enumerates every
        variable (Gecode does not; others may)."""
        tuples = expanded(rows, SMALL_TABLE)
        if tuples is not None:
            self._table(cells, tuples)
            return
        name = f"rows_{len(self.declarations) + 1}"
        everything = set(range(1, self.size + 1))  # a cell that may hold anything says nothing
        holds = (
            " /\\ ".join(
                _member(self._cell(c), s)
                for c, s in zip(cells, row, strict=True)
                if not everything <= s
            )
            or "true"
            for row in rows
        )
        self.declarations.append(
            f"array[1..{len(rows)}] of var bool: {name} = [\n  " + ",\n  ".join(holds) + "\n];"
        )
        self._add(f"exists({name})")

    def allowed(self, cells: Sequence[int], tuples: Sequence[tuple[int, ...]]) -> None:
        """The cells hold one of ``tuples`` (none: nothing fits)."""
        self._table(cells, tuples)

    def cell_name(self, cell: int) -> str:
        """The cell as the model names it, ``cell[row, column]``."""
        return self._cell(cell)

    def cell_array(self, cells: Sequence[int]) -> str:
        """An array literal of the cells."""
        return self._array(cells)

    def post(self, constraint: str, include: str = "") -> None:
        """A constraint item of a native model (``adapters.mzn_native``), with the global's
        file it needs."""
        if include:
            self._include(include)
        self._add(constraint)

    def add(self, primitive: Primitive) -> None:
        """One primitive of a constraint's decomposition."""
        if isinstance(primitive, AllDifferent):
            self.all_different(primitive.cells)
        elif isinstance(primitive, Relation):
            self.relation(primitive.first, primitive.second, primitive.forbidden)
        elif isinstance(primitive, Linear):
            self.linear(primitive.terms, primitive.op, primitive.constant)
        elif isinstance(primitive, Domain):
            self.domain(primitive.cell, primitive.values)
        else:
            self.table(primitive.cells, primitive.rows)

    def text(self, comments: Sequence[str] = ()) -> str:
        """The model: comments, includes, the cells, the constraints, the solve and output
        items."""
        n = self.size
        lines = [f"% {comment}" for comment in comments]
        lines += [f'include "{name}";' for name in self.includes]
        # an array literal of ``_`` alone is a type error: a board with no given has none
        grid = f" = {self._grid()}" if any(self.board.cells) else ""
        lines += ["", f"int: n = {n};", f"array[1..n, 1..n] of var 1..n: cell{grid};"]
        symbols = ", ".join(f'"{s}"' for s in SYMBOLS[:n])
        lines += [f"array[1..n] of string: symbol = [{symbols}];", *self.declarations, ""]
        lines += self.constraints
        lines += [
            "",
            SEARCH,
            "",
            "% the solved grid as one line of the line format (values 10 and up as A, B, ...)",
            'output [concat([symbol[fix(cell[r, c])] | r, c in 1..n]), "\\n"];',
        ]
        return "\n".join(lines) + "\n"

    def _table(self, cells: Sequence[int], tuples: Sequence[tuple[int, ...]]) -> None:
        if not tuples:  # no tuple: nothing fits (a table literal cannot be empty)
            self._add("false")
            return
        self._include("table_int.mzn")
        rows = " | ".join(", ".join(map(str, t)) for t in tuples)
        self._add(f"table_int({self._array(cells)}, [| {rows} |])")

    def _grid(self) -> str:
        n, cells = self.size, self.board.cells
        rows = (
            ", ".join(str(v) if v else "_" for v in cells[r * n : (r + 1) * n]) for r in range(n)
        )
        return "[|\n  " + "|\n  ".join(rows) + "|]"

    def _include(self, name: str) -> None:
        if name not in self.includes:
            self.includes.append(name)

    def _add(self, constraint: str, name: str = "") -> None:
        self.constraints.append(f"constraint {constraint};" + (f"  % {name}" if name else ""))

    def _cell(self, cell: int) -> str:
        row, col = divmod(cell, self.size)
        return f"cell[{row + 1}, {col + 1}]"

    def _array(self, cells: Sequence[int]) -> str:
        return "[" + ", ".join(map(self._cell, cells)) + "]"


def _member(cell: str, values: Iterable[int]) -> str:
    """``cell in {...}``, or ``cell = v`` for one value."""
    chosen = sorted(values)
    if len(chosen) == 1:
        return f"{cell} = {chosen[0]}"
    return f"{cell} in {{{', '.join(map(str, chosen))}}}"


def model(
    board: Board,
    comments: Sequence[str] = (),
    relation: str = RELATIONS[0],
    native: frozenset[str] = NATIVE,
    cages: str = CAGES[0],
) -> str:
    """The MiniZinc model of ``board`` under its rules, headed by ``comments``; ``relation``
    says how a binary relation is written (``RELATIONS``); the constraints of the kinds
    ``native`` (of ``NATIVE``) by MiniZinc's own models (``adapters.mzn_native``), the rest
    decomposed; natively, the cages and the compile step's sum groups as ``cages`` says
    (``CAGES``)."""
    writer, (flat, own) = ModelWriter(board, relation), handed(board, native & NATIVE)
    for name, unit in zip(flat.geometry.unit_names, flat.units, strict=True):
        writer.all_different(unit, name)
    units = set(map(frozenset, flat.units))
    for constraint in own:
        mzn_native.post(writer, constraint, units, {"cages": cages})
    primitives, groups = flat.primitives_for(ENCODES), ()
    if native & NATIVE:
        primitives, groups = groups_as_cages(flat, ENCODES)
    for group in groups:
        mzn_native.sum_group(writer, group.cells, group.total, cages)
    for primitive in primitives:
        writer.add(primitive)
    return writer.text(comments)
