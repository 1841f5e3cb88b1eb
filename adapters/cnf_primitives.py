"""CNF encodings of the vocabulary's primitives (``solvers.model.constraints.primitives``) over the
direct encoding: the variable ``variable(cell, v, N)`` says "the cell holds v".

- all-different: at most one of the cells holds each value (``adapters.cardinality``);
- relation: a binary clause per forbidden pair;
- domain: a unit clause removing each other value;
- linear, ``sum(k * value) op constant``, in one of the forms ``LINEAR_ENCODINGS`` names:
  ``dp``, a layered automaton over the partial sums (``linear_dp``), or a pseudo-Boolean
  encoding by PySAT's encoder (Pindakaas) over the cell literals (``linear_pb``): ``pb`` its
  own choice ("best", a totalizer for most rows), or one named (``PB_ENCODERS``);
- table (compressed rows): a selector per row (``_table``).

Every auxiliary variable comes from the caller's ``IDPool`` (numbered after the N**3 cell
variables). In ``dp`` and in tables every auxiliary is a function of the cells, so a solver
that enumerates whole models (PicoSAT's ``itersolve``) counts each solution once; ``pb``'s
auxiliaries are the encoder's own and need not be, so a count with it blocks on the cells.

``values[cell]`` are the values a cell can still take (the givens' consequences on the units):
literals of the others are false in every model, so leaving them out keeps the clauses right
and the automaton small. They rely on each cell holding exactly one value, which the rule
clauses say.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from adapters.cardinality import Clause, at_most_one
from solvers.model.constraints.primitives import (
    OPERATORS,
    AllDifferent,
    Domain,
    Linear,
    Primitive,
    Relation,
    Table,
)

if TYPE_CHECKING:
    from pysat.formula import IDPool

# a pb form -> PySAT's EncType name: pb is Pindakaas's own choice, the others name its encoder
PB_ENCODERS = {
    "pb": "best",
    "bdd": "bdd",
    "totalizer": "totalizer",
    "sortnetwrk": "sortnetwrk",
    "seqcounter": "seqcounter",
    "adder": "adder",
    "binmerge": "binmerge",
    "mixedradix": "mixedradix",
}
# the default first: dp, by measurement (docs/vocabulary.md, docs/models.md)
LINEAR_ENCODINGS = ("dp", *PB_ENCODERS)
Values = Sequence[Sequence[int]]  # per cell, the values it can still take
Literal = Callable[[int, int], int]  # (cell, value) -> its variable


def primitive_clauses(
    primitive: Primitive, n: int, values: Values, pool: IDPool, linear: str = "dp"
) -> list[Clause]:
    """One primitive's clauses, its auxiliary variables from ``pool``."""

    def x(cell: int, v: int) -> int:  # cnf.variable (cnf imports this module, not back)
        return cell * n + v

    if isinstance(primitive, AllDifferent):
        return [
            clause
            for v in range(1, n + 1)
            for clause in at_most_one([x(c, v) for c in primitive.cells if v in values[c]])
        ]
    if isinstance(primitive, Relation):
        first, second = primitive.first, primitive.second
        return [
            (-x(first, a), -x(second, b))
            for a, b in sorted(primitive.forbidden)
            if a in values[first] and b in values[second]
        ]
    if isinstance(primitive, Domain):
        return [
            (-x(primitive.cell, v),) for v in values[primitive.cell] if v not in primitive.values
        ]
    if isinstance(primitive, Linear):
        if linear in PB_ENCODERS:
            return linear_pb(primitive, values, pool, x, linear)
        return linear_dp(primitive, values, pool, x)
    return _table(primitive, values, pool, x)


