"""The CNF levels: unit propagation on the minimal and on the extended encoding, and
failed-literal probing on the extended one (Lynce and Ouaknine, "Sudoku as a SAT Problem",
2006).

The variable "cell i holds v" is ``i*N + v`` (v from 1 to N), as in ``adapters.cnf``. The two
encodings are written here from the board's units, with "at most one" as pairwise binary
clauses (the papers' form; unit propagation on any of PySAT's "at most one" encodings decides
the same cells):

- ``minimal``: every cell holds at least one value; every value at most once per unit;
- ``extended``: minimal plus at most one value per cell and every value at least once per unit.

Unit propagation here is a counter per clause (how many of its literals are false): a clause
with one literal left that is not false makes it true; with none, the formula is refuted.
"""

from __future__ import annotations

from itertools import combinations

from solvers.base.deadline import Deadline, Ticker
from solvers.model.board import Board
from solvers.model.geometry import Geometry
from solvers.strength.grid import Outcome, outcome, units_of

Clause = tuple[int, ...]
ENCODINGS = ("minimal", "extended")


def clauses(geometry: Geometry, encoding: str, ticker: Ticker | None = None) -> list[Clause]:
    """The rules of ``geometry``'s units in ``encoding`` (givens not included); ``ticker``
    ticks once per cell and per unit's value (a 25x25's build is seconds' work at load)."""
    n = geometry.size
    extended = encoding == "extended"
    tick = ticker.tick if ticker is not None else lambda: None
    found: list[Clause] = []
    for cell in range(n * n):
        tick()
        literals = [cell * n + v for v in range(1, n + 1)]
        found.append(tuple(literals))
        if extended:
            found += [(-a, -b) for a, b in combinations(literals, 2)]
    for unit in geometry.units:
        for v in range(1, n + 1):
            tick()
            literals = [cell * n + v for cell in unit]
            found += [(-a, -b) for a, b in combinations(literals, 2)]
            if extended:
                found.append(tuple(literals))
    return found


class Propagation:
    """Unit propagation over fixed clauses; a state is ``(value, false_count)``: ``value[var]``
    is 1, -1 or 0 (unassigned), ``false_count[k]`` the false literals of clause k."""

    def __init__(self, found: list[Clause], variables: int, ticker: Ticker | None = None) -> None:
        self.clauses = found
        self.variables = variables
        # clauses holding the literal -l, by l + variables: those that making l true shortens
        self.shortened: list[list[int]] = [[] for _ in range(2 * variables + 1)]
        for index, clause in enumerate(found):
            if ticker is not None and not index & 255:
                ticker.tick()
            for literal in clause:
                self.shortened[variables - literal].append(index)

    def empty(self) -> tuple[list[int], list[int]]:
        return [0] * (self.variables + 1), [0] * len(self.clauses)

    def assign(
        self, state: tuple[list[int], list[int]], literals: list[int], ticker: Ticker
    ) -> bool:
        """Make ``literals`` true and propagate to the fixpoint; False on a refutation (the
        state is then partial); ``ticker`` ticks once per literal propagated."""
        value, false_count = state
        queue = []
        for literal in literals:
            held = value[abs(literal)]
            if held == 0:
                value[abs(literal)] = 1 if literal > 0 else -1
                queue.append(literal)
            elif (held > 0) != (literal > 0):
                return False
        clauses, shortened, variables = self.clauses, self.shortened, self.variables
        while queue:
            literal = queue.pop()
            ticker.tick()
            for index in shortened[literal + variables]:
                false_count[index] += 1
                clause = clauses[index]
                if false_count[index] < len(clause) - 1:
                    continue
                free = 0
                for other in clause:
                    held = value[abs(other)]
                    if held == 0:
                        free = other
                    elif (held > 0) == (other > 0):
                        break  # satisfied
                else:
                    if free == 0:
                        return False
                    value[abs(free)] = 1 if free > 0 else -1
                    queue.append(free)
        return True


_BUILT: dict[tuple[Geometry, str], Propagation] = {}
_KEPT = 64  # geometries and encodings


def _propagation(geometry: Geometry, encoding: str, ticker: Ticker) -> Propagation:
    """The clauses of a geometry's rules, indexed once (the same for each of its boards),
    built within the deadline ``ticker`` keeps: a 25x25's took 0.36-0.60 s, and a level
    given 0.01 s was reported finished (SolveTimeout leaves nothing half built kept)."""
    key = (geometry, encoding)
    if key not in _BUILT:
        built = Propagation(clauses(geometry, encoding, ticker), geometry.size**3, ticker)
        if len(_BUILT) >= _KEPT:
            del _BUILT[next(iter(_BUILT))]
        _BUILT[key] = built
    return _BUILT[key]


def _setup(
    board: Board, encoding: str, ticker: Ticker
) -> tuple[Propagation, tuple[list[int], list[int]], bool]:
    n = board.size
    propagation = _propagation(units_of(board), encoding, ticker)
    state = propagation.empty()
    givens = [cell * n + v for cell, v in enumerate(board.cells) if v]
    return propagation, state, propagation.assign(state, givens, ticker)


def _candidates(value: list[int], n: int) -> list[int]:
    """Each cell's candidates: its true value, else the values not yet false."""
    found = []
    for cell in range(n * n):
        base = cell * n
        true = [v for v in range(1, n + 1) if value[base + v] > 0]
        found.append(
            1 << true[0] if len(true) == 1 else 0 if true else
            sum(1 << v for v in range(1, n + 1) if value[base + v] == 0)
        )  # fmt: skip
    return found


def _ticker(deadline: Deadline) -> Ticker:
    return Ticker(deadline, dict)


def unit_propagation(board: Board, deadline: Deadline, encoding: str) -> Outcome:
    """``up:<encoding>``: the givens as unit clauses, unit propagation to its fixpoint."""
    _, (value, _), consistent = _setup(board, encoding, _ticker(deadline))
    n = board.size
    return outcome(board, _candidates(value, n) if consistent else [0] * n * n)


def failed_literals(board: Board, deadline: Deadline, encoding: str = "extended") -> Outcome:
    """``fl:<encoding>``: unit propagation, then every unassigned literal (both signs) is
    probed; one whose propagation refutes the formula is failed, and its negation is made
    true; to the fixpoint, where no literal fails."""
    ticker = _ticker(deadline)
    propagation, state, consistent = _setup(board, encoding, ticker)
    n = board.size
    changed = consistent
    while changed:
        changed = False
        for var in range(1, n**3 + 1):
            for literal in (var, -var):
                if state[0][var]:
                    break
                trial = (state[0][:], state[1][:])
                if propagation.assign(trial, [literal], ticker):
                    continue
                changed = True
                if not propagation.assign(state, [-literal], ticker):
                    return outcome(board, [0] * n * n)
    return outcome(board, _candidates(state[0], n) if consistent else [0] * n * n)
