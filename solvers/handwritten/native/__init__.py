"""The ``native`` backend: a numba kernel in small modules.

bits       machine-level bit tricks and the names of the kernel's registers
tables     the board's rules (as solvers.compile flattens them) as the kernel's arrays
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
"""
