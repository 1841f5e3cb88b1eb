"""Comparing backends and reading the results: ``sudoku compare``'s run (``compare``, with its
``calibration``), the run as data and its file (``results``, ``run_fields``), the statistics
(``stats``, ``summary``, ``regression``), the pictures and the HTML report (``plots``,
``report``), and each cell's true candidates (``candidates``)."""
