"""The one compile step: a board's rules flattened once into what engines encode.

A board's rules are its geometry (rows, columns, and boxes or jigsaw regions) and its
constraints of the vocabulary. ``flatten`` decomposes every constraint into primitives
(``solvers.model.constraints``) and recovers the structure engines encode best, once, for all of
them:

- **units**: every all-different group of N cells (rows, columns, regions, then the
  constraints' own: diagonals, extra regions, disjoint groups, an N-cell group whose sum is
  1 + ... + N), in one ``Geometry``, so that every engine that reads units reads these too;
- **sum groups**: the other all-different groups with a sum of ones over the same cells;
- **primitives**: the rest, as the vocabulary decomposes them (all-different groups of fewer
  than N cells, relations, linear rows, domains, tables).

Among the sum groups, after the constraints' own, come the **implied** ones
(``solvers.model.implied``): what the 45 rule says of the units and the sum groups (innies, or
outies, in cells that see each other), derived before search as sigh's Interactive Sudoku
Solver does, so that every engine reads them. They only restate the rules (a board's solutions
are the same with and without them); ``implied=False`` leaves them out, to measure what they are
worth (``native:implied=off``, ``propagate:implied=off``). The 45 rule's other relations (innies
that do not all see each other, innies less outies, the grid's gap) are linear rows, not sum
groups: ``Flat.implied_linears``, which only the engines that compile primitives are given
(``Flat.primitives_for``), so that an engine that does not is handed the board as before.

An engine declares what it encodes beyond units (``Backend.ENCODES``): ``SUM_GROUPS`` (it has
a sum rule of its own), ``PRIMITIVES`` (it compiles the five primitives); a sum group reaches an
engine that compiles primitives but not sum groups decomposed (``Flat.primitives_for``), as CPMpy
hands each solver the globals it lacks decomposed. What a board needs beyond an engine's
declaration is ``Flat.beyond``: the kinds it cannot take, which the judge refuses.

An engine may also have a model of its own for some kinds (``Backend.native_kinds``), as
CPMpy's solver interfaces pass the globals they support natively and MiniZinc's solver
libraries redefine a global: ``handed`` gives it those constraints as they are, unflattened,
and the rest flattened as above, so that the shared decomposition reaches only what the engine
does not model itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

from solvers.model.cells import cell_name, sum_sets
from solvers.model.geometry import Geometry, Shape, base_geometry
from solvers.model.variants import Rules

if TYPE_CHECKING:
    from solvers.model.constraints.model import Constraint
    from solvers.model.constraints.primitives import Primitive

SUM_GROUPS = "sum groups"  # all-different groups with a sum, by a sum rule of the engine's own
PRIMITIVES = "primitives"  # every primitive of the vocabulary: so every kind
EVERY_KIND = frozenset({SUM_GROUPS, PRIMITIVES})
# An alias of SUM_GROUPS that an outside backend may declare (``ENCODES = frozenset({CAGES})``,
# reading ``flat.cages``): read as SUM_GROUPS
CAGES = "cages"


def declared(encodes: frozenset[str]) -> frozenset[str]:
    """``encodes`` (what a backend declares it encodes) with the alias ``CAGES`` read as
    ``SUM_GROUPS``."""
    return (encodes - {CAGES}) | {SUM_GROUPS} if CAGES in encodes else encodes


@dataclass(frozen=True, order=True)
class SumGroup:
    """Cells that hold different values adding up to ``total`` (cells ascending), named in
    messages as the constraint they come from (its kind and first cell)."""

    cells: tuple[int, ...]
    total: int
    name: str = field(default="", compare=False)

    def value_sets(self, n: int) -> tuple[int, ...]:
        """Every set of values 1..n the cells can hold together (distinct, adding up to the
        total), each as a bit mask with bit v for value v."""
        return sum_sets(len(self.cells), self.total, n)


Cage = SumGroup  # the alias outside backends that declare ``CAGES`` may name


@dataclass(frozen=True, eq=False)
class Flat:
    """A board's rules, flattened: ``geometry`` holds every unit (its ``units`` and names),
    ``sum_groups`` the all-different groups with a sum, ``primitives`` the rest.
    ``sum_group_kinds`` and ``primitive_kinds`` say which constraint kinds put something among
    the sum groups and among the primitives (the names a refusal gives). ``implied`` are the
    sum groups the 45 rule derives, the last of ``sum_groups``; ``implied_linears`` its other
    relations, apart from ``primitives`` (no engine needs them: ``primitives_for`` gives them
    to those that compile primitives)."""

    geometry: Geometry
    sum_groups: tuple[SumGroup, ...] = ()
    primitives: tuple[Primitive, ...] = ()
    sum_group_kinds: frozenset[str] = frozenset()
    primitive_kinds: frozenset[str] = frozenset()
    implied: tuple[SumGroup, ...] = ()
    implied_linears: tuple[Primitive, ...] = ()

    @property
    def size(self) -> int:
        return self.geometry.size

    @property
    def units(self) -> tuple[tuple[int, ...], ...]:
        return self.geometry.units

    @property
    def stated_groups(self) -> tuple[SumGroup, ...]:
        """The sum groups the rules state: ``sum_groups`` less the ``implied``."""
        return self.sum_groups[: len(self.sum_groups) - len(self.implied)]

    @property
    def cages(self) -> tuple[SumGroup, ...]:
        """``sum_groups`` by the alias an outside backend that declares ``CAGES`` reads."""
        return self.sum_groups

    def primitives_for(self, encodes: frozenset[str]) -> tuple[Primitive, ...]:
        """The primitives an engine that encodes ``encodes`` is given: the sum groups among
        them, decomposed into an all-different and a sum, unless it encodes ``SUM_GROUPS``;
        then the ``implied_linears`` if it encodes ``PRIMITIVES``."""
        encodes = declared(encodes)
        more = self.implied_linears if PRIMITIVES in encodes else ()
        if not self.sum_groups or SUM_GROUPS in encodes:
            return (*self.primitives, *more)
        from solvers.model.constraints.primitives import AllDifferent, Linear

        lowered: list[Primitive] = []
        for group in self.sum_groups:
            terms = tuple((1, cell) for cell in group.cells)
            lowered += [AllDifferent(group.cells), Linear(terms, "==", group.total)]
        return (*lowered, *self.primitives, *more)

    def conflicts(self, cells: tuple[int, ...]) -> list[str]:
        """Each way the values ``cells`` (0: empty) break a unit or a sum group, as "row 1 has
        6 twice (r1c2, r1c9)" (the other primitives are the search's to find out)."""
        n, found = self.size, []
        for name, unit in zip(self.geometry.unit_names, self.units, strict=True):
            found += _repeats(name, unit, cells, n)
        for group in self.stated_groups:  # givens breaking an implied one: no solution, no clash
            name = f"{group.name} (total {group.total})"
            found += _repeats(name, group.cells, cells, n)
            given = [cells[c] for c in group.cells if cells[c]]
            total = sum(given)
            if total > group.total or (len(given) == len(group.cells) and total != group.total):
                found.append(f"{name} holds givens adding up to {total}")
        return found

    def beyond(self, encodes: frozenset[str]) -> frozenset[str]:
        """The kinds of the board an engine that encodes ``encodes`` cannot take."""
        missing: set[str] = set()
        encodes = declared(encodes)
        if self.primitives and PRIMITIVES not in encodes:
            missing |= self.primitive_kinds
        if self.sum_groups and not encodes & EVERY_KIND:
            missing |= self.sum_group_kinds
        return frozenset(missing)


