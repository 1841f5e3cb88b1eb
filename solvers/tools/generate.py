"""Puzzle generation: a random complete board, then clues removed while the answer stays unique.

Everything random comes from one ``random.Random(seed)`` and only through ``shuffle``, whose
results for a given seed are the same on every machine and every Python we support; nothing
depends on set or hash order. Whether a puzzle is unique is a fact about the puzzle, so the
counting backend (the fastest available) cannot change the output either: the same arguments
give byte-identical puzzles everywhere.

Difficulty is measured, not guessed from the clue count: a puzzle is rated by how many guesses
the ``propagate`` backend (naked and hidden singles, then most-constrained branching) makes:

- easy: no guess at all: naked and hidden singles alone solve it;
- medium: 1 to 3 guesses;
- hard: 4 guesses or more.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from solvers.api import count_solutions, solve
from solvers.board import Board, Shape
from solvers.errors import UsageError
from solvers.handwritten.propagate import PropagatingSearch

DIFFICULTIES = {"easy": (0, 0), "medium": (1, 3), "hard": (4, None)}
KINDS = ("unique", "several", "none")
MAX_ATTEMPTS = 10_000


@dataclass(frozen=True)
class Request:
    """What to generate; the defaults give unique puzzles with as few clues as chance leaves."""

    shape: Shape
    clues: int | None = None  # stop removing at this many givens
    minimal: bool = False  # remove until no clue can go
    symmetric: bool = False  # remove cells in pairs under 180-degree rotation
    difficulty: str | None = None
    kind: str = "unique"  # unique, several (2+ solutions) or none (no solution)


def rate(board: Board) -> int:
    """Guesses the propagating search (naked and hidden singles, then most-constrained
    branching) needs to solve ``board``: the measure behind the difficulty."""
    return PropagatingSearch().run(board).stats["guesses"]


def difficulty_of(guesses: int) -> str:
    return next(
        name
        for name, (low, high) in DIFFICULTIES.items()
        if guesses >= low and (high is None or guesses <= high)
    )


def complete_board(shape: Shape, rng: random.Random) -> Board:
    """A random complete board: the propagating search with each branch's values shuffled."""
    found = PropagatingSearch(order=rng.shuffle).run(Board.empty(shape))
    assert found.solution is not None, "an empty board always has a completion"
    return found.solution


def _removal_order(shape: Shape, rng: random.Random, symmetric: bool) -> list[tuple[int, ...]]:
    last = shape.cell_count - 1
    if symmetric:
        groups = [(i, last - i) if i != last - i else (i,) for i in range(last // 2 + 1)]
    else:
        groups = [(i,) for i in range(shape.cell_count)]
    rng.shuffle(groups)
    return groups


def _count(board: Board) -> int:
    return count_solutions(board, 2)


def remove_clues(full: Board, request: Request, rng: random.Random) -> Board:
    """Remove clues of ``full`` in random order, keeping the solution unique, down to the
    target (or as far as possible for minimal)."""
    cells = list(full.cells)
    target = request.clues if request.clues is not None and not request.minimal else 0
    givens = len(cells)
    for group in _removal_order(full.shape, rng, request.symmetric):
        if givens <= target:
            break
        kept = [cells[c] for c in group]
        for c in group:
            cells[c] = 0
        if _count(Board(full.shape, tuple(cells))) == 1:
            givens -= len(group)
        else:
            for c, v in zip(group, kept, strict=True):
                cells[c] = v
    return Board(full.shape, tuple(cells))


def _twist(puzzle: Board, kind: str, rng: random.Random) -> Board | None:
    """A unique puzzle turned into one with several solutions (a given taken away) or none (a
    given added that no peer rules out but the solution does not have)."""
    if kind == "unique":
        return puzzle
    cells = list(puzzle.cells)
    if kind == "several":
        givens = [i for i, v in enumerate(cells) if v]
        rng.shuffle(givens)
        for cell in givens:
            value, cells[cell] = cells[cell], 0
            if _count(Board(puzzle.shape, tuple(cells))) == 2:
                return Board(puzzle.shape, tuple(cells))
            cells[cell] = value
        return None
    solution = solve(puzzle).solution
    peers = puzzle.geometry.peers
    empties = [i for i, v in enumerate(cells) if not v]
    rng.shuffle(empties)
    for cell in empties:
        taken = {cells[p] for p in peers[cell]}
        for value in range(1, puzzle.size + 1):
            if value in taken or value == solution.cells[cell]:
                continue
            cells[cell] = value
            if _count(Board(puzzle.shape, tuple(cells))) == 0:
                return Board(puzzle.shape, tuple(cells))
            cells[cell] = 0
    return None


def generate(request: Request, seed: int) -> Iterator[tuple[Board, int]]:
    """Puzzles for ``request`` with their rating (guesses), endlessly, from ``seed``.

    Each puzzle draws from the one generator in turn, so the first k puzzles are the same
    whatever number is asked for.
    """
    if request.kind not in KINDS:
        raise UsageError(f"kind {request.kind!r} is not one of {', '.join(KINDS)}")
    if request.difficulty is not None and request.difficulty not in DIFFICULTIES:
        raise UsageError(
            f"difficulty {request.difficulty!r} is not one of {', '.join(DIFFICULTIES)}"
        )
    rng = random.Random(seed)
    while True:
        for _attempt in range(MAX_ATTEMPTS):
            puzzle = remove_clues(complete_board(request.shape, rng), request, rng)
            if request.clues is not None and puzzle.givens() > request.clues:
                continue
            guesses = rate(puzzle)
            if request.difficulty and difficulty_of(guesses) != request.difficulty:
                continue
            twisted = _twist(puzzle, request.kind, rng)
            if twisted is not None:
                yield twisted, guesses
                break
        else:
            raise UsageError(
                f"no puzzle met the request in {MAX_ATTEMPTS} attempts: "
                f"ask for more clues or another difficulty"
            )
