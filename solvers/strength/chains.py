"""Chains and forcing chains, as Sudoku Explainer rates them
(diuf/sudoku/solver/rules/chaining/Chaining.java, ForcingChainHint.java, ChainingHint.java).

A chain follows implications between candidates, each "on" (the cell holds the value) or
"off" (it does not): on -> the value leaves the cell's peers, and the cell's other values
leave it (a "Y" link); off -> a cell left with one value holds it (Y), a unit left with one
place for the value holds it there (an "X" link). Static chains read the candidates as they
are; dynamic ones remove each "off" from a copy as they go, so singles that appear on the way
count (Juillerat's "dynamic" chains). Every conclusion is a consequence of the rules alone, so
every step here is sound on any board whose rules are its units.

The techniques, easiest first (SE's base rating, plus its length increment: 0.1 each time the
number of candidates the conclusion rests on passes 4, 6, 8, 12, 16, 24, ...):
forcing X-chain 6.6 (one value), forcing chain 7.0 (on c=v leads to c<>v, or off to on),
Nishio 7.5 (dynamic, X links only: on c=v leads to a contradiction), multiple forcing chains
8.0 (every value of a cell, or every place of a value in a unit, leads to the same
conclusion), dynamic forcing chains 8.5 (contradiction, double and multiple, dynamic).
SE's X-, Y- and XY-cycles are ``cycles``; its aligned triple exclusion is not implemented:
what it finds a chain finds, or a later technique. Last, where all of these stall on a variant
board, the same chains across the constraints' links and steps (``rulechains``, 9.0 +
length, along ``rulelinks``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from solvers.model.cells import cell_name
from solvers.strength import rulelinks
from solvers.strength.grid import values
from solvers.strength.techniques import Grid, Step

LARGEST = 9  # chains are searched on boards up to 9x9: beyond, too many candidates to start from
SHIFT = 6  # a candidate is cell << SHIFT | value (values up to 63)
MASK = (1 << SHIFT) - 1


class Chaining:
    """The implications from some candidates assumed on or off: ``on`` and ``off`` map each
    candidate reached to its parents (nodes: candidate << 1 | is_on); ``clash`` the first
    candidate found both on and off (when asked to stop there), None when none is."""

    def __init__(
        self,
        grid: Grid,
        x: bool,
        y: bool,
        dynamic: bool,
        rules: bool = False,
        whole: bool = True,
        reach: int = 0,
    ) -> None:
        self.grid, self.x, self.y, self.dynamic = grid, x, y, dynamic
        self.on: dict[int, tuple[int, ...]] = {}
        self.off: dict[int, tuple[int, ...]] = {}
        self.clash: int | None = None
        # the constraints' links (``rulelinks``): an "on" removes what a pair forbids with it;
        # in a dynamic chain a cell's "off"s remove what its values left allow nowhere, and
        # each wider constraint's own steps on the chain's candidates give "off"s too
        self.rules = rules and bool(grid.constraints)
        self.links = rulelinks.links(grid) if self.rules else None
        self.whole = whole  # with ``rules``, the wider constraints' own steps too
        # past this many candidates reached (0: no bound) the chain goes no further: what it
        # reached still follows from what it assumed, so every conclusion stays sound
        self.reach = reach

    def run(self, on: Iterable[int], off: Iterable[int], stop: bool) -> Chaining:
        geometry = self.grid.geometry
        source = self.grid.candidates
        cand = list(source) if self.dynamic else source
        # each unit's places for each value (unit * stride + value), kept as cand is
        places = places_of(self.grid)
        places = list(places) if self.dynamic else places
        peers, units, units_of = geometry.peers, geometry.units, geometry.units_of
        stride = geometry.size + 1
        pending_on: deque[int] = deque()
        pending_off: deque[int] = deque()
        for key in on:
            self.on[key] = ()
            pending_on.append(key)
        for key in off:
            self.off[key] = ()
            pending_off.append(key)
            if self.dynamic:
                cell, value = key >> SHIFT, key & MASK
                cand[cell] &= ~(1 << value)
                for u in units_of[cell]:
                    places[u * stride + value] &= ~(1 << cell)
        while pending_on or pending_off:
            if self.reach and len(self.on) + len(self.off) > self.reach:
                break
            if pending_on:  # SE's order: every "on" before the next "off"
                key = pending_on.popleft()
                cell, value = key >> SHIFT, key & MASK
                bit, node = 1 << value, key << 1 | 1
                made = [p << SHIFT | value for p in peers[cell] if cand[p] & bit]
                if self.y:
                    made += [cell << SHIFT | w for w in values(cand[cell] & ~bit)]
                if self.links is not None:
                    for other, allowed in self.links[cell]:
                        made += [other << SHIFT | w for w in values(cand[other] & ~allowed[value])]
                for target in made:
                    if target in self.on and stop:
                        self.off.setdefault(target, (node,))
                        self.clash = target
                        return self
                    if target not in self.off:
                        self.off[target] = (node,)
                        pending_off.append(target)
                        if self.dynamic:
                            gone_cell, gone_value = target >> SHIFT, target & MASK
                            cand[gone_cell] &= ~(1 << gone_value)
                            for u in units_of[gone_cell]:
                                places[u * stride + gone_value] &= ~(1 << gone_cell)
                continue
            key = pending_off.popleft()
            cell, value = key >> SHIFT, key & MASK
            bit, node = 1 << value, key << 1
            made_on: list[tuple[int, tuple[int, ...]]] = []
            if stop and self.rules and self.dynamic and self._emptied(key, cand, places):
                return self
            if self.y and (rest := cand[cell] & ~bit) and rest & (rest - 1) == 0:
                hidden = self._hidden(cell, source[cell] & ~cand[cell] & ~bit, key)
                made_on.append((cell << SHIFT | rest.bit_length() - 1, (node, *hidden)))
            if self.x:
                for u in units_of[cell]:
                    left = places[u * stride + value] & ~(1 << cell)
                    if left and not left & (left - 1):  # one place left in the unit
                        parents: tuple[int, ...] = (node,)
                        if self.dynamic:  # the unit's places removed on the way
                            gone = [
                                p << SHIFT | value
                                for p in units[u]
                                if p != cell and source[p] & bit and not cand[p] & bit
                            ]
                            parents += tuple(h << 1 for h in gone if h in self.off)
                        made_on.append(((left.bit_length() - 1) << SHIFT | value, parents))
            if self.rules and self.dynamic and self._by_rules(key, cand, places, pending_off):
                return self
            for target, parents in made_on:
                if target in self.off and stop:
                    self.on.setdefault(target, parents)
                    self.clash = target
                    return self
                if target not in self.on:
                    self.on[target] = parents
                    pending_on.append(target)
        return self

    def _by_rules(self, key: int, cand: list[int], places: list[int], pending: deque) -> bool:
        """The steps of the constraints on the cell of the "off" ``key``, taken on the chain's
        candidates until they find nothing: each removal an "off" whose parents are the
        rule's candidates the chain removed. True when a rule meets a contradiction (or
        removes an "on"): the clash is set."""
        grid, source = self.grid, self.grid.candidates
        stride = grid.geometry.size + 1
        units_of = grid.geometry.units_of
        cell = key >> SHIFT

        def remove(target: int, parents: tuple[int, ...]) -> bool:
            gone_cell, gone_value = target >> SHIFT, target & MASK
            if target in self.on:
                self.off.setdefault(target, parents)
                self.clash = target
                return True
            if target not in self.off:
                self.off[target] = parents
                pending.append(target)
            cand[gone_cell] &= ~(1 << gone_value)
            for u in units_of[gone_cell]:
                places[u * stride + gone_value] &= ~(1 << gone_cell)
            return False

        assert self.links is not None
        if self.links[cell]:
            left = values(cand[cell])
            parents = tuple(
                k << 1
                for v in values(source[cell] & ~cand[cell])
                if (k := cell << SHIFT | v) in self.off
            )
            for other, allowed in self.links[cell]:
                some = 0
                for x in left:
                    some |= allowed[x]
                for w in values(cand[other] & ~some):
                    if remove(other << SHIFT | w, parents):
                        return True
        for constraint, scope in rulelinks.wide(grid)[cell] if self.whole else ():
            masks = tuple(cand[c] for c in scope)
            settled = rulelinks.settled(grid, constraint, scope, masks)
            if settled == masks:
                continue
            parents = tuple(
                k << 1
                for c in scope
                for v in values(source[c] & ~cand[c])
                if (k := c << SHIFT | v) in self.off
            )
            if settled is None:  # the rule allows nothing: the "off" being followed clashes
                self.on.setdefault(key, tuple(p for p in parents if p != key << 1))
                self.clash = key
                return True
            for c, before, after in zip(scope, masks, settled, strict=True):
                for value in values(before & ~after):
                    if remove(c << SHIFT | value, parents):
                        return True
        return False

    def _emptied(self, key: int, cand: list[int], places: list[int]) -> bool:
        """The "off" ``key`` leaves its cell no value, or its value no place in one of the
        cell's units: every other candidate of that cell (or unit) being off, ``key`` must be
        on (a naked or hidden single), and it is off: the clash is set on ``key``. Without
        this a chain whose links empty a cell in one go (a rule's pair removing two values at
        once) never makes the "on" the clash would be found on."""
        geometry = self.grid.geometry
        source, stride = self.grid.candidates, geometry.size + 1
        cell, value = key >> SHIFT, key & MASK
        if self.y and not cand[cell]:
            self.on.setdefault(key, tuple(self._hidden(cell, source[cell], key)))
            self.clash = key
            return True
        if not self.x:
            return False
        bit = 1 << value
        for u in geometry.units_of[cell]:
            if places[u * stride + value] & ~(1 << cell):
                continue
            gone = (p << SHIFT | value for p in geometry.units[u] if p != cell and source[p] & bit)
            self.on.setdefault(key, tuple(k << 1 for k in gone if k in self.off))
            self.clash = key
            return True
        return False

    def _hidden(self, cell: int, gone: int, key: int) -> list[int]:
        """The "off" nodes of a cell's other removed values: parents of a dynamic single."""
        if not self.dynamic:
            return []
        found = [(cell << SHIFT | v) for v in values(gone)]
        return [k << 1 for k in found if k in self.off and k != key]

    def clash_size(self) -> int:
        """How many nodes the contradiction rests on: both sides of the clashing candidate."""
        assert self.clash is not None
        return self.ancestors(self.clash << 1 | 1) + self.ancestors(self.clash << 1)

    def ancestors(self, node: int) -> int:
        """How many nodes the conclusion ``node`` rests on, itself included."""
        seen, todo = set(), [node]
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            seen.add(current)
            table = self.on if current & 1 else self.off
            todo.extend(table.get(current >> 1, ()))
        return len(seen)