def _repeats(name: str, group: tuple[int, ...], cells: tuple[int, ...], n: int) -> list[str]:
    seen: dict[int, list[int]] = {}
    for cell in group:
        if cells[cell]:
            seen.setdefault(cells[cell], []).append(cell)
    found = []
    for value, where in seen.items():
        if len(where) > 1:
            times = {2: "twice", 3: "three times"}.get(len(where), f"{len(where)} times")
            places = ", ".join(cell_name(c, n) for c in where)
            found.append(f"{name} has {value} {times} ({places})")
    return found


class Ruled(Protocol):
    """What the compile step reads of a board: its shape and its rules (a ``Board``; named by
    what is read so that the board, whose ``geometry`` comes from here, is not imported back)."""

    @property
    def shape(self) -> Shape: ...

    @property
    def rules(self) -> Rules: ...


def flatten(board: Ruled, implied: bool = True) -> Flat:
    """The board's rules flattened (the same value for every board of one shape and rules),
    with the implied sum groups unless ``implied`` is False."""
    return flat(board.shape, board.rules, implied)


def handed(
    board: Ruled, native: frozenset[str], implied: bool = True
) -> tuple[Flat, tuple[Constraint, ...]]:
    """What an engine with models of its own for the kinds ``native`` is handed of the board's
    rules: the rest flattened (units, sum groups, primitives, as ``flatten`` gives them) and
    the constraints of those kinds as they are. The engine's model of such a constraint must
    say all the constraint says: its cells' all-different groups too, which then reach no
    unit or sum group (a unit of the board's shape, a row say, stays one). The implied sum
    groups are those of all the rules, the engine's own kinds' too."""
    rules = board.rules
    own = tuple(c for c in rules.constraints if c.kind in native)
    if not own:
        return flatten(board, implied), ()
    rest = flat(
        board.shape,
        Rules(rules.regions, tuple(c for c in rules.constraints if c not in own)),
        False,
    )
    whole = flatten(board, implied)
    more = whole.implied
    if more or whole.implied_linears:
        sums = rest.sum_groups + more
        rest = replace(rest, sum_groups=sums, implied=more, implied_linears=whole.implied_linears)
    return rest, own


