"""numba for the kernel modules, with its disk cache in a folder of this source's own.

numba keeps a compiled function until the file that defines it changes; it does not look at
the files of the functions it calls (numba's docs, "Caching Limitations"). An edit to
``search.py`` would then leave ``batch.py``'s compiled kernel, with the old search inlined in
it, in use. So the kernels are cached in a folder named after a hash of every module of this
package (``stamp.folder``): any edit compiles into a new folder, and old ones are pruned.

numba is told the folder through its configuration: ``numba.config.CACHE_DIR``, the value of
its documented ``NUMBA_CACHE_DIR`` (numba's docs, "Environment variables"; assigning to
``numba.config`` is how its docs set a variable at run time, as for the threading layer).
numba reads it where a function is decorated with ``cache=True``, so it is set here, before
any kernel module decorates one: each takes numba from this module. The environment is left
alone (the processes this one starts choose their own folder), and the setting stays for the
process: a function of the caller's own, decorated with ``cache=True`` after this import, is
cached in that folder too, still keyed by its own file as numba always does.

The one use of numba's internals left, ``_load_lightly``, and why: below. numba is imported
as it comes (SciPy, which its import checks the version of where installed, is no longer
hidden: 0.03 s of CPU, docs/startup.md).
"""

from __future__ import annotations

import os

import numba  # first: without numba, the backend is unavailable with its message

from solvers.backends.handwritten.native.stamp import folder

LOAD_PARTS = ("load_overload", "_load_overload", "_guard_against_spurious_io_errors")


def _load_lightly() -> None:
    """This package's kernels load from the cache with numba's runtime alone: the one use of
    numba's internals left (a method of its cache replaced), kept for what it saves.

    Before each load from its cache numba refreshes its target context: it imports and
    registers every implementation it has (NumPy's, the typed containers', ...), the
    extensions of every installed distribution and, through its BLAS check, scipy.linalg where
    SciPy is installed. A compiled kernel needs none of that, only numba's runtime (NRT). No
    setting of numba's skips the refresh. Measured (docs/startup.md): ``sudoku solve
    examples/boj2580.txt --backend native`` takes 0.37 s of CPU more without this (1.75 s
    against 1.37 s, load 8.5), 0.85 s more with SciPy installed. A kernel not in the cache is
    compiled as numba always does (its compiler refreshes the context itself), and where
    numba's cache has other parts (another numba version), it is left as it is.
    """
    try:
        from numba.core import caching
        from numba.core.runtime import rtsys
    except ImportError:
        return
    cache_class = caching.Cache
    if not all(hasattr(cache_class, name) for name in LOAD_PARTS):
        return
    refreshing, ours = cache_class.load_overload, str(folder()) + os.sep

    def load_overload(self, sig, target_context):
        if not str(self.cache_path).startswith(ours):  # another's function: numba's own load
            return refreshing(self, sig, target_context)
        rtsys.initialize(target_context)  # what a kernel calls: allocation, reference counts
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    cache_class.load_overload = load_overload


# Every kernel module takes numba from here, so that this runs before any kernel is defined
# (the package's __init__ imports nothing: the ahead-of-time kernel, ``aot``, needs no numba).
numba.config.CACHE_DIR = str(folder())
_load_lightly()
