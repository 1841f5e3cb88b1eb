"""Z3's own models of kinds (``adapters.z3_native``, ``z3:model=native``) against the shared
decomposition (``z3:model=decomposed``) and against another engine (CP-SAT's native
models, which share nothing with Z3's but the board): over Boolean cells (the default) the
models written over the literals (``LITERALS``), and (heavy) over integer and bit-vector cells
the arithmetic ones (``MODELS``). On small puzzles made for tests/test_native_choco.py
(tests/own_models.py) and four more made here, each unique only because of its rule (without
the rule it has several solutions), on the kind's hand-made board of tests/test_definitions.py
(whose count the field's meaning gives), and on random 4x4 and 6x6 boards of the vocabulary's
tests, all count alike up to a limit, and every solution any of them finds is verified against
the kind's own check."""

from __future__ import annotations

import pytest
from own_models import MADE as MADE_FOR_CHOCO
from own_models import OwnModelTests, count_alike, open_runners, refuses_an_unknown_model

from adapters import z3_native
from solvers.backends import registry

# heavy (tests/conftest.py): the native models over integer and bit-vector cells, and the
# decomposition over integer cells
OTHER_CELLS = (
    "z3:cells=int,model=native",
    "z3:cells=bitvec,model=native",
    "z3:cells=int,model=decomposed",
)
# (kind, its constraints, givens): choco's made puzzles (tests/own_models.py: each
# unique by its rule alone), and four more made for this file; the comment says how many
# solutions the givens have without the constraints
MADE = (
    *MADE_FOR_CHOCO,
    # cages whose cut of the domains leaves every value: the sum alone makes them unique
    ("killercage", "killercage r1c1 r1c2 total=5", "1............2.3"),  # 3 without
    ("killercage", "killercage r1c1 r1c2 r2c1 total=12",
     "..1...2.....14........3....1......46"),  # 21 without
    ("betweenline", "betweenline r1c1 r2c2 r3c2", ".....2.43......."),  # 3 without
    ("betweenline", "betweenline r6c1 r5c2 r5c3",
     "..5....3...43..16.....5....21.5....."),  # 4 without
)  # fmt: skip


class TestZ3Models(OwnModelTests):
    # the native models over the default Boolean cells, the decomposition over the same cells,
    # and CP-SAT; over Boolean cells only the kinds of LITERALS have a model of their own (the
    # rest are the decomposition on both sides), and only there do the examples run: Z3 over
    # integer cells finds no solution of an empty 9x9 within a minute, with no rule beside the
    # units (tried: z3:cells=int, 20 s)
    SPECS = ("z3:model=native", "z3:model=decomposed", "cpsat")
    MODELS = z3_native.MODELS
    KINDS = z3_native.LITERALS
    MADE = MADE
    EVERY_MADE_KIND_MODELLED = True
    SEED = "z3 native"
    LIMIT = 1000

    @pytest.mark.parametrize("kind", sorted(z3_native.MODELS))
    def test_each_native_model_over_integer_and_bitvector_cells_counts_alike(self, kind):
        with open_runners(*OTHER_CELLS, "cpsat") as runners:
            count_alike(runners, self.boards_of(kind), self.LIMIT)


def test_the_model_is_an_option_beside_the_cells_as_every_engine_names_it():
    options = registry.backend_class("z3").OPTIONS
    assert options["cells"] == ("bool", "int", "bitvec")
    assert options["model"] == ("native", "decomposed")  # as cpsat, choco, minizinc and mip
    refuses_an_unknown_model("z3", "native, decomposed")
    z3 = registry.backend_class("z3")
    assert z3(**{"cells": "int", "model": "decomposed"}).native_kinds() == set()
    assert z3(**{"cells": "int", "model": "native"}).native_kinds() == set(z3_native.MODELS)
    # over Boolean cells, the kinds with a model over the literals; the rest decomposed
    assert z3(**{"cells": "bool", "model": "native"}).native_kinds() == set(z3_native.LITERALS)
