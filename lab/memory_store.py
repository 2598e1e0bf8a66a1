"""The results store's interface in memory, for runs nobody keeps (tests, notebooks).

Values go through the same JSON as in :class:`lab.store.ResultsStore`, so a
run reads back the same in either store.
"""

import math
import time
from contextlib import contextmanager

from .store import STATUSES, from_json, to_json

__all__ = ["MemoryStore"]


class MemoryStore:
    """The :class:`ResultsStore` interface in memory, for runs nobody keeps (tests, notebooks)."""

    def __init__(self):
        self.path = None
        self.read_only_reason = ""
        self._runs, self._tasks = {}, {}

    def refresh(self):
        """Nothing can change under a store in memory (:meth:`ResultsStore.refresh`)."""
        return ""

    @contextmanager
    def kept_open(self):
        """Nothing to keep open in memory (:meth:`ResultsStore.kept_open`)."""
        yield self

    def open_run(
        self, run_id, kind, label, dataset, fingerprint, settings, seeds, version, n_tasks
    ):
        now = time.time()
        if run_id not in self._runs:
            self._runs[run_id] = dict(
                id=run_id, kind=kind, label=label, dataset=dataset, fingerprint=fingerprint,
                settings=from_json(to_json(settings)), seeds=from_json(to_json(seeds)),
                version=version, created=now, updated=now, status="running",
                n_tasks=int(n_tasks), summary=None, message="",
            )  # fmt: skip
            self._tasks[run_id] = {}
        return self.run(run_id)

    def run(self, run_id):
        if run_id not in self._runs:
            return None
        return {**self._runs[run_id], "n_done": len(self._tasks[run_id]), "damaged": []}

    def runs(self, kind=None, fingerprint=None):
        chosen = [
            self.run(i)
            for i, r in self._runs.items()
            if (kind is None or r["kind"] == kind)
            and (fingerprint is None or r["fingerprint"] == fingerprint)
        ]
        return sorted(chosen, key=lambda r: r["updated"], reverse=True)

    def set_status(self, run_id, status, message="", summary=None):
        if status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {status!r}.")
        run = self._runs[run_id]
        run.update(status=status, message=message, updated=time.time())
        if summary is not None:
            run["summary"] = from_json(to_json(summary))

    def delete_run(self, run_id):
        self._tasks.pop(run_id, None)
        return self._runs.pop(run_id, None) is not None

    def save_task(self, run_id, key, result, seconds=math.nan):
        self._tasks[run_id][key] = from_json(to_json(result))
        self._runs[run_id]["updated"] = time.time()

    def done_keys(self, run_id):
        return set(self._tasks.get(run_id, {}))

    def task_results(self, run_id, prefix=None):
        tasks = self._tasks.get(run_id, {})
        return {k: v for k, v in tasks.items() if prefix is None or k.startswith(prefix)}

    def read_tasks(self, run_id, prefix=None):
        """``(task_results, [])``: nothing in memory is damaged (``ResultsStore.read_tasks``)."""
        return self.task_results(run_id, prefix), []
