"""Running backends: the ``Runner`` (``runner``: one judged answer per puzzle), the judged
``Answer`` (``answer``), the worker process that keeps deadlines a library cannot (``worker``,
``children``), the judge (``judge``), the one way work is spread over processes or a Dask
cluster (``parallel.spread``), the portfolio, and the pipeline every command and the library
route a run through (``pipeline``, with its bulk path: ``bulk``, ``linefile``). This
``__init__`` imports nothing: importing ``solvers.run.answer`` costs no runner (start-up,
docs/startup.md)."""
