"""Numba's disk cache, stamped with the source of the whole kernel, and loaded lightly.

numba keeps a compiled function until the file that defines it changes; it does not look at
the files of the functions it calls. An edit to ``search.py`` would then leave ``batch.py``'s
compiled kernel, with the old search inlined in it, in use. Here every kernel function of this
package is stamped with a hash of all the package's modules instead, so any edit recompiles.

Before each load from its cache numba refreshes its target context: it imports and registers
every implementation it has (NumPy's, the typed containers', ...) and the extensions of every
installed distribution, a large part of a one-puzzle run's start-up (docs/startup.md). A
compiled kernel needs none of that, only numba's runtime (NRT), so this package's kernels load
with the runtime alone; a kernel not in the cache is compiled, and numba's compiler refreshes
the context itself. (numba's locators and caches are internal; if they change, numba's own
stamps and loads are used as before.)
"""

from __future__ import annotations

import importlib.abc
import sys
from functools import cache
from pathlib import Path

from solvers.backends.handwritten.native.stamp import PACKAGE, source_stamp


def _import_numba() -> None:
    """numba, with SciPy hidden unless it is loaded already: numba's import only checks
    SciPy's version (importing it is start-up for nothing), and no kernel here uses SciPy."""
    hidden = _Hidden("scipy")
    if "scipy" not in sys.modules:
        sys.meta_path.insert(0, hidden)
    try:
        import numba  # noqa: F401
    finally:
        if hidden in sys.meta_path:
            sys.meta_path.remove(hidden)


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
    _load_lightly(caching)


def _stamped(base: type) -> type:
    class Stamped(base):
        package_stamped = True

        def get_source_stamp(self):
            return source_stamp()

        @classmethod
        def from_function(cls, py_func, py_file):
            if not _in_package(py_file):
                return None
            return super().from_function(py_func, py_file)

    Stamped.__name__ = f"PackageStamped{base.__name__}"
    return Stamped


@cache
def _in_package(py_file: str) -> bool:
    """Asked twice for each of the package's 40-odd kernel functions as it is imported."""
    return Path(py_file).resolve().parent == PACKAGE


LOAD_PARTS = ("load_overload", "_load_overload", "_guard_against_spurious_io_errors")
LIGHT: list[bool] = []  # [True] once loads are light


def _load_lightly(caching) -> None:
    """This package's kernels load from the cache with numba's runtime alone (no refresh)."""
    try:
        from numba.core.runtime import rtsys
    except ImportError:
        return
    cache_class = caching.Cache
    refreshing = cache_class.load_overload
    if not all(hasattr(cache_class, name) for name in LOAD_PARTS):
        return

    def load_overload(self, sig, target_context):
        if not getattr(self._impl.locator, "package_stamped", False):
            return refreshing(self, sig, target_context)
        rtsys.initialize(target_context)  # what a kernel calls: allocation, reference counts
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    cache_class.load_overload = load_overload
    LIGHT.append(True)


@cache
def load_numpy_support() -> None:
    """numba's NumPy support, loaded once before the first kernel call with SciPy hidden.

    numba loads it at its first compile or cache load, and its check for BLAS imports
    scipy.linalg when SciPy is installed (the test extras install it): a large part of
    ``sudoku count``'s start-up (docs/backends.md), for kernels that use no BLAS. With SciPy
    hidden then, numba's ``np.vdot`` uses its own loop (the one use of that check); ``np.dot`` and
    ``np.linalg`` in jitted code still import SciPy themselves when they are compiled.
    Nothing is hidden when scipy.linalg is loaded already, and nothing is done when loads are
    light (the compiler loads the support when it needs it).
    """
    if LIGHT or "scipy.linalg" in sys.modules:
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
            raise ImportError(f"{name} is hidden while numba loads")
        return None


# Every kernel module takes numba from here, so that this runs before any kernel is defined
# (the package's __init__ imports nothing: the ahead-of-time kernel, ``aot``, needs no numba).
_import_numba()  # first: without numba, the backend is unavailable with its message
install()
import numba  # noqa: E402, F401 (imported above with SciPy hidden: for the kernel modules)
