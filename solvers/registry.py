"""Backends by name, imported on first use (fsspec's registry is the model).

A built-in backend is the module named after it in one of ``HOMES`` (``adapters/cpsat.py`` is
``--backend cpsat``; a package's backend is its ``backend.py``), found by the ``SUMMARY`` line
it holds (its line for ``sudoku backends``; ``LIBRARY``: the PyPI distribution of its library),
read from its text: adding one is writing that module alone. An installed outside package
declares one as an entry point of the group ``sudoku_solvers.backends`` (``name =
"module:Class"`` in its pyproject's ``[project.entry-points."sudoku_solvers.backends"]``), read
the first time the names are listed or an unknown name is asked for (a name ``--backend``
could not select is left out, with why: ``plugin_problems``); its module is imported in a
child process before this one imports it (``probe_imports``: one that crashes, hangs or raises
as it loads is broken, with why), its class is held to the backend contract before use
(``backend.contract_fault``), and it runs contained, in a worker process of its own, unless
it declares ``IN_PROCESS`` (``contained``; docs/plugins.md). ``register``
adds one in code, run as a built-in one is. Importing ``solvers`` imports no adapter library:
a backend is a module path until it is used, and a missing library becomes one clear sentence
from ``availability`` or BackendUnavailable from ``backend_class``.

This is the one module that reaches the adapters, so that what loading an engine takes is
decided here (and in the native kernel's ``load()``), not in each caller: the writers of a
puzzle in a solver's own language (``sudoku encode``) come from ``encoder`` too.
tests/test_layers.py holds every other module to it.

What a backend supports is what it declares (``Backend.ENCODES``) against what a board's
flattened rules need (``solvers.compile``): ``lacking`` is the one place that says which of a
puzzle's kinds a backend does not encode.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from solvers import signals
from solvers.backend import Backend, contract_fault
from solvers.errors import BackendUnavailable, UsageError
from solvers.spec import ALL, BackendSpec

if TYPE_CHECKING:
    from solvers.board import Board
    from solvers.probe import ImportFault


@dataclass(frozen=True)
class Entry:
    name: str
    target: str  # "module:Class", or "module" for a built-in (its one Backend class)
    distribution: str | None  # the PyPI distribution whose version identifies the library
    summary: str
    outside: bool = False  # an installed package's (an entry point): it runs contained


# Where built-in backends live, listed in this order (the reference first): a module of one of
# these folders, or a package there with its backend in backend.py, that holds a SUMMARY line.
# The searches' folders alone: a layer above that holds a backend (execution's portfolio) is
# added by the package's __init__ (``add_home``), so no module the registry names imports it.
HOMES: tuple[str, ...] = ("solvers.handwritten", "adapters")
_ROOT = Path(__file__).resolve().parents[1]
_LINE = re.compile(r"^(SUMMARY|LIBRARY) = (.*)$", re.M)
_NAME = re.compile(r"[a-z][a-z0-9_]*")


_ENTRIES: dict[str, Entry] = {}
GROUP = "sudoku_solvers.backends"  # the entry-point group outside packages declare backends in
_plugins_read = False
_plugin_problems: list[str] = []
_faults: dict[str, str | None] = {}  # what breaks an outside backend's contract, by its target
_import_faults: dict[str, ImportFault | None] = {}  # what importing its module does, by module

# Fastest first, by measurement (README, "Measured"): the default backend of a run of many
# puzzles is the first of these that is available here and supports the puzzle's rules. ``dfs``
# stays the documented reference. For constraints of the vocabulary, propagate (every kind, by
# its decompositions) comes first where native does not support them, then cpsat; dfs, last,
# supports every kind too.
FASTEST_FIRST = ("native", "propagate", "pysat", "cpsat")
# Kinds whose puzzles other backends answer faster, in order (docs/vocabulary.md, "Speed on the
# generated sets"; bench/vocabulary.py): non-consecutive puzzles want a solver that learns
# clauses. On nonconsecutive9 cms has the best median and the quickest slowest puzzle; sat and
# native are near it on the median (native with a kernel to load first); propagate is several
# times slower. The default for a board with such a kind, when it supports the rest.
PREFERRED_FOR = {"non-consecutive": ("cms", "sat")}
# A run of at most SMALL_RUN puzzles counts start-up too: propagate has answered before native
# has loaded its compiled kernel (docs/startup.md has the measurements).
FIRST_TO_ANSWER = ("propagate", "native", "pysat", "cpsat")
SMALL_RUN = 100
# A few puzzles with constraints: the portfolio starts as propagate does, and races native and
# cms past its head start, where propagate alone takes up to seconds (docs/portfolio.md).
FIRST_TO_PROVE = ("portfolio", *FIRST_TO_ANSWER)
REFERENCE = "dfs"
# The writers of a puzzle in a solver's own language, by the name ``sudoku encode --to`` gives
# them: the adapter module that writes it, imported when first asked for.
ENCODERS = {"dimacs": "adapters.cnf", "minizinc": "adapters.mzn"}


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


def add_home(package: str) -> None:
    """Make ``package`` (a dotted path) a home of built-in backends, after those before it."""
    global HOMES
    if package not in HOMES:
        HOMES = (*HOMES, package)


def unregister(name: str) -> None:
    _ENTRIES.pop(name, None)


def names() -> list[str]:
    """Every backend's name: the built-in ones, then those of installed packages."""
    _read_plugins()
    return list(_ENTRIES)


