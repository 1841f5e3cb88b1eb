"""True candidates: for each cell, the values it holds in at least one solution of the puzzle.

A setter's view of where a puzzle is still open. The engine is asked, never a logic of our
own: a first call counts solutions up to two (a unique puzzle's candidates are then its
solution, one value per cell, from that one call). A puzzle with more than one solution is
then asked cell by cell and value by value: for each value that no solution found so far puts
in a cell, a solution with that value placed there as an extra given. Each solution found
marks every value it holds, so one answer settles many pairs at once; a pair the engine proves
impossible is no candidate. Every solution is verified (the runner's judge) before it counts.

The runner is asked for the plain board once (its refusal: a kind the backend lacks, givens
that clash) and then for boards that differ from it by one given; those are left out when the
new given clashes in one of its cell's units or sum groups (``_Clashes``: the judge's ``clash``
restricted to the one cell that changed, which is all that can change), since the judge never
hands a clashing board to a backend.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from solvers.api import Grid, as_board, raise_failures
from solvers.backends import choice
from solvers.backends.contract import Operation
from solvers.backends.spec import BackendSpec
from solvers.base.deadline import Deadline, timeout_of
from solvers.base.errors import UsageError
from solvers.model.board import Board, cell_name
from solvers.model.compile import flatten
from solvers.run import pipeline
from solvers.run.answer import Answer, Status

if TYPE_CHECKING:
    from solvers.run.runner import Runner

UNIQUE, SEVERAL, UNSOLVABLE, UNKNOWN = "unique", "several", "unsolvable", "unknown"


@dataclass(frozen=True)
class Candidates:
    """What the engine told of a puzzle's candidates.

    ``values``: per cell (row-major), the values it holds in some verified solution found;
    with ``complete``, exactly the values it holds in any solution. When the deadline passed
    first (``complete`` False), ``undecided`` holds per cell the values not yet ruled in or
    out. ``solutions``: the first solution found and, where the puzzle has more, one that
    differs from it (``differing`` names the cells). ``found``: the distinct solutions found,
    a lower bound on the puzzle's count (its exact count when ``status`` is unique or
    unsolvable)."""

    board: Board
    values: tuple[frozenset[int], ...]
    solutions: tuple[Board, ...]
    found: int
    complete: bool
    backend: str
    seconds: float
    calls: int
    undecided: tuple[frozenset[int], ...] = ()
    detail: str = field(default="", compare=False)  # the clash of givens that break a rule

    @property
    def status(self) -> str:
        """unique, several, unsolvable, or unknown (the deadline passed before the engine
        could tell)."""
        if self.found >= 2:
            return SEVERAL
        if not self.complete:
            return UNKNOWN
        return UNIQUE if self.found == 1 else UNSOLVABLE

    @property
    def exact(self) -> bool:
        """Whether ``found`` is the puzzle's count of solutions (unique or none)."""
        return self.status in (UNIQUE, UNSOLVABLE)

    @property
    def differing(self) -> tuple[int, ...]:
        """The cells where the two solutions differ (none with fewer than two)."""
        if len(self.solutions) < 2:
            return ()
        first, second = (s.cells for s in self.solutions)
        return tuple(i for i, (a, b) in enumerate(zip(first, second, strict=True)) if a != b)

    def differing_names(self) -> list[str]:
        return [cell_name(cell, self.board.size) for cell in self.differing]


def candidates(
    grid: Grid, backend: str | None = None, *, timeout: float | None = None, **options: object
) -> Candidates:
    """The true candidates of ``grid`` by ``backend`` (a name or a spec such as
    ``sat:encoding=minimal``; None: the default backend of a run of many puzzles that encodes
    the puzzle's rules, since a puzzle with several solutions takes many calls). ``timeout``
    bounds the whole puzzle: past it the answer is partial (``complete`` False).

    Raises WrongAnswer if the backend returns a grid that is not a solution, BackendCrashed if
    it fails, UsageError or BackendUnavailable for a backend that cannot be used (or does not
    encode one of the puzzle's rules)."""
    board = as_board(grid)
    timeout = timeout_of(timeout)
    if backend is not None and not isinstance(backend, str):
        raise UsageError(
            f"backend {backend!r} is not a name or a spec such as 'sat:encoding=minimal'"
        )
    spec = BackendSpec.parse(backend or choice.default_backend(board))
    spec = spec.with_options(options) if options else spec
    return candidates_of(board, pipeline.resolved_here(spec), timeout)


def candidates_of(board: Board, spec: BackendSpec, timeout: float | None = None) -> Candidates:
    """``candidates`` for a board and a spec, from this process's shared runner for it."""
    from solvers.run.runner import borrowed  # multiprocessing: not on importing solvers

    with borrowed(spec) as runner:
        return _Search(runner, board, timeout).run()


