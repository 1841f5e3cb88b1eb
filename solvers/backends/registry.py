"""The catalog of backends: each by name, imported on first use (fsspec's registry is the model).

A built-in backend is a row of ``BUILT_IN``: its ``--backend`` name, its class as
"module:Class" (``adapters/cpsat.py``'s ``CpSatBackend`` is ``--backend cpsat``), the PyPI
distribution of its library and its line for ``sudoku backends``. The table is the catalog's
whole knowledge of them: no backend's module is read or imported to list it, and adding one is
its module and its row. An installed outside package declares one as an entry point of the
group ``sudoku_solvers.backends`` (``name = "module:Class"`` in its pyproject's
``[project.entry-points."sudoku_solvers.backends"]``), read the first time the names are
listed or an unknown name is asked for (a name ``--backend`` could not select is left out, with
why: ``plugin_problems``); its module is imported in a child process before this one imports
it (``probe_imports``: one that crashes, hangs or raises as it loads is broken, with why), its
class is held to the backend contract before use (``backend.contract_fault``), and it runs
contained, in a worker process of its own, unless it declares ``IN_PROCESS``
(``BackendSpec.contained``; docs/plugins.md). ``register`` adds one in code, run as a
built-in one is. Importing ``solvers`` imports no adapter library: a backend is a dotted path
until it is used, and a missing library becomes one clear sentence from ``availability`` or
BackendUnavailable from ``backend_class``.

This is the one module that reaches the adapters, so that what loading an engine takes is
decided here (and in the native kernel's ``load()``), not in each caller: the writers of a
puzzle in a solver's own language (``sudoku encode``) come from ``encoder`` too.
tests/test_layers.py holds every other module to it. Which backend a run takes when none is
named is a policy apart (``solvers.backends.choice``).

What a backend supports is what it declares (``Backend.ENCODES``) against what a board's
flattened rules need (``solvers.model.compile``): ``lacking`` is the one place that says which of a
puzzle's kinds a backend does not encode.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from solvers.backends.contract import Backend, contract_fault
from solvers.base import signals
from solvers.base.errors import BackendUnavailable, UsageError

if TYPE_CHECKING:
    from solvers.backends.probe import ImportFault
    from solvers.model.board import Board


@dataclass(frozen=True)
class Entry:
    name: str
    target: str  # "module:Class"
    distribution: str | None  # the PyPI distribution whose version identifies the library
    summary: str
    outside: bool = False  # an installed package's (an entry point): it runs contained
    built_in: bool = False  # the project's own: a row of BUILT_IN, or added as one


# Every built-in backend, in the order ``sudoku backends`` lists them (the reference first,
# then the handwritten searches, then one adapter per library): name, "module:Class", the PyPI
# distribution of its library (None: the project's own code) and its line in the listing.
# tests/test_catalog.py fails for a backend class in the backends' folders that has no row.
# fmt: off
BUILT_IN: dict[str, tuple[str, str | None, str]] = {
    "dfs": ("solvers.backends.handwritten.dfs:DepthFirst", None,
        "the reference: row-major DFS trying 1..N, checks by scanning (BOJ 2580/2239)"),
    "bitmask": ("solvers.backends.handwritten.bitmask:Bitmask", None,
        "the reference's order and answers, with row/column/box bit masks instead of scans"),
    "dlx": ("solvers.backends.handwritten.dlx:DancingLinks", None,
        "Knuth's Algorithm X with dancing links over the exact-cover formulation"),
    "mrv": ("solvers.backends.handwritten.mrv:MostConstrained", None,
        "bit masks, and the cell with the fewest candidates first"),
    "native": ("solvers.backends.handwritten.native.backend:Native", "numba",
        "propagation with locked candidates, compiled (numba); a bit-parallel 9x9 kernel"),
    "norvig": ("solvers.backends.handwritten.norvig:Norvig", None,
        "Norvig's 2006 essay solver (string candidates, dict copies): the yardstick"),
    "propagate": ("solvers.backends.handwritten.propagate:Propagate", None,
        "the exact-cover state packed in one int: singles and locked candidates, then "
        "the fewest-candidates cell"),
    "choco": ("adapters.choco:ChocoBackend", "pychoco",
        "Choco CP solver: all_different per unit, propagated by matching"),
    "cms": ("adapters.cms:CryptoMiniSatBackend", "pycryptosat",
        "the CNF rebuilt per puzzle, solved by CryptoMiniSat"),
    "cpmpy": ("adapters.cpmpy:CpmpyBackend", "cpmpy",
        "one CPMpy model (AllDifferent per unit) for any of its solvers"),
    "cpsat": ("adapters.cpsat:CpSatBackend", "ortools",
        "OR-tools CP-SAT: AddAllDifferent per unit, its own models of 10 kinds (docs/models.md)"),
    "csp": ("adapters.csp:ConstraintBackend", "python-constraint2",
        "CSP: one variable per cell, AllDifferentConstraint per unit"),
    "exactcover": ("adapters.exactcover:ExactCoverBackend", "exact-cover",
        "dlx's exact-cover matrix, searched by Algorithm X in C"),
    "gpu": ("adapters.gpu.backend:Gpu", "numba",
        "naked and hidden singles, the fewest candidates first: a CUDA thread a puzzle"),
    "minizinc": ("adapters.minizinc:MiniZincBackend", "minizinc",
        "a MiniZinc model (all_different per unit) for the solvers MiniZinc runs here"),
    "mip": ("adapters.mip:MipBackend", "highspy",
        "0-1 integer program (a binary per cell and value) for HiGHS or SCIP"),
    "pysat": ("adapters.pysat:IncrementalBackend", "python-sat",
        "the same CNF in one persistent PySAT solver, givens as assumptions"),
    "sat": ("adapters.sat:PycosatBackend", "pycosat",
        "CNF encoding solved by PicoSAT through pycosat"),
    "z3": ("adapters.z3:Z3Backend", "z3-solver",
        "SMT: one persistent Z3 solver per shape, givens as assumptions"),
}
# fmt: on
REFERENCE = "dfs"
ALL = "all"  # ``--backends all``: every backend, so no backend may be called so
GROUP = "sudoku_solvers.backends"  # the entry-point group outside packages declare backends in
# The writers of a puzzle in a solver's own language, by the name ``sudoku encode --to`` gives
# them: the adapter module that writes it, imported when first asked for.
ENCODERS = {"dimacs": "adapters.cnf", "minizinc": "adapters.mzn"}

_ENTRIES: dict[str, Entry] = {
    name: Entry(name, target, library, summary, built_in=True)
    for name, (target, library, summary) in BUILT_IN.items()
}
_plugins_read = False
_plugin_problems: list[str] = []
_faults: dict[str, str | None] = {}  # what breaks an outside backend's contract, by its target
_import_faults: dict[str, ImportFault | None] = {}  # what importing its module does, by module


def register(
    name: str,
    target: str,
    *,
    distribution: str | None = None,
    summary: str = "",
    replace: bool = False,
    built_in: bool = False,
) -> None:
    """Make ``name`` a backend, implemented by ``target`` ("package.module:Class"), imported
    when first used; ``built_in``: one of the project's own, listed and tested as the rows of
    ``BUILT_IN`` are. UsageError if the name is taken, unless ``replace``."""
    if ":" not in target:
        raise UsageError(f"backend target {target!r} is not 'module:Class'")
    if name in _ENTRIES and not replace:
        raise UsageError(f"backend {name!r} is already registered")
    _ENTRIES[name] = Entry(name, target, distribution, summary, built_in=built_in)


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


def built_in() -> list[str]:
    """The built-in backends' names, in their listing order."""
    return [name for name, e in _ENTRIES.items() if e.built_in]