def places_of(grid: Grid) -> list[int]:
    """For each unit and value (index ``unit * (size + 1) + value``), the unit's cells whose
    candidates hold the value, as bits (bit c for cell c): an X link's "one place left" is one
    bit. Made once for the grid's candidates as they stand, and again when they change."""
    key = tuple(grid.candidates)
    kept = grid.memo.get("chain places")
    if kept is not None and kept[0] == key:
        return kept[1]
    geometry = grid.geometry
    stride = geometry.size + 1
    places = [0] * (len(geometry.units) * stride)
    for u, unit in enumerate(geometry.units):
        for cell in unit:
            for value in values(grid.candidates[cell]):
                places[u * stride + value] |= 1 << cell
    grid.memo["chain places"] = (key, places)
    return places


def length_added(complexity: int) -> float:
    """SE's increment for a chain resting on ``complexity`` candidates (ChainingHint.java
    getLengthDifficulty): 0.1 each time ``complexity - 2`` passes 4, 6, 8, 12, 16, 24, ..."""
    added, ceil, odd, length = 0.0, 4, False, complexity - 2
    while length > ceil:
        added += 0.1
        ceil = ceil * 3 // 2 if not odd else ceil * 4 // 3
        odd = not odd
    return round(added, 1)


def _name(grid: Grid, key: int) -> str:
    return f"{cell_name(key >> SHIFT, grid.geometry.size)}={key & MASK}"


