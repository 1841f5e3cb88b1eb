"""The ``gpu`` backend: a batch of puzzles searched on an NVIDIA GPU, one CUDA thread each,
written with numba's CUDA target (docs/gpu.md says why numba and what was measured).

kernel   the CUDA kernel: an explicit-stack search with naked and hidden singles, resumable
         between launches
batch    the host side: the rule table and device arrays, launches of bounded work, the copies
         to and from the device timed apart (its caller verifies every first solution)
backend  the Gpu backend (``--backend gpu``); unavailable, with why, where no GPU is found

Importing this package imports neither NumPy nor numba; ``backend`` does, and finds out there
whether a GPU (or numba's simulator, NUMBA_ENABLE_CUDASIM=1) is present.
"""
