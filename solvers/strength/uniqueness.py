"""Techniques that hold only for a puzzle with one solution: unique rectangles (types 1 to 4)
and the bivalue universal grave (BUG+1, BUG types 2 and 4). Four cells in two rows, two columns and
two boxes that could all hold only u and v would let u and v swap: a second solution. A
puzzle known to have one solution therefore never reaches that pattern, and what would
complete it goes.

They are taken only where ``Grid.unique`` says the puzzle has one solution (``rating.rate``
checks it with ``count_solutions``) and the board has units alone: a rule beyond rows, columns
and boxes (a diagonal, a cage) may forbid the swap, and the argument fails.

Ratings are Sudoku Explainer's: 4.5 for a rectangle of types 1, 2 and 4
(diuf/sudoku/solver/rules/unique/UniqueLoopHint.java: 4.5 for a loop of four cells), 4.6 to
4.8 for type 3 with a naked set (UniqueLoopType3NakedHint.java: + 0.1 a value past one), 4.5
to 4.7 with a hidden set (UniqueLoopType3HiddenHint.java: + 0.1 a value past two), 5.6 for
BUG type 1 (unique/Bug1Hint.java), 5.7 for BUG types 2 and 4 (unique/Bug2Hint.java,
Bug4Hint.java).
"""

from __future__ import annotations

from itertools import combinations

from solvers.model.cells import cell_name
from solvers.strength.grid import values
from solvers.strength.techniques import Grid, Step


def _applies(grid: Grid) -> bool:
    return (
        grid.unique and not grid.constraints and len(grid.geometry.units) == 3 * grid.geometry.size
    )


def unique_rectangle(grid: Grid, third_only: bool = False) -> Step | None:
    """The rectangle step SE takes: of every rectangle of open cells that share a pair of
    candidates, its types 1, 2 and 4 (4.5) and its type 3 (4.5 and up), the lowest rating,
    at one rating the lowest type (UniqueLoops.getHints sorts its hints so: a type 3 of a
    hidden pair, 4.5, comes before a type 4), and the first found at a tie. ``third_only``:
    type 3 alone, for a rectangle that also makes a type 1, 2 or 4 (whose step, taken first,
    may leave no type 3: HoDoKu's regression cases hold such ones)."""
    if not _applies(grid):
        return None
    geometry, cand = grid.geometry, grid.candidates
    n = geometry.size
    best: Step | None = None
    for r1, r2 in combinations(range(n), 2):
        for c1, c2 in combinations(range(n), 2):
            corners = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
            if len({geometry.box_of[c] for c in corners}) != 2:
                continue
            if any(c in grid.placed for c in corners):
                continue
            common = cand[corners[0]] & cand[corners[1]] & cand[corners[2]] & cand[corners[3]]
            for u, v in combinations(values(common), 2):
                pair = (1 << u) | (1 << v)
                found = None if third_only else _rectangle(grid, corners, pair, u, v)
                if found and (best is None or _order(found) < _order(best)):
                    best = found
                    if _order(best) == (4.5, 1):
                        return best  # nothing sorts before it
                if best is None or _order(best) > (4.5, 3):
                    # a type 3 must rate below ``best``, or as low where that is a type 4
                    ceiling = 9.9 if best is None else best.rating + 0.05 * (_order(best)[1] > 3)
                    third = _type_three(grid, corners, pair, u, v, ceiling)
                    if third and (best is None or _order(third) < _order(best)):
                        best = third
    return best


def _order(step: Step) -> tuple[float, int]:
    """SE's order of rectangle hints: by rating, then by type."""
    return step.rating, int(step.technique[-1])


