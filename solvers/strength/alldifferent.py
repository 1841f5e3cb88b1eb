"""Generalised arc consistency on one all-different constraint, by Régin's matching (Régin,
"A filtering algorithm for constraints of difference in CSPs", AAAI 1994).

A value stays in a cell's candidates exactly when some maximum matching of cells to values
uses that pair. From one maximum matching ``m``, the pair (x, v) with v not m(x) is in some
other one when v and m(x) lie on a cycle of the value graph (v -> m(y) for each cell y that can
take v), or when v is reached from a value no cell is matched to (an even alternating path).
Candidates are bit masks (bit v for value v).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from operator import or_


def matching(domains: Sequence[int]) -> list[int] | None:
    """A value (as a one-bit mask) for each domain, all different: a maximum matching by
    augmenting paths; None when some domain cannot be matched."""
    owner: dict[int, int] = {}  # value bit -> index of the domain matched to it

    def augment(index: int, seen: set[int]) -> bool:
        mask = domains[index]
        while mask:
            bit = mask & -mask
            mask ^= bit
            if bit in seen:
                continue
            seen.add(bit)
            if bit not in owner or augment(owner[bit], seen):
                owner[bit] = index
                return True
        return False

    for index in range(len(domains)):
        if not augment(index, set()):
            return None
    matched = [0] * len(domains)
    for bit, index in owner.items():
        matched[index] = bit
    return matched


def filtered(domains: Sequence[int]) -> list[int] | None:
    """The domains with every value that no all-different assignment uses removed; None when
    there is no such assignment."""
    matched = matching(domains)
    if matched is None:
        return None
    every, used = reduce(or_, domains, 0), reduce(or_, matched, 0)
    # reach[bit]: the values reachable from value ``bit`` in the value graph, itself included
    successors: dict[int, int] = {}
    for mask, bit in zip(domains, matched, strict=True):
        rest = mask & ~bit
        while rest:
            low = rest & -rest
            rest ^= low
            successors[low] = successors.get(low, 0) | bit
    reach = {bit: bit | successors.get(bit, 0) for bit in bits(every)}
    for middle in reach:
        for start, reached in reach.items():
            if reached & middle:
                reach[start] = reached | reach[middle]
    free_reach = reduce(or_, (reach[bit] for bit in bits(every & ~used)), 0)
    return [
        bit | (mask & (reach[bit] | free_reach)) for mask, bit in zip(domains, matched, strict=True)
    ]


def bits(mask: int) -> list[int]:
    """The one-bit masks of ``mask``, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low)
        mask ^= low
    return found
