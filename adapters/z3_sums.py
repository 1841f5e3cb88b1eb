"""Z3's linear rows over Boolean cells as a decision diagram (``z3:sums=diagram``), in place
of one pseudo-Boolean row (``z3:sums=pb``, ``PbEq`` over the weighted literals).

A linear row of the decomposition (an arrow's shaft less its circle, a little killer's
diagonal, a sum group with too many sets to list) becomes the layered automaton over its
partial sums that the SAT family uses (``adapters.cnf_sum.guarded_sum``): a state literal per
partial sum still able to reach the total, defined both ways, as clauses. Z3's pseudo-Boolean
solver sees the row as a whole, but only bounds it; over the states, unit propagation drops a
value of a cell that no partial sum before it and after it can complete (the row's arc
consistency over the cells' literals, for an equality). The state variables are fresh and
functions of the cells, so a count's blocking clauses over the cells count each solution once.

Not every row: the 45 rule's implied rows (``Flat.implied_linears``) stay pseudo-Boolean, as
automata they lost killer puzzles (redundant rows: their states cost more than they cut), and so
does a row whose automaton would be large (``small_enough``: a long pill arrow's). On the
published puzzles this proves more at 5 s, and loses some: docs/models.md ("Z3's sums as
decision diagrams") has the figures, and why ``pb`` stays the default.
"""

from __future__ import annotations

from collections.abc import Callable

import z3

from adapters.cnf_sum import Step, guarded_sum
from solvers.model.constraints.primitives import Linear

SUMS = ("pb", "diagram")  # z3's option ``sums``: the default first
# a row whose automaton could have more arcs (states times values) than this stays one
# pseudo-Boolean row: a pill of three digits over a 78-cell shaft made 442,514 clauses in 28 s
ARCS = 20_000


def small_enough(linear: Linear, n: int) -> bool:
    """Whether ``linear``'s automaton over N-valued cells has at most ``ARCS`` arcs, bounding
    each layer's states by the spans of the partial sums before it and after it."""
    spans = [abs(k) * (n - 1) for k, _ in linear.terms]
    before, after, arcs = 0, sum(spans), 0
    for span in spans:
        arcs += (min(before, after) + 1) * n
        before, after = before + span, after - span
    return arcs <= ARCS


def diagram(holds: Callable[[int, int], z3.BoolRef], linear: Linear, n: int) -> list:
    """The clauses of ``linear`` (``==``, ``<=`` or ``>=``) over the literals
    ``holds(cell, value)`` of an N-valued board, through the automaton of its partial sums."""
    ctx = holds(linear.terms[0][1], 1).ctx
    cell_of: dict[int, tuple[int, int]] = {}  # a literal's number -> (cell, value)
    steps: list[Step] = []
    for k, cell in linear.terms:
        options = []
        for v in range(1, n + 1):
            number = len(cell_of) + 1
            cell_of[number] = (cell, v)
            options.append((k * v, (number,)))
        steps.append(options)
    low = sum(min(w for w, _ in step) for step in steps)
    high = sum(max(w for w, _ in step) for step in steps)
    constant = linear.constant
    accepted = {
        "==": range(constant, constant + 1),
        "<=": range(low, constant + 1),
        ">=": range(constant, high + 1),
    }[linear.op]
    fresh: list[z3.BoolRef] = []

    def new() -> int:
        fresh.append(z3.FreshBool("sum", ctx))
        return len(cell_of) + len(fresh)

    def literal(number: int) -> z3.BoolRef:
        index = abs(number)
        term = holds(*cell_of[index]) if index in cell_of else fresh[index - len(cell_of) - 1]
        return term if number > 0 else z3.Not(term)

    clauses, _last = guarded_sum(steps, accepted, new)
    false = z3.BoolVal(False, ctx)
    return [z3.Or([literal(lit) for lit in clause]) if clause else false for clause in clauses]