def _type_three(
    grid: Grid, corners: tuple[int, ...], pair: int, u: int, v: int, ceiling: float
) -> Step | None:
    """Unique rectangle type 3 (SE's UniqueLoops.createType3Hints, read in
    SudokuMonster/SukakuExplainer with its default lkSudoku fix): two corners hold just u and
    v, the other two (the roof, in one unit) more. If neither roof cell held one of those
    extra values the four could swap u and v: a second solution. So one roof cell holds an
    extra value, and the roof acts as one cell, in two ways:

    - naked (UniqueLoopType3NakedHint): the roof holds the extra values; with k - 1 other
      cells of the unit whose values and the extra ones are k in all it makes a naked set of
      k, and those k values leave the unit's other cells. SE: the extra values each either in
      both roof cells or in one of the others, each other cell two values or more, k at most
      half the unit's open cells and at least the number of extra values; rated 4.5 + 0.1
      (k - 1): 4.6 for a pair.
    - hidden (UniqueLoopType3HiddenHint): the roof holds at most one of u and v (both would
      be the swap), so u, v and k - 2 values held by neither roof cell, whose places in the
      unit, the roof counted as one cell, are k in all, make a hidden set of k: the k - 1
      cells other than the roof hold k - 1 of them, and lose their other values. SE: every
      value with a place besides the second roof cell, k less than half the unit's open
      cells; rated 4.5 + 0.1 (k - 2): 4.5 for a pair, 4.6 a triple.

    SE tries k = 2 to 7, at each its units (box, row, column) and in each the naked set, then
    the hidden one; of what it finds, the lowest rating first, the first found at a tie. Only
    a step rated below ``ceiling`` is looked for."""
    cand, n = grid.candidates, grid.geometry.size
    roof = [c for c in corners if cand[c] != pair]
    if len(roof) != 2 or any(cand[c] & pair != pair for c in corners):
        return None
    first, second = roof
    extra = (cand[first] | cand[second]) & ~pair
    both = extra & cand[first] & cand[second]
    if extra.bit_count() < 2:
        return None
    box_of = grid.geometry.box_of
    shared = [unit for unit in grid.geometry.units if first in unit and second in unit]
    shared.sort(key=lambda unit: len({box_of[c] for c in unit}) != 1)  # SE: the box first
    names = " ".join(cell_name(c, n) for c in corners)
    rest = [x for x in range(1, n + 1) if not (pair | extra) >> x & 1]
    best: Step | None = None
    for degree in range(2, 8):
        if round(4.5 + 0.1 * (degree - 2), 1) >= (best.rating if best else ceiling):
            break  # the least a set of this size rates: no better one is left
        for unit in shared:
            open_cells = [c for c in unit if c not in grid.placed]
            pool = [c for c in open_cells if c not in roof and cand[c].bit_count() >= 2]
            rating = round(4.5 + 0.1 * (degree - 1), 1)
            if extra.bit_count() <= degree <= len(open_cells) // 2 and rating < (
                best.rating if best else ceiling
            ):
                for others in combinations(pool, degree - 1):
                    held = 0
                    for c in others:
                        held |= cand[c]
                    union = extra | held
                    if union.bit_count() != degree or (both | held).bit_count() != degree:
                        continue
                    gone = tuple(
                        (c, x)
                        for c in unit
                        if c not in others and c not in roof
                        for x in values(cand[c] & union)
                    )
                    if gone:
                        set_cells = " ".join(cell_name(c, n) for c in (*roof, *others))
                        where = f"rectangle {names} on {u}{v}, naked set {set_cells}"
                        best = Step("unique rectangle type 3", rating, where, eliminated=gone)
                        break
            rating = round(4.5 + 0.1 * (degree - 2), 1)
            if degree * 2 < len(open_cells) and rating < (best.rating if best else ceiling):
                found = _hidden_three(grid, unit, roof, pair, rest, degree)
                if found:
                    cells, hidden, gone = found
                    set_cells = " ".join(cell_name(c, n) for c in (*roof, *cells))
                    digits = "".join(str(x) for x in values(hidden))
                    where = f"rectangle {names} on {u}{v}, hidden set {digits} in {set_cells}"
                    best = Step("unique rectangle type 3", rating, where, eliminated=gone)
    return best


def _hidden_three(
    grid: Grid, unit: tuple[int, ...], roof: list[int], pair: int, rest: list[int], degree: int
) -> tuple[tuple[int, ...], int, tuple[tuple[int, int], ...]] | None:
    """The first hidden set of ``degree`` values in ``unit`` with the roof as one cell (SE's
    order: the values besides the pair in combinations of ``rest``): its cells besides the
    roof, its values, and what it removes; None where none removes anything."""
    cand = grid.candidates
    first, second = roof
    places = {
        x: frozenset(c for c in unit if c != second and c not in grid.placed and cand[c] >> x & 1)
        for x in (*rest, *values(pair))
    }
    for chosen in combinations(rest, degree - 2):
        held = (*chosen, *values(pair))
        if any(not places[x] for x in held):
            continue
        cells = frozenset().union(*(places[x] for x in held))
        if len(cells) != degree:
            continue
        hidden = sum(1 << x for x in held)
        others = tuple(c for c in unit if c in cells and c != first)
        gone = tuple((c, x) for c in others for x in values(cand[c] & ~hidden))
        if gone:
            return others, hidden, gone
    return None