def _open(grid: Grid) -> list[int]:
    return [
        cell << SHIFT | v
        for cell, mask in enumerate(grid.candidates)
        if cell not in grid.placed and mask & (mask - 1)
        for v in values(mask)
    ]


def _step(name: str, rating: float, grid: Grid, key: int, is_on: bool, why: str) -> Step:
    cell, value = key >> SHIFT, key & MASK
    where = f"{why} ({cell_name(cell, grid.geometry.size)})"
    if is_on:
        return Step(name, rating, where, placed=((cell, value),))
    return Step(name, rating, where, eliminated=((cell, value),))


def forcing_chain(grid: Grid, x_only: bool | None = None, rules: bool = False) -> Step | None:
    """On c=v leads to c<>v (so c<>v), or off leads to on (so c=v): with X links only
    (forcing X-chain, SE 6.6 + length), else with X and Y links (7.0 + length). ``x_only``
    True: the first kind alone, False: the second alone, None: both, the first first.
    ``rules``: the X and Y chains follow the constraints' links too (``rule_chains``)."""
    if grid.geometry.size > LARGEST:
        return None
    best: Step | None = None
    for x_only_here, base in ((True, 6.6), (False, 7.0)):
        if x_only is not None and x_only_here != x_only:
            continue
        if best and best.rating <= base:
            break
        for key in _open(grid):
            for start_on in (True, False):
                chain = Chaining(
                    grid, x=True, y=not x_only_here, dynamic=False, rules=rules and not x_only_here
                )
                chain.run([key] if start_on else [], [] if start_on else [key], stop=False)
                reached = chain.off if start_on else chain.on
                if key not in reached:
                    continue
                node = key << 1 | (not start_on)
                rating = round(base + length_added(chain.ancestors(node)), 1)
                if best is None or rating < best.rating:
                    name = "forcing X-chain" if x_only_here else "forcing chain"
                    why = "assumed true, it is false" if start_on else "assumed false, it is true"
                    best = _step(name, rating, grid, key, not start_on, why)
    return best


