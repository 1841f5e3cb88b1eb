"""Numba's disk cache, stamped with the source of the whole kernel.

numba keeps a compiled function until the file that defines it changes; it does not look at
the files of the functions it calls. An edit to ``search.py`` would then leave ``batch.py``'s
compiled kernel, with the old search inlined in it, in use. Here every kernel function of this
package is stamped with a hash of all the package's modules instead, so any edit recompiles.
(numba's locators are internal; if they change, numba's own stamps are used as before.)
"""

from __future__ import annotations

import hashlib
import importlib.abc
import sys
from functools import cache
from pathlib import Path

import numba  # noqa: F401 (first: without numba, the backend is unavailable with its message)

PACKAGE = Path(__file__).resolve().parent


@cache
def source_stamp() -> str:
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def install() -> None:
    """Put a package-wide stamp in front of numba's cache locators (once)."""
    from numba.core import caching

    def named(name: str):  # public names since numba 0.60, underscored before
        return getattr(caching, name, None) or getattr(caching, "_" + name, None)

    impl = named("CacheImpl")
    bases = [named(f"{kind}CacheLocator") for kind in ("UserProvided", "InTree", "UserWide")]
    if impl is None or None in bases:  # another numba: its own per-file stamps still work
        return
    if any(getattr(k, "package_stamped", False) for k in impl._locator_classes):
        return
    impl._locator_classes = [_stamped(base) for base in bases] + list(impl._locator_classes)


def _stamped(base: type) -> type:
    class Stamped(base):
        package_stamped = True

        def get_source_stamp(self):
            return source_stamp()

        @classmethod
        def from_function(cls, py_func, py_file):
            if Path(py_file).resolve().parent != PACKAGE:
                return None
            return super().from_function(py_func, py_file)

    Stamped.__name__ = f"PackageStamped{base.__name__}"
    return Stamped


@cache
def load_numpy_support() -> None:
    """numba's NumPy support, loaded once before the first kernel call with SciPy hidden.

    numba loads it at its first compile or cache load, and its check for BLAS imports
    scipy.linalg when SciPy is installed (the test extras install it): 0.2 s of CPU, a fifth
    of ``sudoku count``'s start-up, for kernels that use no BLAS. With SciPy hidden then,
    numba's ``np.vdot`` uses its own loop (the one use of that check); ``np.dot`` and
    ``np.linalg`` in jitted code still import SciPy themselves when they are compiled.
    Nothing is hidden when scipy.linalg is loaded already.
    """
    if "scipy.linalg" in sys.modules:
        return
    try:
        from numba.core.registry import cpu_target
    except ImportError:  # another numba: it loads its support as it always did
        return
    hidden = _Hidden("scipy")
    sys.meta_path.insert(0, hidden)
    try:
        cpu_target.target_context.refresh()
    finally:
        sys.meta_path.remove(hidden)


class _Hidden(importlib.abc.MetaPathFinder):
    def __init__(self, package: str) -> None:
        self.package = package

    def find_spec(self, name, path, target=None):
        if name == self.package or name.startswith(self.package + "."):
            raise ImportError(f"{name} is hidden while numba loads its NumPy support")
        return None


def compiled() -> bool | None:
    """Whether both entry kernels (one puzzle, a batch) are compiled on disk for this source:
    False when a run would compile them first (15-22 s), None when numba's cache cannot be
    read here (another numba: its internals moved)."""
    from solvers.handwritten.native import batch, search

    try:
        files = [kernel._cache._cache_file for kernel in (search.run_verified, batch._batch)]
        return all(file._load_index() for file in files)
    except (AttributeError, OSError, EOFError, ValueError, ImportError):
        return None


def compile_kernels() -> None:
    """Load, or compile and cache, both entry kernels, with a call on an empty 4x4 board."""
    import numpy as np

    from solvers.board import Board, Shape
    from solvers.deadline import Deadline
    from solvers.handwritten.native.backend import Native
    from solvers.handwritten.native.batch import solve_batch
    from solvers.handwritten.native.tables import plan_for

    empty = Board.empty(Shape(2, 2))
    Native().search(empty, Deadline(None), 1)
    solve_batch(plan_for(empty), np.zeros((1, empty.shape.cell_count), np.uint8))
