"""A notice before the ``native`` kernel first compiles: it takes a while, once, and a first
run should not look hung."""

from __future__ import annotations

import argparse
import time
from itertools import islice

from solvers.cli.output import Run


def announce_native(args: argparse.Namespace, run: Run) -> None:
    """Compile the native kernels here, saying so, when the command will use ``native`` and
    they are not compiled yet."""
    if not _uses_native(args):
        return
    from solvers.backends.handwritten.native import door as native

    if native.built_ahead():  # built with the kernels, by compile_kernels: numba need not load
        return
    from solvers.backends import registry

    if not registry.availability("native")[0]:
        return
    if native.compiled() is not False:
        return
    run.note("compiling the native kernel with numba, once (about 90 s of CPU; cached after)")
    start = time.perf_counter()
    native.compile_kernels()
    run.note(f"native kernel compiled in {time.perf_counter() - start:.1f} s")


def _uses_native(args: argparse.Namespace) -> bool:
    """Whether the command runs ``native``: named, among every backend, or the default for a
    file of more puzzles than a small run (``choice.default_backend``)."""
    if hasattr(args, "backends"):
        named = args.backends
    elif hasattr(args, "backend"):
        named = args.backend
    else:
        return False
    if named == "all" or (named is None and hasattr(args, "backends")):
        return True
    if named is None:
        return _many_lines(getattr(args, "file", None))
    return any(spec.split(":")[0].strip() == "native" for spec in str(named).split(","))


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
