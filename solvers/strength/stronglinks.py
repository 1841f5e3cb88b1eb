"""X-chains of strong links on one value, as Sukaku Explainer (SE's successor, which rated the
public bank ``bench/se_rating.py`` reads) finds and rates them: its turbot fish family
(skyscraper, two-string kite, ...) and its 3 to 6 strong links
(SudokuMonster/SukakuExplainer, diuf/sudoku/solver/rules/StrongLinks.java,
StrongLinksHint.java). Sudoku Explainer 1.2.1 has none of them: what they find, its forcing
X-chains (6.6 and up) find.

A strong link on a value: a unit whose places for it are split into two nodes, so that if one
node does not hold the value the other does. A node is a cell or a group (the unit's places
that lie in one other unit as well: a row's places in one box, a box's in one row or column);
a link with a group is "grouped". A weak link joins two nodes whose every cell sees every cell
of the other: both cannot hold the value. A chain of strong links, each joined to the next by
a weak link, holds the value at its first node or at its last (if not the first, then the end
of the first link, then not the start of the second, ...), so the value leaves every cell that
sees both ends. A loop (the ends weakly linked as well) removes as much at each of its weak
links: each is found as the chain that starts past it.

Rating (``StrongLinksHint.getDifficulty``): 4.0, 5.4, 5.8, 6.2, 6.6 for 2 to 6 links, plus 0.3
if a link is grouped (or in a unit beyond rows, columns and boxes), else 0.0 when every link is
a row or every link a column (skyscrapers), 0.2 when boxes, rows and columns all appear, 0.1
otherwise. As there, a unit with more than six places for the value makes no link. They are
looked for on every board (so that beyond 9x9, where chains are not, aligned pair exclusion
stays the first technique not searched, the bound ``rate`` gives).
"""

from __future__ import annotations

from dataclasses import dataclass

from solvers.cells import cell_name
from solvers.strength.techniques import Grid, Step

BASE = {2: 4.0, 3: 5.4, 4: 5.8, 5: 6.2, 6: 6.6}
PLACES = 6  # StrongLinks.java: a unit with more places for the value is skipped
GROUPED, BOX, ROW, COLUMN = 1, 2, 4, 8  # what a chain's links are made of: its rating


@dataclass(frozen=True)
class Link:
    """A strong link read from ``start`` to ``end`` (cell masks): one of them holds the value."""

    unit: int
    start: int
    end: int
    kind: int  # GROUPED | BOX | ROW | COLUMN bits


def added(kind: int) -> float:
    """The rating a chain's links add to its base (StrongLinksHint.getDifficulty)."""
    if kind & GROUPED:
        return 0.3
    if kind & BOX and kind & ROW and kind & COLUMN:
        return 0.2
    if not kind & BOX and bool(kind & ROW) != bool(kind & COLUMN):
        return 0.0
    return 0.1


def _tables(grid: Grid) -> tuple[list[int], list[int]]:
    """Each cell's peers and each unit's cells, as cell masks (once per grid)."""
    kept = grid.memo.get("cell masks")
    if kept is None:
        peers = [sum(1 << p for p in cell_peers) for cell_peers in grid.geometry.peers]
        units = [sum(1 << c for c in unit) for unit in grid.geometry.units]
        kept = grid.memo["cell masks"] = (peers, units)
    return kept


