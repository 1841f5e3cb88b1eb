"""Which backend a run takes when none is named: a policy over the catalog (``registry``).

The first available backend that encodes a board's rules, from an order measured per kind of
run: a run of many puzzles wants the fastest per puzzle (``FASTEST_FIRST``), a run of a few
counts start-up too (``FIRST_TO_ANSWER``; ``FIRST_TO_PROVE`` with constraints), and a kind some
backends answer far faster than the rest goes to them first (``PREFERRED_FOR``). The reference
(``registry.REFERENCE``), which encodes every kind, comes last. ``sudoku backends`` states the
rule in one line (``cli.commands.backends.default_rule``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solvers.backends import registry
from solvers.base.errors import UsageError

if TYPE_CHECKING:
    from solvers.model.board import Board

# Fastest first, by measurement (README, "Measured"): the default backend of a run of many
# puzzles is the first of these that is available here and supports the puzzle's rules. ``dfs``
# stays the documented reference. For constraints of the vocabulary, propagate (every kind, by
# its decompositions) comes first where native does not support them, then cpsat; dfs, last,
# supports every kind too.
FASTEST_FIRST = ("native", "propagate", "pysat", "cpsat")
# Kinds whose puzzles other backends answer faster, in order (docs/vocabulary.md, "Speed on the
# generated sets"; bench/vocabulary.py): non-consecutive puzzles want a solver that learns
# clauses. On nonconsecutive9 cms has the best median and the quickest slowest puzzle; sat and
# native are near it on the median (native with a kernel to load first); propagate is several
# times slower. The default for a board with such a kind, when it supports the rest.
# Skyscraper clues (tables of thousands of rows) likewise: on ISS's seven skyscraper puzzles a
# fresh `sudoku count` with cms took 0.5-3.6 s of CPU where the portfolio took 1.0-8.1 (its
# head start, propagate, builds its table model past its 0.3 s and proves none of the seven),
# and on the twelve of examples/skyscraper-renban.txt cms's median is 20 ms of CPU against
# native's 45 and propagate's 346 (docs/portfolio.md, issue 41).
PREFERRED_FOR = {"non-consecutive": ("cms", "sat"), "skyscraper": ("cms", "sat")}
# A run of at most SMALL_RUN puzzles counts start-up too: propagate has answered before native
# has loaded its compiled kernel (docs/startup.md has the measurements).
FIRST_TO_ANSWER = ("propagate", "native", "pysat", "cpsat")
SMALL_RUN = 100
# A few puzzles with constraints: the portfolio starts as propagate does, and races native and
# cms past its head start, where propagate alone takes up to seconds (docs/portfolio.md).
FIRST_TO_PROVE = ("portfolio", *FIRST_TO_ANSWER)


def default_backend(board: Board | None = None, puzzles: int | None = None) -> str:
    """The backend available here that encodes ``board``'s rules (None: classic) and answers
    first: for a run of ``puzzles`` (None: many or unknown), start-up included when they are
    few (for a few with constraints the portfolio, which proves the hard ones too). UsageError
    naming the kinds when no backend supports them."""
    few = puzzles is not None and puzzles <= SMALL_RUN
    classic = board is None or board.rules.is_classic
    kinds = board.rules.names if board is not None else frozenset()
    preferred = [b for kind, backends in PREFERRED_FOR.items() if kind in kinds for b in backends]
    first = (FIRST_TO_ANSWER if classic else FIRST_TO_PROVE) if few else FASTEST_FIRST
    for name in (*preferred, *first, registry.REFERENCE):
        if registry.availability(name)[0] and (board is None or not registry.lacking(name, board)):
            return name
    raise UsageError(f"no backend available here supports {' and '.join(sorted(kinds))}")
