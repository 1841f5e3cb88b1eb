"""The layers, as docs/library.md draws them: no module imports one from a layer above its own.

base      solvers/base: errors, deadline, signals
  <- model    solvers/model (board, cells, variants, constraints, compile, cover, verify) and
              solvers/formats (reading and writing boards, the shipped datasets)
  <- backends solvers/backends: the contract, the catalog (registry, probe), spec, choice
  <- searches solvers/backends/handwritten, adapters, solvers/strength (inference, no search)
  <- run      solvers/run: runner, worker, judge, parallel, portfolio, pipeline, bulk, linefile
  <- services solvers/api, solvers/analysis (compare, stats, report, candidates),
              solvers/generation (generate, clues, layouts, shuffle), the package's __init__
  <- cli      solvers/cli
No circle of imports, across folders or inside one: each folder reads from the ones below it,
and a folder's __init__ imports none of its own modules (the root package's, the library's
names, aside).
The registry (the catalog) names backends by dotted path and imports them only when asked, so
it sits below the searches. Imports inside functions count too: a lazy import that runs back up is
still a cycle. So does a module named as text (``importlib.import_module("solvers.cli.output")``,
a table of dotted paths): the catalog's paths to the searches' backends (``BUILT_IN``) are the
one seam allowed to name a layer above its own. The portfolio, which builds its members through
the catalog, is added to it from the package's ``__init__`` (``registry.register``), so no
circle runs through it.

Two seams hold what loading an engine takes: the registry, the one module that reaches an
adapter (by dotted path, on first use), and the native kernel's package (its one ``load()``);
no other module imports an adapter or an engine library, and a plain ``import solvers`` loads
the standard library and the package's own modules alone.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from functools import cache, lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = [
    ("base", ["solvers.base"]),
    ("model", ["solvers.model", "solvers.formats"]),
    ("backends", ["solvers.backends"]),
    ("searches", ["solvers.backends.handwritten", "adapters", "solvers.strength"]),
    ("run", ["solvers.run"]),
    ("services", ["solvers.api", "solvers.analysis", "solvers.generation", "solvers"]),
    ("cli", ["solvers.cli", "solvers.__main__"]),
]  # fmt: skip


def layer_of(module: str) -> int:
    """The layer of a module: the one with the longest matching prefix."""
    best, rank = -1, -1
    for index, (_name, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), index
    return rank


SEARCHES = 3  # the layer whose modules the registry names: its backends
REGISTRY = "solvers.backends.registry"
NATIVE = "solvers.backends.handwritten.native"


@lru_cache
def modules(root: Path = ROOT) -> list[tuple[str, Path]]:
    found = []
    for path in sorted([*root.glob("solvers/**/*.py"), *root.glob("adapters/**/*.py")]):
        parts = path.relative_to(root).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found.append((name, path))
    return found


@cache
def _parsed(source: str) -> ast.Module:
    return ast.parse(source)


def tree_of(path: Path) -> ast.Module:
    """The module's syntax tree, parsed once per source text: several tests walk every module
    (read-only), and parsing them is most of this file's time."""
    return _parsed(path.read_text(encoding="utf-8"))


@cache
def every_import(path: Path, root: Path = ROOT) -> tuple[str, ...]:
    """Every module ``path`` imports, the package's and others', relative imports resolved
    (``from x import y`` gives ``x`` and ``x.y``: y may be a module). Found once per file:
    the import graph, the layers' tests and the seams' each ask for every module's."""
    tree = tree_of(path)
    package = path.relative_to(root).parent.parts
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else ()
            module = ".".join([*base, *([node.module] if node.module else [])])
            names += [module] + [f"{module}.{alias.name}" for alias in node.names]
    return tuple(names)


def imports(path: Path, root: Path = ROOT) -> list[str]:
    """The package's modules ``path`` imports, relative imports resolved."""
    return [n for n in every_import(path, root) if n.split(".")[0] in ("solvers", "adapters")]


