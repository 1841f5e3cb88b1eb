"""The catalog of backends: every backend class of the project is a row of it, found without
reading any module's text; an unknown name, however long, is the one "unknown backend" error;
a spec is resolved once, at the edge, and carried as it is."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest

from solvers import Status, UsageError, as_board, solve
from solvers.backends import registry
from solvers.backends.spec import BackendSpec
from solvers.cli.inputs import backends_named
from solvers.run.runner import Runner

ROOT = Path(__file__).resolve().parents[1]
# Where the project's backends live: the searches', the adapters', the execution layer's
FOLDERS = ("solvers/backends/handwritten", "adapters", "solvers/run")
LINE = "1.3...5.9..21.94.....7.4...3..5.2..6.6.....5.7..8.3..4...4.1.....92.58..8.4...1.7"
LONG = "a" * 300  # longer than a file name may be


def backend_classes(root: Path = ROOT) -> set[str]:
    """Every class in the backends' folders that derives from ``Backend``, directly or through
    another such class (mrv's from bitmask's), as "module:Class", read from the modules' syntax
    trees: the test imports no library to find them."""
    bases: dict[str, tuple[str, set[str]]] = {}
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            module = ".".join(path.relative_to(root).with_suffix("").parts)
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.ClassDef):
                    named = {
                        b.id if isinstance(b, ast.Name) else getattr(b, "attr", "")
                        for b in node.bases
                    }
                    bases[f"{module}:{node.name}"] = (node.name, named)
    backends: set[str] = set()
    names = {"Backend"}
    while True:
        found = {target for target, (_, named) in bases.items() if named & names}
        if found == backends:
            return backends
        backends = found
        names |= {bases[target][0] for target in found}


def test_every_backend_class_in_the_backends_folders_is_a_row_of_the_catalog():
    targets = {registry.entry(name).target for name in registry.built_in()}
    classes = backend_classes()
    assert (
        "solvers.backends.handwritten.mrv:MostConstrained" in classes
    )  # a backend's subclass counts
    assert "solvers.run.portfolio:Portfolio" in classes
    assert not classes - targets, f"add these to registry.BUILT_IN: {sorted(classes - targets)}"
    assert not targets - classes, f"these rows name no backend class: {sorted(targets - classes)}"


def test_the_listing_reads_no_backend_module(tmp_path):
    # the catalog's rows are all it knows: summaries and libraries without importing a backend
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from solvers.backends import registry\n"
        "rows = [(n, registry.summary(n), registry.entry(n).distribution)\n"
        "        for n in registry.names()]\n"
        "loaded = [m for m in sys.modules\n"
        "          if m.startswith(('adapters.', 'solvers.backends.handwritten.'))]\n"
        "print(len(rows), all(s for _, s, _ in rows), sorted(loaded))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    count, summarised, loaded = done.stdout.split(" ", 2)
    assert int(count) >= len(registry.BUILT_IN) + 1 and summarised == "True"
    assert loaded.strip() == "[]"


def test_a_name_too_long_for_a_file_is_an_unknown_backend_on_the_command_line(cli):
    run = cli("solve", "--backend", LONG, stdin=LINE + "\n")
    assert run.code == 2 and "Traceback" not in run.err
    assert (
        run.err.strip()
        == f"sudoku: unknown backend {LONG!r}; choose from {', '.join(registry.names())}"
    )


def test_a_name_too_long_for_a_file_is_an_unknown_backend_in_the_library():
    with pytest.raises(UsageError, match=f"^unknown backend '{LONG}'; choose from dfs, bitmask, "):
        solve(LINE, backend=LONG)


def test_a_spec_resolved_at_the_edge_is_carried_as_it_is(monkeypatch):
    # ``sudoku check``/``compare``'s specs resolved once: running one resolves nothing again,
    # and a worker process gets the class with the spec
    asked: list[str] = []
    class_of = registry.backend_class
    monkeypatch.setattr(
        registry, "backend_class", lambda name: asked.append(name) or class_of(name)
    )
    specs = backends_named("sat:encoding=reduced,pysat")
    assert [spec.label for spec in specs] == ["sat", "pysat"]  # the default restated: plain
    assert asked == ["sat", "pysat"]
    with Runner(specs[0]) as runner:
        assert runner.solve(as_board(LINE)).status is Status.SOLVED
    copy = pickle.loads(pickle.dumps(specs[1]))
    assert copy == specs[1] and copy.configuration == specs[1].configuration
    assert asked == ["sat", "pysat"]


def test_a_spec_names_its_backend_and_options_as_given_and_resolves_to_its_configuration():
    spec = BackendSpec.parse("sat:encoding=minimal")
    assert spec.resolve() is spec and spec.label == "sat:encoding=minimal"
    assert dict(spec.configuration)["encoding"] == "minimal"
    assert spec.cls is registry.backend_class("sat")
    with pytest.raises(UsageError, match="backend sat: encoding=fancy is not one of"):
        BackendSpec.parse("sat:encoding=fancy").resolve()