def flat(shape: Shape, rules: Rules, implied: bool = True) -> Flat:
    """``flatten`` for a shape and rules (cached: a killer file's puzzles each have rules of
    their own, which the judge, then the engine, flatten in turn)."""
    # One cache key however ``implied`` is passed: lru_cache keys flat(s, r) and
    # flat(s, r, True) apart, and the verifier's call then flattened the rules twice (1.1 s
    # of CPU in a fresh process on Renban skyscrapers, docs/native.md).
    return _flat(shape, rules, implied)


@lru_cache(maxsize=1024)
def _flat(shape: Shape, rules: Rules, implied: bool) -> Flat:
    geometry = base_geometry(shape, rules.regions)
    if not rules.constraints:
        return Flat(geometry)
    found = _flatten(geometry, rules.constraints)
    if not implied or not found.sum_groups:
        return found
    from solvers.model.constraints.primitives import Linear
    from solvers.model.implied import implied_groups, implied_linears

    cages = [(frozenset(group.cells), group.total) for group in found.sum_groups]
    more = tuple(SumGroup(*group) for group in implied_groups(found.geometry, cages))
    rows = tuple(
        Linear(terms, "==", total) for terms, total, _ in implied_linears(found.geometry, cages)
    )
    if not more and not rows:
        return found
    sums = found.sum_groups + more
    return replace(found, sum_groups=sums, implied=more, implied_linears=rows)


def _flatten(geometry: Geometry, constraints: Iterable) -> Flat:
    from solvers.model.constraints.kinds import decompose
    from solvers.model.constraints.model import describe
    from solvers.model.constraints.primitives import AllDifferent, Linear

    n = geometry.size
    parts = [(c, p) for c in constraints for p in decompose(c, n)]
    # a sum of ones: a sum group's, where an all-different over the same cells meets it
    sums = {
        frozenset(cell for _, cell in p.terms): p
        for _, p in parts
        if isinstance(p, Linear) and p.op == "==" and p.terms
        if all(k == 1 for k, _ in p.terms)
    }
    units, names = list(geometry.units), list(geometry.unit_names)
    known = set(map(frozenset, units))
    groups: dict[SumGroup, None] = {}
    absorbed: set[Primitive] = set()  # sums that became a sum group's
    group_kinds: set[str] = set()
    primitives: dict[Primitive, None] = {}
    full = n * (n + 1) // 2
    for constraint, p in parts:
        if isinstance(p, AllDifferent):
            cells = frozenset(p.cells)
            total = sums.get(cells)
            if len(cells) == n and (total is None or total.constant == full):
                if cells not in known:  # a unit: every engine reads it
                    known.add(cells)
                    units.append(tuple(p.cells))
                    names.append(describe(constraint, n))
                if total is not None:
                    absorbed.add(total)
                continue
            if total is not None:  # a sum group, of one cell too (its value is its total)
                group = SumGroup(tuple(sorted(cells)), total.constant, describe(constraint, n))
                groups[group] = None
                absorbed.add(total)
                group_kinds.add(constraint.kind)
                continue
            if len(cells) < 2:
                continue  # one cell differs from nothing
        primitives[p] = None
    kept = tuple(p for p in primitives if p not in absorbed)
    primitive_kinds = {c.kind for c, p in parts if p in primitives and p not in absorbed}
    return Flat(
        Geometry(geometry.shape, tuple(units), tuple(names)),
        tuple(groups),
        kept,
        frozenset(group_kinds),
        frozenset(primitive_kinds),
    )


def kinds_within(encodes: frozenset[str]) -> frozenset[str]:
    """The kinds whose example instance (on 9x9) an engine that encodes ``encodes`` takes."""
    return frozenset(kind for kind, example in _examples().items() if not example.beyond(encodes))


@lru_cache(maxsize=1)
def _examples() -> dict[str, Flat]:
    """Each kind's example instance on 9x9, flattened."""
    from solvers.model.constraints.kinds import KINDS
    from solvers.model.constraints.text import parse_constraint

    shape = Shape(3, 3)
    return {
        name: flat(shape, Rules(constraints=(parse_constraint(kind.example, shape.size),)))
        for name, kind in KINDS.items()
    }
