"""Backends by name, imported on first use (fsspec's registry is the model).

Importing ``solvers`` imports no adapter library: each backend is a dotted path, and a missing
library becomes one clear sentence from ``availability`` or BackendUnavailable from ``load``.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata

from solvers.backend import Backend
from solvers.errors import BackendUnavailable, UsageError


@dataclass(frozen=True)
class BackendInfo:
    name: str
    target: str  # "module:Class"
    distribution: str | None  # the PyPI distribution whose version identifies the library
    summary: str


_BACKENDS = (
    BackendInfo(
        "dfs",
        "solvers.dfs:DepthFirst",
        None,
        "the reference: row-major DFS trying 1..N, checks by scanning (BOJ 2580/2239)",
    ),
    BackendInfo(
        "bitmask",
        "solvers.bitmask:Bitmask",
        None,
        "the reference's order and answers, with row/column/box bit masks instead of scans",
    ),
    BackendInfo(
        "mrv",
        "solvers.bitmask:MostConstrained",
        None,
        "bit masks, and the cell with the fewest candidates first",
    ),
    BackendInfo(
        "propagate",
        "solvers.propagate:Propagate",
        None,
        "naked and hidden singles to a fixpoint after every placement, then MRV branching",
    ),
    BackendInfo(
        "native",
        "solvers.native:Native",
        "numba",
        "the propagate algorithm compiled with numba (compiled once, cached on disk)",
    ),
    BackendInfo(
        "dlx",
        "solvers.dlx:DancingLinks",
        None,
        "Knuth's Algorithm X with dancing links over the exact-cover formulation",
    ),
    BackendInfo(
        "norvig",
        "solvers.norvig:Norvig",
        None,
        "Norvig's 2006 essay solver (string candidates, dict copies): the yardstick",
    ),
    BackendInfo(
        "csp",
        "adapters.csp:ConstraintBackend",
        "python-constraint2",
        "CSP: one variable per cell, AllDifferentConstraint per unit",
    ),
    BackendInfo(
        "cpsat",
        "adapters.cpsat:CpSatBackend",
        "ortools",
        "OR-tools CP-SAT: AddAllDifferent per unit",
    ),
    BackendInfo(
        "sat",
        "adapters.sat:PycosatBackend",
        "pycosat",
        "CNF encoding solved by PicoSAT through pycosat",
    ),
    BackendInfo(
        "pysat",
        "adapters.pysat:IncrementalBackend",
        "python-sat",
        "the same CNF in one persistent PySAT solver, givens as assumptions",
    ),
)
REGISTRY = {info.name: info for info in _BACKENDS}

# Fastest first, by measurement (README, "Measured"): the default backend is the first of these
# that is available here. ``dfs`` stays the documented reference.
FASTEST_FIRST = ("native", "pysat", "propagate")


def default_backend() -> str:
    """The fastest backend available here."""
    return next(name for name in FASTEST_FIRST if availability(name)[0])


def names() -> list[str]:
    return list(REGISTRY)


def info(name: str) -> BackendInfo:
    try:
        return REGISTRY[name]
    except KeyError:
        raise UsageError(f"unknown backend {name!r}; choose from {', '.join(REGISTRY)}") from None


def backend_class(name: str) -> type[Backend]:
    """The backend's class, importing its module; BackendUnavailable says why it cannot."""
    entry = info(name)
    module_name, _, class_name = entry.target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        hint = f" (pip install {entry.distribution})" if entry.distribution else ""
        raise BackendUnavailable(f"backend {name} is unavailable: {error}{hint}") from None
    return getattr(module, class_name)


def load(name: str, **options: object) -> Backend:
    """The backend ``name`` built with ``options``; built once per set of options and reused."""
    return _build(name, options_key(options))


def options_key(options: Mapping[str, object]) -> tuple[tuple[str, str], ...]:
    """Options as a hashable key that ignores their order: how a built backend is known."""
    return tuple(sorted((k, str(v)) for k, v in options.items()))


@lru_cache(maxsize=64)
def _build(name: str, options: tuple[tuple[str, str], ...]) -> Backend:
    return backend_class(name)(**dict(options))


def version(name: str) -> str:
    entry = info(name)
    if entry.distribution is None:
        return "built in"
    try:
        return f"{entry.distribution} {metadata.version(entry.distribution)}"
    except metadata.PackageNotFoundError:
        return f"{entry.distribution} (not installed)"


def availability(name: str) -> tuple[bool, str]:
    """(True, "available") or (False, the reason), importing the backend to find out."""
    try:
        backend_class(name)
    except BackendUnavailable as error:
        return False, str(error)
    return True, "available"
