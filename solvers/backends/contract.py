"""What every backend provides, and the value it answers with.

A backend is a class registered by name (``solvers.backends.registry.register``). It is built once
per set of options (by a ``solvers.run.runner.Runner``) and then answers ``search`` for any
board: a solve is a search with limit 1, a count one up to its limit. It keeps no state about
one puzzle after answering it, except deliberate caches (a persistent incremental solver, a
compiled kernel) that it documents as safe to reuse and frees in ``close``.

A backend's answer is a ``Found``: how many solutions it found (up to the limit), the first of
them, and its own counters. It is not yet an answer to the user: the runner times the call,
keeps the deadline, and verifies every solution before it calls a puzzle solved.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar

from solvers.base.deadline import Deadline
from solvers.base.errors import UsageError
from solvers.model.board import Board
from solvers.model.geometry import Shape

if TYPE_CHECKING:
    import numpy as np

    from solvers.backends.batch import Batch

MAX_LIMIT = 2**62  # the largest count asked for: any more would not fit a native counter


def limit_of(value: object, what: str = "limit") -> int:
    """A count's limit (or another bound, named by ``what``) a caller gave: a whole number from
    1 to ``MAX_LIMIT``; UsageError for anything else."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise UsageError(f"{what} {value!r} is not a whole number")
    if not 1 <= value <= MAX_LIMIT:
        raise UsageError(f"{what} {value} is not between 1 and {MAX_LIMIT} (2**62)")
    return int(value)


class Operation(Enum):
    SOLVE = "solve"
    COUNT = "count"


@dataclass(frozen=True)
class Found:
    """What a search found: ``count`` solutions (at most the limit asked for), the first one
    (None when there is none), and the backend's counters."""

    count: int
    solution: Board | None = None
    stats: Mapping[str, Any] = field(default_factory=dict)


# The counters whose meaning is the same for every backend that reports them: summaries,
# reports and comparisons read these keys and no others. A backend may add keys of its own
# (its options, a library's own counters); those are shown as they are, never compared.
STATS: Mapping[str, str] = {
    "guesses": "values tried at a cell with more than one candidate (tdoku's measure)",
    "nodes": "search-tree nodes visited (a handwritten search's steps, a MIP's B&B nodes)",
    "backtracks": "dead ends the search stepped back from",
    "branches": "branching decisions of a CP solver",
    "conflicts": "conflicts met by a CDCL SAT solver (or a CP solver's failures)",
    "decisions": "decisions of a CDCL SAT solver",
    "propagations": "literals or values set by propagation",
    "constraint_checks": "constraint evaluations of a CSP solver",
    "lp_iterations": "simplex iterations of a MIP solver",
    "clauses": "clauses of the CNF given to a SAT solver",
}


