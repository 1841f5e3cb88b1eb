"""``sudoku compare``: every backend spec on the same puzzles, with deadlines that hold.

Each spec runs in a worker process of its own (``pipeline.timed``, ``isolate=True``): it is
given the deadline itself, and a puzzle that outlives it anyway has its worker killed and
replaced and counts as a timeout; a crash, even a segfault inside a C extension, counts as an
error for that puzzle, and the run goes on. Times are taken inside the worker around the call
alone: parsing is done before, and one-time setup (importing and building the backend,
preparing a shape's persistent solver) is reported apart. Every solution is verified.

In ``unique`` mode (tdoku's) a puzzle is counted up to two solutions: a solution found and no
second one, or the second found; in ``first`` mode the search stops at the first. With
shuffled copies, each copy's answer is mapped back and must agree with the original's.
"""

from __future__ import annotations

import os
import platform
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace

from solvers.analysis import calibration
from solvers.analysis.results import BackendRun, DatasetRun, Record, Settings, puzzle_hash
from solvers.backends import registry
from solvers.backends.spec import BackendSpec
from solvers.formats.boards import Puzzle
from solvers.generation.shuffle import Transform, copies
from solvers.model.board import Board
from solvers.model.verify import problems
from solvers.run.answer import Answer, Status
from solvers.run.judge import COUNT_LIMIT, disagreements, disputed
from solvers.run.pipeline import Plan, timed


@dataclass(frozen=True)
class Copy:
    """One board a run times: a puzzle as given (copy 0, no transform) or a shuffled copy."""

    line: int
    copy: int
    board: Board
    transform: Transform | None = None


def copies_of(puzzles: list[Puzzle], settings: Settings) -> list[Copy]:
    """Each puzzle, then its ``settings.shuffle`` shuffled copies (none for variant rules)."""
    found = []
    for puzzle in puzzles:
        found.append(Copy(puzzle.line, 0, puzzle.board))
        if not settings.shuffle:  # the run's puzzles as given, no copy drawn
            continue
        transforms = copies(puzzle.board, settings.shuffle, settings.seed, puzzle.line)
        for k, transform in enumerate(transforms, 1):
            found.append(Copy(puzzle.line, k, transform.forward(puzzle.board), transform))
    return found


def plan_of(settings: Settings, jobs: int = 1, scheduler: str | None = None) -> Plan:
    """A run's plan: each spec in a worker of its own, counting up to two solutions in unique
    mode, stopping at the first in first mode; ``jobs`` processes here (1: this process's
    workers, one per spec), or the workers of the Dask cluster at ``scheduler``."""
    mode = "count" if settings.mode == "unique" else "solve"
    return Plan(mode, (), COUNT_LIMIT, settings.timeout, jobs, scheduler, isolate=True)


def run_dataset(
    name: str,
    path: str,
    puzzles: list[Puzzle],
    specs: list[BackendSpec],
    settings: Settings,
    plan: Plan | None = None,
    progress: Callable[[str], Callable[[int, int], None] | None] | None = None,
    paces: list[float] | None = None,
) -> DatasetRun:
    """Every spec on every copy of ``puzzles`` (``pipeline.timed``, by ``plan``: ``plan_of``'s
    serial one by default), then the judge's word on each copy. A spec that does not encode
    every puzzle's rules is left out, with a note saying so: its times would be over other
    puzzles than the rest's. ``progress("name: spec")`` gives a callable told (done, total)
    as a serial run of a spec goes, or None. Before each spec is timed, the CPU time of the
    fixed calibration workload (``calibration.sample``) is appended to ``paces``, if given."""
    plan = plan or plan_of(settings)
    boards = copies_of(puzzles, settings)
    unshuffled = sum(1 for p in puzzles if not p.board.rules.is_classic) if settings.shuffle else 0
    dataset = DatasetRun(name, path, len(puzzles), 1 + settings.shuffle, unshuffled)
    left_out, answered = [], []
    for spec in specs:
        if lacking := frozenset().union(*(registry.lacking(spec.name, p.board) for p in puzzles)):
            said = f"{spec.label} left out: it does not support {' and '.join(sorted(lacking))}"
            left_out.append(("info", said))
            continue
        if paces is not None:
            paces.append(calibration.sample())
        told = progress(f"{name}: {spec.label}") if progress else None
        answers, setup, peak = timed(spec, [c.board for c in boards], plan, told)
        answers = crosscheck(boards, answers, settings.mode == "unique")
        dataset.backends.append(BackendRun(spec.label, dict(spec.configuration), setup, peak))
        answered.append(answers)
    known = {p.line: p.known_solution for p in puzzles}
    said, doubted = judged(boards, answered, known)
    dataset.records = [  # each written once the judge has spoken, with no solution kept
        Record(
            name,
            c.line,
            c.copy,
            replace(a, solution=None),
            (a.backend, (c.line, c.copy)) in doubted,
        )
        for answers in answered
        for c, a in zip(boards, answers, strict=True)
    ]
    dataset.notes = left_out + notes(dataset) + said
    dataset.hashes = {p.line: puzzle_hash(p.board) for p in puzzles}
    return dataset


