"""A backend spec: a backend's name with options, written ``name:key=value,key=value``.

``sat:encoding=minimal`` or ``cpsat:workers=4,model=boolean`` name one configured backend
wherever a backend is named: ``--backend``, ``--backends``, the JSON and the plots. In a list
of specs (``--backends``), items are separated by commas, and an item ``key=value`` without a
name continues the spec before it: ``sat:encoding=minimal,pysat,cpsat:workers=4,model=boolean``
is three specs.

A ``BackendSpec`` is the one form a backend's name takes past the edge that reads it (the
command line, the library's ``backend=``): parsed there once, resolved there once (``resolve``:
its class imported, its options checked), and handed along as it is to the pipeline, the
runner (which builds its backend: ``solvers.run.runner.built``) and compare's records, which
ask it for its class and options.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from solvers.backends import registry
from solvers.base.errors import UsageError

if TYPE_CHECKING:
    from solvers.backends.contract import Backend

ALL = registry.ALL


@dataclass(frozen=True, order=True)
class BackendSpec:
    """A backend name and the options given for it, kept sorted by key: what the user asked
    for, its ``label``. Resolved on first need (``resolve``; once, then kept with the spec,
    across a pickle too): its backend's class (``cls``), every option with the defaults filled
    in (``configuration``) and whether it runs ``contained``, each a plain attribute from then
    on, which every layer reads without resolving anything again."""

    name: str
    options: tuple[tuple[str, str], ...] = ()
    label: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # how the spec is written back: ``name`` or ``name:key=value,...``
        pairs = ",".join(f"{k}={v}" for k, v in self.options)
        object.__setattr__(self, "label", f"{self.name}:{pairs}" if pairs else self.name)

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
        if not registry.is_name(name):
            raise UsageError(f"{text!r} is not a backend spec such as sat:encoding=minimal")
        if not colon:
            return cls(name)
        if not rest.strip():
            raise UsageError(f"{text!r}: a colon with no KEY=VALUE after it")
        return cls.of(name, _pairs(rest.split(","), text))

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

    def resolve(self) -> BackendSpec:
        """This spec, resolved: its backend's class imported (UsageError for an unknown name,
        BackendUnavailable if it cannot be imported) and every option checked (UsageError for
        a bad one). Done once, then kept with the spec (``cls``, ``configuration``,
        ``contained``: pickled with it); the edge that reads a spec calls it, so that a run
        fails before any work."""
        if "cls" not in self.__dict__:
            from solvers.backends.contract import choose_options

            cls = registry.backend_class(self.name)
            options = choose_options(self.name, cls.OPTIONS, dict(self.options))
            if problem := cls.refusal(options):
                raise UsageError(problem)
            # a frozen dataclass: kept beside its fields, as functools.cached_property keeps
            self.__dict__.update(
                cls=cls,
                configuration=tuple(options.items()),
                # an outside package's backend runs in a worker process of its own, unless its
                # class declares ``IN_PROCESS``
                contained=registry.entry(self.name).outside and not cls.IN_PROCESS,
            )
        return self

    # Before ``resolve``, each of these resolves the spec (then ``resolve`` has set them all).
    @cached_property
    def cls(self) -> type[Backend]:
        """The backend's class."""
        return self.resolve().__dict__["cls"]

    @cached_property
    def configuration(self) -> tuple[tuple[str, str], ...]:
        """Every option of the backend, as given or its default, in the backend's order."""
        return self.resolve().__dict__["configuration"]

    @cached_property
    def contained(self) -> bool:
        """Whether the backend runs contained, in a worker process of its own."""
        return self.resolve().__dict__["contained"]

    def plain(self) -> BackendSpec:
        """The spec without the options that restate a default: ``sat:encoding=extended`` is
        ``sat``, one configuration, one row; resolved as this one is."""
        defaults = {key: values[0] for key, values in self.cls.OPTIONS.items()}
        own = tuple(pair for pair in self.options if defaults.get(pair[0]) != pair[1])
        spec = BackendSpec(self.name, own)
        resolved = ("cls", "configuration", "contained")
        spec.__dict__.update({key: self.__dict__[key] for key in resolved})  # the same ones
        return spec


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
