"""Reading and writing boards in three formats, with auto-detection, and rule variants.

- ``spaced``: N lines of N whitespace-separated integers (BOJ 2580);
- ``compact``: N lines of N digits (BOJ 2239), N <= 9;
- ``line``: one puzzle per line (``lines``): N*N symbols, ``.`` or ``0`` empty;
- ``fpuzzles``: one f-puzzles link (or bare payload, SudokuPad link, JSON) per line, or
  JSON documents over several lines (``fpuzzles``, ``fpuzzles_link``).

A line ``# rules: x windoku jigsaw killer`` names the rules of the puzzles after it (until the
next such line); a jigsaw's regions and a killer's map follow a grid as sections (``grids``) or
a line puzzle as fields (``lines``). Other ``#`` lines and blank lines are skipped; a line file is
streamed one line at a time, and a bad line costs that line alone.
"""
