"""Variant puzzles made here, for kinds ``sudoku generate`` does not draw: a solved grid
(a fixed one, shuffled by a seed: digits relabelled, rows within bands, bands), constraints
read off it (a whispers line where neighbours differ by 5 or more, a renban where values
run, a little killer's diagonal sum, a sandwich's clue, ...), and givens from it.

``made(kind, seed, givens)`` gives a board and the grid it was read from (a solution; with
few givens not the only one). ``unique(board, solution, seed)`` adds givens of the solution
in a seeded order until the puzzle has one solution. Run as a script, it writes unique
puzzles of each kind in line format with rules lines (the measure in docs/strength.md)::

    python tests/kind_puzzles.py 5 > made.txt
"""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Callable

from solvers.formats.boards import read_puzzles
from solvers.model.board import Board
from solvers.model.cells import cell_name
from solvers.strength import human

BASE = "143628579572139468986754231391542786468917352725863914237481695619275843854396127"
N = 9


def solved(seed: int) -> list[int]:
    rng = random.Random(seed)
    digits = list(range(1, 10))
    rng.shuffle(digits)
    grid = [digits[int(ch) - 1] for ch in BASE]
    bands = rng.sample(range(3), 3)
    rows = [3 * band + r for band in bands for r in rng.sample(range(3), 3)]
    grid = [grid[row * N + col] for row in rows for col in range(N)]
    if rng.random() < 0.5:  # the transpose of a solution is one
        grid = [grid[col * N + row] for row in range(N) for col in range(N)]
    return grid


def _name(cells) -> str:
    return " ".join(cell_name(cell, N) for cell in cells)


def _near(cell: int, diagonal: bool = True) -> list[int]:
    r, c = divmod(cell, N)
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)] if diagonal else []
    return [(r + dr) * N + c + dc for dr, dc in steps if 0 <= r + dr < N and 0 <= c + dc < N]


def _walk(grid, rng, ok: Callable[[list[int], int], bool], length: int) -> list[int] | None:
    """A line of ``length`` cells from a random start, each next cell touching the last and
    ``ok`` for the line so far (tries a few starts)."""
    for _ in range(200):
        line = [rng.randrange(N * N)]
        while len(line) < length:
            nexts = [c for c in _near(line[-1]) if c not in line and ok(line, c)]
            if not nexts:
                break
            line.append(rng.choice(nexts))
        if len(line) == length:
            return line
    return None


def _lines(grid, rng, kind: str) -> str | None:
    v = grid
    if kind == "whispers":
        line = _walk(v, rng, lambda ln, c: abs(v[ln[-1]] - v[c]) >= 5, rng.randint(3, 5))
    elif kind == "renban":
        size = rng.randint(2, 4)

        def run(ln, c):
            vals = [v[x] for x in ln] + [v[c]]
            return len(set(vals)) == len(vals) and max(vals) - min(vals) < size

        line = _walk(v, rng, run, size)
    elif kind == "parityline":
        line = _walk(v, rng, lambda ln, c: v[ln[-1]] % 2 != v[c] % 2, rng.randint(3, 5))
    elif kind == "betweenline":
        for _ in range(500):
            line = _walk(v, rng, lambda ln, c: True, 3)
            a, b, c = (v[x] for x in line)
            if min(a, c) < b < max(a, c):
                break
        else:
            return None
    elif kind == "palindrome":
        line = next(
            (
                [a, b, c]
                for a in rng.sample(range(N * N), N * N)
                for b in _near(a)
                for c in _near(b)
                if c != a and v[c] == v[a]
            ),
            None,
        )
    elif kind in ("zipper", "regionsumline"):
        for _ in range(3000):
            line = _walk(v, rng, lambda ln, c: True, rng.randint(3, 5))
            if line is not None and _shares(v, line, kind):
                break
        else:
            return None
        if kind == "regionsumline":
            regions = ",".join(str(_box(c)) for c in line)
            return f"regionsumline {_name(line)} regions={regions}"
    elif kind == "thermometer":
        line = _walk(v, rng, lambda ln, c: v[c] > v[ln[-1]], rng.randint(3, 5))
    else:
        return None
    return None if line is None else f"{kind} {_name(line)}"


def _box(cell: int) -> int:
    return cell // N // 3 * 3 + cell % N // 3