def _rectangle(grid: Grid, corners: tuple[int, ...], pair: int, u: int, v: int) -> Step | None:
    cand, n = grid.candidates, grid.geometry.size
    exact = [c for c in corners if cand[c] == pair]
    extra = [c for c in corners if cand[c] != pair]
    where = "rectangle " + " ".join(cell_name(c, n) for c in corners) + f" on {u}{v}"
    if len(exact) == 3:
        gone = tuple((extra[0], x) for x in (u, v))
        return Step("unique rectangle type 1", 4.5, where, eliminated=gone)
    if len(exact) != 2:
        return None
    first, second = extra
    more = (cand[first] | cand[second]) & ~pair
    if cand[first] & ~pair == cand[second] & ~pair and more.bit_count() == 1:
        w = more.bit_length() - 1
        seen = set(grid.peer_sets[first]) & grid.peer_sets[second]
        gone = tuple((c, w) for c in sorted(seen) if cand[c] & more)
        if gone:
            return Step("unique rectangle type 2", 4.5, where, eliminated=gone)
    for unit in grid.geometry.units:
        if first not in unit or second not in unit:
            continue
        for keep, drop in ((u, v), (v, u)):
            if set(grid.cells_with(unit, keep)) == {first, second}:
                gone = tuple((c, drop) for c in extra)
                return Step("unique rectangle type 4", 4.5, where, eliminated=gone)
    return None


def bug_one(grid: Grid) -> Step | None:
    """Every open cell has two candidates but one, which has three: the value of that cell
    that appears three times in its units is its value (else the grid would be a BUG, with
    no solution or two)."""
    if not _applies(grid):
        return None
    cand = grid.candidates
    open_cells = [c for c in range(len(cand)) if c not in grid.placed]
    odd = [c for c in open_cells if cand[c].bit_count() != 2]
    if len(odd) != 1 or cand[odd[0]].bit_count() != 3:
        return None
    cell = odd[0]
    for value in values(cand[cell]):
        # without ``value`` in ``cell``, every open value of every unit must have two places
        # (the grave); else the pattern is no BUG and proves nothing
        if all(
            len(grid.cells_with(unit, v)) - (v == value and cell in unit) in (0, 2)
            for unit in grid.geometry.units
            for v in grid.open_values(unit)
        ):
            return Step("BUG type 1", 5.6, cell_name(cell, grid.geometry.size), ((cell, value),))
    return None


def bug_two(grid: Grid) -> Step | None:
    """BUG type 2 (SE's BivalueUniversalGrave.java, Bug2Hint: 5.7): two cells or more hold a
    third value, the same value v in each; without v there the grid would be a BUG (every open
    cell two values, every open value two places in each unit). So one of them is v, and v
    leaves every cell that sees all of them."""
    if not _applies(grid):
        return None
    found = _extras(grid)
    if found is None or len(found) < 2:
        return None
    extra = set(found.values())
    if len(extra) != 1:
        return None
    value = extra.pop().bit_length() - 1
    seen = set.intersection(*(set(grid.peer_sets[c]) for c in found))
    gone = tuple((c, value) for c in sorted(seen) if grid.candidates[c] >> value & 1)
    if not gone:
        return None
    n = grid.geometry.size
    where = " ".join(cell_name(c, n) for c in sorted(found)) + f" on {value}"
    return Step("BUG type 2", 5.7, where, eliminated=gone)


def bug_four(grid: Grid) -> Step | None:
    """BUG type 4 (SE's BivalueUniversalGrave.java ``addBug4Hint``, Bug4Hint: 5.7): two cells
    in one unit hold extra values (different ones, or type 2 would say it) and, besides them,
    exactly one value v in common. Without the extras the grid would be a BUG, where v has two
    places in that unit: these two cells, so one of them is v; and one of them holds its extra
    value. So each holds v or its extra value, and its other value goes."""
    if not _applies(grid):
        return None
    found = _extras(grid)
    if found is None or len(found) != 2:
        return None
    first, second = sorted(found)
    every = found[first] | found[second]
    common = grid.candidates[first] & grid.candidates[second] & ~every
    if common.bit_count() != 1:
        return None
    if not any(first in unit and second in unit for unit in grid.geometry.units):
        return None
    gone = tuple(
        (c, v) for c in (first, second) for v in values(grid.candidates[c] & ~found[c] & ~common)
    )
    if not gone:
        return None
    n = grid.geometry.size
    value = common.bit_length() - 1
    where = f"{cell_name(first, n)} {cell_name(second, n)} on {value}"
    return Step("BUG type 4", 5.7, where, eliminated=gone)


