"""Where the tasks of a run execute: joblib on this machine, or a Dask cluster.

An executor maps a function over task keys and yields ``(key, result)`` as
tasks finish, in any order. Results depend only on the task (each is seeded
from the run's settings), so every executor gives the same numbers.

``scheduler`` strings (the command line's ``--scheduler``):

* ``None`` or ``"processes"``: joblib's local process pool (loky), ``n_jobs`` workers;
* ``"threads"``: joblib threads in this process (the app's background runs);
* ``"local:N"``: a Dask cluster of N worker processes started on this machine;
* ``"tcp://host:8786"``: an existing Dask scheduler (``dask scheduler`` and
  ``dask worker`` on other machines, each with this package installed).

Dask is optional (``pip install dask distributed``); only the last two need it.
"""

import time

from joblib import Parallel, delayed

__all__ = ["DaskExecutor", "JoblibExecutor", "SchedulerError", "make_executor", "parse_scheduler"]


class SchedulerError(ValueError):
    """A scheduler string that cannot be used, with what to write instead."""


def _timed(function, key):
    start = time.perf_counter()
    result = function(key)
    return key, result, time.perf_counter() - start


class JoblibExecutor:
    """Tasks through joblib (``backend``: "loky" processes or "threading")."""

    def __init__(self, n_jobs=1, backend="loky"):
        self.n_jobs, self.backend = int(n_jobs), backend

    def map(self, function, keys):
        """Yield ``(key, result, seconds)`` as tasks finish; closing the generator stops the rest."""
        if self.n_jobs == 1:  # in order, in this thread: no pool to start
            for key in keys:
                yield _timed(function, key)
            return
        parallel = Parallel(
            n_jobs=self.n_jobs, backend=self.backend, return_as="generator_unordered"
        )
        stream = parallel(delayed(_timed)(function, key) for key in keys)
        try:
            yield from stream
        finally:
            stream.close()

    def close(self):
        """Nothing to release: joblib reuses its pool between runs."""

    def describe(self):
        return f"joblib ({self.backend}, {self.n_jobs} worker{'s' if self.n_jobs != 1 else ''})"


class DaskExecutor:
    """Tasks through a Dask ``distributed`` client (a local cluster or a scheduler address)."""

    def __init__(self, client, cluster=None):
        self.client, self.cluster = client, cluster

    def map(self, function, keys):
        """Yield ``(key, result, seconds)`` as tasks finish; closing the generator cancels the rest."""
        from distributed import as_completed

        futures = self.client.map(_timed, [function] * len(keys), keys, pure=False)
        pending = set(futures)
        try:
            for future in as_completed(futures):
                pending.discard(future)
                yield future.result()
        finally:
            if pending:
                self.client.cancel(list(pending))

    def close(self):
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()

    def describe(self):
        return f"Dask ({self.client.scheduler.address})"


def parse_scheduler(scheduler):
    """``(kind, value)`` of a scheduler string: ("joblib", backend), ("local", n) or ("tcp", address)."""
    if scheduler in (None, "", "processes"):
        return "joblib", "loky"
    if scheduler == "threads":
        return "joblib", "threading"
    if scheduler.startswith("local:"):
        count = scheduler.split(":", 1)[1]
        if not count.isdigit() or int(count) < 1:
            raise SchedulerError(
                f"--scheduler {scheduler!r}: write local:N with N the number of workers, e.g. local:4."
            )
        return "local", int(count)
    if scheduler.startswith("tcp://"):
        return "tcp", scheduler
    raise SchedulerError(
        f"Unknown scheduler {scheduler!r}: use 'processes' (the default), 'threads', "
        "'local:N' (a Dask cluster of N workers here) or 'tcp://host:8786' (a Dask scheduler)."
    )


def _dask_client(kind, value, processes):
    try:
        from distributed import Client, LocalCluster
    except ImportError as error:
        raise SchedulerError(
            "Dask is not installed: `pip install dask distributed` to use --scheduler "
            "local:N or tcp://..., or leave --scheduler out to run with joblib."
        ) from error
    if kind == "local":
        cluster = LocalCluster(
            n_workers=value, threads_per_worker=1, processes=processes, dashboard_address=None
        )
        return Client(cluster), cluster
    try:
        return Client(value, timeout="10s"), None
    except OSError as error:
        raise SchedulerError(f"Cannot reach the Dask scheduler at {value}: {error}.") from error


def make_executor(scheduler=None, n_jobs=1, processes=True):
    """An executor for ``scheduler`` (see the module docstring).

    Parameters
    ----------
    scheduler : str or None
    n_jobs : int
        Workers of the joblib executors.
    processes : bool
        Whether a ``local:N`` Dask cluster runs its workers in processes
        (False: threads of this process, quicker to start, for tests).
    """
    kind, value = parse_scheduler(scheduler)
    if kind == "joblib":
        return JoblibExecutor(n_jobs=n_jobs, backend=value)
    client, cluster = _dask_client(kind, value, processes)
    return DaskExecutor(client, cluster)
