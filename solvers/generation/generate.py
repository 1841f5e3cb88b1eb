"""Puzzle generation: a random complete board, then clues removed while the answer stays unique.

For a variant, the board is completed under its rules: random jigsaw regions first, and for
killer random cages over the complete board (``layouts``); then the givens go as for classic
puzzles (a killer puzzle whose cages alone make it unique loses them all at once). Constraints
of the vocabulary come from ``clues``: anti-knight, anti-king and non-consecutive shape the
completed grid; thermometers, arrows, Kropki dots and XV marks are read off it.

Everything random comes from one ``random.Random(seed)``, through ``shuffle`` (the same on
every machine and Python we support); whether a puzzle is unique is a fact, so the counting
backend cannot change the output either: the same arguments give byte-identical puzzles.
Difficulty is measured (``DIFFICULTIES``): the guesses a singles-only propagating search
(``rules.PropagatingSearch``, kept as it is so that the scale stays put) makes.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

from solvers.api import count_solutions, solve
from solvers.backends import choice, registry
from solvers.backends.handwritten.rules import PropagatingSearch
from solvers.base.deadline import Deadline
from solvers.base.errors import SolveTimeout, UsageError, WrongAnswer
from solvers.formats.variant_text import RULE_NAMES, variants
from solvers.generation import clues
from solvers.generation.layouts import random_cages, random_regions
from solvers.model.board import Board
from solvers.model.cells import no_boxes, row_regions
from solvers.model.geometry import Shape
from solvers.model.variants import CLASSIC, Rules

DIFFICULTIES = {"easy": (0, 0), "medium": (1, 3), "hard": (4, None)}
KINDS = ("unique", "several", "none")
MAX_ATTEMPTS = 10_000
# puzzles in a row that met the request but could not be given its kind: then none will
TWIST_TRIES = 1_000
COMPLETION_NODES = 20_000  # search nodes a random completion may take (a jigsaw may have none)
# Killer boards up to this side are first tried with no givens at all: a count that is quick
# on 9x9, but runs long for pysat and CP-SAT on 16x16.
SHORTCUT_SIZE = 9
NATIVE_FROM = 9  # variant boards larger than this are completed by the native kernel
COMPLETION_WORK = 200_000_000  # its work budget per layout (about half a second)
MAX_VARIANT_SIZE = 16  # variants are made up to 16x16 (docs/vocabulary.md, Sizes)


@dataclass(frozen=True)
class Request:
    """What to generate; the defaults give unique puzzles with as few clues as chance leaves."""

    shape: Shape
    clues: int | None = None  # stop removing at this many givens
    minimal: bool = False  # remove until no clue can go
    symmetric: bool = False  # remove cells in pairs under 180-degree rotation
    difficulty: str | None = None
    kind: str = "unique"  # unique, several (2+ solutions) or none (no solution)
    rules: frozenset[str] = frozenset()  # variants (x, ...), and ``clues.GENERATED`` kinds

    def __post_init__(self) -> None:
        # Said before any puzzle is begun.
        n = self.shape.size
        if self.rules and n > MAX_VARIANT_SIZE:
            named = ",".join(name for name in (*RULE_NAMES, *clues.GENERATED) if name in self.rules)
            raise UsageError(
                f"--rules {named}: variant puzzles are made up to {MAX_VARIANT_SIZE}x"
                f"{MAX_VARIANT_SIZE}, not {n}x{n} (classic puzzles up to 25x25)"
            )
        if not self.shape.has_boxes and "jigsaw" not in self.rules:
            raise UsageError(f"{no_boxes(n)} (--rules jigsaw)")
        if not self.shape.has_boxes and "windoku" in self.rules:
            raise UsageError(no_boxes(n, "windoku"))


def rate(board: Board, deadline: Deadline | None = None) -> int | None:
    """Guesses the propagating search needs to solve ``board`` (the difficulty's measure);
    None for a board with constraints, which it does not read. SolveTimeout at ``deadline``
    (a sparse 16x16 variant can take it minutes)."""
    if board.rules.constraints:
        return None
    return PropagatingSearch(deadline=deadline).run(board).stats["guesses"]


def difficulty_of(guesses: int) -> str:
    return next(
        name
        for name, (low, high) in DIFFICULTIES.items()
        if guesses >= low and (high is None or guesses <= high)
    )


def complete_board(
    shape: Shape, rng: random.Random, rules: Rules = CLASSIC, deadline: Deadline | None = None
) -> Board | None:
    """A random complete board under ``rules``' units: the propagating search with each
    branch's values shuffled; None if it finds none within ``COMPLETION_NODES`` (a node count,
    not a clock, so the result is the same anywhere). Past 9x9 the Python search can wander
    for minutes on a variant, which the native kernel completes (``_native_completion``)."""
    variant = not rules.is_classic  # classic boards keep the search that made the datasets
    if variant and shape.size > NATIVE_FROM and registry.availability("native")[0]:
        return _native_completion(Board.empty(shape, rules), rng, deadline or Deadline())
    try:
        found = PropagatingSearch(order=rng.shuffle, max_nodes=COMPLETION_NODES).run(
            Board.empty(shape, rules)
        )
    except SolveTimeout:
        return None
    return found.solution


def _native_completion(empty: Board, rng: random.Random, deadline: Deadline) -> Board | None:
    """The kernel's first solution of ``empty`` within a work budget (not a clock), its values
    relabelled at random; None over the budget (a jigsaw layout can take long to refute:
    another is tried) or with no solution. SolveTimeout at ``deadline``."""
    import numpy as np

    from solvers.backends.batch import Flag
    from solvers.backends.handwritten.native import door as native
    from solvers.run.bulk import verified

    kernel = native.load()  # its batch kernel: a work budget, which solve_many does not take
    values = np.zeros((1, empty.shape.cell_count), np.uint8)
    plan = kernel.plan_for(empty)
    found = kernel.solve_batch(plan, values, 1, COMPLETION_WORK, deadline=deadline)
    verified(empty, values, found)  # the verifier's word too, as for every batch
    if found.flags[0] not in (Flag.SOLVED, Flag.WRONG):
        return None  # over the budget, or no solution
    if found.flags[0] == Flag.WRONG:
        raise WrongAnswer(
            f"native's completion of an empty {empty.size}x{empty.size} breaks a rule"
        )
    values = list(range(1, empty.size + 1))
    rng.shuffle(values)
    return empty.with_cells([values[v - 1] for v in found.solutions[0]])


def _left(deadline: Deadline | None) -> float | None:
    return None if deadline is None else deadline.timeout()


def layout(request: Request, rng: random.Random, deadline: Deadline | None = None) -> Board | None:
    """A complete board with the request's variant layout: random regions for jigsaw, and for
    killer random cages over the board."""
    names = request.rules
    regions = random_regions(request.shape, rng, deadline=deadline) if "jigsaw" in names else None
    wide = clues.board_wide(names)
    # killer: cages once the grid is full
    rules = Rules(regions, (*variants(names - {"killer"}, request.shape), *wide))
    if wide:
        full = clues.complete(Board.empty(request.shape, rules), rng, deadline)
    else:
        full = complete_board(request.shape, rng, rules, deadline)
    if full is not None and "killer" in names:
        cages = random_cages(full, rng)
        full = Board(full.shape, full.cells, replace(rules, constraints=rules.constraints + cages))
    if full is not None and names & set(clues.CLUE_KINDS):
        full = clues.with_constraints(full, clues.drawn(full, names, rng))
    return full


def _removal_order(shape: Shape, rng: random.Random, symmetric: bool) -> list[tuple[int, ...]]:
    last = shape.cell_count - 1
    if symmetric:
        groups = [(i, last - i) if i != last - i else (i,) for i in range(last // 2 + 1)]
    else:
        groups = [(i,) for i in range(shape.cell_count)]
    rng.shuffle(groups)
    return groups


def _count(board: Board, deadline: Deadline | None = None) -> int:
    return count_solutions(board, 2, timeout=_left(deadline))


def remove_clues(
    full: Board, request: Request, rng: random.Random, deadline: Deadline | None = None
) -> Board:
    """Remove clues of ``full`` in random order, keeping the solution unique, down to the
    target (or as far as possible for minimal). A killer puzzle (up to 9x9) whose cages alone
    make it unique loses every given at once."""
    target = request.clues if request.clues is not None and not request.minimal else 0
    if "killercage" in full.rules.names and full.size <= SHORTCUT_SIZE:
        bare = full.with_cells((0,) * len(full.cells))
        if _count(bare, deadline) == 1:
            return bare
        if target == 0 and request.clues == 0:
            return full  # no given can go: these cages cannot make a puzzle without givens
    cells = list(full.cells)
    givens = len(cells)
    for group in _removal_order(full.shape, rng, request.symmetric):
        if givens <= target:
            break
        kept = [cells[c] for c in group]
        for c in group:
            cells[c] = 0
        if _count(full.with_cells(cells), deadline) == 1:
            givens -= len(group)
        else:
            for c, v in zip(group, kept, strict=True):
                cells[c] = v
    return full.with_cells(cells)


def _twist(
    puzzle: Board, kind: str, rng: random.Random, deadline: Deadline | None = None
) -> Board | None:
    """A unique puzzle given several solutions (a given taken away) or none (a given added
    that no peer rules out but the solution does not have)."""
    if kind == "unique":
        return puzzle
    cells = list(puzzle.cells)
    if kind == "several":
        givens = [i for i, v in enumerate(cells) if v]
        rng.shuffle(givens)
        for cell in givens:
            value, cells[cell] = cells[cell], 0
            if _count(puzzle.with_cells(cells), deadline) == 2:
                return puzzle.with_cells(cells)
            cells[cell] = value
        return None
    solution = solve(puzzle, timeout=_left(deadline)).solution
    if solution is None:  # a unique puzzle has one: the deadline came first
        raise SolveTimeout("deadline passed")
    peers = puzzle.geometry.peers
    empties = [i for i, v in enumerate(cells) if not v]
    rng.shuffle(empties)
    for cell in empties:
        taken = {cells[p] for p in peers[cell]}
        for value in range(1, puzzle.size + 1):
            if value in taken or value == solution.cells[cell]:
                continue
            cells[cell] = value
            twisted = puzzle.with_cells(cells)
            if not twisted.conflicts() and _count(twisted, deadline) == 0:
                return twisted
            cells[cell] = 0
    return None


def generate(
    request: Request, seed: int, timeout: float | None = None
) -> Iterator[tuple[Board, int]]:
    """Puzzles for ``request`` with their rating (guesses), endlessly, from ``seed`` (the
    first k the same whatever number is asked for); SolveTimeout past ``timeout`` a puzzle."""
    if request.kind not in KINDS:
        raise UsageError(f"kind {request.kind!r} is not one of {', '.join(KINDS)}")
    if request.difficulty is not None and request.difficulty not in DIFFICULTIES:
        raise UsageError(
            f"difficulty {request.difficulty!r} is not one of {', '.join(DIFFICULTIES)}"
        )
    if request.difficulty is not None and request.rules & set(clues.GENERATED):
        raise UsageError("--difficulty is measured without constraints of the vocabulary")
    deadline = Deadline(timeout)  # the first puzzle's, the counting backend's load included
    rng = random.Random(seed)
    wide = clues.board_wide(request.rules)
    # Rows as the regions of a board without boxes: if no Latin square obeys, no jigsaw can.
    regions = None if request.shape.has_boxes else row_regions(request.shape.size)
    empty = Board.empty(request.shape, Rules(regions=regions, constraints=wide))
    try:
        _load_counter(empty)
        if wide and count_solutions(empty, 1, timeout=_left(deadline)) == 0:
            n = request.shape.size
            kinds = " and ".join(c.kind for c in wide)
            raise UsageError(f"no {n}x{n} grid obeys {kinds}: no puzzle can")
        while True:
            yield _one(request, rng, deadline)
            deadline = Deadline(timeout)
    except SolveTimeout:
        raise SolveTimeout(f"no puzzle in {timeout:g} s: {ADVICE}") from None


ADVICE = "ask for more clues, another difficulty or a longer --timeout"


def _load_counter(empty: Board) -> None:
    """The backend that counts boards of ``empty``'s kinds, built (its library imported, a
    compiled kernel loaded: up to a second under load), so that the first count is handed only
    the time left after it."""
    from solvers.run.runner import borrowed

    with borrowed(choice.default_backend(empty)) as runner:
        runner.engine  # noqa: B018 (built on first use)


def _one(request: Request, rng: random.Random, deadline: Deadline) -> tuple[Board, int]:
    twists_failed = 0
    for _attempt in range(MAX_ATTEMPTS):
        full = layout(request, rng, deadline)
        if full is None:
            continue
        puzzle = remove_clues(full, request, rng, deadline)
        if request.clues is not None and puzzle.givens() > request.clues:
            continue
        guesses = rate(puzzle, deadline)
        if request.difficulty and difficulty_of(guesses or 0) != request.difficulty:
            continue
        twisted = _twist(puzzle, request.kind, rng, deadline)
        if twisted is not None:
            return twisted, guesses
        twists_failed += 1
        if twists_failed == TWIST_TRIES == _attempt + 1:
            break  # every puzzle met the request but the kind: the givens leave it no room
    attempts = _attempt + 1
    advice = "ask for more clues or another difficulty"
    if twists_failed > attempts // 2 and request.clues is not None:  # the givens left no room
        advice = f"ask for fewer clues for --kind {request.kind}"
    elif twists_failed > attempts // 2:  # as few givens as could be: the rules left no room
        advice = f"ask for other rules, a larger board or another --seed for --kind {request.kind}"
    raise UsageError(f"no puzzle met the request in {attempts} attempts: {advice}")