class Backend:
    """The base every backend derives from: one method, ``search``, to write.

    ``OPTIONS`` maps each option to its allowed values, the default first. The constructor gets
    every option, already checked and with defaults filled in (``choose_options``).

    Every backend reads a board's units (rows, columns, regions, and every all-different
    group of N cells: ``board.geometry``). ``ENCODES`` says what else it takes of a board's
    flattened rules (``solvers.model.compile``): ``SUM_GROUPS`` (all-different groups with a sum, by
    a rule of its own), ``PRIMITIVES`` (every primitive of the vocabulary, so every kind; sum
    groups reach it decomposed unless it declares ``SUM_GROUPS`` too). A board that needs more
    is never given to it (``solvers.run.judge.refusal``).

    ``NATIVE`` names the kinds it has a model of its own for, which it is handed unflattened
    (``solvers.model.compile.handed``) instead of their decomposition; ``native_kinds`` says which
    of them an instance uses (an option may turn them off, so that a comparison shows what the
    model is worth). A backend declares them beyond ``PRIMITIVES``: they change how a kind is
    modelled, never whether it is supported.
    """

    OPTIONS: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    ENCODES: ClassVar[frozenset[str]] = frozenset()
    NATIVE: ClassVar[frozenset[str]] = frozenset()
    # A library that keeps memory for good on every call (a model it never frees) says after
    # how many calls its process is replaced: the runner then serves it from a worker process,
    # started afresh that often, so that a long run holds flat memory.
    RECYCLE_AFTER: ClassVar[int | None] = None
    # Whether a signal's handler runs within moments while this backend searches in the
    # process a user signals: a search in Python, or one that returns to Python often. A
    # library whose native search holds the thread for as long as it runs says False: in that
    # process the runner then serves every call from a worker process, killed when the run ends.
    INTERRUPTIBLE: ClassVar[bool] = True
    # An outside package's backend runs in a worker process of its own, so that a crash costs
    # one puzzle and a search that overruns its deadline is killed; one that sets IN_PROCESS
    # runs in the caller's process, as a built-in backend does (starts sooner, but is trusted
    # to keep its deadline and never to end the process). Built-in backends do not read it.
    IN_PROCESS: ClassVar[bool] = False
    # Whether ``search_many`` is a batch search of the backend's own, faster per board than
    # ``search`` one board at a time: a run over a line file then hands it the file's boards as
    # arrays, and writes the answers from arrays (``solvers.run.linefile``).
    BATCHES: ClassVar[bool] = False

    def __init__(self, **options: str) -> None:
        # every option, each default filled where it is not given (a backend built by hand,
        # ``ChocoBackend()``, holds what the spec's ``choose_options`` would give it)
        self.options = {key: values[0] for key, values in self.OPTIONS.items()} | options
        if problem := self.refusal(self.options):
            raise UsageError(problem)

    @classmethod
    def refusal(cls, options: Mapping[str, str]) -> str | None:
        """Why these options, each allowed alone, cannot go together (a line naming them), or
        None: checked where a spec is resolved, before any work, and when the backend is
        built."""
        return None

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        """Up to ``limit`` solutions of ``board`` counted, with the first (``Found``); raises
        SolveTimeout (with the stats so far) when the deadline passes. ``limit`` 1 is a
        solve: a backend may take a faster path for it."""
        raise NotImplementedError

    def search_many(
        self,
        values: np.ndarray,
        board: Board,
        limit: int,
        deadline: Deadline,
        each: float | None = None,
    ) -> Batch:
        """``search`` on every row of ``values`` (a (P, N*N) uint8 array, 0 empty), boards of
        ``board``'s shape and rules, as one ``solvers.backends.batch.Batch``: a row past
        ``each`` seconds is UNFINISHED, SolveTimeout once ``deadline`` has passed. This default
        loops over ``search``; a backend that searches arrays says ``BATCHES`` and has its
        own. Its caller verifies every solution (``solvers.run.bulk.solve_many``)."""
        from solvers.backends.batch import one_at_a_time

        return one_at_a_time(self, values, board, limit, deadline, each)

    def load(self) -> None:
        """Load what ``search`` needs beyond the constructor (a compiled kernel), once, before
        the first search: the runner times it as setup. A backend whose batch search needs
        less (``search_many``) loads it here rather than in its constructor."""

    @classmethod
    def uncompiled(cls) -> str | None:
        """What the backend compiles before its first use, when that is not done yet on this
        machine, in a few words for a notice ("the X kernel with numba, once (about ...)"),
        or None. The command line then says so and calls ``compile`` first."""
        return None

    @classmethod
    def compile(cls) -> None:
        """Compile (and keep) what ``uncompiled`` names."""

    def native_kinds(self) -> frozenset[str]:
        """The kinds this instance models itself (of ``NATIVE``), handed to it unflattened."""
        return self.NATIVE

    def stops_itself(self, operation: Operation) -> bool:
        """Whether ``operation`` stops by itself at its deadline. When it cannot, a call with a
        timeout runs in a worker process that is killed at the deadline."""
        return True

    def prepare(self, shape: Shape) -> None:
        """Build what the backend keeps per board shape, ahead of timing (setup)."""

    def close(self) -> None:
        """Free what the backend holds (native solvers, say). It is not used afterwards."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Solutions:
    """The solutions a search finds: counted up to ``limit``, the first one kept."""

    __slots__ = ("count", "first", "limit")

    def __init__(self, limit: int) -> None:
        self.limit, self.count = limit, 0
        self.first: tuple[int, ...] | None = None

    def add(self, cells: Iterable[int]) -> bool:
        """Count a complete board; True once there are enough to stop."""
        self.count += 1
        if self.first is None:
            self.first = tuple(cells)
        return self.count >= self.limit

    def found(self, board: Board, stats: Mapping[str, Any]) -> Found:
        """What the search found on ``board``."""
        solution = None if self.first is None else board.with_cells(self.first)
        return Found(self.count, solution, stats)


def choose_options(
    backend: str, allowed: Mapping[str, tuple[str, ...]], given: Mapping[str, object]
) -> dict[str, str]:
    """The backend's options with defaults filled in; UsageError names a bad key or value."""
    chosen = {key: values[0] for key, values in allowed.items()}
    for key, value in given.items():
        if key not in allowed:
            known = ", ".join(f"{k}={'|'.join(v)}" for k, v in allowed.items()) or "none"
            raise UsageError(f"backend {backend} has no option {key!r} (options: {known})")
        if str(value) not in allowed[key]:
            raise UsageError(
                f"backend {backend}: {key}={value} is not one of {', '.join(allowed[key])}"
            )
        chosen[key] = str(value)
    return chosen


