"""``dlx``: Knuth's Algorithm X with dancing links, over Sudoku as exact cover.

Each candidate placement "cell i holds v" is a row of the matrix (``solvers.model.cover``, shared
with the ``exactcover`` adapter), with a one for its cell and one for value v in each of the cell's
units (``board.geometry``); a sum group of the board's flattened rules adds its columns and a
row per value set. A solution picks rows covering every column exactly once. The links live in
flat index arrays (left, right, up, down, column of each node), built once per geometry: a
puzzle's givens are chosen by covering their columns, the search covers and uncovers as Knuth
describes (choosing the column with the fewest rows), and afterwards every cover is undone, so
the same matrix serves the next puzzle. A search stopped by its deadline leaves the links
half-covered, so that matrix is dropped and the next search builds a new one.
"""

from __future__ import annotations

import sys

from solvers.backends.contract import Backend, Found
from solvers.backends.handwritten import Counted
from solvers.base.deadline import Deadline
from solvers.model.board import Board
from solvers.model.compile import SUM_GROUPS, SumGroup, flatten
from solvers.model.cover import NO_PLACEMENT, exact_cover
from solvers.model.geometry import Geometry

KEPT = 8  # matrices kept at once


class Links:
    """The exact-cover matrix of a puzzle's rules (``solvers.model.cover``) as dancing links. Node 0
    is the root; nodes 1..C are the column headers; then a node per one of each row."""

    def __init__(self, geometry: Geometry, sum_groups: tuple[SumGroup, ...] = ()) -> None:
        cover = exact_cover(geometry, sum_groups)
        columns = cover.columns
        self.left = [columns, *range(columns)]
        self.right = [*range(1, columns + 1), 0]
        self.up = list(range(columns + 1))
        self.down = list(range(columns + 1))
        self.column = list(range(columns + 1))
        self.size = [0] * (columns + 1)
        self.placement: list[tuple[int, int]] = [NO_PLACEMENT] * (columns + 1)
        self.first_node: dict[tuple[int, int], int] = {}
        for hits, placement in zip(cover.rows, cover.placements, strict=True):
            if placement != NO_PLACEMENT:
                self.first_node[placement] = len(self.left)
            self._add_row(tuple(1 + col for col in hits), placement)

    def _add_row(self, hits: tuple[int, ...], placement: tuple[int, int]) -> None:
        first = len(self.left)
        for k, col in enumerate(hits):
            node = first + k
            self.left.append(first + (k - 1) % len(hits))
            self.right.append(first + (k + 1) % len(hits))
            self.up.append(self.up[col])
            self.down.append(col)
            self.down[self.up[col]] = node
            self.up[col] = node
            self.column.append(col)
            self.placement.append(placement)
            self.size[col] += 1

    def cover(self, c: int) -> None:
        left, right, up, down = self.left, self.right, self.up, self.down
        column, size = self.column, self.size
        right[left[c]], left[right[c]] = right[c], left[c]
        i = down[c]
        while i != c:
            j = right[i]
            while j != i:
                down[up[j]], up[down[j]] = down[j], up[j]
                size[column[j]] -= 1
                j = right[j]
            i = down[i]

    def uncover(self, c: int) -> None:
        left, right, up, down = self.left, self.right, self.up, self.down
        column, size = self.column, self.size
        i = up[c]
        while i != c:
            j = left[i]
            while j != i:
                size[column[j]] += 1
                down[up[j]] = up[down[j]] = j
                j = left[j]
            i = up[i]
        right[left[c]] = left[right[c]] = c

    def cover_rest(self, row: int) -> None:
        """Cover every column ``row`` hits but its own (whose column is covered already)."""
        j = self.right[row]
        while j != row:
            self.cover(self.column[j])
            j = self.right[j]

    def uncover_rest(self, row: int) -> None:
        """Undo ``cover_rest``, in the reverse order."""
        j = self.left[row]
        while j != row:
            self.uncover(self.column[j])
            j = self.left[j]


class _Search(Counted):
    """Algorithm X, keeping its place in a stack of (column covered, row chosen) pairs."""

    def __init__(self, links: Links, board: Board, deadline: Deadline, limit: int) -> None:
        self.links, self.board = links, board
        self.stack: list[tuple[int, int]] = []
        super().__init__(deadline, limit)

    def search(self) -> None:
        """Find up to ``limit`` exact covers; the matrix is as it was when it returns."""
        links = self.links
        while True:
            if links.right[0] == 0:
                if self.solutions.add(self.cells()):
                    return self.unwind()
            else:
                column, rows = self.fewest()
                if rows:
                    self.guesses += rows > 1
                    links.cover(column)
                    self.choose(column, links.down[column])
                    continue
            if not self.next_row():
                return None

    def fewest(self) -> tuple[int, int]:
        """The column with the fewest rows (the first such), and how many it has."""
        right, size = self.links.right, self.links.size
        best, fewest = 0, sys.maxsize
        c = right[0]
        while c:
            if size[c] < fewest:
                best, fewest = c, size[c]
                if fewest <= 1:
                    break
            c = right[c]
        return best, fewest

    def choose(self, column: int, row: int) -> None:
        """Take ``row`` into the cover: every other column it hits is covered."""
        self.stack.append((column, row))
        self.nodes += 1
        self.ticker.tick()
        self.links.cover_rest(row)

    def drop(self) -> tuple[int, int]:
        """Take the last row back out of the cover."""
        column, row = self.stack.pop()
        self.links.uncover_rest(row)
        return column, row

    def next_row(self) -> bool:
        """Back up to the deepest column with a row left to try and choose it; False when
        every choice is exhausted."""
        links = self.links
        while self.stack:
            column, row = self.drop()
            row = links.down[row]
            if row != column:
                self.choose(column, row)
                return True
            links.uncover(column)
        return False

    def unwind(self) -> None:
        while self.stack:
            column, _row = self.drop()
            self.links.uncover(column)

    def cells(self) -> list[int]:
        """The board filled from the rows chosen (the givens were chosen before the search;
        a sum group's set row places nothing)."""
        cells = list(self.board.cells)
        for _column, row in self.stack:
            cell, value = self.links.placement[row]
            if cell >= 0:
                cells[cell] = value
        return cells


class DancingLinks(Backend):
    ENCODES = frozenset({SUM_GROUPS})  # units, and sum groups by their set rows

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        self._links: dict[Geometry, Links] = {}  # one matrix per geometry, restored after use

    def search(self, board: Board, deadline: Deadline, limit: int) -> Found:
        groups = flatten(board).sum_groups  # a matrix with sum groups is its own, not kept
        links = None if groups else self._links.pop(board.geometry, None)
        links = links or Links(board.geometry, groups)
        given_rows = [links.first_node[(cell, v)] for cell, v in enumerate(board.cells) if v]
        for node in given_rows:
            links.cover(links.column[node])
            links.cover_rest(node)
        run = _Search(links, board, deadline, limit)
        run.search()  # a SolveTimeout leaves the links half-covered: that matrix is dropped
        for node in reversed(given_rows):
            links.uncover_rest(node)
            links.uncover(links.column[node])
        if not groups:
            self._links[board.geometry] = links
        while len(self._links) > KEPT:  # jigsaw puzzles each bring a geometry of their own
            del self._links[next(iter(self._links))]
        return run.solutions.found(board, run.stats())
