"""The layers, as docs/library.md draws them: no module imports one from a layer above its own.

core (board, variants, constraints, cover, formats, verify, errors, deadline, backend, spec,
      registry)
  <- handwritten searches, adapters
  <- execution (runner, worker, judge, parallel)
  <- pipeline, api, tools (check, compare, generate, datasets)
  <- cli
The registry names backends by dotted path and imports them only when asked, so it sits in the
core. Imports inside functions count too: a lazy import that runs back up is still a cycle.

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
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = [
    ("core", ["solvers.board", "solvers.formats", "solvers.verify", "solvers.errors",
              "solvers.deadline", "solvers.backend", "solvers.spec", "solvers.registry",
              "solvers.variants", "solvers.cover", "solvers.constraints", "solvers.compile",
              "solvers.cells", "solvers.probe", "solvers.signals"]),
    ("searches", ["solvers.handwritten", "adapters"]),
    ("execution", ["solvers.execution"]),
    ("services", ["solvers.pipeline", "solvers.api", "solvers.tools", "solvers"]),
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


def modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted([*ROOT.glob("solvers/**/*.py"), *ROOT.glob("adapters/**/*.py")]):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found.append((name, path))
    return found


def every_import(path: Path) -> list[str]:
    """Every module ``path`` imports, the package's and others', relative imports resolved
    (``from x import y`` gives ``x`` and ``x.y``: y may be a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = path.relative_to(ROOT).parent.parts
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else ()
            module = ".".join([*base, *([node.module] if node.module else [])])
            names += [module] + [f"{module}.{alias.name}" for alias in node.names]
    return names


def imports(path: Path) -> list[str]:
    """The package's modules ``path`` imports, relative imports resolved."""
    return [name for name in every_import(path) if name.split(".")[0] in ("solvers", "adapters")]


@pytest.mark.parametrize("module, path", modules(), ids=[m for m, _ in modules()])
def test_no_import_runs_back_up_the_layers(module, path):
    own = layer_of(module)
    assert own >= 0, f"{module} is in no layer"
    upward = [name for name in imports(path) if layer_of(name) > own and name != "solvers"]
    assert not upward, f"{module} ({LAYERS[own][0]}) imports {upward}"


def test_adapters_depend_only_on_the_core():
    for module, path in modules():
        if module.startswith("adapters"):
            for name in imports(path):
                assert name.startswith("adapters") or layer_of(name) == 0, (module, name)


def import_graph() -> dict[str, set[str]]:
    """Each module of the package and the modules of the package it imports (lazy imports and
    those under TYPE_CHECKING included: a circle that only the type checker sees still binds
    the modules together)."""
    known = {module for module, _ in modules()}
    graph: dict[str, set[str]] = {}
    for module, path in modules():
        targets = set()
        for name in imports(path):
            while name and name not in known:  # solvers.board.Shape -> solvers.board
                name = name.rpartition(".")[0]
            if name and name != module and name != "solvers":
                targets.add(name)
        graph[module] = targets
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


def folder(module: str) -> str:
    """The folder a module's file is in: a package's ``__init__`` is in the package's own."""
    path = dict(modules())[module]
    return str(path.parent.relative_to(ROOT))


def test_no_circle_of_imports_spans_two_folders():
    spanning = [sorted(c) for c in circles(import_graph()) if len({folder(m) for m in c}) > 1]
    assert not spanning, spanning


def test_no_circle_spans_two_folders_with_the_packages_an_import_runs():
    # importing solvers.constraints.text runs solvers/formats/__init__.py first: each
    # import reaches the packages around its module too (the root package aside: every
    # module is under it)
    known = {module for module, _ in modules()}
    graph = import_graph()
    for module, targets in graph.items():
        for target in list(targets):
            parts = target.split(".")
            enclosing = {".".join(parts[:i]) for i in range(2, len(parts))} & known
            targets |= enclosing - {module}
    spanning = [sorted(c) for c in circles(graph) if len({folder(m) for m in c}) > 1]
    assert not spanning, spanning


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


def test_the_native_kernel_is_reached_through_its_package_alone():
    # what loading the kernel takes (the ahead-of-time build, numba's cache) stays behind
    # solvers.handwritten.native's functions; the registry names its backend by dotted path
    inner = {p.stem for p in (ROOT / "solvers/handwritten/native").glob("*.py")} - {"__init__"}
    package = "solvers.handwritten.native"
    for module, path in modules():
        if module.startswith(package):
            continue
        for node in _outside_type_checking(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                named = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                named = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            reached = [n for n in named if n.startswith(package + ".")]
            assert not [n for n in reached if n.split(".")[3] in inner], (module, reached)


REGISTRY = "solvers.registry"
NATIVE = "solvers.handwritten.native"


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


def _adapter_paths(path: Path) -> list[str]:
    """The adapters ``path`` names as text ("adapters.cnf"): what importlib would import."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if node.value.partition(":")[0].split(".")[0] == "adapters"
    ]


def test_only_the_registry_reaches_an_adapter_and_only_the_seams_an_engine_library():
    engines = engine_libraries()
    assert {"ortools", "pysat", "pycosat", "z3", "minizinc", "numba"} <= engines, engines
    reached = []
    for module, path in modules():
        if _behind(module, "adapters") or module == REGISTRY:
            continue
        named = every_import(path) + _adapter_paths(path)
        reached += [(module, n) for n in named if n.split(".")[0] == "adapters"]
        if not _behind(module, NATIVE):  # the kernel's package is the seam of numba
            reached += [(module, n) for n in named if n.split(".")[0] in engines]
    assert not reached, f"ask solvers.registry for these instead: {sorted(set(reached))}"


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
    assert "solvers.registry" in loaded and tops == {"solvers"}, sorted(tops)
