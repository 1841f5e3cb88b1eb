"""A sum of guarded steps as a layered automaton over its partial sums, in CNF, for the SAT
family's own models of sums (``adapters.cnf_native``: sandwiches, X-sums, arrows).

Each step is a list of options ``(weight, guard)``, the guard a conjunction of literals, one
option of each step holding in every assignment the caller's other clauses allow (a cell's
values, or "this cell counts" and the cell's values, or "it does not count" with weight 0).
The state literal s(i, t) "the first i steps add up to t" is defined both ways: forward, a
state and an option give the next state; backward, a state and an option give the one before;
and each layer has some state. So every state is a function of the guards (one per layer
holds, by induction from the single start), which PicoSAT's enumeration needs to count each
solution once, and a state no option leads to or from is false by propagation. Only the states
reached from 0 that can still reach an accepted total are kept (as ``linear_dp`` in
``adapters.cnf_primitives``, which this generalises from cell values to guarded options): an
option that would leave them is a clause forbidding it from that state. The layered form is
the decision-diagram encoding of a linear constraint (Abio et al., "A new look at BDDs for
pseudo-Boolean constraints", JAIR 45, 2012), over the (small) range of a Sudoku sum, each
node a partial sum.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from adapters.cardinality import Clause

Option = tuple[int, tuple[int, ...]]  # (weight, the literals that together choose it)
Step = Sequence[Option]


def guarded_sum(
    steps: Sequence[Step], accepted: Collection[int], new: Callable[[], int]
) -> tuple[list[Clause], dict[int, int | None]]:
    """The clauses of "the steps add up to one of ``accepted``" and the last layer's states:
    total -> its literal, or None where it is the only total left (then true). No total left:
    the clauses hold the empty clause and the states are empty. ``new`` gives a fresh
    variable."""
    layers: list[set[int]] = [{0}]
    for step in steps:
        layers.append({t + w for t in layers[-1] for w, _guard in step})
    layers[-1] &= set(accepted)
    for i in reversed(range(len(steps))):
        layers[i] = {t for t in layers[i] if any(t + w in layers[i + 1] for w, _ in steps[i])}
    if not layers[0]:
        return [()], {}
    state: list[dict[int, int | None]] = [
        {t: new() if len(layer) > 1 else None for t in sorted(layer)} for layer in layers
    ]
    # some state in each layer
    clauses: list[Clause] = [tuple(s.values()) for s in state if len(s) > 1]
    for i, step in enumerate(steps):
        here, there = state[i], state[i + 1]
        for t, now in here.items():  # forward
            for w, guard in step:
                unless = (*_not(now), *(-lit for lit in guard))
                if t + w not in there:
                    clauses.append(unless)
                elif (following := there[t + w]) is not None:
                    clauses.append((*unless, following))
        for t, following in there.items():  # backward
            if following is None:
                continue
            for w, guard in step:
                unless = (-following, *(-lit for lit in guard))
                if t - w not in here:
                    clauses.append(unless)
                elif (now := here[t - w]) is not None:
                    clauses.append((*unless, now))
    return clauses, state[-1]


def _not(literal: int | None) -> tuple[int, ...]:
    return () if literal is None else (-literal,)