def judged(
    boards: list[Copy], answered: list[list[Answer]], known: dict[int, Board | None]
) -> tuple[list[tuple[str, str]], set[tuple[str, tuple[int, int]]]]:
    """A ``disagree`` note for each copy the judge finds the specs disagree on: solvability,
    a count, a unique puzzle's solution (against the file's, or between specs), and the
    (spec, (line, copy)) of each answer it disputes. Wrong answers and errors have notes of
    their own."""
    found, doubted = [], set()
    own_notes = (Status.WRONG, Status.ERROR)
    for i, board in enumerate(boards):
        said = [answers[i] for answers in answered if answers[i].status not in own_notes]
        solution = known.get(board.line) if board.copy == 0 else None
        for text in disagreements(said, solution):
            found.append(("disagree", f"{_where(board.line, board.copy)}: {text}"))
        doubted |= {(spec, (board.line, board.copy)) for spec in disputed(said, solution)}
    return found, doubted


def _where(line: int, copy: int) -> str:
    return f"puzzle {line}" + (f" copy {copy}" if copy else "")


def crosscheck(boards: list[Copy], answers: list[Answer], unique: bool) -> list[Answer]:
    """The answers, with a shuffled copy's that does not agree with its puzzle's made WRONG:
    a solution that, mapped back, does not solve the puzzle; no solution where the puzzle was
    solved; in unique mode another count, or (for a unique puzzle) another solution. A puzzle
    said to have no solution while a copy's solution mapped back solves it is WRONG itself."""
    checked = list(answers)
    original = 0
    for i, board in enumerate(boards):
        if board.transform is None:
            original = i
            continue
        checked[i] = _against(boards[original].board, answers[original], board, answers[i], unique)
        if checked[original].status is Status.UNSOLVABLE and checked[i].status is Status.SOLVED:
            detail = (
                f"backend {checked[original].backend} said no solution, but shuffled copy "
                f"{board.copy} was solved ({board.transform})"
            )
            checked[original] = replace(checked[original], status=Status.WRONG, detail=detail)
    return checked


def _against(puzzle: Board, first: Answer, board: Copy, answer: Answer, unique: bool) -> Answer:
    if not (first.status.finished and answer.status.finished):
        return answer
    mapped = None if answer.solution is None else board.transform.back(answer.solution)
    if mapped is not None and (wrong := problems(puzzle, mapped)):
        said = f"its solution mapped back does not solve the puzzle: {wrong[0]}"
    elif first.status is Status.SOLVED and answer.status is Status.UNSOLVABLE:
        said = "no solution, but the puzzle as given was solved"
    elif answer.status is not first.status:
        return answer  # the puzzle as given said no solution: it is the one made WRONG
    elif unique and answer.count != first.count:
        said = f"{answer.count} solution(s) counted, {first.count} for the puzzle as given"
    elif unique and first.count == 1 and mapped != first.solution:
        said = "another solution than the puzzle's, which was counted unique"
    else:
        return answer
    detail = f"backend {answer.backend} on shuffled copy {board.copy} ({board.transform}): {said}"
    return replace(answer, status=Status.WRONG, detail=detail)


def notes(dataset: DatasetRun) -> list[tuple[str, str]]:
    """What the run's reader must see besides the table and the judge's word (``judged``):
    ``wrong`` answers, ``unproved`` puzzles (no backend answered), each backend's ``error``s,
    and ``info``."""
    found: list[tuple[str, str]] = []
    if dataset.unshuffled:
        found.append(("info", f"{dataset.unshuffled} puzzles with variant rules, unshuffled"))
    by_key: dict[tuple[int, int], list[Record]] = {}
    for record in dataset.records:
        by_key.setdefault(record.key, []).append(record)
    for (line, copy), records in by_key.items():
        where = _where(line, copy)
        found += [
            ("wrong", f"{where}: BUG: {r.answer.detail}")
            for r in records
            if r.answer.status == Status.WRONG
        ]
    # a puzzle that no backend answered (every one timed out or failed): the run proves nothing
    # of it, as check's unconfirmed puzzle (exit 3); one timing out where another answers is a
    # measurement, the table's
    unproved = [key for key, records in by_key.items() if not any(r.finished for r in records)]
    if unproved and dataset.backends:
        shown = ", ".join(_where(line, copy) for line, copy in unproved[:5])
        more = f" and {len(unproved) - 5} more" if len(unproved) > 5 else ""
        found.append(("unproved", f"no backend answered within its timeout: {shown}{more}"))
    for backend in dataset.backends:
        errors = [r for r in dataset.records_of(backend.spec) if r.answer.status == Status.ERROR]
        if errors:
            first = f"puzzle {errors[0].puzzle}: {errors[0].answer.detail}"
            found.append(("error", f"{backend.spec}: {len(errors)} errors; the first, {first}"))
    return found


def machine() -> dict:
    """Where the numbers were taken."""
    model = platform.processor()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            model = next(
                (line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")),
                model,
            )
    except OSError:
        pass
    return {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "processor": model,
        "executable": sys.executable,
    }
