"""``dlx``: Knuth's Algorithm X with dancing links, over Sudoku as exact cover.

Each candidate placement "cell i holds v" is a row of the matrix, with four ones: its cell, and
value v in its row, its column and its box. A solution picks rows covering every column exactly
once. The links live in flat index arrays (left, right, up, down, column of each node), built
once per shape: a puzzle's givens are chosen by covering their columns, the search covers and
uncovers as Knuth describes (choosing the column with the fewest rows), and afterwards every
cover is undone, so the same matrix serves the next puzzle. A search stopped by its deadline
leaves the links half-covered, so that matrix is dropped and the next search builds a new one.
"""

from __future__ import annotations

import sys
from typing import ClassVar

from solvers.backend import HandwrittenSearch
from solvers.board import Board, Shape
from solvers.deadline import Deadline, OutOfTime

CHECK_CLOCK_EVERY = 256


class Links:
    """The exact-cover matrix of one shape as dancing links. Node 0 is the root; nodes 1..C
    are the column headers; then four nodes per placement row."""

    def __init__(self, shape: Shape) -> None:
        n, geometry = shape.size, shape.geometry
        columns = 4 * n * n
        self.left = [columns, *range(columns)]
        self.right = [*range(1, columns + 1), 0]
        self.up = list(range(columns + 1))
        self.down = list(range(columns + 1))
        self.column = list(range(columns + 1))
        self.size = [0] * (columns + 1)
        self.placement: list[tuple[int, int]] = [(-1, -1)] * (columns + 1)
        self.first_node: dict[tuple[int, int], int] = {}
        for cell in range(n * n):
            row, col, box = cell // n, cell % n, geometry.box_of[cell]
            for v in range(1, n + 1):
                hits = (
                    1 + cell,
                    1 + n * n + row * n + v - 1,
                    1 + 2 * n * n + col * n + v - 1,
                    1 + 3 * n * n + box * n + v - 1,
                )
                self.first_node[(cell, v)] = len(self.left)
                self._add_row(hits, (cell, v))

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
        left, right, up, down, column, size = (
            self.left,
            self.right,
            self.up,
            self.down,
            self.column,
            self.size,
        )
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
        left, right, up, down, column, size = (
            self.left,
            self.right,
            self.up,
            self.down,
            self.column,
            self.size,
        )
        i = up[c]
        while i != c:
            j = left[i]
            while j != i:
                size[column[j]] += 1
                down[up[j]] = up[down[j]] = j
                j = left[j]
            i = up[i]
        right[left[c]] = left[right[c]] = c


class _Search:
    def __init__(self, links: Links, deadline: Deadline, limit: int) -> None:
        self.links, self.deadline, self.limit = links, deadline, limit
        self.chosen: list[int] = []
        self.solutions: list[dict[int, int]] = []
        self.nodes = self.guesses = 0

    def search(self) -> bool:
        """Algorithm X; True once enough solutions are found to stop."""
        links = self.links
        right, size = links.right, links.size
        if right[0] == 0:
            self.solutions.append(dict(links.placement[node] for node in self.chosen))
            return len(self.solutions) >= self.limit
        best, fewest = 0, sys.maxsize
        c = right[0]
        while c:
            if size[c] < fewest:
                best, fewest = c, size[c]
                if fewest <= 1:
                    break
            c = right[c]
        if fewest == 0:
            return False
        if fewest > 1:
            self.guesses += 1
        links.cover(best)
        r = links.down[best]
        done = False
        while r != best and not done:
            self.nodes += 1
            if self.nodes % CHECK_CLOCK_EVERY == 0:
                self.deadline.check({"nodes": self.nodes, "guesses": self.guesses})
            self.chosen.append(r)
            j = right[r]
            while j != r:
                links.cover(links.column[j])
                j = right[j]
            done = self.search()
            j = links.left[r]
            while j != r:
                links.uncover(links.column[j])
                j = links.left[j]
            self.chosen.pop()
            r = links.down[r]
        links.uncover(best)
        return done


class DancingLinks(HandwrittenSearch):
    name: ClassVar[str] = "dlx"

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self._links: dict[Shape, Links] = {}  # one matrix per shape, restored after each use

    def search(self, board: Board, deadline: Deadline, limit: int) -> tuple[list, dict]:
        links = self._links.pop(board.shape, None) or Links(board.shape)
        given_rows = [links.first_node[(cell, v)] for cell, v in enumerate(board.cells) if v]
        for node in given_rows:
            self._select(links, node)
        run = _Search(links, deadline, limit)
        sys.setrecursionlimit(max(sys.getrecursionlimit(), board.shape.cell_count + 1000))
        try:
            run.search()
        except OutOfTime:
            raise  # the links are left half-covered: this matrix is not kept
        for node in reversed(given_rows):
            self._deselect(links, node)
        self._links[board.shape] = links
        solutions = [
            tuple(v or found[cell] for cell, v in enumerate(board.cells)) for found in run.solutions
        ]
        return solutions, {"nodes": run.nodes, "guesses": run.guesses}

    @staticmethod
    def _select(links: Links, node: int) -> None:
        j = node
        while True:
            links.cover(links.column[j])
            j = links.right[j]
            if j == node:
                return

    @staticmethod
    def _deselect(links: Links, node: int) -> None:
        j = links.left[node]
        while True:
            links.uncover(links.column[j])
            if j == node:
                return
            j = links.left[j]
