"""A notice before a backend first compiles what it runs (``Backend.uncompiled``): it takes a
while, once, and a first run should not look hung. Each command says it where it has resolved
the backends it will run: ``inputs.plan_of`` for solve, count and candidates, check and compare
once they know their ``--backends``, after their cheap checks."""

from __future__ import annotations

import time
from collections.abc import Iterable
from itertools import islice

from solvers.backends.spec import BackendSpec
from solvers.cli.output import Run


def compile_first(specs: Iterable[BackendSpec], run: Run) -> None:
    """Each backend of ``specs`` that is available here and has something to compile first
    (``Backend.uncompiled``) compiles it, said before and after."""
    from solvers.base.errors import BackendUnavailable, UsageError

    for spec in {spec.name: spec for spec in specs}.values():
        try:
            cls = spec.cls
        except (BackendUnavailable, UsageError):  # unavailable or unknown: said where it is used
            continue
        if (what := cls.uncompiled()) is None:
            continue
        run.note(f"compiling {what}")
        start = time.perf_counter()
        cls.compile()
        run.note(f"{spec.name} compiled in {time.perf_counter() - start:.1f} s")


def default_compiled(path: str | None) -> list[BackendSpec]:
    """The default backend a run of ``path`` (a file or a dataset's name) compiles first: the
    default for a file of more puzzles than a small run (``choice.default_backend``); none for
    a few puzzles, whose default is one that needs no compile, or standard input."""
    from solvers.backends import choice
    from solvers.formats.datasets import path_of
    from solvers.formats.textfile import as_text

    found = path_of(path) if path and path != "-" else None
    if found is None:
        return []
    with as_text(open(found, "rb")) as handle:
        lines = islice(handle, 4 * choice.SMALL_RUN)  # blank and comment lines, a few
        if sum(1 for line in lines if line.strip() and line[0] != "#") <= choice.SMALL_RUN:
            return []
    return [BackendSpec(choice.default_backend())]