def is_name(text: str) -> bool:
    """Whether ``text`` can name a backend: letters, digits, - and _ (a spec's name)."""
    return bool(text) and text.replace("-", "").replace("_", "").isalnum()


def plugin_problems() -> list[str]:
    """Why an installed package's entry point was not made a backend (one line each)."""
    _read_plugins()
    return list(_plugin_problems)


def _read_plugins() -> None:
    """Register each backend an installed package declares in ``GROUP``, once per process. A
    name already taken, one ``--backend`` cannot name, or a value that is not "module:Class" is
    left out, and said why."""
    global _plugins_read
    if _plugins_read:
        return
    _plugins_read = True
    from importlib import metadata  # here: start-up that few runs need (docs/startup.md)

    for point in metadata.entry_points(group=GROUP):
        dist = point.dist.name if point.dist is not None else None
        source = f"entry point {point.name!r} of {dist or 'an installed package'}"
        if point.name in _ENTRIES:
            _plugin_problems.append(f"{source} left out: backend {point.name} already exists")
        elif why := _unselectable(point.name):
            _plugin_problems.append(f"{source} left out: {why}")
        elif ":" not in point.value or point.attr is None:
            _plugin_problems.append(f"{source} left out: {point.value!r} is not 'module:Class'")
        else:
            _ENTRIES[point.name] = Entry(point.name, point.value, dist, f"from {dist}", True)


def _unselectable(name: str) -> str | None:
    """Why ``--backend`` could not select a backend called ``name``, or None."""
    if name == ALL:
        return f"the name {ALL!r} is taken by --backends {ALL} (every backend)"
    if is_name(name):
        return None
    return f"the name {name!r} cannot be given to --backend (letters, digits, - and _ only)"


