"""Run a job's tasks on an executor, saving each as it finishes; resume what was saved.

A *job* (see :mod:`lab.jobs`) describes a long experiment as independent,
deterministically seeded tasks grouped into parts (one dataset and model, one
grid cell...), a combine step per part, and a final summary. :func:`run_job`

1. opens the job's run in the store (its id comes from the job's kind,
   settings and dataset fingerprints: the same job finds its run again);
2. skips the tasks already saved, submits the others to the executor and
   saves each result as it arrives (one transaction per task, on one
   connection kept open for the run: a killed worker or a full disk loses
   at most the task in flight);
3. combines each part once its tasks are all in, and keeps the parts done in
   the run's summary, so a page can show them while the run goes on;
4. marks the run "done" with the final summary, "stopped" when asked to
   stop, or "failed" with the error when a task raises.

A saved result that cannot be read (a damaged row) is skipped, its task run
again, and the run's message and :attr:`RunOutcome.damaged` name it; a
damaged summary is computed again from the tasks.
"""

import contextlib

from .executors import JoblibExecutor
from .memory_store import MemoryStore
from .store import StoreError, from_json, to_json

__all__ = ["RunOutcome", "damaged_text", "run_job"]


class RunOutcome:
    """What :func:`run_job` returns: the run's id, its status and its summary.

    ``damaged`` names what was saved but could not be read, and was computed
    again ("summary", "task <key>"); empty for a sound store.
    """

    def __init__(self, run_id, status, summary, n_done, n_tasks, damaged=()):
        self.run_id, self.status, self.summary = run_id, status, summary
        self.n_done, self.n_tasks = n_done, n_tasks
        self.damaged = list(damaged)

    def __repr__(self):
        return f"RunOutcome({self.run_id!r}, {self.status!r}, {self.n_done}/{self.n_tasks} tasks)"


def _open(store, job, keys):
    return store.open_run(
        job.run_id(), job.kind, job.label(), job.dataset(), job.fingerprint(), job.settings(),
        job.seeds(), job.version(), len(keys),
    )  # fmt: skip


class _Parts:
    """Results of the tasks grouped by part, and the parts already combined."""

    def __init__(self, job, keys, saved):
        self.job = job
        self.pending = {}
        for key in keys:
            self.pending.setdefault(job.part(key), set()).add(key)
        self.results = {part: {} for part in self.pending}
        self.combined = {}
        for key, result in saved.items():
            self.add(key, result)

    def add(self, key, result):
        """Record a result; True when it completes its part (then combined)."""
        part = self.job.part(key)
        if part not in self.pending or key not in self.pending[part]:
            return False
        self.pending[part].discard(key)
        self.results[part][key] = result
        if self.pending[part]:
            return False
        self.combined[part] = self.job.combine_part(part, self.results.pop(part))
        return True

    def summary(self):
        return self.job.summarize(self.combined)


def damaged_text(damaged):
    """What :attr:`RunOutcome.damaged` says, in words ("" when nothing was damaged)."""
    if not damaged:
        return ""
    shown = ", ".join(damaged[:5]) + (f" and {len(damaged) - 5} more" if len(damaged) > 5 else "")
    return f"damaged saved data skipped and computed again: {shown}"


def _mark_failed(store, run_id, error):
    """Record the failure when the store still takes writes (a full disk may refuse it too)."""
    # The caller sees the original error, which says what to do.
    with contextlib.suppress(StoreError):
        store.set_status(run_id, "failed", message=f"{type(error).__name__}: {error}")


def run_job(job, store=None, executor=None, progress=None, should_stop=None):
    """Run (or resume) ``job``; see the module docstring.

    Parameters
    ----------
    job : a job of :mod:`lab.jobs`
    store : ResultsStore or MemoryStore, optional
        Where the run is saved (a throw-away memory store by default).
    executor : optional
        From :func:`lab.executors.make_executor` (default: in this thread).
    progress : callable(done, total, summary), optional
        Called after each saved task; ``summary`` holds the parts combined so far.
    should_stop : callable() -> bool, optional
        Polled after each task; True stops the run ("stopped", resumable).

    Returns
    -------
    RunOutcome
    """
    store = MemoryStore() if store is None else store
    executor = executor or JoblibExecutor(n_jobs=1)
    with store.kept_open():  # one connection for the run's thousands of saves
        return _run(job, store, executor, progress, should_stop)


def _run(job, store, executor, progress, should_stop):
    keys = job.task_keys()
    run = _open(store, job, keys)
    run_id = run["id"]
    saved, damaged_keys = store.read_tasks(run_id)
    damaged = [*run.get("damaged", ()), *(f"task {key}" for key in damaged_keys)]
    parts = _Parts(job, keys, saved)
    todo = [key for key in keys if key not in saved]
    done = len(keys) - len(todo)
    store.set_status(run_id, "running", summary=parts.summary())
    stream = executor.map(job.run_task, todo)
    status, message = "done", ""
    try:
        for key, result, seconds in stream:
            store.save_task(run_id, key, result, seconds)
            done += 1
            if parts.add(key, result):
                store.set_status(run_id, "running", summary=parts.summary())
            if progress is not None:
                progress(done, len(keys), parts.summary())
            if should_stop is not None and done < len(keys) and should_stop():
                status, message = "stopped", f"stopped after {done} of {len(keys)} tasks"
                break
    except Exception as error:  # a task or a save failed: keep what was saved, say why
        _mark_failed(store, run_id, error)
        raise
    finally:
        stream.close()
    summary = from_json(to_json(parts.summary()))  # exactly what a reopened run gives
    message = "; ".join(m for m in (message, damaged_text(damaged)) if m)
    store.set_status(run_id, status, message=message, summary=summary)
    return RunOutcome(run_id, status, summary, done, len(keys), damaged)
