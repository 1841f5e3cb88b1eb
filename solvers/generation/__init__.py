"""Making puzzles: a random full grid and clues removed while the answer stays unique
(``generate``), the variant rules drawn over a solution (``clues``), random jigsaw regions and
killer cages (``layouts``), and validity-preserving transforms of a board (``shuffle``)."""