def _cells(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def links(grid: Grid, value: int) -> list[Link]:
    """Every strong link on ``value``, each read both ways."""
    _, units = _tables(grid)
    n = grid.geometry.size
    held = _held(grid, value)
    found: list[Link] = []
    for index, unit in enumerate(units):
        places = held & unit
        count = places.bit_count()
        if count < 2 or count > PLACES:
            continue
        kind = ROW if index < n else COLUMN if index < 2 * n else BOX if index < 3 * n else GROUPED
        pairs: set[tuple[int, int]] = set()
        if count == 2:
            low = places & -places
            pairs.add((low, places ^ low))
        else:
            kind |= GROUPED
            # the places split between two other units: a row's between two boxes, a box's
            # between a row and a column (or two rows)
            for other, cells in enumerate(units):
                part = places & cells
                rest = places ^ part
                if other != index and part and rest and _within(rest, index, units):
                    pairs.add((min(part, rest), max(part, rest)))
        for first, second in pairs:
            found.append(Link(index, first, second, kind))
            found.append(Link(index, second, first, kind))
    return found


def _held(grid: Grid, value: int) -> int:
    """The open cells that may hold ``value``, as a cell mask."""
    bit = 1 << value
    return sum(1 << c for c, m in enumerate(grid.candidates) if m & bit and c not in grid.placed)


def _within(cells: int, unit: int, units: list[int]) -> bool:
    """Whether ``cells`` lie together in a unit other than ``unit``."""
    return any(i != unit and cells & ~other == 0 for i, other in enumerate(units))


def _seen(node: int, peers: list[int], cache: dict[int, int]) -> int:
    """The cells that see every cell of ``node``."""
    if node not in cache:
        seen = -1
        for c in _cells(node):
            seen &= peers[c]
        cache[node] = seen
    return cache[node]


def strong_links(grid: Grid, count: int) -> Step | None:
    """The chain of ``count`` strong links on one value whose rating is lowest and, among
    those, that removes the most candidates; None when none removes any."""
    peers, _ = _tables(grid)
    best: tuple[float, int, Step] | None = None
    for value in range(1, grid.geometry.size + 1):
        found = links(grid, value)
        if len(found) < count:
            continue
        held = _held(grid, value)
        cache: dict[int, int] = {}
        # follows[i]: the links that may come after link i (their start sees all of its end),
        # by the links' kind
        follows: list[dict[int, int]] = []
        for link in found:
            seen = _seen(link.end, peers, cache)
            after: dict[int, int] = {}
            for j, nxt in enumerate(found):
                if nxt.unit != link.unit and nxt.start & ~seen == 0:
                    after[nxt.kind] = after.get(nxt.kind, 0) | 1 << j
            follows.append(after)
        for first, link in enumerate(found):
            targets = held & _seen(link.start, peers, cache)
            if not targets:
                continue
            layers = [{link.kind: 1 << first}]
            for _ in range(count - 1):
                layer: dict[int, int] = {}
                for kind, reached in layers[-1].items():
                    for i in _cells(reached):
                        for link_kind, nxt in follows[i].items():
                            joined = kind | link_kind
                            layer[joined] = layer.get(joined, 0) | nxt
                layers.append(layer)
            for kind, reached in layers[-1].items():
                rating = round(BASE[count] + added(kind), 1)
                if best and best[0] < rating:
                    continue
                for last in _cells(reached):
                    gone = targets & _seen(found[last].end, peers, cache)
                    if gone and (best is None or (rating, -gone.bit_count()) < best[:2]):
                        path = _path(found, follows, layers, last, kind)
                        step = _step(grid, value, count, kind, rating, path, gone)
                        best = (rating, -gone.bit_count(), step)
    return best[2] if best else None


def _path(
    found: list[Link],
    follows: list[dict[int, int]],
    layers: list[dict[int, int]],
    last: int,
    kind: int,
) -> list[Link]:
    """A chain through the layers that ends at link ``last``, its links of ``kind`` together:
    at each depth, back from the link after, one that it may follow."""
    path = [last]
    for depth in range(len(layers) - 2, -1, -1):
        after = path[-1]
        options = (
            (i, earlier)
            for earlier, reached in layers[depth].items()
            if earlier | found[after].kind == kind
            for i in _cells(reached)
            if follows[i].get(found[after].kind, 0) >> after & 1
        )
        i, kind = next(options)
        path.append(i)
    return [found[i] for i in reversed(path)]


def name(count: int, kind: int) -> str:
    """A player's name for the chain: Sukaku Explainer's (getName), in words."""
    grouped = "grouped " if kind & GROUPED else ""
    if kind & ~GROUPED in (ROW, COLUMN):
        base = "skyscraper" if count == 2 else f"{count} skyscrapers"
    elif not kind & BOX and count < 4:
        base = f"{count}-string kite"
    else:
        base = "turbot fish" if count == 2 else f"{count} strong links"
    return grouped + base


def _step(
    grid: Grid, value: int, count: int, kind: int, rating: float, path: list[Link], gone: int
) -> Step:
    n = grid.geometry.size

    def node(mask: int) -> str:
        return "+".join(cell_name(c, n) for c in _cells(mask))

    chain = " - ".join(
        f"{node(link.start)}={node(link.end)} ({grid.geometry.unit_names[link.unit]})"
        for link in path
    )
    eliminated = tuple((c, value) for c in _cells(gone))
    return Step(name(count, kind), rating, f"{chain} on {value}", eliminated=eliminated)
