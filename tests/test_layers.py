"""The layers, as docs/library.md draws them: no module imports one from a layer above its own.

core (board, variants, constraints, cover, formats, verify, errors, deadline, backend, spec,
      registry)
  <- handwritten searches, adapters
  <- execution (runner, worker, judge, parallel)
  <- pipeline, api, tools (check, compare, generate, datasets)
  <- cli
The registry names backends by dotted path and imports them only when asked, so it sits in the
core. Imports inside functions count too: a lazy import that runs back up is still a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = [
    ("core", ["solvers.board", "solvers.formats", "solvers.verify", "solvers.errors",
              "solvers.deadline", "solvers.backend", "solvers.spec", "solvers.registry",
              "solvers.variants", "solvers.cover", "solvers.constraints"]),
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


def imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names += [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    return [name for name in names if name.split(".")[0] in ("solvers", "adapters")]


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