def entry(name: str) -> Entry:
    if name not in _ENTRIES and not _built_in(name):
        _read_plugins()
    try:
        return _ENTRIES[name]
    except KeyError:
        raise UsageError(f"unknown backend {name!r}; choose from {', '.join(_ENTRIES)}") from None


def built_in() -> list[str]:
    """The built-in backends' names, in their listing order."""
    _discover()
    return [name for name, e in _ENTRIES.items() if ":" not in e.target]


def _built_in(name: str) -> bool:
    """Register the built-in backend ``name`` if its module is there (one file read, no
    import); whether it was."""
    if not _NAME.fullmatch(name):
        return False
    for home in HOMES:
        folder = _ROOT.joinpath(*home.split("."))
        for path, module in (
            (folder / f"{name}.py", f"{home}.{name}"),
            (folder / name / "backend.py", f"{home}.{name}.backend"),
        ):
            if path.is_file() and (said := _declared(path.read_text(encoding="utf-8"))):
                summary, library = said
                _ENTRIES[name] = Entry(name, module, library, summary)
                return True
    return False


def _declared(text: str) -> tuple[str, str | None] | None:
    """A backend module's (SUMMARY, LIBRARY), read from its text; None for a module that
    declares no SUMMARY (a helper of the backends, not one)."""
    found = {}
    for match in _LINE.finditer(text):
        value = match[2]
        if value == "(":  # a summary written over several lines, up to the closing one
            end = text.index("\n)", match.end())
            value = text[match.end(2) - 1 : end + 2]
        found[match[1]] = ast.literal_eval(value)
    if "SUMMARY" not in found:
        return None
    return found["SUMMARY"], found.get("LIBRARY")


def _discover() -> None:
    """Register every built-in backend, in ``HOMES`` order, the reference first."""
    found = []
    for home in HOMES:
        folder = _ROOT.joinpath(*home.split("."))
        for path in sorted(folder.iterdir()):
            name = path.stem if path.suffix == ".py" else path.name
            if _NAME.fullmatch(name) and (path.suffix == ".py" or path.is_dir()):
                found.append(name)
    order = sorted(found, key=lambda name: name != REFERENCE)
    for name in order:
        if name not in _ENTRIES:
            _built_in(name)
    entries = dict(_ENTRIES)
    _ENTRIES.clear()
    _ENTRIES.update({name: entries.pop(name) for name in order if name in entries})
    _ENTRIES.update(entries)  # those registered in code, then the installed packages'


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
    _discover()
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
    try:
        if BackendSpec.parse(name).label == name:
            return None
    except UsageError:
        pass
    return f"the name {name!r} cannot be given to --backend (letters, digits, - and _ only)"


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
    if not class_name:  # a built-in: the one Backend class its module defines
        own = [
            value
            for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, Backend)
            if value.__module__ == module_name
        ]
        if len(own) == 1:
            return own[0]
        raise BackendUnavailable(
            f"backend {name} is unavailable: {module_name} defines {len(own)} backends, not one"
        )
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
    once (``solvers.probe``), those not imported or probed yet: what one's import does wrong is
    then the reason ``backend_class`` gives, and that module is never imported in this process.
    Built-in backends are not probed."""
    targets = [entry(name).target for name in names if entry(name).outside]
    modules = [target.partition(":")[0] for target in targets]
    fresh = [m for m in modules if m not in _import_faults and m not in sys.modules]
    if fresh:
        from solvers.probe import import_faults

        _import_faults.update(import_faults(fresh))


def contained(name: str) -> bool:
    """Whether backend ``name`` runs contained, in a worker process of its own: an outside
    package's, unless its class declares ``IN_PROCESS``."""
    return entry(name).outside and not backend_class(name).IN_PROCESS


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


def default_backend(board: Board | None = None, puzzles: int | None = None) -> str:
    """The backend available here that encodes ``board``'s rules (None: classic) and answers
    first: for a run of ``puzzles`` (None: many or unknown), start-up included when they are
    few (for a few with constraints the portfolio, which proves the hard ones too). UsageError
    naming the kinds when no backend supports them."""
    few = puzzles is not None and puzzles <= SMALL_RUN
    classic = board is None or board.rules.is_classic
    kinds = board.rules.names if board is not None else frozenset()
    preferred = [b for kind, backends in PREFERRED_FOR.items() if kind in kinds for b in backends]
    first = (FIRST_TO_ANSWER if classic else FIRST_TO_PROVE) if few else FASTEST_FIRST
    for name in (*preferred, *first, REFERENCE):
        if availability(name)[0] and (board is None or not lacking(name, board)):
            return name
    raise UsageError(f"no backend available here supports {' and '.join(sorted(kinds))}")