def _shares(v, line, kind: str) -> bool:
    """Whether the solved grid's values on ``line`` keep the kind: a zipper's mirrored pairs
    (and centre) one total; a region sum line's stretches, two or more, one total."""
    if kind == "zipper":
        totals = {v[line[i]] + v[line[-1 - i]] for i in range(len(line) // 2)}
        return len(totals | ({v[line[len(line) // 2]]} if len(line) % 2 else set())) == 1
    sums: list[list[int]] = []
    for cell in line:
        if not sums or sums[-1][0] != _box(cell):
            sums.append([_box(cell), 0])
        sums[-1][1] += v[cell]
    return len(sums) >= 2 and len({total for _, total in sums}) == 1


def _outside(grid, rng, kind: str) -> str:
    across = rng.random() < 0.5
    index = rng.randrange(N)
    cells = [index * N + k for k in range(N)] if across else [k * N + index for k in range(N)]
    if rng.random() < 0.5:
        cells.reverse()
    vals = [grid[c] for c in cells]
    if kind == "sandwich":
        a, b = sorted((vals.index(1), vals.index(N)))
        total = sum(vals[a + 1 : b])
    elif kind == "xsum":
        total = sum(vals[: vals[0]])
    else:
        total = sum(1 for i, x in enumerate(vals) if x > max(vals[:i], default=0))
    return f"{kind} {_name(cells)} total={total}"


def _constraint(grid, rng, kind: str) -> str | None:
    if kind in ("sandwich", "xsum", "skyscraper"):
        return _outside(grid, rng, kind)
    if kind == "littlekiller":
        start = rng.randrange(1, N - 2)
        cells = [k * N + start + k for k in range(N - start)]
        return f"littlekiller {_name(cells)} total={sum(grid[c] for c in cells)}"
    if kind == "quadruple":
        r, c = rng.randrange(N - 1), rng.randrange(N - 1)
        cells = [r * N + c, r * N + c + 1, (r + 1) * N + c, (r + 1) * N + c + 1]
        shown = sorted(rng.sample([grid[x] for x in cells], rng.randint(2, 4)))
        return f"quadruple {_name(cells)} values={','.join(map(str, shown))}"
    if kind in ("odd", "even"):
        cell = rng.choice([x for x in range(N * N) if grid[x] % 2 == (kind == "odd")])
        return f"{kind} {cell_name(cell, N)}"
    if kind == "killercage":
        a = rng.randrange(N * N)
        cells = [a, rng.choice(_near(a, diagonal=False))]
        return f"killercage {_name(cells)} total={sum(grid[c] for c in cells)}"
    return _lines(grid, rng, kind)


KINDS = ("whispers", "renban", "parityline", "betweenline", "palindrome", "littlekiller",
         "sandwich", "xsum", "skyscraper", "quadruple", "odd", "killercage", "zipper",
         "regionsumline")  # fmt: skip


def made(kind: str, seed: int, givens: int = 20, count: int = 4) -> tuple[Board, list[int]]:
    """A board with ``count`` constraints of ``kind`` read off a shuffled solved grid (odd and
    even: three times as many) and ``givens`` of its cells given; and that grid."""
    rng = random.Random(seed)
    grid = solved(seed)
    wanted = count * (3 if kind in ("odd", "even") else 1)
    rules, used = [], set()
    for _ in range(wanted):
        rule = _constraint(grid, rng, kind)
        cells = set(rule.split(" total")[0].split()[1:]) if rule else set()
        if rule and not (kind == "killercage" and cells & used):  # cages never overlap
            rules.append(rule)
            used |= cells
    shown = set(rng.sample(range(N * N), givens))
    line = "".join(str(grid[c]) if c in shown else "." for c in range(N * N))
    (puzzle,) = read_puzzles(io.StringIO(f"# rules: {'; '.join(rules)}\n{line}\n"))
    return puzzle.board, grid


def unique(board: Board, solution: list[int], seed: int) -> Board:
    """``board`` with givens of ``solution`` added, in a seeded order, until it has one
    solution; then each given whose removal keeps one solution removed (a minimal puzzle)."""
    from solvers.api import count_solutions

    order = [c for c in range(N * N) if not board.cells[c]]
    random.Random(seed).shuffle(order)
    cells = list(board.cells)
    while count_solutions(board.with_cells(cells), 2) > 1:
        cell = order.pop()
        cells[cell] = solution[cell]
    for cell in [c for c in range(N * N) if cells[c]]:  # then none that is not needed
        cells[cell] = 0
        if count_solutions(board.with_cells(cells), 2) > 1:
            cells[cell] = solution[cell]
    return board.with_cells(cells)


if __name__ == "__main__":
    from solvers.model.constraints.text import format_constraint

    per_kind = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    for number, kind in enumerate(KINDS):
        for seed in range(100 * number, 100 * number + per_kind):
            board, solution = made(kind, seed, givens=0)
            puzzle = unique(board, solution, seed)
            rules = "; ".join(format_constraint(c, N) for c in puzzle.rules.constraints)
            print(f"# rules: {rules}")
            print("".join(str(v) if v else "." for v in puzzle.cells))


def gone(step) -> dict[str, set[int]]:
    """A step's removals on a 9x9 board, by cell name: the form a test writes them in."""
    found: dict[str, set[int]] = {}
    for cell, value in step.eliminated:
        found.setdefault(cell_name(cell, 9), set()).add(value)
    return found


def grid_of(rules: str, givens: dict[str, int] | None = None):
    """The candidate grid of an empty 9x9 under ``rules`` (a rules line), with ``givens`` (by
    cell name) placed: the board a step's test starts from."""
    cells = ["."] * 81
    for name, value in (givens or {}).items():
        row, column = int(name[1]), int(name[3])
        cells[(row - 1) * 9 + column - 1] = str(value)
    (puzzle,) = read_puzzles(io.StringIO(f"# rules: {rules}\n{''.join(cells)}\n"))
    return human.placed_givens(puzzle.board)