def _extras(grid: Grid) -> dict[int, int] | None:
    """SE's search for a BUG's extra candidates: each unit's value with neither none nor two
    places must have exactly one of them in a cell of three values or more, whose extra value
    it is; with those removed, every open cell must hold two values and every open value two
    places in each unit. The cells and their extra values, or None when it is no BUG."""
    cand = grid.candidates
    extras: dict[int, int] = {}
    for unit in grid.geometry.units:
        for value in range(1, grid.geometry.size + 1):
            cells = [c for c in unit if c not in grid.placed and cand[c] >> value & 1]
            if len(cells) in (0, 2):
                continue
            wide = [c for c in cells if cand[c].bit_count() >= 3]
            if not wide:
                return None
            if len(wide) == 1:
                extras[wide[0]] = extras.get(wide[0], 0) | 1 << value
    left = [cand[c] & ~extras.get(c, 0) for c in range(len(cand))]
    if any(c not in grid.placed and left[c].bit_count() != 2 for c in range(len(cand))):
        return None
    for unit in grid.geometry.units:
        for value in range(1, grid.geometry.size + 1):
            places = sum(1 for c in unit if c not in grid.placed and left[c] >> value & 1)
            if places not in (0, 2):
                return None
    return extras


BUDGET = 20_000  # search nodes; a board that takes more is not known to be unique


def one_solution(grid: Grid) -> bool:
    """Whether the candidates of a board of units alone leave exactly one solution: a small
    search (naked and hidden singles, then the cell with fewest values), stopped at the
    second, or at ``BUDGET`` nodes (then False: not known). The hidden singles make the tree
    far smaller than naked singles alone (on hard puzzles this check was a fifth of
    ``rate``'s time); they decide nothing the search would not."""
    peers, units = grid.geometry.peers, grid.geometry.units
    full = grid.geometry.full_mask
    found, budget = 0, [BUDGET]

    def settle(cand: list[int]) -> bool:
        """Naked and hidden singles to their fixpoint; False at a contradiction."""
        changed = True
        while changed:
            changed = False
            for unit in units:
                once = twice = 0
                for c in unit:
                    m = cand[c]
                    twice |= once & m
                    once |= m
                if once != full:
                    return False  # a value with no place in the unit
                hidden = once & ~twice
                while hidden:
                    bit = hidden & -hidden
                    hidden ^= bit
                    cell = next((c for c in unit if cand[c] & bit), None)
                    if cell is None:
                        return False  # an earlier single here took its one place
                    if cand[cell] != bit:
                        if not _assign(cand, peers, cell, bit):
                            return False
                        changed = True
        return True

    def search(cand: list[int]) -> bool:  # True: stop, a second solution is found
        nonlocal found
        budget[0] -= 1
        if budget[0] < 0:
            found = 2  # too open to tell in the budget: not known to be unique
            return True
        if not settle(cand):
            return False
        best, size = -1, 99
        for cell, mask in enumerate(cand):
            if 1 < (count := mask.bit_count()) < size:
                best, size = cell, count
        if best < 0:
            found += 1
            return found > 1
        for value in values(cand[best]):
            trial = list(cand)
            if _assign(trial, peers, best, 1 << value) and search(trial):
                return True
        return False

    start = list(grid.candidates)
    ok = all(
        _assign(start, peers, c, m) for c, m in enumerate(grid.candidates) if m.bit_count() == 1
    )
    return ok and not search(start) and found == 1


def _assign(cand: list[int], peers: tuple[tuple[int, ...], ...], cell: int, bit: int) -> bool:
    """Place ``bit`` in ``cell`` and remove it from its peers, following naked singles;
    False at an empty cell."""
    todo = [(cell, bit)]
    while todo:
        cell, bit = todo.pop()
        cand[cell] = bit
        for peer in peers[cell]:
            if cand[peer] & bit:
                cand[peer] &= ~bit
                left = cand[peer]
                if not left:
                    return False
                if left & (left - 1) == 0:
                    todo.append((peer, left))
    return True