def contract_fault(cls: object) -> str | None:
    """Why ``cls`` cannot serve as a backend, in a few words, or None: a class deriving from
    ``Backend`` whose declarations have the types this contract gives them (an outside
    package's class is checked before it is used)."""
    if not isinstance(cls, type):
        return f"it names a {type(cls).__name__}, not a class deriving from Backend"
    if not issubclass(cls, Backend):
        return f"class {cls.__name__} does not derive from solvers.backends.contract.Backend"
    return _options_fault(cls.OPTIONS) or _declarations_fault(cls)


def _options_fault(options: object) -> str | None:
    if not isinstance(options, Mapping):
        return f"OPTIONS is a {type(options).__name__}, not a mapping of option to values"
    for key, values in options.items():
        if not isinstance(key, str) or not isinstance(values, tuple):
            return f"OPTIONS[{key!r}] is {values!r}, not a tuple of values (the default first)"
        if not values or not all(isinstance(value, str) for value in values):
            return f"OPTIONS[{key!r}] is {values!r}: give one or more values, as text"
    return None


def _native_fault(native: object, encodes: frozenset[str]) -> str | None:
    from solvers.model.compile import PRIMITIVES
    from solvers.model.constraints.kinds import KINDS

    if not isinstance(native, frozenset | set):
        return f"NATIVE is {native!r}, not a frozenset of kinds"
    if unknown := sorted(map(repr, {k for k in native if k not in KINDS})):
        return f"NATIVE holds {', '.join(unknown)}: no such kind (sudoku kinds lists them)"
    if native and PRIMITIVES not in encodes:
        return (
            "NATIVE names kinds, but ENCODES lacks 'primitives': a model of its own changes "
            "how a kind is modelled, never whether it is supported"
        )
    return None


def _declarations_fault(cls: type[Backend]) -> str | None:
    from solvers.model.compile import EVERY_KIND, PRIMITIVES, SUM_GROUPS, declared

    known = f"{SUM_GROUPS!r} and {PRIMITIVES!r}"
    encodes = cls.ENCODES
    if not isinstance(encodes, frozenset | set):
        return f"ENCODES is {encodes!r}, not a frozenset of {known}"
    if unknown := sorted(map(repr, declared(encodes) - EVERY_KIND)):
        return f"ENCODES holds {', '.join(unknown)}: it may hold only {known}"
    if fault := _native_fault(cls.NATIVE, encodes):
        return fault
    for text in ("SUMMARY", "LIBRARY"):
        value = getattr(cls, text, None)
        if value is not None and not isinstance(value, str):
            return f"{text} is {value!r}, not text"
    recycle = cls.RECYCLE_AFTER
    if recycle is not None and (type(recycle) is not int or recycle < 1):
        return f"RECYCLE_AFTER is {recycle!r}, not None or a whole number above 0"
    if not isinstance(cls.IN_PROCESS, bool):
        return f"IN_PROCESS is {cls.IN_PROCESS!r}, not True or False"
    return None
