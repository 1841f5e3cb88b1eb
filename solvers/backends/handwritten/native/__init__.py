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
cache      numba, its disk cache in this source's folder: every kernel module takes numba from
           there, so importing this package, ``tables`` or ``aot`` imports no numba
stamp      the hash of the package's source and the cache folder named after it (numba's
           compiled kernels and the ahead-of-time build), old sources' folders pruned
warmup     whether the kernels are compiled for this source, and their compilation
door       the one door: load(), built_ahead(), compiled(), compile_kernels()

The rest of the project reaches the kernel through ``door`` and never imports another
module of this package itself (the registry names ``backend`` by its dotted path;
tests/test_layers.py holds this), so that what loading the kernel takes (the build ahead of
time, numba's disk cache in a folder per source, its light loads) stays in
here, and importing the package imports neither NumPy nor numba.
"""
