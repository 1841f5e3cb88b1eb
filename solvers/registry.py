"""Backends by name, imported on first use (fsspec's registry is the model).

A backend is declared in one of two ways, both ending in ``register(name, "module:Class")``:
a row of ``BUILT_IN`` here, or, from an installed outside package, an entry point of the group
``sudoku_solvers.backends`` (``name = "module:Class"`` in its pyproject's
``[project.entry-points."sudoku_solvers.backends"]``), read the first time the names are
listed or an unknown name is asked for. Importing ``solvers`` imports no adapter library: a
backend is a dotted path until it is used, and a missing library becomes one clear sentence
from ``availability`` or BackendUnavailable from ``backend_class``.

What a backend supports is what it declares (``Backend.ENCODES``) against what a board's
flattened rules need (``solvers.compile``): ``lacking`` is the one place that says which of a
puzzle's kinds a backend does not encode.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solvers.backend import Backend
from solvers.errors import BackendUnavailable, UsageError

if TYPE_CHECKING:
    from solvers.board import Board


@dataclass(frozen=True)
class Entry:
    name: str
    target: str  # "module:Class"
    distribution: str | None  # the PyPI distribution whose version identifies the library
    summary: str


_ENTRIES: dict[str, Entry] = {}
GROUP = "sudoku_solvers.backends"  # the entry-point group outside packages declare backends in
_plugins_read = False
_plugin_problems: list[str] = []

# Fastest first, by measurement (README, "Measured"): the default backend of a run of many
# puzzles is the first of these that is available here and supports the puzzle's rules. ``dfs``
# stays the documented reference. For constraints of the vocabulary, propagate (every kind, by
# its decompositions) comes first where native does not support them, then cpsat; dfs, last,
# supports every kind too.
FASTEST_FIRST = ("native", "propagate", "pysat", "cpsat")
# Kinds whose puzzles other backends answer faster, in order (docs/vocabulary.md, "Speed on the
# generated sets"; bench/vocabulary.py): non-consecutive puzzles want a solver that learns
# clauses. On nonconsecutive9, medians and slowest per puzzle in one run: cms 139 and 372 ms,
# sat 154 and 920, native 140 and 797 (a kernel to load first), propagate 707 and 2,915. The
# default for a board with such a kind, when it supports the rest.
PREFERRED_FOR = {"non-consecutive": ("cms", "sat")}
# A run of at most SMALL_RUN puzzles counts start-up too: propagate has answered before native
# has loaded its compiled kernel (docs/startup.md has the measurements).
FIRST_TO_ANSWER = ("propagate", "native", "pysat", "cpsat")
SMALL_RUN = 100
REFERENCE = "dfs"


def register(
    name: str,
    target: str,
    *,
    distribution: str | None = None,
    summary: str = "",
    replace: bool = False,
) -> None:
    """Make ``name`` a backend, implemented by ``target`` ("package.module:Class"), imported
    when first used. UsageError if the name is taken, unless ``replace``."""
    if ":" not in target:
        raise UsageError(f"backend target {target!r} is not 'module:Class'")
    if name in _ENTRIES and not replace:
        raise UsageError(f"backend {name!r} is already registered")
    _ENTRIES[name] = Entry(name, target, distribution, summary)


def unregister(name: str) -> None:
    _ENTRIES.pop(name, None)


def names() -> list[str]:
    """Every backend's name: the built-in ones, then those of installed packages."""
    _read_plugins()
    return list(_ENTRIES)


def entry(name: str) -> Entry:
    if name not in _ENTRIES:
        _read_plugins()
    try:
        return _ENTRIES[name]
    except KeyError:
        raise UsageError(f"unknown backend {name!r}; choose from {', '.join(_ENTRIES)}") from None


def plugin_problems() -> list[str]:
    """Why an installed package's entry point was not made a backend (one line each)."""
    _read_plugins()
    return list(_plugin_problems)


def _read_plugins() -> None:
    """Register each backend an installed package declares in ``GROUP``, once per process. A
    name already taken or a value that is not "module:Class" is left out, and said why."""
    global _plugins_read
    if _plugins_read:
        return
    _plugins_read = True
    from importlib import metadata  # here: 20-40 ms of start-up that few runs need

    for point in metadata.entry_points(group=GROUP):
        dist = point.dist.name if point.dist is not None else None
        source = f"entry point {point.name!r} of {dist or 'an installed package'}"
        if point.name in _ENTRIES:
            _plugin_problems.append(f"{source} left out: backend {point.name} already exists")
        elif ":" not in point.value or point.attr is None:
            _plugin_problems.append(f"{source} left out: {point.value!r} is not 'module:Class'")
        else:
            register(point.name, point.value, distribution=dist, summary=f"from {dist}")


def lacking(name: str, board: Board) -> frozenset[str]:
    """The kinds of ``board``'s constraints that backend ``name`` does not encode: what its
    flattened rules need (``solvers.compile``) beyond the backend's ``ENCODES``."""
    if board.rules.is_classic:
        return frozenset()
    from solvers.compile import flatten

    return flatten(board).beyond(backend_class(name).ENCODES)


def supported(name: str) -> frozenset[str]:
    """The kinds of the vocabulary backend ``name`` takes, each as its example instance on
    9x9 flattens (an extra region of fewer than N cells, say, needs more than one of N)."""
    from solvers.compile import kinds_within

    return kinds_within(backend_class(name).ENCODES)