def lacking(name: str, board: Board) -> frozenset[str]:
    """The kinds of ``board``'s constraints that backend ``name`` does not encode: what its
    flattened rules need (``solvers.model.compile``) beyond the backend's ``ENCODES``."""
    if board.rules.is_classic:
        return frozenset()
    from solvers.model.compile import flatten

    return flatten(board).beyond(backend_class(name).ENCODES)


def supported(name: str) -> frozenset[str]:
    """The kinds of the vocabulary backend ``name`` takes, each as its example instance on
    9x9 flattens (an extra region of fewer than N cells, say, needs more than one of N)."""
    from solvers.model.compile import kinds_within

    return kinds_within(backend_class(name).ENCODES)


def backend_class(name: str) -> type[Backend]:
    """The backend's class, importing its module; BackendUnavailable says why it cannot."""
    found = entry(name)
    module_name, _, class_name = found.target.partition(":")
    hint = f" (pip install {found.distribution})" if found.distribution else ""
    if found.outside:  # imported here only once it imported cleanly in a child process
        probe_imports([name])
        if fault := _import_faults.get(module_name):
            if fault.missing:
                raise BackendUnavailable(f"backend {name} is unavailable: {fault.why}{hint}")
            raise BackendUnavailable(f"backend {name} is broken: {fault.why}")
    try:
        with signals.held():
            module = importlib.import_module(module_name)
    except ImportError as error:
        raise BackendUnavailable(f"backend {name} is unavailable: {error}{hint}") from None
    # a library that fails as it loads (numba with no cache dir), a module that exits
    except (Exception, SystemExit) as error:
        raised = f"{error}"
        if found.outside or isinstance(error, SystemExit):
            raised = f"importing {module_name} raised {type(error).__name__}: {error}"
        state = "broken" if found.outside else "unavailable"
        raise BackendUnavailable(f"backend {name} is {state}: {raised}") from None
    try:
        cls = getattr(module, class_name)
    except AttributeError:
        raise BackendUnavailable(
            f"backend {name} is unavailable: {found.target} not found"
        ) from None
    if found.outside:  # the built-in ones are held to the contract by the tests
        if found.target not in _faults:  # asked for every puzzle with rules: checked once
            _faults[found.target] = contract_fault(cls)
        if fault := _faults[found.target]:
            raise BackendUnavailable(f"backend {name} is broken: {found.target}: {fault}")
    return cls


def probe_imports(names: Iterable[str]) -> None:
    """Import the modules of the outside backends among ``names`` in child processes, all at
    once (``solvers.backends.probe``), those not imported or probed yet: what one's import does
    wrong is then the reason ``backend_class`` gives, and that module is never imported in this
    process. Built-in backends are not probed."""
    targets = [entry(name).target for name in names if entry(name).outside]
    modules = [target.partition(":")[0] for target in targets]
    fresh = [m for m in modules if m not in _import_faults and m not in sys.modules]
    if fresh:
        from solvers.backends.probe import import_faults

        _import_faults.update(import_faults(fresh))


def encoder(name: str) -> ModuleType:
    """The module that writes a puzzle as ``name`` (one of ``ENCODERS``): ``adapters.cnf`` for
    DIMACS (its ``OPTIONS``, ``formula``, ``dimacs`` and ``settings``), ``adapters.mzn`` for
    MiniZinc (``model``). UsageError for a name not there."""
    if name not in ENCODERS:
        raise UsageError(f"unknown encode target {name!r}; choose from {', '.join(ENCODERS)}")
    return importlib.import_module(ENCODERS[name])


def version(name: str) -> str:
    """The distribution that identifies backend ``name`` and its version: its library's for a
    built-in backend; an outside backend's package, and the library its class names in
    ``LIBRARY`` if it does."""
    found = entry(name)
    if found.distribution is None:
        return "built in"
    said = _installed(found.distribution)
    if found.outside and (library := _own(name, "LIBRARY")):
        said += f", {_installed(library)}"
    return said


def summary(name: str) -> str:
    """Backend ``name``'s line for ``sudoku backends``: an outside backend's own ``SUMMARY``
    when its class declares one, else the line the registry holds."""
    found = entry(name)
    return (found.outside and _own(name, "SUMMARY")) or found.summary


def _own(name: str, declaration: str) -> str | None:
    """What an outside backend's class declares as ``declaration`` (text), if it can be read."""
    try:
        return getattr(backend_class(name), declaration, None)
    except BackendUnavailable:
        return None


def _installed(distribution: str) -> str:
    from importlib import metadata

    try:
        return f"{distribution} {metadata.version(distribution)}"
    except metadata.PackageNotFoundError:
        return f"{distribution} (not installed)"


def availability(name: str) -> tuple[bool, str]:
    """(True, "available") or (False, the reason), importing the backend to find out."""
    try:
        backend_class(name)
    except BackendUnavailable as error:
        return False, str(error)
    return True, "available"
