"""``propagate`` on a board with more than units (``solvers.model.compile``): each sum and primitive
compiled into the candidate-mask search of ``rules``, not kind by kind.

``ConstrainedTables`` compiles a board's flattened rules once:

- units: the geometry's (rows, columns, regions, and every all-different group of N cells),
  where naked and hidden singles look;
- sum over an all-different group: its cells become peers, and keep only values of its sets
  of distinct values adding up to the total (``sums.narrow``; bounds on the sum besides halve
  the nodes of a killer puzzle, but cost more time than they save);
- all-different (of fewer than N cells): its cells become peers;
- domain: masks the cell before the search starts; a linear constraint on one cell is one;
- relation: the forbidden pairs as, per value of one cell, the mask of the other's values
  that allow it (``propagators.Support``); relations on the same two cells are merged into
  one, and a linear constraint on two cells becomes one (arc consistency is stronger than
  bounds there: an X's 10 - v exactly). A relation between peers forbids equal values too:
  then a cell holding 4 or 5 takes both out of a non-consecutive neighbour in its row, which
  neither the relation nor the row sees alone;
- linear: bounds consistency;
- table: each row a mask per cell.

Each propagator is one more bit after the units' in every cell's ``unit_bits`` (its watch
list), so ``settle`` re-runs only those touching a cell that changed. ``ConstrainedSearch``
is ``rules.PropagatingSearch`` with these tables and this ``settle``, branching (values
ascending) on the cell of fewest candidates per weight, a cell weighing more for each
contradiction its units and propagators found (dom/wdeg).
"""

from __future__ import annotations

import operator

from solvers.backends.handwritten import propagators, sums
from solvers.backends.handwritten.rules import PropagatingSearch, hidden_singles, naked_singles
from solvers.model.board import Board
from solvers.model.compile import flatten
from solvers.model.constraints.primitives import AllDifferent, Domain, Linear, Relation

OPS = {"==": operator.eq, "!=": operator.ne, "<=": operator.le, ">=": operator.ge}


class ConstrainedTables:
    """The geometry's tables (``units``, ``units_of``, ``peers``, ``unit_bits``, ``full_mask``,
    as ``rules`` reads them) with the sums and primitives added; ``domains`` masks each cell
    at the start; ``props`` lists ``(propagator, data)``, propagator i being bit
    ``len(units) + i``."""

    def __init__(self, board: Board, implied: bool = True) -> None:
        flat = flatten(board, implied)
        geometry, n = flat.geometry, flat.size
        self.n, self.full_mask, self.units = n, geometry.full_mask, geometry.units
        count = geometry.cell_count
        self.domains = [self.full_mask] * count
        mates: list[set[int]] = [set(peers) for peers in geometry.peers]
        relations: dict[tuple[int, int], list[int]] = {}
        linears: list[Linear] = []
        groups, tables = [], []
        for cells, sets in sums.groups(flat):
            for cell in cells:
                mates[cell].update(cells)
            groups.append((sums.narrow, (cells, sets), cells))
        for primitive in flat.primitives:
            if isinstance(primitive, AllDifferent):
                for cell in primitive.cells:
                    mates[cell].update(primitive.cells)
            elif isinstance(primitive, Domain):
                self.domains[primitive.cell] &= self.mask_of(primitive.values)
            elif isinstance(primitive, Relation):
                self.add_relation(relations, primitive.first, primitive.second, primitive.forbidden)
            elif isinstance(primitive, Linear):
                linears.append(primitive)
            else:
                rows = tuple(tuple(map(self.mask_of, row)) for row in primitive.rows)
                tables.append((propagators.table, (primitive.cells, rows), primitive.cells))
        self.peers = tuple(tuple(sorted(m - {cell})) for cell, m in enumerate(mates))
        bounds = []
        self.broken = False  # a constraint no grid can meet whatever it holds
        for linear in linears:
            terms = linear.terms
            if not terms:
                self.broken |= not OPS[linear.op](0, linear.constant)
            elif len(terms) == 1:
                (k, cell), op, constant = terms[0], linear.op, linear.constant
                allowed = [v for v in range(1, n + 1) if OPS[op](k * v, constant)]
                self.domains[cell] &= self.mask_of(allowed)
            elif len(terms) == 2:
                (k, a), (m, b) = terms
                holds = OPS[linear.op]
                forbidden = {
                    (x, y)
                    for x in range(1, n + 1)
                    for y in range(1, n + 1)
                    if not holds(k * x + m * y, linear.constant)
                }
                self.add_relation(relations, a, b, forbidden)
            else:
                data = (terms, linear.op, linear.constant, n)
                bounds.append((propagators.linear, data, tuple(cell for _, cell in terms)))
        # (propagator, data, the cells it watches)
        found = self.relation_props(relations, count) + groups + bounds + tables
        self.props = tuple((run, data) for run, data, _ in found)
        self.units_of = geometry.units_of
        self.unit_bits = self.watch_lists(geometry.unit_bits, [watch for *_, watch in found])
        self.all_dirty = (1 << (len(self.units) + len(self.props))) - 1
        # what a contradiction blames (``revise`` blames the failing pair itself)
        self.members = tuple(self.units) + tuple(
            () if run is propagators.revise else watch for run, _, watch in found
        )
        # dom/wdeg: each unit or propagator weighs 1, plus 1 per contradiction it found; a
        # cell weighs what its units and propagators do
        self.weight = [self.unit_bits[cell].bit_count() for cell in range(count)]

    def blame(self, index: int) -> None:
        """Unit or propagator ``index`` found a contradiction: its cells weigh more."""
        weight = self.weight
        for cell in self.members[index]:
            weight[cell] += 1

    def mask_of(self, values) -> int:
        return sum(1 << v for v in set(values) if 1 <= v <= self.n)

    def add_relation(self, relations: dict, first: int, second: int, forbidden) -> None:
        """Merge the relation into ``relations[(a, b)]`` (a < b): per value of a, the mask of
        b's values allowed with it."""
        if first > second:
            first, second = second, first
            forbidden = {(y, x) for x, y in forbidden}
        allows = relations.setdefault((first, second), [self.full_mask] * (self.n + 1))
        for x, y in forbidden:
            if 1 <= x <= self.n and 1 <= y <= self.n:
                allows[x] &= ~(1 << y)

    def relation_props(self, relations: dict, count: int) -> list[tuple]:
        """One propagator per cell with relations (``propagators.revise``), watching that cell
        alone: when it changes, each partner keeps the values it still allows (cheaper than
        one per pair, re-run whenever either cell changed). The ``Support`` tables are shared
        between pairs with the same relation."""
        shared: dict[tuple[int, ...], propagators.Support] = {}
        partners: list[list[tuple[int, propagators.Support]]] = [[] for _ in range(count)]
        for (first, second), allows in relations.items():
            allows[0] = 0
            if second in self.peers[first]:  # peers: the relation holds the "differ" too
                for x in range(1, self.n + 1):
                    allows[x] &= ~(1 << x)
            backward = [0] * (self.n + 1)
            for x in range(1, self.n + 1):
                for y in range(1, self.n + 1):
                    if allows[x] >> y & 1:
                        backward[y] |= 1 << x
            there = shared.setdefault(tuple(allows), propagators.Support(tuple(allows)))
            back = shared.setdefault(tuple(backward), propagators.Support(tuple(backward)))
            partners[first].append((second, there))
            partners[second].append((first, back))
        return [
            (propagators.revise, (cell, tuple(mine)), (cell,))
            for cell, mine in enumerate(partners)
            if mine
        ]

    def watch_lists(self, unit_bits: tuple, watches: list[tuple[int, ...]]) -> tuple[int, ...]:
        """Each cell's ``unit_bits``: its units' bits and those of the propagators watching it."""
        bits = list(unit_bits)
        first = len(self.units)
        for index, watch in enumerate(watches):
            for cell in watch:
                bits[cell] |= 1 << (first + index)
        return tuple(bits)


