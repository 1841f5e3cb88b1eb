"""A notice before a backend first compiles what it runs (``Backend.uncompiled``): it takes a
while, once, and a first run should not look hung."""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterable
from itertools import islice

from solvers.cli.output import Run


def announce_compiling(args: argparse.Namespace, run: Run) -> None:
    """Compile, saying so, what the backends the command will use compile before their first
    use and have not yet."""
    compile_first(backends_used(args), run)


def compile_first(names: Iterable[str], run: Run) -> None:
    """Each of ``names`` that is available here and has something to compile first
    (``Backend.uncompiled``) compiles it, said before and after."""
    from solvers.backends import registry
    from solvers.base.errors import BackendUnavailable, UsageError

    for name in dict.fromkeys(names):
        try:
            cls = registry.backend_class(name)
        except (BackendUnavailable, UsageError):  # unavailable or unknown: said where it is used
            continue
        if (what := cls.uncompiled()) is None:
            continue
        run.note(f"compiling {what}")
        start = time.perf_counter()
        cls.compile()
        run.note(f"{name} compiled in {time.perf_counter() - start:.1f} s")


def backends_used(args: argparse.Namespace) -> list[str]:
    """The backend a command of one backend runs, by name: the one named, or the default for a
    file of more puzzles than a small run (``choice.default_backend``; a few puzzles' default
    is one that needs no compile). A command of many backends (``--backends``: check,
    compare) calls ``compile_first`` itself once it knows them, after its cheap checks."""
    from solvers.backends import choice

    if hasattr(args, "backends") or not hasattr(args, "backend"):
        return []
    named = args.backend
    if named is None:
        return [choice.default_backend()] if _many_lines(getattr(args, "file", None)) else []
    return [spec.split(":")[0].strip() for spec in str(named).split(",")]


def _many_lines(path: str | None) -> bool:
    """Whether ``path`` (a file or a dataset's name) holds more puzzles than a small run."""
    from solvers.backends.choice import SMALL_RUN
    from solvers.formats.datasets import path_of
    from solvers.formats.textfile import open_text

    found = path_of(path) if path and path != "-" else None
    if found is None:
        return False
    with open_text(found) as handle:
        lines = islice(handle, 4 * SMALL_RUN)  # blank and comment lines, a few
        return sum(1 for line in lines if line.strip() and line[0] != "#") > SMALL_RUN
