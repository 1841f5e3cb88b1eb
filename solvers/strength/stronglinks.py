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

from solvers.model.cells import cell_name
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
    units_of = grid.geometry.units_of
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
            for other in {u for c in _cells(places) for u in units_of[c]} - {index}:
                part = places & units[other]
                rest = places ^ part
                low = (rest & -rest).bit_length() - 1
                if rest and any(u != index and rest & ~units[u] == 0 for u in units_of[low]):
                    pairs.add((min(part, rest), max(part, rest)))
        for first, second in pairs:
            found.append(Link(index, first, second, kind))
            found.append(Link(index, second, first, kind))
    return found


def _union(masks) -> int:
    found = 0
    for mask in masks:
        found |= mask
    return found


def _held(grid: Grid, value: int) -> int:
    """The open cells that may hold ``value``, as a cell mask."""
    bit = 1 << value
    return sum(1 << c for c, m in enumerate(grid.candidates) if m & bit and c not in grid.placed)


def _seen(node: int, peers: list[int], cache: dict[int, int]) -> int:
    """The cells that see every cell of ``node``."""
    if node not in cache:
        seen = -1
        for c in _cells(node):
            seen &= peers[c]
        cache[node] = seen
    return cache[node]


class _Value:
    """One value's links on the candidates as they stand, which links may follow which, and
    the chains grown so far from each first link (layer k: the links reached as the k+1-th,
    by the kinds of the links on the way), kept while the candidates do not change so that
    the searches for 2 to 6 links share them."""

    def __init__(self, grid: Grid, value: int, peers: list[int], seen: dict[int, int]) -> None:
        self.found = links(grid, value)
        self.held = _held(grid, value)
        # the links by the first cell of their start: a link may follow another only where
        # that cell sees the other's end, so only those are looked at
        starting: dict[int, list[int]] = {}
        for j, nxt in enumerate(self.found):
            starting.setdefault((nxt.start & -nxt.start).bit_length() - 1, []).append(j)
        self.follows: list[dict[int, int]] = []
        for link in self.found:
            end = _seen(link.end, peers, seen)
            after: dict[int, int] = {}
            for c in _cells(end & self.held):
                for j in starting.get(c, ()):
                    nxt = self.found[j]
                    if nxt.unit != link.unit and nxt.start & ~end == 0:
                        after[nxt.kind] = after.get(nxt.kind, 0) | 1 << j
            # the kinds in the order of their first link, as a scan of every link gives them
            # (which chain is found first among equals depends on it)
            self.follows.append(dict(sorted(after.items(), key=lambda kv: kv[1] & -kv[1])))
        self.layers: dict[int, list[dict[int, int]]] = {}
        # kinds aside: the links that may follow each, and (``reach``) those a chain from each
        # reaches in exactly d more links
        self.next_of = [_union(after.values()) for after in self.follows]
        self.reached = [[1 << i for i in range(len(self.found))]]
        # for each cell, the links whose end it sees all of: where a chain may end for it
        self.ending: dict[int, int] = {}
        for j, link in enumerate(self.found):
            for c in _cells(_seen(link.end, peers, seen) & self.held):
                self.ending[c] = self.ending.get(c, 0) | 1 << j

    def reach(self, steps: int) -> list[int]:
        """For each link, the links a chain from it reaches in exactly ``steps`` more links,
        whatever their kinds: the union of what ``grown`` reaches at that depth, so that a
        first link whose chains cannot end where they remove something is not grown at all."""
        while len(self.reached) <= steps:
            last = self.reached[-1]
            self.reached.append([self._after(mask) for mask in last])
        return self.reached[steps]

    def _after(self, links: int) -> int:
        """The links that may follow any of ``links``."""
        found = 0
        for i in _cells(links):
            found |= self.next_of[i]
        return found

    def grown(self, first: int, count: int) -> list[dict[int, int]]:
        layers = self.layers.setdefault(first, [{self.found[first].kind: 1 << first}])
        while len(layers) < count:
            layer: dict[int, int] = {}
            for kind, reached in layers[-1].items():
                for i in _cells(reached):
                    for link_kind, nxt in self.follows[i].items():
                        joined = kind | link_kind
                        layer[joined] = layer.get(joined, 0) | nxt
            layers.append(layer)
        return layers[:count]


def _values(grid: Grid) -> tuple[dict[int, _Value], dict[int, int]]:
    key = tuple(grid.candidates)
    kept = grid.memo.get("strong links")
    if kept is None or kept[0] != key:
        kept = grid.memo["strong links"] = (key, {}, {})
    return kept[1], kept[2]


def strong_links(grid: Grid, count: int) -> Step | None:
    """The chain of ``count`` strong links on one value whose rating is lowest and, among
    those, that removes the most candidates; None when none removes any."""
    peers, _ = _tables(grid)
    tables, seen = _values(grid)
    best: tuple[float, int, Step] | None = None
    for value in range(1, grid.geometry.size + 1):
        if value not in tables:
            tables[value] = _Value(grid, value, peers, seen)
        table = tables[value]
        found = table.found
        if len(found) < count:
            continue
        for first, link in enumerate(found):
            targets = table.held & _seen(link.start, peers, seen)
            if not targets:
                continue
            ends = 0
            for c in _cells(targets):
                ends |= table.ending.get(c, 0)
            if not ends or not table.reach(count - 1)[first] & ends:
                continue
            layers = table.grown(first, count)
            for kind, reached in layers[-1].items():
                rating = round(BASE[count] + added(kind), 1)
                if best and best[0] < rating:
                    continue
                for last in _cells(reached & ends):
                    gone = targets & _seen(found[last].end, peers, seen)
                    if gone and (best is None or (rating, -gone.bit_count()) < best[:2]):
                        path = _path(found, table.follows, layers, last, kind)
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
