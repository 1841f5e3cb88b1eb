"""A Dask worker plugin that registers a backend of the tests' own on every worker of a
cluster, those a nanny restarts included (tests only; Dask is an optional extra)."""

from distributed import WorkerPlugin

from solvers.backends import registry


class Registered(WorkerPlugin):
    """``registry.register(name, target, **details)`` on each worker, undone at teardown."""

    def __init__(self, name: str, target: str, **details: str) -> None:
        self.name, self.target, self.details = name, target, details

    def setup(self, worker) -> None:
        registry.register(self.name, self.target, **self.details)

    def teardown(self, worker) -> None:
        registry.unregister(self.name)