def linear_dp(primitive: Linear, values: Values, pool: IDPool, x: Literal) -> list[Clause]:
    """The linear row as a layered automaton over partial sums, each state a function of the
    cells: ``s(i, t)`` is true when the first i terms add up to t. Only states reached from 0
    and reaching an accepted total are kept; a step that would leave them is a clause
    forbidding that value there. The first layer (the sum 0), a layer of one state and the
    last layer need no variable."""
    accept = OPERATORS[primitive.op]
    terms = [(k, cell) for k, cell in primitive.terms if k]
    layers: list[set[int]] = [{0}]
    for k, cell in terms:
        layers.append({t + k * v for t in layers[-1] for v in values[cell]})
    layers[-1] = {t for t in layers[-1] if accept(t, primitive.constant)}
    for i in reversed(range(len(terms))):
        k, cell = terms[i]
        layers[i] = {t for t in layers[i] if any(t + k * v in layers[i + 1] for v in values[cell])}
    if not layers[0]:
        return [()]  # no values of the cells satisfy it
    last = len(terms)
    state: list[dict[int, int | None]] = [
        {t: pool.id() if 0 < i < last and len(layer) > 1 else None for t in sorted(layer)}
        for i, layer in enumerate(layers)
    ]
    clauses: list[Clause] = []
    for i, (k, cell) in enumerate(terms):
        here, there = state[i], state[i + 1]
        for t, now in here.items():  # forward: this state and this value make the next
            for v in values[cell]:
                step = (*_not(now), -x(cell, v))
                if t + k * v not in there:
                    clauses.append(step)
                elif (following := there[t + k * v]) is not None:
                    clauses.append((*step, following))
        for t, following in there.items():  # backward: the next state and the value tell this
            if following is None:
                continue
            for v in values[cell]:
                before = t - k * v
                if before not in here:
                    clauses.append((-following, -x(cell, v)))
                elif (now := here[before]) is not None:
                    clauses.append((-following, -x(cell, v), now))
    return clauses


def _not(literal: int | None) -> tuple[int, ...]:
    return () if literal is None else (-literal,)


def linear_pb(
    primitive: Linear, values: Values, pool: IDPool, x: Literal, form: str = "pb"
) -> list[Clause]:
    """The linear row as PySAT's pseudo-Boolean encoding over the cell literals, by the encoder
    ``form`` names (``PB_ENCODERS``); ``!=`` as
    ``<= c-1`` when a fresh selector holds and ``>= c+1`` when it does not (a clause of an
    encoding with the selector's literal added holds whatever the encoding's own variables).

    PBLib takes no negative weight or bound: each cell's weights are shifted by their least
    (one value per cell, so the sum shifts by exactly that), which leaves them all >= 0."""

    literals, weights, constant = [], [], primitive.constant
    for k, cell in primitive.terms:
        least = min((k * v for v in values[cell]), default=0)
        constant -= least
        for v in values[cell]:
            if k * v != least:
                literals.append(x(cell, v))
                weights.append(k * v - least)

    def encoded(op: str, bound: int) -> list[Clause]:
        if op == ">=" and bound <= 0:
            return []  # every sum of weights >= 0 satisfies it
        if op != ">=" and bound < 0:
            return [()]  # no sum does
        if not literals:
            return [] if OPERATORS[op](0, bound) else [()]
        return pb_clauses(op, literals, weights, bound, pool, form)

    if primitive.op != "!=":
        return encoded(primitive.op, constant)
    below = pool.id()
    return [
        *((-below, *clause) for clause in encoded("<=", constant - 1)),
        *((below, *clause) for clause in encoded(">=", constant + 1)),
    ]


def pb_clauses(
    op: str, literals: list[int], weights: list[int], bound: int, pool: IDPool, form: str
) -> list[Clause]:
    """``sum(weights * literals) op bound`` (``==``, ``<=`` or ``>=``; weights and bound >= 0)
    by PySAT's pseudo-Boolean encoder ``form`` names (``PB_ENCODERS``), its variables from
    ``pool``."""
    from pysat.pb import EncType, PBEnc

    how = {"==": PBEnc.equals, "<=": PBEnc.atmost, ">=": PBEnc.atleast}[op]
    encoding = getattr(EncType, PB_ENCODERS[form])
    found = how(lits=literals, weights=weights, bound=bound, vpool=pool, encoding=encoding)
    return [tuple(clause) for clause in found.clauses]


def _table(primitive: Table, values: Values, pool: IDPool, x: Literal) -> list[Clause]:
    """Some row holds; a row's selector is true exactly when each cell is in the row's set (a
    cell is outside a set when it holds one of the other values: one value per cell)."""
    cells, chosen, clauses = primitive.cells, [], []
    for row in primitive.rows:
        inside = [
            [v for v in values[c] if v in allowed] for c, allowed in zip(cells, row, strict=True)
        ]
        if not all(inside):
            continue  # a cell that can hold none of its set: the row never holds
        pick = pool.id()
        chosen.append(pick)
        clauses += [(-pick, *(x(c, v) for v in vs)) for c, vs in zip(cells, inside, strict=True)]
        outside = [
            x(c, v)
            for c, allowed in zip(cells, row, strict=True)
            for v in values[c]
            if v not in allowed
        ]
        clauses.append((pick, *outside))
    return [tuple(chosen), *clauses]
