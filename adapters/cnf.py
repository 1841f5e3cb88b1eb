"""CNF encodings of Sudoku: pure functions from a board to clauses, for any SAT engine.

The variable for "cell (r, c) holds v" is ``(r*N + c)*N + v`` with v from 1 to N, so cell index
``i = r*N + c`` and value v give ``i*N + v``, and the variables run from 1 to N**3.

- ``minimal``: every cell holds at least one value; every value at most once per unit.
- ``extended``: minimal plus at most one value per cell and every value at least once per unit
  (Lynce and Ouaknine, "Sudoku as a SAT Problem", 2006).
- ``reduced``: extended with the givens applied first: variables the givens decide and clauses
  they satisfy are left out (Kwon and Jain, "Optimized CNF Encoding for Sudoku Puzzles", 2006).
  An empty clause means the givens leave some cell or unit without a value: unsatisfiable.

"At most one" and "exactly one" are PySAT's cardinality encodings (``adapters.cardinality``).
Auxiliary variables are numbered by a ``pysat.formula.IDPool`` whose first free number
follows the N**3 cell variables.

The board's rules come from the compile step (``solvers.model.compile.flatten``): its units (rows,
columns, regions and every all-different group of N cells the constraints add) are the
geometry's rule clauses, built once per geometry, plus a unit clause per given; the rule
clauses alone are what a persistent incremental solver is loaded with. What the board adds to
its units (``rule_extras``) is its sum groups, by a rule of their own, and its other primitives.

Sum groups (all-different groups with a sum: ``sum_group_clauses``), beside "a value at most
once per group", take one of two forms, which the ``cages`` option picks:

- ``combinations``: the sets of values that can fill the group (distinct, adding up to its
  total) are listed ahead; an auxiliary variable per set says "the group holds this set", at
  least one holds, and each cell of the group takes a value of its set. (A group with one set
  needs no auxiliary variable.) The values then add up to the total by construction.
- ``pb``: the sum itself as a pseudo-Boolean equality, sum of v * x(cell, v) = total, turned
  into clauses by PySAT's encoder (``pysat.pb``, Pindakaas's "best" choice); ``bdd``,
  ``totalizer``, ``sortnetwrk``, ``seqcounter``, ``adder``, ``binmerge``, ``mixedradix`` the
  same by the encoder named (``adapters.cnf_primitives.PB_ENCODERS``; ``linear`` takes the same
  names for the other linear rows).

The other primitives (of thermometers, little killers, ...) are encoded by
``adapters.cnf_primitives`` over the values each cell can still take; ``linear=dp|pb`` picks
the form of their linear rows. ``model=native`` (the default) gives the kinds the SAT family
has a CNF of its own for (``adapters.cnf_native``: cages, renban lines, skyscrapers,
sandwiches, X-sums, arrows, Kropki dots, whispers, XV) that CNF in place of their
decomposition (``solvers.model.compile.handed``), except the kinds whose sum an explicit
``pb`` option names (``PB_KINDS``); ``model=decomposed`` decomposes every kind, so that a
comparison shows what the native CNF is worth (docs/models.md). ``implied`` picks what of
the 45 rule (``solvers.model.implied``) the CNF states: ``groups`` (the default) its sum
groups, as the board's own; ``rows`` those and its other linear rows
(``Flat.implied_linears``, in the ``linear`` form); ``off`` neither (docs/backends.md has the
three measured). ``functional`` says whether every auxiliary variable is a function of the
cells, which a solver that enumerates whole models needs to count each solution once.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from adapters import cnf_native
from adapters.cardinality import Clause, at_most_one, exactly_one
from adapters.cnf_primitives import LINEAR_ENCODINGS, PB_ENCODERS, pb_clauses, primitive_clauses
from solvers.base.errors import BackendUnavailable
from solvers.model.board import Board
from solvers.model.compile import SumGroup, flatten, handed
from solvers.model.geometry import Geometry

if TYPE_CHECKING:  # PySAT is imported on first use: the command line reads ENCODINGS here
    from pysat.formula import CNF, IDPool

# The default first: reduced is the fastest by measurement (README, "Backends").
ENCODINGS = ("reduced", "extended", "minimal")
CAGE_ENCODINGS = ("combinations", *PB_ENCODERS)  # pb forms: PySAT's encoders (PB_ENCODERS)
MODELS = ("native", "decomposed")  # the default first: native, by measurement (docs/models.md)
NATIVE = frozenset(cnf_native.MODELS)  # the kinds model=native gives a CNF of their own
# native kinds whose sum a pb option encodes
PB_KINDS = {"killercage": "cages", "xv": "linear", "arrow": "linear"}
# how what a board adds to its units becomes clauses: its sum groups, its other linear rows,
# and whether the kinds of NATIVE have their own CNF
IMPLIED = ("groups", "rows", "off")  # the 45 rule's: sum groups, those and its linear rows, none
EXTRA_OPTIONS = {
    "cages": CAGE_ENCODINGS,
    "linear": LINEAR_ENCODINGS,
    "model": MODELS,
    "implied": IMPLIED,
}
# the options of a backend that rebuilds the CNF per puzzle
OPTIONS = {"encoding": ENCODINGS, **EXTRA_OPTIONS}


def variable(cell: int, value: int, size: int) -> int:
    return cell * size + value


def variables(size: int) -> IDPool:
    """A pool of variable numbers whose first free one follows the size**3 cell variables."""
    from pysat.formula import IDPool

    return IDPool(start_from=size**3 + 1)


def decode(literals, size: int) -> dict[int, int]:
    """Cell -> value for every true cell variable in a model (a list of signed literals)."""
    top = size**3
    return {(lit - 1) // size: (lit - 1) % size + 1 for lit in literals if 0 < lit <= top}


@lru_cache(maxsize=16)
def rule_clauses(geometry: Geometry, encoding: str = "extended") -> tuple[Clause, ...]:
    """The rules alone, valid for every puzzle of ``geometry``: minimal or extended."""
    return tuple(clause for group in rule_groups(geometry, encoding) for clause in group)


def rule_groups(geometry: Geometry, encoding: str = "extended") -> Iterator[list[Clause]]:
    """``rule_clauses`` a cell or a unit and value at a time, for a caller that looks at the
    clock in between (loading a 25x25 board's rules takes about a second)."""
    if encoding not in ("minimal", "extended"):
        raise ValueError(f"rule clauses come in minimal or extended, not {encoding!r}")
    n = geometry.size
    values = range(1, n + 1)
    extended = encoding == "extended"
    for cell in range(n * n):
        literals = [variable(cell, v, n) for v in values]
        yield exactly_one(literals) if extended else [tuple(literals)]
    for unit in geometry.units:
        for v in values:
            literals = [variable(cell, v, n) for cell in unit]
            yield exactly_one(literals) if extended else at_most_one(literals)


def given_literals(board: Board) -> list[int]:
    n = board.size
    return [variable(cell, v, n) for cell, v in enumerate(board.cells) if v]


def encode(
    board: Board,
    encoding: str = "extended",
    cages: str = "combinations",
    linear: str = "dp",
    model: str = "native",
    implied: str = "groups",
) -> list[Clause]:
    """The clauses whose models are exactly the solutions of ``board`` (with its sum groups, if
    any, in the ``cages`` form, its other linear rows in the ``linear`` form, the kinds of
    ``NATIVE`` in their own CNF unless ``model`` is decomposed, the 45 rule's sum groups and
    rows as ``implied`` says; auxiliary variables come after the N**3 cell variables)."""
    options = {"cages": cages, "linear": linear, "model": model, "implied": implied}
    return _encode(board, encoding, options, None)


def formula(
    board: Board,
    encoding: str = "extended",
    cages: str = "combinations",
    linear: str = "dp",
    model: str = "native",
    implied: str = "groups",
) -> CNF:
    """``encode``'s clauses as PySAT's CNF, counting every variable numbered (the auxiliary
    ones too); the cell variables the reduced encoding decides are unit clauses, so that every
    model's cells are a solution and each solution one model (``pb`` aside: its variables are
    PBLib's own)."""
    from pysat.formula import CNF

    pool = variables(board.size)
    options = {"cages": cages, "linear": linear, "model": model, "implied": implied}
    clauses = _encode(board, encoding, options, pool)
    if encoding == "reduced":  # what it decided, stated: a model's cell variables are a solution
        clauses += [(literal,) for literal in sorted(_decided(board), key=abs)]
    found = CNF(from_clauses=clauses, by_ref=True)
    found.nv = pool.top
    return found


def _encode(
    board: Board, encoding: str, options: Mapping[str, str], pool: IDPool | None
) -> list[Clause]:
    """``encode``, the auxiliary variables from ``pool`` (None: a new one, made only for a
    board with more than units)."""
    if encoding == "reduced":
        clauses = reduced(board)
    else:
        clauses = [
            *rule_clauses(board.geometry, encoding),
            *((lit,) for lit in given_literals(board)),
        ]
    if beyond_units(board):
        pool = variables(board.size) if pool is None else pool
        extra = rule_extras(board, pool, options)
        clauses += assume(extra, _decided(board)) if encoding == "reduced" else extra
    return clauses


def beyond_units(board: Board) -> bool:
    """Whether the board's rules hold more than its units: sum groups or other primitives."""
    flat = flatten(board)
    return bool(flat.sum_groups or flat.primitives)


def rule_extras(board: Board, pool: IDPool, options: Mapping[str, str]) -> list[Clause]:
    """What the board adds to its units: its sum groups' clauses and its other primitives', in the
    forms ``options`` name (``EXTRA_OPTIONS``), and the native CNF of its constraints of the
    kinds in ``NATIVE`` (unless ``model`` is decomposed), their auxiliary variables from
    ``pool``. Right for this board's givens only (the primitives are encoded over the values
    the givens leave each cell)."""
    implied = options.get("implied", IMPLIED[0])
    flat, own = handed(board, native_kinds(options), implied != "off")
    n, how, linear = board.size, options["cages"], options["linear"]
    found = [c for group in flat.sum_groups for c in sum_group_clauses(group, n, pool, how)]
    # every primitive but the sum groups, which have their rule above
    primitives = flat.primitives + (flat.implied_linears if implied == "rows" else ())
    if primitives or own:
        masks = open_values(board)
        values = [[v for v in range(1, n + 1) if masks[cell] >> v & 1] for cell in range(n * n)]
        for primitive in primitives:
            found += primitive_clauses(primitive, n, values, pool, linear)
        for constraint in own:
            found += cnf_native.clauses(constraint, n, values, pool, linear)
    return found


def native_kinds(options: Mapping[str, str]) -> frozenset[str]:
    """The kinds given their own CNF under ``options`` (``model``, native when not named): not
    those whose sum a ``pb`` option asks PBLib for (a killer cage's with ``cages=pb``, an XV
    dot's with ``linear=pb``), so that the option still reaches them."""
    if options.get("model", MODELS[0]) != "native":
        return frozenset()
    return NATIVE - {
        kind
        for kind, key in PB_KINDS.items()
        if options.get(key, EXTRA_OPTIONS[key][0]) in PB_ENCODERS
    }


def functional(board: Board, options: Mapping[str, str]) -> bool:
    """Whether every auxiliary variable of the board's CNF in the forms ``options`` name is a
    function of its cells (so each solution is one model): not when PBLib's encoder is used,
    whose variables are its own."""
    return not any(form in PB_ENCODERS for form in settings(board, options).values())


def settings(board: Board, options: Mapping[str, str]) -> dict[str, str]:
    """The options that shape the board's CNF: its encoding (if chosen), the form of its sum
    groups if it has any, of its other linear rows if it has other primitives."""
    flat = handed(board, native_kinds(options))[0]
    # the model option shapes a board with a kind it would give its own CNF
    natives = handed(board, native_kinds({**options, "model": "native"}))[1]
    used = {
        "encoding": True,
        "cages": flat.sum_groups,
        "implied": flat.implied or flat.implied_linears,
        "linear": flat.primitives,
        "model": natives,
    }
    return {key: value for key, value in options.items() if used.get(key)}


def variable_count(clauses: list[Clause], board: Board) -> int:
    """How many variables ``clauses`` use: the cell variables and any auxiliary ones."""
    return max([board.size**3, *(abs(lit) for clause in clauses for lit in clause)])


def sum_group_clauses(group: SumGroup, n: int, pool: IDPool, how: str) -> list[Clause]:
    """One sum group's clauses on an N x N board (``how``: combinations or pb), their
    auxiliary variables taken from ``pool``."""
    clauses = []
    for v in range(1, n + 1):  # a value at most once in the group
        clauses += at_most_one([variable(cell, v, n) for cell in group.cells])
    if how in PB_ENCODERS:
        return clauses + _pb_sum(group, n, pool, how)
    return clauses + _value_sets(group, n, pool)


def _value_sets(group: SumGroup, n: int, pool: IDPool) -> list[Clause]:
    values = [[v for v in range(1, n + 1) if mask >> v & 1] for mask in group.value_sets(n)]
    if len(values) == 1:
        return [tuple(variable(c, v, n) for v in values[0]) for c in group.cells]
    chosen = [pool.id() for _ in values]
    clauses = [tuple(chosen)]
    for holds, vs in zip(chosen, values, strict=True):
        clauses += [(-holds, *(variable(c, v, n) for v in vs)) for c in group.cells]
    return clauses


def require_pb(backend: str, options: dict[str, str]) -> None:
    """BackendUnavailable when an option asks for ``pb`` (the sum groups' or the linear rows')
    without PySAT's pseudo-Boolean encoder."""
    for key in ("cages", "linear"):
        form = options.get(key)
        if form in PB_ENCODERS and not (usable := pb_available())[0]:
            raise BackendUnavailable(f"{backend}:{key}={form} is unavailable: {usable[1]}")


def pb_available() -> tuple[bool, str]:
    """Whether PySAT's pseudo-Boolean encoder can be used here, and if not, why."""
    try:
        from pysat import pb
    except ImportError as error:
        return False, str(error)
    if not pb.pindakaas_present:
        return False, "pysat.pb needs pindakaas: pip install 'python-sat[pb]'"
    return True, ""


def _pb_sum(group: SumGroup, n: int, pool: IDPool, form: str) -> list[Clause]:
    literals = [variable(c, v, n) for c in group.cells for v in range(1, n + 1)]
    weights = [v for _c in group.cells for v in range(1, n + 1)]
    return pb_clauses("==", literals, weights, group.total, pool, form)


def assume(clauses: list[Clause], true: set[int]) -> list[Clause]:
    """``clauses`` with the literals in ``true`` true and their negations false: satisfied
    clauses left out, false literals dropped."""
    kept = []
    for clause in clauses:
        if any(lit in true for lit in clause):
            continue
        kept.append(tuple(lit for lit in clause if -lit not in true))
    return kept


def _decided(board: Board) -> set[int]:
    """What the reduced encoding decides: a given's value true and its others false; an empty
    cell's values that no unit of it leaves open false."""
    n, decided = board.size, set()
    for cell, mask in open_values(board).items():
        for v in range(1, n + 1):
            literal = variable(cell, v, n)
            if board.cells[cell]:
                decided.add(literal if v == board.cells[cell] else -literal)
            elif not mask >> v & 1:
                decided.add(-literal)
    return decided


def reduced(board: Board) -> list[Clause]:
    """The extended encoding after the givens: only undecided variables, only open clauses.

    Built directly rather than by simplifying the extended CNF: a value is open in an empty
    cell when no unit of the cell holds it (bit masks of the values each unit holds).
    """
    n, geometry = board.size, board.geometry
    held = _held(board)
    open_in = {cell: mask for cell, mask in open_values(board).items() if not board.cells[cell]}
    clauses: list[Clause] = []
    for cell, mask in open_in.items():
        clauses += exactly_one([variable(cell, v, n) for v in range(1, n + 1) if mask >> v & 1])
    for unit, placed in zip(geometry.units, held, strict=True):
        for v in range(1, n + 1):
            if not placed >> v & 1:
                literals = [variable(c, v, n) for c in unit if open_in.get(c, 0) >> v & 1]
                clauses += exactly_one(literals)
    return clauses


def _held(board: Board) -> list[int]:
    """Each unit's mask of the values its givens hold."""
    every, cells = board.geometry.full_mask, board.cells
    held = []
    for unit in board.geometry.units:
        mask = 0
        for cell in unit:
            mask |= 1 << cells[cell]
        held.append(mask & every)
    return held


def open_values(board: Board) -> dict[int, int]:
    """Each cell's mask of values still open: a given's own value; for an empty cell, the
    values no unit of it holds."""
    geometry, held = board.geometry, _held(board)
    found = {}
    for cell, value in enumerate(board.cells):
        if value:
            found[cell] = 1 << value
            continue
        taken = 0
        for unit in geometry.units_of[cell]:
            taken |= held[unit]
        found[cell] = geometry.full_mask & ~taken
    return found


def pin_unused(clauses: list[Clause], variables: int) -> list[Clause]:
    """``clauses`` plus a negative unit clause for each variable none of them mentions.

    The reduced encoding leaves decided variables out; an engine that enumerates models would
    otherwise count each solution once per setting of those free variables.
    """
    used = {abs(literal) for clause in clauses for literal in clause}
    return [*clauses, *((-v,) for v in range(1, variables + 1) if v not in used)]


def solution_from_model(board: Board, model) -> Board:
    """The board filled from a model: the givens, and each empty cell's true variable."""
    chosen = decode(model, board.size)
    return board.with_cells(v or chosen.get(cell, 0) for cell, v in enumerate(board.cells))


def blocking_clause(board: Board, model) -> Clause:
    """A clause that rules out this model's filling of the empty cells, and nothing else."""
    n = board.size
    return tuple(
        -variable(cell, value, n)
        for cell, value in decode(model, n).items()
        if not board.cells[cell]
    )


def dimacs(found: CNF, comments: Sequence[str] = ()) -> str:
    """DIMACS CNF text that any SAT solver reads (PySAT's writer), ``comments`` first."""
    text = io.StringIO()
    found.to_fp(text, comments=[f"c {comment}" for comment in comments])
    return text.getvalue()
