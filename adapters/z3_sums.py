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
"""

from __future__ import annotations

from collections.abc import Callable

import z3

from adapters.cnf_sum import Step, guarded_sum
from solvers.model.constraints.primitives import Linear

SUMS = ("pb", "diagram")  # z3's option ``sums``: the default first


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
