"""The constraint-programming levels (Simonis, "Sudoku as a Constraint Problem", 2005):

- ``fc``: forward checking on the binary not-equal decomposition: a cell left with one value
  removes it from its peers, to the fixpoint;
- ``gac``: generalised arc consistency on each unit's all-different (``alldifferent``),
  every unit again whenever one of its cells loses a value, to the fixpoint; on a variant
  board the other constraints of its compile step too (``network``);
- ``sac``: singleton arc consistency over gac (Simonis's "shaving"): a value whose trial
  assignment gac refutes is removed, until no trial fails.

Each works on a list of candidate masks in place and returns False on a contradiction; gac
and sac tick their ``Ticker`` once per constraint narrowed (SolveTimeout past its deadline).
"""

from __future__ import annotations

from collections.abc import Iterable

from solvers.base.deadline import Deadline, Ticker
from solvers.model.board import Board
from solvers.model.geometry import Geometry
from solvers.strength.alldifferent import bits
from solvers.strength.grid import Outcome, outcome, start, units_of
from solvers.strength.network import Network, network


def forward_checking(geometry: Geometry, candidates: list[int]) -> bool:
    peers = geometry.peers
    queue = [cell for cell, mask in enumerate(candidates) if mask & (mask - 1) == 0]
    while queue:
        cell = queue.pop()
        value = candidates[cell]
        if not value:
            return False
        for peer in peers[cell]:
            mask = candidates[peer]
            if mask & value:
                mask &= ~value
                candidates[peer] = mask
                if mask & (mask - 1) == 0:
                    queue.append(peer)
    return True


def arc_consistency(
    net: Network, candidates: list[int], ticker: Ticker, cells: Iterable[int] | None = None
) -> bool:
    """gac from the constraints on ``cells`` (None: every constraint) to the fixpoint."""
    constraints, of_cell = net.constraints, net.of_cell
    if cells is None:
        queue = set(range(len(constraints)))
    else:
        queue = {index for cell in cells for index in of_cell[cell]}
    while queue:
        ticker.tick()
        cells_of, narrow = constraints[queue.pop()]
        before = [candidates[cell] for cell in cells_of]
        after = narrow(before)
        if after is None:
            return False
        for cell, old, new in zip(cells_of, before, after, strict=True):
            if new != old:
                candidates[cell] = new
                queue.update(of_cell[cell])
    return True


def singleton_arc_consistency(net: Network, candidates: list[int], ticker: Ticker) -> bool:
    if not arc_consistency(net, candidates, ticker):
        return False
    changed = True
    while changed:
        changed = False
        for cell, mask in enumerate(candidates):
            for value in bits(mask if mask & (mask - 1) else 0):
                if not candidates[cell] & value:
                    continue
                trial = candidates[:]
                trial[cell] = value
                if arc_consistency(net, trial, ticker, (cell,)):
                    continue
                changed = True
                candidates[cell] &= ~value
                if not arc_consistency(net, candidates, ticker, (cell,)):
                    return False
    return True


def level(board: Board, deadline: Deadline, name: str) -> Outcome:
    """``fc`` on ``board``'s units, ``gac`` or ``sac`` on its whole network, from its
    givens."""
    candidates = start(board)
    if name == "fc":
        consistent = forward_checking(units_of(board), candidates)
    else:
        net = network(board)
        candidates = [mask & domain for mask, domain in zip(candidates, net.domains, strict=True)]
        search = arc_consistency if name == "gac" else singleton_arc_consistency
        consistent = 0 not in candidates and search(net, candidates, Ticker(deadline, dict))
    return outcome(board, candidates if consistent else [0] * len(candidates))