class _Search:
    """One puzzle's candidates, gathered from one runner under one deadline."""

    def __init__(self, runner: Runner, board: Board, timeout: float | None) -> None:
        self.runner, self.board = runner, board
        self.deadline = Deadline(timeout)
        self.start = time.perf_counter()
        self.values: list[set[int]] = [set() for _ in board.cells]
        self.ruled_out: list[set[int]] = [set() for _ in board.cells]  # proven in no solution
        self.solutions: list[Board] = []
        self.seen: set[tuple[int, ...]] = set()
        self.calls = 0

    def run(self) -> Candidates:
        first = self._counted()
        if first.status is Status.INVALID:  # givens that break a rule: no solution
            return self._result(complete=True, detail=first.detail)
        if first.status is Status.TIMEOUT:
            return self._result(complete=False)
        if first.status is Status.UNSOLVABLE or first.count == 1:
            return self._result(complete=True)
        clashes = _Clashes(self.board)
        for cell, value in self._unseen():
            if clashes.at(self.board.cells, cell, value):
                self.ruled_out[cell].add(value)
                continue
            answer = self._placed(cell, value)
            if answer.status is Status.TIMEOUT:
                return self._result(complete=False)
            if answer.status is Status.UNSOLVABLE:
                self.ruled_out[cell].add(value)
        return self._result(complete=True)

    def _counted(self) -> Answer:
        """The plain board's solutions counted up to two, the first one marked."""
        self.calls += 1
        answer = raise_failures(self.runner.count(self.board, 2, self.deadline.remaining()))
        if answer.status is Status.SOLVED:
            self._mark(answer.solution)
        return answer

    def _placed(self, cell: int, value: int) -> Answer:
        """A solution with ``value`` at ``cell``, marked if there is one (verified by the
        judge); a timeout when the deadline has passed or passes first."""
        left = self.deadline.remaining()
        if left is not None and left <= 0:
            return Answer(Status.TIMEOUT, self.runner.label)
        cells = list(self.board.cells)
        cells[cell] = value
        placed = Board.unchecked(self.board.shape, tuple(cells), self.board.rules)
        self.calls += 1
        (tried,) = self.runner.attempt_each([placed], left, Operation.SOLVE)
        answer = raise_failures(self.runner.judge(Operation.SOLVE, placed, 1, left, tried))
        if answer.status is Status.SOLVED:
            self._mark(answer.solution)
        return answer

    def _unseen(self) -> Iterator[tuple[int, int]]:
        """Each open cell's values no solution found so far holds there, in cell order, read
        as the search goes (each solution found marks many at once)."""
        n = self.board.size
        for cell, given in enumerate(self.board.cells):
            if given:
                continue
            for value in range(1, n + 1):
                if value not in self.values[cell]:
                    yield cell, value

    def _mark(self, solution: Board) -> None:
        if solution.cells in self.seen:
            return
        self.seen.add(solution.cells)
        for cell, value in enumerate(solution.cells):
            self.values[cell].add(value)
        if len(self.solutions) < 2:
            self.solutions.append(solution)

    def _result(self, complete: bool, detail: str = "") -> Candidates:
        """The answer so far; when incomplete, every pair of an open cell neither marked by a
        solution nor ruled out is undecided."""
        undecided: tuple[frozenset[int], ...] = ()
        if not complete:
            every = frozenset(range(1, self.board.size + 1))
            undecided = tuple(
                frozenset() if given else every - self.values[cell] - self.ruled_out[cell]
                for cell, given in enumerate(self.board.cells)
            )
        return Candidates(
            self.board,
            tuple(map(frozenset, self.values)),
            tuple(self.solutions),
            len(self.seen),
            complete,
            self.runner.label,
            time.perf_counter() - self.start,
            self.calls,
            undecided,
            detail,
        )


class _Clashes:
    """Whether one more given breaks a rule the judge reads (``Flat.conflicts``: a value twice
    in a unit or a sum group, or a sum group's givens past its total), on a board whose givens
    break none: only the units and sum groups of the cell that changed can."""

    def __init__(self, board: Board) -> None:
        flat = flatten(board)
        self.peers = [set(peers) for peers in flat.geometry.peers]
        self.sums: list[list] = [[] for _ in board.cells]
        for group in flat.stated_groups:
            for cell in group.cells:
                self.peers[cell].update(c for c in group.cells if c != cell)
                self.sums[cell].append(group)

    def at(self, cells: tuple[int, ...], cell: int, value: int) -> bool:
        if any(cells[peer] == value for peer in self.peers[cell]):
            return True
        for group in self.sums[cell]:
            given = [value if c == cell else cells[c] for c in group.cells]
            total = sum(given)
            if total > group.total or (all(given) and total != group.total):
                return True
        return False
