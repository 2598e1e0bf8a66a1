"""Runs in worker threads of the app's server process, found again by any session.

A Streamlit script thread ends with its rerun and a session ends with its
tab; a run started from a page must not. :class:`BackgroundRuns` starts
:func:`lab.runner.run_job` in a daemon thread and keeps it in a registry
that lives as long as the server process (:func:`background_runs`), keyed by
the run's id: a page opened again, in any session, finds the run, shows its
progress, and can stop it. Every task is saved as it finishes, so closing
the tab loses nothing, and stopping the server loses at most the tasks in
flight (the same command or button resumes the run).

A run may be the first of two: ``start(job, store, then=...)`` runs ``job``
and, when it is done, ``then(summary)``'s job in the same worker (a Tables
2-3 run after the selection of its settings); the entry shows whichever is
going.
"""

import threading
import time
from dataclasses import dataclass, field

from .executors import JoblibExecutor
from .runner import run_job

__all__ = ["BackgroundRun", "BackgroundRuns", "background_runs"]


@dataclass
class BackgroundRun:
    """One run in a worker thread: its progress, status and outcome (read by any thread)."""

    run_id: str
    kind: str
    label: str
    fingerprint: str
    done: int = 0
    total: int = 0
    status: str = "running"
    error: str = ""
    summary: object = None
    started: float = field(default_factory=time.time)
    stop_event: threading.Event = field(default_factory=threading.Event, repr=False)
    thread: threading.Thread = field(default=None, repr=False)

    @property
    def fraction(self):
        total = self.total  # read once: a chained run resets it while another thread reads
        return self.done / total if total else 0.0

    @property
    def running(self):
        return self.thread is not None and self.thread.is_alive()

    def stop(self):
        """Ask the run to stop after the task in flight (it can be resumed later)."""
        self.stop_event.set()

    def wait(self, timeout=None):
        """Wait for the worker thread to end; True when it has."""
        if self.thread is not None:
            self.thread.join(timeout)
        return not self.running


class BackgroundRuns:
    """The registry of background runs of this process."""

    def __init__(self):
        self._runs = {}
        self._lock = threading.Lock()

    def start(self, job, store, executor=None, then=None, kind=None):
        """Run ``job`` in a worker thread, or return its run when it is already going.

        Parameters
        ----------
        job : a job of :mod:`lab.jobs`
        store : ResultsStore
            Where the run is saved as it goes.
        executor : optional
            Default: the worker thread itself (one task at a time), which
            leaves the server responsive.
        then : callable(summary) -> job, optional
            The job to run next, from ``job``'s summary, once ``job`` is done.
        kind : str, optional
            The kind the entry is listed under (default ``job.kind``; a chain
            is listed under the kind of its last job).
        """
        run_id = job.run_id()
        with self._lock:
            current = self._runs.get(run_id)
            if current is not None and current.running:
                return current
            entry = BackgroundRun(run_id, kind or job.kind, job.label(), job.fingerprint())
            entry.thread = threading.Thread(
                target=self._work, args=(entry, job, store, executor or JoblibExecutor(1), then),
                name=f"tree-bias-lab run {run_id}", daemon=True,
            )  # fmt: skip
            self._runs[run_id] = entry
        entry.thread.start()
        return entry

    @staticmethod
    def _work(entry, job, store, executor, then=None):
        def progress(done, total, summary):
            entry.done, entry.total, entry.summary = done, total, summary

        try:
            outcome = run_job(job, store, executor, progress, entry.stop_event.is_set)
            if then is not None and outcome.status == "done" and not entry.stop_event.is_set():
                following = then(outcome.summary)
                entry.label, entry.done, entry.total = following.label(), 0, 0
                outcome = run_job(following, store, executor, progress, entry.stop_event.is_set)
            entry.done, entry.total = outcome.n_done, outcome.n_tasks
            entry.summary, entry.status = outcome.summary, outcome.status
        except Exception as error:  # the worker must not die silently: the page shows this
            entry.status, entry.error = "failed", f"{type(error).__name__}: {error}"
        finally:
            executor.close()

    def get(self, run_id):
        """The background run with this id, or None."""
        with self._lock:
            return self._runs.get(run_id)

    def active(self, kind=None, fingerprint=None):
        """Runs still going (of a kind and dataset fingerprint), oldest first."""
        with self._lock:
            runs = list(self._runs.values())
        return [
            r
            for r in runs
            if r.running
            and (kind is None or r.kind == kind)
            and (fingerprint is None or r.fingerprint == fingerprint)
        ]

    def forget_finished(self):
        """Drop the runs that have ended (their results stay in the store)."""
        with self._lock:
            self._runs = {k: r for k, r in self._runs.items() if r.running}


_REGISTRY = BackgroundRuns()


def background_runs():
    """The registry of this process (shared by every session of the app)."""
    return _REGISTRY
