"""Backends by name, imported on first use (fsspec's registry is the model).

``register(name, "module:Class")`` is the one place a backend's name is declared. Importing
``solvers`` imports no adapter library: a backend is a dotted path until it is used, and a
missing library becomes one clear sentence from ``availability`` or BackendUnavailable from
``backend_class``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from importlib import metadata

from solvers.backend import Backend, choose_options
from solvers.errors import BackendUnavailable, UsageError
from solvers.spec import BackendSpec


@dataclass(frozen=True)
class Entry:
    name: str
    target: str  # "module:Class"
    distribution: str | None  # the PyPI distribution whose version identifies the library
    summary: str


_ENTRIES: dict[str, Entry] = {}

# Fastest first, by measurement (README, "Measured"): the default backend of a run of many
# puzzles is the first of these that is available here. ``dfs`` stays the documented reference.
FASTEST_FIRST = ("native", "propagate", "pysat")
# A run of at most SMALL_RUN puzzles counts start-up too: propagate has answered before native
# has loaded its compiled kernel (docs/startup.md has the measurements).
FIRST_TO_ANSWER = ("propagate", "native", "pysat")
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
    return list(_ENTRIES)


def entry(name: str) -> Entry:
    try:
        return _ENTRIES[name]
    except KeyError:
        raise UsageError(f"unknown backend {name!r}; choose from {', '.join(_ENTRIES)}") from None


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


def options_for(spec: BackendSpec) -> dict[str, str]:
    """Every option of ``spec``'s backend, the given ones checked and the rest defaulted."""
    return choose_options(spec.name, backend_class(spec.name).OPTIONS, dict(spec.options))


def build(spec: BackendSpec) -> Backend:
    """A new instance of ``spec``'s backend; the caller owns it (and closes it)."""
    return backend_class(spec.name)(**options_for(spec))


def version(name: str) -> str:
    found = entry(name)
    if found.distribution is None:
        return "built in"
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


def default_backend(rules: frozenset[str] = frozenset(), puzzles: int | None = None) -> str:
    """The backend available here that encodes ``rules`` (variant names) and answers first: for
    a run of ``puzzles`` (None: many or unknown), start-up included when they are few."""
    few = puzzles is not None and puzzles <= SMALL_RUN
    return next(
        name
        for name in (FIRST_TO_ANSWER if few else FASTEST_FIRST)
        if availability(name)[0] and rules <= backend_class(name).RULES
    )


def _handwritten() -> None:
    package = "solvers.handwritten"
    register(
        "dfs",
        f"{package}.dfs:DepthFirst",
        summary="the reference: row-major DFS trying 1..N, checks by scanning (BOJ 2580/2239)",
    )
    register(
        "bitmask",
        f"{package}.bitmask:Bitmask",
        summary="the reference's order and answers, with row/column/box bit masks instead of scans",
    )
    register(
        "mrv",
        f"{package}.mrv:MostConstrained",
        summary="bit masks, and the cell with the fewest candidates first",
    )
    register(
        "propagate",
        f"{package}.propagate:Propagate",
        summary="the exact-cover state packed in one int: singles and locked candidates, then "
        "the fewest-candidates cell",
    )
    register(
        "native",
        f"{package}.native.backend:Native",
        distribution="numba",
        summary="propagation with locked candidates, compiled (numba); a bit-parallel 9x9 kernel",
    )
    register(
        "dlx",
        f"{package}.dlx:DancingLinks",
        summary="Knuth's Algorithm X with dancing links over the exact-cover formulation",
    )
    register(
        "norvig",
        f"{package}.norvig:Norvig",
        summary="Norvig's 2006 essay solver (string candidates, dict copies): the yardstick",
    )


LIBRARIES = (  # name, "module:Class", PyPI distribution, summary
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
)  # fmt: skip


def _libraries() -> None:
    for name, target, distribution, summary in LIBRARIES:
        register(name, target, distribution=distribution, summary=summary)


_handwritten()
_libraries()
