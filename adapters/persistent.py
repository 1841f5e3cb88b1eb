"""A model kept per geometry and built in steps that look at the deadline (``PerGeometry``).

An incremental solver loaded with a shape's rules serves every puzzle of that shape (the givens
as assumptions). Loading the rules of a 25x25 board can take longer than a whole deadline, so the
build is a generator that yields between steps: a call whose deadline passes mid-build raises
SolveTimeout and leaves the build where it stopped, and the next call goes on from there.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Generic, TypeVar

from solvers.base.deadline import Deadline
from solvers.base.errors import SolveTimeout
from solvers.model.geometry import Geometry

Model = TypeVar("Model")
Build = Generator[None, None, Model]
KEPT = 8  # models kept at once (jigsaw puzzles each have a geometry of their own)


class PerGeometry(Generic[Model]):
    """One model per geometry, made by ``build(geometry)``: a generator that yields between
    steps and returns the model. Beyond ``KEPT`` models the least recently used is handed to
    ``free`` and forgotten."""

    def __init__(
        self,
        build: Callable[[Geometry], Build],
        free: Callable[[Model], None] = lambda model: None,
    ) -> None:
        self.build, self.free = build, free
        self._models: dict[Geometry, Model] = {}
        self._building: dict[Geometry, Build] = {}

    def get(self, geometry: Geometry, deadline: Deadline | None = None) -> Model:
        """The geometry's model, built (or its build resumed) first if need be; SolveTimeout
        when ``deadline`` passes before it is complete."""
        model = self._models.pop(geometry, None)
        if model is None:
            model = self._finish(geometry, deadline)
        self._models[geometry] = model  # now the most recently used
        while len(self._models) > KEPT:
            self.free(self._models.pop(next(iter(self._models))))
        return model

    def _finish(self, geometry: Geometry, deadline: Deadline | None) -> Model:
        steps = self._building.pop(geometry, None) or self.build(geometry)
        try:
            while True:
                if deadline is not None and deadline.expired():
                    self._building[geometry] = steps
                    while len(self._building) > KEPT:
                        del self._building[next(iter(self._building))]
                    raise SolveTimeout(stats={"building": "the shape's rules"})
                next(steps)
        except StopIteration as done:
            return done.value

    def peek(self, geometry: Geometry) -> Model | None:
        """The geometry's model if it is built, else None; builds nothing."""
        return self._models.get(geometry)

    def drop(self, geometry: Geometry) -> None:
        """Free the geometry's model, if any: the next ``get`` builds it afresh."""
        model = self._models.pop(geometry, None)
        if model is not None:
            self.free(model)

    def close(self) -> None:
        for model in self._models.values():
            self.free(model)
        self._models.clear()
        self._building.clear()
