"""The ``native`` backend: a numba kernel in small modules.

arrays     rows of different lengths as one padded int64 array (every table's form)
bits       machine-level bit tricks and the names of the kernel's registers
tables     the board's rules (as solvers.model.compile flattens them) as the kernel's arrays
propagate  the general kernel's rules, one function each, and settle to a fixpoint
band9      the classic 9x9 bit-parallel kernel
search     one resumable search loop for both kernels, and the in-kernel verification
solver     one puzzle under a deadline (slices of bounded work)
batch      many puzzles of one shape and rules in one kernel call
outcome    what a batch gives back, without numba
aot        the batch kernel compiled ahead of time, loaded without numba (aot_build builds it)
backend    the Native backend (``--backend native``)
cache      numba's disk cache, stamped with the whole package: every kernel module takes numba
           from there, so importing this package, ``tables`` or ``aot`` imports no numba
stamp      the hash of the package's source that keys the cache and the ahead-of-time build
warmup     whether the kernels are compiled for this source, and their compilation
door       the one door: load(), built_ahead(), compiled(), compile_kernels()

The rest of the project reaches the kernel through ``door`` and never imports another
module of this package itself (the registry names ``backend`` by its dotted path;
tests/test_layers.py holds this), so that what loading the kernel takes (the build ahead of
time, numba's disk cache stamped with the package, SciPy kept from numba's BLAS check) stays in
here, and importing the package imports neither NumPy nor numba.
"""