@cache
def named(path: Path, root: Path = ROOT) -> tuple[str, ...]:
    """The package's modules ``path`` names as text, as importlib, ``__import__`` or a table of
    dotted paths would import them: a string ("solvers.cli.output", "adapters.cnf:Writer"), or
    an f-string's leading "package." A package named so counts with every module in it: a
    folder named as text is where modules are imported from by name."""
    known = {module for module, _ in modules(root)} - {"solvers"}
    found = []
    for node in ast.walk(tree_of(path)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            name = node.value.partition(":")[0]
        elif isinstance(node, ast.JoinedStr) and node.values:
            head = node.values[0]
            text = str(head.value) if isinstance(head, ast.Constant) else ""
            name = text[:-1] if text.endswith(".") else ""
        else:
            continue
        if name in known:
            found += [name, *sorted(m for m in known if m.startswith(name + "."))]
    return tuple(found)


def upward(module: str, path: Path, root: Path = ROOT) -> list[str]:
    """What ``module`` imports or names as text from a layer above its own, but the registry's
    dotted paths to the searches' backends: the seam that imports a backend when asked for it."""
    own = layer_of(module)
    found = [name for name in imports(path, root) if layer_of(name) > own and name != "solvers"]
    seam = module == REGISTRY
    for name in named(path, root):
        if layer_of(name) > own and not (seam and layer_of(name) == SEARCHES):
            found.append(name)
    return found


@pytest.mark.parametrize("module, path", modules(), ids=[m for m, _ in modules()])
def test_no_import_runs_back_up_the_layers(module, path):
    own = layer_of(module)
    assert own >= 0, f"{module} is in no layer"
    assert not upward(module, path), f"{module} ({LAYERS[own][0]}) imports {upward(module, path)}"


def test_every_module_is_in_a_layer_by_name():
    # the root package's prefix would take in any module: a module falling to it is unplaced
    named = [prefix for _name, prefixes in LAYERS for prefix in prefixes if prefix != "solvers"]
    unplaced = [
        module
        for module, _path in modules()
        if module != "solvers" and not any(_behind(module, prefix) for prefix in named)
    ]
    assert not unplaced, f"name these in LAYERS: {unplaced}"


def test_adapters_depend_only_on_the_layers_below_the_searches():
    # base, model and formats, and the backend contract: never the catalog's choices or a run
    for module, path in modules():
        if module.startswith("adapters"):
            for name in imports(path):
                assert name.startswith("adapters") or layer_of(name) < SEARCHES, (module, name)


@lru_cache
def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Each module of the package and the modules of the package that importing or running it
    imports: those it imports (lazy imports and those under TYPE_CHECKING included: a circle
    that only the type checker sees still binds the modules together), those it names as text,
    and the packages around each (importing solvers.model.constraints.text runs
    solvers/model/constraints/__init__.py first; the root package aside: every module is under
    it)."""
    known = {module for module, _ in modules(root)}
    graph: dict[str, set[str]] = {}
    for module, path in modules(root):
        targets = set()
        for name in [*imports(path, root), *named(path, root)]:
            while name and name not in known:  # solvers.model.board.Shape -> solvers.model.board
                name = name.rpartition(".")[0]
            parts = name.split(".")
            targets |= {".".join(parts[:end]) for end in range(1, len(parts) + 1)} & known
        graph[module] = targets - {module, "solvers"}
    return graph


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def spanning_circles(root: Path = ROOT) -> list[list[str]]:
    """The circles of ``import_graph`` whose modules' files are in more than one folder (a
    package's ``__init__`` is in the package's own)."""
    folder = {module: path.parent for module, path in modules(root)}
    return [sorted(c) for c in circles(import_graph(root)) if len({folder[m] for m in c}) > 1]


def test_no_circle_of_imports_spans_two_folders():
    assert not spanning_circles(), spanning_circles()


def test_no_circle_of_imports_at_all_inside_a_folder_either():
    # a package's __init__ that imports its own modules, which import each other, is a circle
    # too: importing any of them runs the __init__ first (so each __init__ here is a docstring)
    assert not circles(import_graph(ROOT)), circles(import_graph(ROOT))


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    "call",
    [
        'importlib.import_module("solvers.cli.output")',
        '__import__("solvers.cli.output")',
        'importlib.import_module(f"solvers.cli.{name}")',
        '{"json": "solvers.cli.output:write"}[name]',
    ],
)
def test_a_module_named_as_text_is_an_import_of_it(tmp_path, call):
    # the verifier (core) reaching the CLI's output by a dotted path, which imports it back
    _tree(
        tmp_path,
        {
            "solvers/__init__.py": "",
            "solvers/model/verify.py": (
                f"import importlib\n\n\ndef output(name):\n    return {call}\n"
            ),
            "solvers/cli/__init__.py": "",
            "solvers/cli/output.py": "from solvers.model import verify\n",
        },
    )
    assert "solvers.cli.output" in upward(
        "solvers.model.verify", tmp_path / "solvers/model/verify.py", tmp_path
    )
    assert spanning_circles(tmp_path) == [["solvers.cli.output", "solvers.model.verify"]]


def test_the_registry_names_the_searches_backends_and_no_layer_above(tmp_path):
    table = (
        '{"dfs": ("solvers.backends.handwritten.dfs:DepthFirst", None, ""),'
        ' "portfolio": ("solvers.run.portfolio:Portfolio", None, "")}'
    )
    _tree(
        tmp_path,
        {
            "solvers/__init__.py": "",
            "solvers/backends/registry.py": (
                f"BUILT_IN = {table}\nENCODERS = {{'dimacs': 'adapters.cnf'}}\n"
            ),
            "solvers/backends/handwritten/__init__.py": "",
            "solvers/backends/handwritten/dfs.py": "",
            "solvers/run/__init__.py": "",
            "solvers/run/portfolio.py": "",
            "adapters/__init__.py": "",
            "adapters/cnf.py": "",
        },
    )
    said = upward(REGISTRY, tmp_path / "solvers/backends/registry.py", tmp_path)
    assert said == ["solvers.run.portfolio"]


def _outside_type_checking(tree: ast.AST) -> list[ast.AST]:
    """The import statements of ``tree`` that run (those under ``if TYPE_CHECKING:`` do not)."""
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING"
        for statement in node.body
        for inner in ast.walk(statement)
    }
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in typing_only
    ]


def test_the_native_kernel_is_reached_through_its_door_alone():
    # what loading the kernel takes (the ahead-of-time build, numba's cache) stays behind
    # native.door's functions; the registry names its backend by dotted path
    inner = {p.stem for p in (ROOT / NATIVE.replace(".", "/")).glob("*.py")} - {"__init__", "door"}
    assert {"aot", "batch", "cache", "search"} <= inner  # the package is where this looks
    depth = len(NATIVE.split("."))
    for module, path in modules():
        if module.startswith(NATIVE):
            continue
        for node in _outside_type_checking(tree_of(path)):
            if isinstance(node, ast.Import):
                named = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                named = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            reached = [n for n in named if n.startswith(NATIVE + ".")]
            assert not [n for n in reached if n.split(".")[depth] in inner], (module, reached)


# The modules outside native's package that still name it, each for a reason of its own: the
# catalog's table and the default choice's policy (the two places a backend is named by
# design), a portfolio's members, and generation, whose completion of a big variant board
# wants the kernel's work budget (the same board on every machine), which no clock gives.
NAMES_NATIVE = {
    "solvers.backends.registry",
    "solvers.backends.choice",
    "solvers.run.portfolio",
    "solvers.generation.generate",
}


def test_no_module_outside_a_backends_package_names_it_but_the_catalog_and_the_policy():
    # the run's path, the command line and the formats ask a backend's class what it does
    # (BATCHES, uncompiled, search_many), never its name: one path for every backend
    naming = set()
    for module, path in modules():
        if module.startswith(NATIVE) or not module.startswith("solvers."):
            continue  # an adapter is a backend's own package; its "native" is a model option
        for node in ast.walk(tree_of(path)):
            if isinstance(node, ast.Constant) and node.value == "native":
                naming.add(module)
    assert naming == NAMES_NATIVE


def _behind(module: str, seam: str) -> bool:
    return module == seam or module.startswith(seam + ".")


def engine_libraries() -> set[str]:
    """The libraries the backends are built on, as imported: every one from outside the project
    and the standard library that an adapter or the native kernel imports, NumPy aside (the
    core's array library as well)."""
    found = set()
    for module, path in modules():
        if _behind(module, "adapters") or _behind(module, NATIVE):
            found |= {name.split(".")[0] for name in every_import(path)}
    return found - set(sys.stdlib_module_names) - {"solvers", "adapters", "numpy"}


def test_only_the_registry_reaches_an_adapter_and_only_the_seams_an_engine_library():
    engines = engine_libraries()
    assert {"ortools", "pysat", "pycosat", "z3", "minizinc", "numba"} <= engines, engines
    reached = []
    for module, path in modules():
        if _behind(module, "adapters") or module == REGISTRY:
            continue
        said = every_import(path) + named(path)
        reached += [(module, n) for n in said if n.split(".")[0] == "adapters"]
        if not _behind(module, NATIVE):  # the kernel's package is the seam of numba
            reached += [(module, n) for n in said if n.split(".")[0] in engines]
    assert not reached, f"ask solvers.backends.registry for these instead: {sorted(set(reached))}"


def test_a_plain_import_loads_the_standard_library_and_the_package_alone():
    code = (
        "import json, sys\n"
        "before = set(sys.modules)\n"
        "import solvers\n"
        "print(json.dumps(sorted(set(sys.modules) - before)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    loaded = json.loads(done.stdout)
    tops = {name.split(".")[0] for name in loaded} - set(sys.stdlib_module_names)
    assert not tops & engine_libraries(), sorted(tops)
    # the registry, a seam, is loaded too: what it names stays a dotted path until asked for
    assert "solvers.backends.registry" in loaded and tops == {"solvers"}, sorted(tops)


def test_the_catalog_and_the_specs_are_in_no_circle():
    # the registry reads no spec (a name's syntax is its own); a spec resolves through it
    tangled = [
        c
        for c in circles(import_graph(ROOT))
        if {"solvers.backends.registry", "solvers.backends.spec"} & c
    ]
    assert not tangled, tangled
