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

A worker process of the local pool ends soon after the process that started
the run (:func:`lab.processes.watch_parent`): a run killed with ``kill -9``
leaves no workers behind.
"""

import os
import time

from joblib import Parallel, delayed

from .processes import watch_parent

__all__ = [
    "DaskExecutor",
    "JoblibExecutor",
    "SchedulerError",
    "check_workers",
    "make_executor",
    "max_workers",
    "parse_scheduler",
]

# Tasks are CPU-bound: more workers than this per CPU only share the CPUs (and their memory).
WORKERS_PER_CPU = 4


class SchedulerError(ValueError):
    """A scheduler string that cannot be used, with what to write instead."""


def max_workers():
    """The most local worker processes a run may ask for: :data:`WORKERS_PER_CPU` per CPU."""
    return WORKERS_PER_CPU * (os.cpu_count() or 1)


def check_workers(count, what="workers"):
    """``count`` as an int, when it is a number of local workers this machine can run.

    Raises
    ------
    SchedulerError
        Not a whole number, below 1, or above :func:`max_workers`; the message
        says what to give instead.
    """
    try:
        count = int(count)
    except (TypeError, ValueError):
        raise SchedulerError(f"{count!r} is not a whole number of {what}, e.g. 4.") from None
    if not 1 <= count <= max_workers():
        raise SchedulerError(
            f"{count:,} {what} cannot run here: give 1 to {max_workers()} ({WORKERS_PER_CPU} per "
            f"CPU of this machine, which has {os.cpu_count() or 1}; more only share the CPUs)."
        )
    return count


def _timed(function, key, parent=None):
    """``(key, result, seconds)`` of one task; in a pool's worker, first :func:`watch_parent`."""
    if parent is not None:
        watch_parent(parent)  # a worker must not outlive the run's process
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
        parent = os.getpid()
        stream = parallel(delayed(_timed)(function, key, parent) for key in keys)
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
        return "local", check_workers(count, f"workers of --scheduler {scheduler}")
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