def nishio(grid: Grid) -> Step | None:
    """Assuming c=v, dynamic X links alone reach a contradiction: c<>v (SE 7.5 + length)."""
    if grid.geometry.size > LARGEST:
        return None
    best: Step | None = None
    for key in _open(grid):
        chain = Chaining(grid, x=True, y=False, dynamic=True).run([key], [], stop=True)
        if chain.clash is not None:
            size = chain.clash_size()
            rating = round(7.5 + length_added(size), 1)
            if best is None or rating < best.rating:
                best = _step(
                    "Nishio forcing chain", rating, grid, key, False, "leads to a contradiction"
                )
    return best


def _groups(grid: Grid, dynamic: bool) -> Iterable[tuple[str, list[int]]]:
    """The sets of candidates one of which is true: a cell's values (three or more for static
    chains, as SE), a unit's places for a value."""
    for cell, mask in enumerate(grid.candidates):
        if cell not in grid.placed and mask.bit_count() >= (2 if dynamic else 3):
            yield (
                f"cell {cell_name(cell, grid.geometry.size)}",
                [cell << SHIFT | v for v in values(mask)],
            )
    geometry = grid.geometry
    for index, unit in enumerate(geometry.units):
        for value in grid.open_values(unit):
            cells = grid.cells_with(unit, value)
            if len(cells) >= 2:
                yield (
                    f"{value} in {geometry.unit_names[index]}",
                    [c << SHIFT | value for c in cells],
                )


def multiple_chains(
    grid: Grid,
    dynamic: bool,
    base: float,
    name: str,
    rules: bool = False,
    whole: bool = True,
    reach: int = 0,
) -> Step | None:
    """Every branch of a group leads to the same conclusion; with ``dynamic``, also a
    candidate whose assumption (on or off) leads to a contradiction, and one that both its
    assumptions lead to. Named ``name``, rated ``base`` + length; with ``rules`` along the
    constraints' links too (``Chaining``)."""
    if grid.geometry.size > LARGEST:
        return None
    best: Step | None = None
    cache: dict[tuple[int, bool], Chaining] = {}

    def chain_of(key: int, is_on: bool) -> Chaining:
        if (key, is_on) not in cache:
            found = Chaining(
                grid, x=True, y=True, dynamic=dynamic, rules=rules, whole=whole, reach=reach
            )
            cache[key, is_on] = found.run(
                [key] if is_on else [], [] if is_on else [key], stop=dynamic
            )
        return cache[key, is_on]

    def offer(rating: float, key: int, is_on: bool, why: str) -> None:
        nonlocal best
        rating = round(rating, 1)
        there = grid.candidates[key >> SHIFT] & (1 << (key & MASK))
        news = there and (not is_on or (key >> SHIFT) not in grid.placed)
        if news and (best is None or rating < best.rating):
            best = _step(name, rating, grid, key, is_on, why)

    if dynamic:
        for key in _open(grid):
            for is_on in (True, False):
                chain = chain_of(key, is_on)
                if chain.clash is not None:
                    size = chain.clash_size()
                    offer(
                        base + length_added(size),
                        key,
                        not is_on,
                        "its assumption leads to a contradiction",
                    )
            yes, no = chain_of(key, True), chain_of(key, False)
            if yes.clash is not None or no.clash is not None:
                continue
            for table_yes, table_no, is_on in ((yes.on, no.on, True), (yes.off, no.off, False)):
                for target in table_yes.keys() & table_no.keys():
                    if target == key:
                        continue
                    node = target << 1 | is_on
                    offer(
                        base + length_added(yes.ancestors(node) + no.ancestors(node)),
                        target,
                        is_on,
                        f"both ways {_name(grid, key)} goes",
                    )
    for where, group in _groups(grid, dynamic):
        chains = [chain_of(key, True) for key in group]
        if any(chain.clash is not None for chain in chains):
            continue  # a branch that fails is the contradiction found above
        for is_on in (True, False):
            tables = [chain.on if is_on else chain.off for chain in chains]
            common = set(tables[0]).intersection(*tables[1:])
            for target in common:
                if target in group:
                    continue
                node = target << 1 | is_on
                size = sum(chain.ancestors(node) for chain in chains)
                offer(
                    base + length_added(size), target, is_on, f"every choice of {where} leads to it"
                )
    return best


def multiple_forcing(grid: Grid) -> Step | None:
    return multiple_chains(grid, dynamic=False, base=8.0, name="multiple forcing chains")


def dynamic_forcing(grid: Grid) -> Step | None:
    return multiple_chains(grid, dynamic=True, base=8.5, name="dynamic forcing chains")
