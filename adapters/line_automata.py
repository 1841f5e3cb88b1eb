"""The automata and run tables that engines with a ``regular`` or ``table`` global take for
some kinds (``adapters.choco_native``, ``adapters.cpmpy_native``), written once with no engine's
import: each engine only translates them.

- ``skyscraper``: the state is the tallest value so far and how many have been seen (a value
  taller than the tallest is seen); the line may end where the count is the clue.
- ``xsum``: the cells of the prefix still to add and their sum (the first value is the
  prefix's length X); the line may end where the prefix added up to the clue.
- ``sandwich``: before both ends (0, 0), after one end 1 or N with the sum since, after both
  (-1, 0) when the sum between them was the clue.
- ``renban_runs``: every ordering of every run of consecutive values a line of that length
  can hold, where there are at most ``RENBAN_TUPLES``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from itertools import chain, permutations
from math import factorial

from solvers.model.constraints.model import Constraint

RENBAN_TUPLES = 10_000  # a line's orderings of its runs given as a table up to this many
# (start, step, final): ``step(state, value)`` the next state (None: the value is refused
# there), ``final(state)`` whether a line may end there
Automaton = tuple[Hashable, Callable[[Hashable, int], Hashable | None], Callable[[Hashable], bool]]


def transitions(automaton: Automaton, n: int) -> tuple[dict[Hashable, int], list, list[int]]:
    """The states reachable over values 1..n numbered from 0 (the start), the arcs as (state,
    value, next state) numbers, and the accepting states' numbers."""
    start, step, final = automaton
    numbers, arcs, todo = {start: 0}, [], [start]
    while todo:
        state = todo.pop()
        for value in range(1, n + 1):
            after = step(state, value)
            if after is None:
                continue
            if after not in numbers:
                numbers[after] = len(numbers)
                todo.append(after)
            arcs.append((numbers[state], value, numbers[after]))
    return numbers, arcs, [number for state, number in numbers.items() if final(state)]


def skyscraper(c: Constraint, n: int) -> Automaton:
    total = int(c.param("total"))

    def step(state: tuple[int, int], value: int) -> tuple[int, int] | None:
        tallest, seen = state
        after = (value, seen + 1) if value > tallest else (tallest, seen)
        return None if value == tallest or after[1] > total else after

    return (0, 0), step, lambda state: state[1] == total


def xsum(c: Constraint, n: int) -> Automaton:
    total = int(c.param("total"))

    def step(state: tuple[int, int], value: int) -> tuple[int, int] | None:
        left, added = state  # cells of the prefix still to add, and their sum so far
        if left == -1:  # the start: the first value is X, the prefix's length
            left, added = value, 0
        if left == 0:  # past the prefix (reached only when its sum was the clue)
            return state
        left, added = left - 1, added + value
        return None if added > total or (left == 0 and added != total) else (left, added)

    return (-1, 0), step, lambda state: state == (0, total)


def sandwich(c: Constraint, n: int) -> Automaton:
    total = int(c.param("total"))

    def step(state: tuple[int, int], value: int) -> tuple[int, int] | None:
        end, added = state
        if end == 0:
            return (value, 0) if value in (1, n) else state
        if end == -1:
            return None if value in (1, n) else state
        if value in (1, n):
            return (-1, 0) if value != end and added == total else None
        return (end, added + value) if added + value <= total else None

    return (0, 0), step, lambda state: state == (-1, 0)


AUTOMATA: dict[str, Callable[[Constraint, int], Automaton]] = {
    "skyscraper": skyscraper,
    "xsum": xsum,
    "sandwich": sandwich,
}


def renban_runs(size: int, n: int) -> list[list[int]] | None:
    """Every ordering of every run of ``size`` consecutive values of 1..n; None where there
    would be more than ``RENBAN_TUPLES`` (the minimum and maximum then say it by bounds)."""
    if factorial(size) * (n - size + 1) > RENBAN_TUPLES:
        return None
    runs = (permutations(range(first, first + size)) for first in range(1, n - size + 2))
    return [list(p) for p in chain.from_iterable(runs)]
