"""Computations in a worker thread of the app's server, their results kept for the pages to read.

A page's script thread ends with its rerun, and a computation of a minute (a
forest grown on 100,000 rows) must neither hold the page for that minute nor
start again at each rerun. :func:`server_computations` is the registry of this
process: ``start(key, label, compute)`` runs ``compute(progress,
should_stop)`` in the server's worker thread and keeps its progress and its
result under ``key``, what it computes (two sessions asking for the same work
share one computation); the page draws the progress meanwhile and reads the
result when it is there.

Unlike :mod:`lab.background`'s runs, nothing is saved: a result lives in
memory for :data:`KEEP_SECONDS` after it ended (a page keeps what it read;
``take`` removes one sooner, a failure the page has shown, say). There is
one worker for the whole server: a second computation waits for the first,
so one visitor cannot take every core of a server a class shares.
"""

import queue
import threading
import time
from dataclasses import dataclass, field

__all__ = ["KEEP_SECONDS", "Computation", "Computations", "Stopped", "server_computations"]

# How long an ended computation's result stays for the pages that ask (then it is dropped).
KEEP_SECONDS = 600.0


class Stopped(Exception):
    """Raised by a computation that saw its Stop (``should_stop()``) between two steps."""


@dataclass
class Computation:
    """One computation: its progress, status and outcome (read by any thread).

    ``status`` is "queued" (waiting for the worker), "running", "done",
    "stopped" or "failed" (``error`` says why).
    """

    key: object
    label: str
    done: int = 0
    total: int = 0
    status: str = "queued"
    result: object = None
    error: str = ""
    ended: float | None = None
    stop_event: threading.Event = field(default_factory=threading.Event, repr=False)
    finished: threading.Event = field(default_factory=threading.Event, repr=False)

    @property
    def fraction(self):
        total = self.total  # read once: the worker writes it meanwhile
        return min(self.done / total, 1.0) if total else 0.0

    @property
    def going(self):
        """Whether it is still queued or running."""
        return self.status in ("queued", "running")

    def stop(self):
        """Ask the computation to stop at its next step (a queued one never starts)."""
        self.stop_event.set()

    def wait(self, timeout=None):
        """Wait for the computation to end; True when it has."""
        return self.finished.wait(timeout)


class Computations:
    """The registry of the computations of this process, run one at a time by one worker.

    The worker is a daemon thread, as :mod:`lab.background`'s: a server stopping mid-forest
    exits at once instead of waiting for the forest (a pool's threads are joined at exit).
    """

    def __init__(self):
        self._entries = {}
        self._lock = threading.Lock()
        self._queue = queue.Queue()
        self._worker = None

    def start(self, key, label, compute):
        """Queue ``compute(progress, should_stop)``, or return the computation of ``key`` if
        there is one that has not stopped or failed.

        ``progress(done, total)`` reports the steps done; ``compute`` calls
        ``should_stop()`` between steps and raises :class:`Stopped` when it
        returns True. Its return value is the result.
        """
        with self._lock:
            self._drop_unclaimed()
            current = self._entries.get(key)
            if current is not None and current.status not in ("stopped", "failed"):
                return current
            entry = Computation(key, label)
            self._entries[key] = entry
            self._queue.put((entry, compute))
            if self._worker is None:
                self._worker = threading.Thread(
                    target=self._serve, name="tree-bias-lab computations", daemon=True
                )
                self._worker.start()
        return entry

    def _serve(self):
        """The worker's loop: the queued computations in turn, for as long as the process."""
        while True:
            self._work(*self._queue.get())

    @staticmethod
    def _work(entry, compute):
        def progress(done, total):
            entry.done, entry.total = done, total

        try:
            if entry.stop_event.is_set():
                raise Stopped
            entry.status = "running"
            entry.result = compute(progress, entry.stop_event.is_set)
            entry.status = "done"
        except Stopped:
            entry.status = "stopped"
        except Exception as error:  # the worker must not die silently: the page says why
            entry.status, entry.error = "failed", f"{type(error).__name__}: {error}"
        finally:
            entry.ended = time.monotonic()
            entry.finished.set()

    def get(self, key):
        """The computation of ``key``, or None."""
        with self._lock:
            return self._entries.get(key)

    def take(self, key):
        """Remove the computation of ``key`` from the registry and return it (None if none)."""
        with self._lock:
            return self._entries.pop(key, None)

    def clear(self):
        """Forget every computation (those going finish unseen): a fresh registry, as tests need."""
        with self._lock:
            self._entries = {}

    def _drop_unclaimed(self):
        """Forget the computations that ended over :data:`KEEP_SECONDS` ago (under the lock)."""
        now = time.monotonic()
        self._entries = {
            key: entry
            for key, entry in self._entries.items()
            if entry.ended is None or now - entry.ended < KEEP_SECONDS
        }


_REGISTRY = Computations()


def server_computations():
    """The registry of this process (shared by every session of the app)."""
    return _REGISTRY