def backend_class(name: str) -> type[Backend]:
    """The backend's class, importing its module; BackendUnavailable says why it cannot."""
    found = entry(name)
    module_name, _, class_name = found.target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        hint = f" (pip install {found.distribution})" if found.distribution else ""
        raise BackendUnavailable(f"backend {name} is unavailable: {error}{hint}") from None
    except Exception as error:  # a library that fails as it loads (numba with no cache dir)
        raise BackendUnavailable(f"backend {name} is unavailable: {error}") from None
    try:
        return getattr(module, class_name)
    except AttributeError:
        raise BackendUnavailable(
            f"backend {name} is unavailable: {found.target} not found"
        ) from None


def version(name: str) -> str:
    found = entry(name)
    if found.distribution is None:
        return "built in"
    from importlib import metadata

    try:
        return f"{found.distribution} {metadata.version(found.distribution)}"
    except metadata.PackageNotFoundError:
        return f"{found.distribution} (not installed)"


def availability(name: str) -> tuple[bool, str]:
    """(True, "available") or (False, the reason), importing the backend to find out."""
    try:
        backend_class(name)
    except BackendUnavailable as error:
        return False, str(error)
    return True, "available"


def default_backend(board: Board | None = None, puzzles: int | None = None) -> str:
    """The backend available here that encodes ``board``'s rules (None: classic) and answers
    first: for a run of ``puzzles`` (None: many or unknown), start-up included when they are
    few. UsageError naming the kinds when no backend supports them."""
    few = puzzles is not None and puzzles <= SMALL_RUN
    kinds = board.rules.names if board is not None else frozenset()
    preferred = [b for kind, backends in PREFERRED_FOR.items() if kind in kinds for b in backends]
    for name in (*preferred, *(FIRST_TO_ANSWER if few else FASTEST_FIRST), REFERENCE):
        if availability(name)[0] and (board is None or not lacking(name, board)):
            return name
    raise UsageError(f"no backend available here supports {' and '.join(sorted(kinds))}")


# Every built-in backend, one row each: its --backend name, "module:Class", the PyPI
# distribution of its library (None: built in), and a line for ``sudoku backends``.
BUILT_IN = (
    ("dfs", "solvers.handwritten.dfs:DepthFirst", None,
     "the reference: row-major DFS trying 1..N, checks by scanning (BOJ 2580/2239)"),
    ("bitmask", "solvers.handwritten.bitmask:Bitmask", None,
     "the reference's order and answers, with row/column/box bit masks instead of scans"),
    ("mrv", "solvers.handwritten.mrv:MostConstrained", None,
     "bit masks, and the cell with the fewest candidates first"),
    ("propagate", "solvers.handwritten.propagate:Propagate", None,
     "the exact-cover state packed in one int: singles and locked candidates, then the "
     "fewest-candidates cell"),
    ("native", "solvers.handwritten.native.backend:Native", "numba",
     "propagation with locked candidates, compiled (numba); a bit-parallel 9x9 kernel"),
    ("dlx", "solvers.handwritten.dlx:DancingLinks", None,
     "Knuth's Algorithm X with dancing links over the exact-cover formulation"),
    ("norvig", "solvers.handwritten.norvig:Norvig", None,
     "Norvig's 2006 essay solver (string candidates, dict copies): the yardstick"),
    ("csp", "adapters.csp:ConstraintBackend", "python-constraint2",
     "CSP: one variable per cell, AllDifferentConstraint per unit"),
    ("cpsat", "adapters.cpsat:CpSatBackend", "ortools",
     "OR-tools CP-SAT: AddAllDifferent per unit"),
    ("choco", "adapters.choco:ChocoBackend", "pychoco",
     "Choco CP solver: all_different per unit, propagated by matching"),
    ("sat", "adapters.sat:PycosatBackend", "pycosat",
     "CNF encoding solved by PicoSAT through pycosat"),
    ("pysat", "adapters.pysat:IncrementalBackend", "python-sat",
     "the same CNF in one persistent PySAT solver, givens as assumptions"),
    ("cms", "adapters.cms:CryptoMiniSatBackend", "pycryptosat",
     "the CNF rebuilt per puzzle, solved by CryptoMiniSat"),
    ("z3", "adapters.z3:Z3Backend", "z3-solver",
     "SMT: one persistent Z3 solver per shape, givens as assumptions"),
    ("mip", "adapters.mip:MipBackend", "highspy",
     "0-1 integer program (a binary per cell and value) for HiGHS or SCIP"),
    ("exactcover", "adapters.exactcover:ExactCoverBackend", "exact-cover",
     "dlx's exact-cover matrix, searched by Algorithm X in C"),
    ("cpmpy", "adapters.cpmpy:CpmpyBackend", "cpmpy",
     "one CPMpy model (AllDifferent per unit) for any of its solvers"),
    ("minizinc", "adapters.minizinc:MiniZincBackend", "minizinc",
     "a MiniZinc model (all_different per unit) for the solvers MiniZinc runs here"),
    ("portfolio", "solvers.execution.portfolio:Portfolio", None,
     "native alone for 50 ms, then native and cms raced in two processes: the first proof wins"),
)  # fmt: skip

for _row in BUILT_IN:
    register(_row[0], _row[1], distribution=_row[2], summary=_row[3])