def settle(candidates: list[int], placed: list[int], todo: list[int], dirty: int, tables) -> bool:
    """``rules.settle`` with the propagators, cheapest first: naked singles, then the
    propagators marked in ``dirty``, again until both are still; only then the hidden singles
    of the marked units, once each for all those changes (a unit marked by every change of a
    round would be looked at once per round). Until nothing changes; False on a
    contradiction. A propagator is idempotent, so its own changes do not mark it again."""
    units, props = len(tables.units), tables.props
    unit_mask = (1 << units) - 1
    while True:
        changed = naked_singles(candidates, placed, todo, tables)
        if changed < 0:
            return False
        dirty |= changed
        pending = dirty >> units << units
        if pending:
            dirty &= unit_mask
            while pending:
                low = pending & -pending
                pending ^= low
                index = low.bit_length() - 1
                run, data = props[index - units]
                changed = run(candidates, todo, data, tables)
                if changed < 0:
                    tables.blame(index)
                    return False
                dirty |= changed & ~low
            continue  # their singles, and the propagators their changes marked
        if not dirty:
            return True
        pending, dirty = dirty, 0
        while pending:
            low = pending & -pending
            pending ^= low
            index = low.bit_length() - 1
            changed = hidden_singles(candidates, placed, todo, index, tables)
            if changed < 0:
                tables.blame(index)
                return False
            dirty |= changed
        if not todo and not dirty:
            return True


class ConstrainedSearch(PropagatingSearch):
    """Up to ``limit`` solutions of a board with constraints of the vocabulary (with the
    implied sum groups of the compile step unless ``implied`` is False)."""

    settle = staticmethod(settle)
    implied = True

    def start(self, board: Board) -> tuple[list[int], list[int], list[int], int] | None:
        self.geometry = tables = ConstrainedTables(board, self.implied)
        candidates = [
            (1 << v if v else tables.full_mask) & domain
            for v, domain in zip(board.cells, tables.domains, strict=True)
        ]
        if tables.broken or not all(candidates):
            return None  # a given outside its cell's domain, or a cell with no value left
        singles = [cell for cell, mask in enumerate(candidates) if not mask & (mask - 1)]
        return candidates, [0] * len(tables.units), singles, tables.all_dirty

    def choose(self, candidates: list[int]) -> int:
        """dom/wdeg: the cell with the fewest candidates per weight (its units and propagators,
        heavier for each contradiction they found), so the search goes first where it failed
        before; -1 when every cell is fixed."""
        best, score, weight = -1, 99.0, self.geometry.weight
        for cell, mask in enumerate(candidates):
            if mask & (mask - 1):
                mine = mask.bit_count() / weight[cell]
                if mine < score:
                    best, score = cell, mine
        return best
