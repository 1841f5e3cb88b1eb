"""A backend spec: a backend's name with options, written ``name:key=value,key=value``.

``sat:encoding=minimal`` or ``cpsat:workers=4,model=boolean`` name one configured backend
wherever a backend is named: ``--backend``, ``--backends``, the JSON and the plots. In a list
of specs (``--backends``), items are separated by commas, and an item ``key=value`` without a
name continues the spec before it: ``sat:encoding=minimal,pysat,cpsat:workers=4,model=boolean``
is three specs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solvers.errors import UsageError

if TYPE_CHECKING:
    from solvers.backend import Backend

ALL = "all"


@dataclass(frozen=True, order=True)
class BackendSpec:
    """A backend name and the options given for it, kept sorted by key (defaults are filled in
    only when the backend is built, so a spec says what the user asked for)."""

    name: str
    options: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, name: str, options: Mapping[str, object] | None = None) -> BackendSpec:
        return cls(name, tuple(sorted((k, str(v)) for k, v in (options or {}).items())))

    @classmethod
    def parse(cls, text: str) -> BackendSpec:
        """``name`` or ``name:key=value,...``; UsageError for anything else."""
        if not isinstance(text, str):
            raise UsageError(
                f"backend {text!r} is not a name or a spec such as 'sat:encoding=minimal'"
            )
        name, colon, rest = text.strip().partition(":")
        if not name or not name.replace("-", "").replace("_", "").isalnum():
            raise UsageError(f"{text!r} is not a backend spec such as sat:encoding=minimal")
        if colon and not rest.strip():
            raise UsageError(f"{text!r}: a colon with no KEY=VALUE after it")
        return cls.of(name, _pairs(rest.split(",") if colon else [], text))

    @property
    def label(self) -> str:
        """How the spec is written back: ``name`` or ``name:key=value,...``."""
        pairs = ",".join(f"{k}={v}" for k, v in self.options)
        return f"{self.name}:{pairs}" if pairs else self.name

    def with_options(self, options: Mapping[str, object]) -> BackendSpec:
        """The spec with ``options`` added; UsageError for one the spec already sets (neither
        silently wins)."""
        own = dict(self.options)
        for key, value in options.items():
            if key in own:
                raise UsageError(
                    f"option {key}={value} is given apart from the spec {self.label},"
                    f" which sets {key}={own[key]}: give it once"
                )
        return BackendSpec.of(self.name, own | dict(options))

    def __str__(self) -> str:
        return self.label

    def resolve(self) -> Resolved:
        """The spec resolved once, for everything that runs it: its backend's class (imported
        here: BackendUnavailable if it cannot be) and every option, checked (UsageError for a
        bad one) with defaults filled in."""
        from solvers import registry  # the registry reads specs: it imports this module
        from solvers.backend import choose_options

        cls = registry.backend_class(self.name)
        options = choose_options(self.name, cls.OPTIONS, dict(self.options))
        return Resolved(self, tuple(options.items()), cls)


@dataclass(frozen=True)
class Resolved:
    """A spec as a run carries it: the spec a user gave (its ``label`` names the backend in
    every answer), every option of its backend, and the backend's class."""

    spec: BackendSpec
    options: tuple[tuple[str, str], ...]
    cls: type[Backend]

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def label(self) -> str:
        return self.spec.label

    def build(self) -> Backend:
        """A backend built with every option."""
        return self.cls(**dict(self.options))


def parse_list(text: str) -> list[BackendSpec]:
    """Specs separated by commas, ``key=value`` items continuing the spec before them; the
    literal ``all`` is left to the caller. UsageError for an empty list, a stray option or a
    spec named twice (its options in any order)."""
    items = [item.strip() for item in text.split(",")]
    if not any(items):
        raise UsageError("no backend named: give one or more, such as native,sat,cpsat")
    groups: list[list[str]] = []
    for number, item in enumerate(items, 1):
        if not item:
            raise UsageError(f"{text!r}: item {number} is empty (two commas, or one at an end)")
        if "=" in item and ":" not in item:
            if not groups:
                raise UsageError(f"{text!r}: option {item!r} comes before any backend name")
            groups[-1].append(item)
        else:
            groups.append([item])
    if not groups:
        raise UsageError("no backend named: give one or more, such as native,sat,cpsat")
    specs = [BackendSpec.parse(",".join(group)) for group in groups]
    for number, spec in enumerate(specs):
        if spec in specs[:number]:
            raise UsageError(f"{text!r}: {spec.label} is named twice: name each backend once")
    return specs


def _pairs(items: Iterable[str], text: str) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for item in items:
        key, eq, value = (part.strip() for part in item.partition("="))
        if not eq or not key or not value:
            raise UsageError(f"{text!r}: {item.strip()!r} is not KEY=VALUE")
        if key in pairs:
            raise UsageError(f"{text!r}: {key} is given twice ({key}={pairs[key]}, {key}={value})")
        pairs[key] = value
    return pairs
