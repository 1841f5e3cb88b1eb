"""``sudoku backends``: every backend, whether it can be used here, and the default's rule."""

from __future__ import annotations

import argparse

from solvers.backends import choice, registry
from solvers.cli.arguments import command
from solvers.cli.output import Run


def add_to(commands) -> None:
    parser = command(
        commands,
        "backends",
        "list every backend, whether it can be used, and the variants it supports",
        "sudoku backends",
        statuses=False,
    )
    # engines=True: what a backend's module prints as it loads goes to stderr, not the table
    parser.set_defaults(run=list_backends, engines=True)


def list_backends(args: argparse.Namespace, run: Run) -> None:
    fastest = choice.default_backend()
    rows = []
    registry.probe_imports(registry.names())  # outside packages' modules, at once
    for name in registry.names():
        ok, reason = registry.availability(name)
        marks = {fastest: " (default)", registry.REFERENCE: " (reference)"}
        rows.append(
            (
                name + marks.get(name, ""),
                registry.version(name),
                "available" if ok else reason,
                _supports(name) if ok else "-",
                registry.summary(name),
            )
        )
    run.table(rows, numbers_right=False)
    run.emit(default_rule(fastest))
    for problem in registry.plugin_problems():
        run.note(problem)


def _supports(name: str) -> str:
    """What a backend takes beyond units (every backend reads rows, columns, regions and the
    kinds that are units: diagonals, extra regions of N cells): every kind, or the kinds it
    takes that units alone do not hold, as the compile step says (``kinds_within``)."""
    from solvers.model.compile import EVERY_KIND, kinds_within

    takes = registry.supported(name)
    if takes >= kinds_within(EVERY_KIND):
        return "every kind"
    return ", ".join(["units", *sorted(takes - kinds_within(frozenset()))])


def default_rule(many: str) -> str:
    """The rule that picks the default backend, in one line."""
    few = choice.default_backend(puzzles=1)
    if few == many:
        return f"default: {many}, whatever the number of puzzles"
    proving = next(n for n in choice.FIRST_TO_PROVE if registry.availability(n)[0])
    constraints = (
        f"; {proving} for up to {choice.SMALL_RUN} puzzles with constraints "
        f"({few}, then a race: docs/portfolio.md)"
        if proving != few
        else ""
    )
    return (
        f"default: {few} for up to {choice.SMALL_RUN} puzzles (it answers before {many} has "
        f"loaded its compiled kernel), {many} for more (docs/startup.md){constraints}; for "
        "rules they do not support, the next that does (cpsat supports every kind)"
    )
