"""The primitives of the vocabulary as propagators over candidate masks (bit v: value v open).

Each propagator is a function ``(candidates, todo, data, tables)`` run by
``constrained.settle``: it narrows the masks of its cells, appends to ``todo`` each cell it
leaves with one candidate (so that ``rules.naked_singles`` takes the value out of its peers),
and returns the ``unit_bits`` of the cells it changed (what must be looked at again), or -1 on
a contradiction. Each one is idempotent (run twice in a row, the second run changes nothing),
so ``settle`` never re-runs one for its own changes.

- ``revise``: arc consistency on binary relations: a value of a cell's partner stays while
  some open value of the cell allows it. ``Support`` maps each mask of the other cell to the
  values it allows: a board's relations share a handful of tables (every non-consecutive pair
  has the same one), so after a few calls each look-up is one dict access.
- ``linear``: bounds consistency on ``sum(k * value) op constant``: with each term's least and
  greatest value, a value that cannot reach the constant whatever the others hold goes; repeated
  until nothing changes. ``!=`` acts once all cells but one are fixed.
- ``table``: a compressed table: a cell keeps the values that some row still open on every
  cell allows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Propagator = Callable[[list[int], list[int], Any, Any], int]

UNBOUNDED = 1 << 40  # beyond any sum of values a linear constraint can have


class Support(dict):
    """A binary relation from one cell's values to another's: ``allows[v]`` is the mask of the
    other cell's values compatible with v, and ``support[mask]`` the union over the values of
    ``mask``, computed on first use (the same masks come back all the time: a plain dict
    look-up then, with no call)."""

    def __init__(self, allows: tuple[int, ...]) -> None:
        super().__init__()
        self.allows = allows

    def __missing__(self, mask: int) -> int:
        found, rest, allows = 0, mask, self.allows
        while rest:
            bit = rest & -rest
            rest ^= bit
            found |= allows[bit.bit_length() - 1]
        self[mask] = found
        return found


def revise(candidates: list[int], todo: list[int], data: tuple, tables: Any) -> int:
    """``data``: (a cell, its partners as (partner, Support from the cell to the partner)):
    each partner keeps the values that some value of the cell allows. Run when the cell
    changes; a partner it narrows is revised in turn (arc consistency, AC-3 by cells)."""
    cell, partners = data
    mask, changed = candidates[cell], 0
    for partner, support in partners:
        other = candidates[partner]
        keep = other & support[mask]
        if keep != other:
            if not keep:
                tables.weight[cell] += 1  # dom/wdeg: the pair that failed weighs more
                tables.weight[partner] += 1
                return -1
            candidates[partner] = keep
            changed |= tables.unit_bits[partner]
            if not keep & (keep - 1):
                todo.append(partner)
    return changed


def _between(low: int, high: int) -> int:
    """The mask of values low..high (0 when empty; low >= 1)."""
    return ((1 << (high + 1)) - (1 << low)) if low <= high else 0


def linear(candidates: list[int], todo: list[int], data: tuple, tables: Any) -> int:
    """``data``: (terms as (coefficient, cell), op, constant, n)."""
    terms, op, constant, n = data
    if op == "!=":
        return _not_equal(candidates, todo, data, tables)
    changed = 0
    while True:
        low = high = widest = 0
        for k, cell in terms:
            mask = candidates[cell]
            least, most = (mask & -mask).bit_length() - 1, mask.bit_length() - 1
            if k > 0:
                low += k * least
                high += k * most
                widest = max(widest, k * (most - least))
            else:
                low += k * most
                high += k * least
                widest = max(widest, k * (least - most))
        # room on each side: how far a term may move from its least (greatest) contribution
        room_up = constant - low if op != ">=" else UNBOUNDED
        room_down = high - constant if op != "<=" else UNBOUNDED
        if room_up < 0 or room_down < 0:
            return -1
        if widest <= room_up and widest <= room_down:
            return changed  # no term can be cut
        narrowed = False
        for k, cell in terms:
            mask = candidates[cell]
            least, most = (mask & -mask).bit_length() - 1, mask.bit_length() - 1
            if k > 0:  # k * v in [k * least - room_down, k * most + ...] bounded by the rooms
                top = (k * least + room_up) // k
                bottom = -((-(k * most - room_down)) // k)
            else:
                top = (k * least - room_down) // k
                bottom = -((-(k * most + room_up)) // k)
            keep = mask & _between(max(bottom, 1), min(top, n))
            if keep != mask:
                if not keep:
                    return -1
                candidates[cell] = keep
                changed |= tables.unit_bits[cell]
                narrowed = True
                if not keep & (keep - 1):
                    todo.append(cell)
        if not narrowed:
            return changed


def _not_equal(candidates: list[int], todo: list[int], data: tuple, tables: Any) -> int:
    """A sum that must differ from the constant: once every cell but one is fixed, the value
    that would make it equal leaves that cell; once all are, the sum is checked."""
    terms, _, constant, n = data
    total, open_term = 0, None
    for k, cell in terms:
        mask = candidates[cell]
        if mask & (mask - 1):
            if open_term is not None:
                return 0
            open_term = (k, cell)
        else:
            total += k * (mask.bit_length() - 1)
    if open_term is None:
        return -1 if total == constant else 0
    k, cell = open_term
    value, left = divmod(constant - total, k)
    mask = candidates[cell]
    if left or not 1 <= value <= n or not mask >> value & 1:
        return 0
    mask ^= 1 << value
    candidates[cell] = mask
    if not mask & (mask - 1):
        todo.append(cell)
    return tables.unit_bits[cell]


def table(candidates: list[int], todo: list[int], data: tuple, tables: Any) -> int:
    """``data``: (cells, rows, each row a mask of allowed values per cell)."""
    cells, rows = data
    masks = [candidates[cell] for cell in cells]
    allowed = [0] * len(cells)
    for row in rows:
        for mask, values in zip(masks, row, strict=True):
            if not mask & values:
                break
        else:
            for i, values in enumerate(row):
                allowed[i] |= values
    return restrict(candidates, todo, cells, allowed, tables)


def restrict(
    candidates: list[int], todo: list[int], cells: tuple, allowed: list[int], tables: Any
) -> int:
    """Keep in each cell only its allowed values; the changed cells' unit bits, or -1."""
    changed = 0
    for cell, keep in zip(cells, allowed, strict=True):
        mask = candidates[cell]
        if mask & ~keep:
            mask &= keep
            if not mask:
                return -1
            candidates[cell] = mask
            changed |= tables.unit_bits[cell]
            if not mask & (mask - 1):
                todo.append(cell)
    return changed
