"""Preparing the compiled kernels in a worker process, in the order the pages need them.

The kernels compile once per machine (``trees.kernels``): about a minute or two of one
core in all, in pieces of a few seconds. A numba compilation holds the interpreter's lock
for most of its time and keeps most of the memory it took (150-250 MB for a growth) until
its process ends: in the app's own process it would slow every visitor's page and stay
in the server's memory. So the app never compiles in its own process; a worker process
does (:mod:`lab.kernel_worker`), and the app's process loads what it wrote to numba's
on-disk cache, in a moment.

:class:`KernelPreparation` keeps the requests (a warm-up part, or one plan's kernels) in
a queue served by one worker at a time: those a page waits for first, then the others in
the order given (the pages' order). A worker whose memory has no room for the next step
hands the rest of its request back and ends; a fresh one takes it up where it stopped (its
budget: ``lab.kernel_worker``), so no worker holds much more than one plan's compilation. A request whose worker fails, or that cannot start one, fails: the page then
compiles in its own process, as a notebook does.

``python -m lab kernels`` compiles them all in its workers (:func:`run_kernels`), to prepare a
machine before its first visitor: an image being built, a class's server the day before.
"""

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from trees.kernels import PARTS, part_compiled, plan_compiled, plan_steps, warm_up_part

__all__ = [
    "KernelPreparation",
    "Request",
    "add_kernels_parser",
    "preparation",
    "run_kernels",
]

ROOT = Path(__file__).resolve().parent.parent
# The most MB a worker may reach (``lab.kernel_worker``), the issue-56 budget of the whole
# compiling (one worker runs at a time): a fresh worker starts at about 100 MB (no estimators
# imported) and a plan's compilation adds 150-290 MB.
WORKER_MEMORY_MB = 400.0
# Workers that failed in a row before the preparation gives up (pages then compile alone).
MAX_FAILED_WORKERS = 3


@dataclass
class Request:
    """One request to the worker: a part (``what = ("part", name)``) or the kernels of one kind
    for one plan (``("plan", kind, plan)``); ``state`` is ``"queued"``, ``"running"``,
    ``"done"`` or ``"failed"``, ``steps`` its ``(done, total)`` (a part handed back by a worker
    with no room left is queued again from its step ``steps[0]``); ``worker_costs`` the CPU
    seconds and peak MB (``cpu_s``, ``peak_mb``) of each worker that ran it, so far, when it
    finished or handed it back; ``worker_cost`` the last of them."""

    what: tuple
    ident: int
    state: str = "queued"
    steps: tuple = (0, 1)
    error: str = ""
    started: float = field(default=0.0, repr=False)
    ended: float = field(default=0.0, repr=False)
    worker_costs: list = field(default_factory=list, repr=False)

    @property
    def worker_cost(self):
        return self.worker_costs[-1] if self.worker_costs else {}

    @property
    def finished(self):
        return self.state in ("done", "failed")

    def message(self):
        """The request as the worker reads it (one line of JSON)."""
        start = {"from": self.steps[0]} if self.steps[0] else {}
        if self.what[0] == "part":
            return json.dumps({"id": self.ident, "part": self.what[1], **start})
        _, kind, plan = self.what
        return json.dumps({"id": self.ident, "plan": [kind, list(plan)], **start})


def _already_compiled(what):
    """Whether this machine's record holds ``what`` (a request's ``what``)."""
    if what[0] == "part":
        return part_compiled(what[1])
    return plan_compiled(what[1], what[2])


class KernelPreparation:
    """The queue of requests and its worker (module docstring). Thread-safe."""

    def __init__(self, command=None, memory_mb=WORKER_MEMORY_MB):
        self._command = command or [sys.executable, "-m", "lab.kernel_worker"]
        self._memory_mb = memory_mb
        self._lock = threading.Condition()
        self._requests = {}  # what -> Request
        self._queue = []  # Requests not yet sent, first first
        self._worker = None
        self._running = None
        self._failed_workers = 0
        self._next_ident = 0

    # ------------------------------------------------------------------ asking
    def request(self, what, urgent=False):
        """The :class:`Request` of ``what``, queued unless this machine's record holds it
        (then done at once); ``urgent``: before the others (a page waits for it)."""
        with self._lock:
            request = self._requests.get(what)
            if request is None:
                self._next_ident += 1
                request = Request(what, self._next_ident, steps=(0, steps_of(what)))
                self._requests[what] = request
                if _already_compiled(what):
                    request.state, request.steps = "done", (1, 1)
                    return request
                self._queue.append(request)
            if urgent and request in self._queue:
                self._queue.remove(request)
                self._queue.insert(0, request)
            self._serve()
            return request

    def request_parts(self, names, urgent=False):
        """:meth:`request` of each part of ``names``, in order."""
        requests = [self.request(("part", name)) for name in names]
        if urgent:
            for request in reversed(requests):
                self.request(request.what, urgent=True)
        return requests

    def ahead_of(self, requests):
        """The running request, when it is not one of ``requests`` (they wait for it first)."""
        with self._lock:
            running = self._running
            return running if running is not None and running not in requests else None

    def wait(self, requests, tick=None, timeout=None):
        """Wait until every one of ``requests`` finished; ``tick()`` about four times a
        second meanwhile. Returns whether all are done (False: one failed, or time ran out)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._lock:
            while not all(r.finished for r in requests):
                if deadline is not None and time.monotonic() > deadline:
                    return False
                self._lock.wait(0.25)
                if tick is not None:
                    self._lock.release()
                    try:
                        tick()
                    finally:
                        self._lock.acquire()
            return all(r.state == "done" for r in requests)

    @property
    def gave_up(self):
        """Whether workers failed too often to start another (pages compile alone)."""
        return self._failed_workers >= MAX_FAILED_WORKERS

    # ------------------------------------------------------------------ serving
    def _serve(self):
        """Send the next queued request to the worker, starting one if needed (lock held)."""
        if self._running is not None or not self._queue:
            return
        if self.gave_up:
            for request in self._queue:
                request.state, request.error = "failed", "no worker could start"
            self._queue.clear()
            self._lock.notify_all()
            return
        if self._worker is None and not self._start_worker():
            return self._serve()
        request = self._queue.pop(0)
        request.state, request.started = "running", time.monotonic()
        self._running = request
        try:
            self._worker.stdin.write(request.message() + "\n")
            self._worker.stdin.flush()
        except OSError:
            self._worker_ended("the worker could not be reached")

    def _start_worker(self):
        """Start a worker process and its reader thread (lock held); False when it failed."""
        command = [*self._command, "--parent", str(os.getpid()), "--memory-mb",
                   str(self._memory_mb)]  # fmt: skip
        try:
            worker = subprocess.Popen(
                command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, bufsize=1,
            )  # fmt: skip
        except OSError:
            self._failed_workers += 1
            return False
        self._worker = worker
        threading.Thread(
            target=self._read, args=(worker,), name="tree-bias-lab kernel worker", daemon=True
        ).start()
        return True

    def _read(self, worker):
        """The reader thread: each line of the worker's output moves its request on."""
        for line in worker.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                continue  # not the worker's own (a library printing): not a message
            if isinstance(message, dict):
                with self._lock:
                    self._on_message(message)
        worker.wait()
        with self._lock:
            if self._worker is worker:
                self._worker_ended("the worker ended")

    def _on_message(self, message):
        """Apply one message of the worker (lock held)."""
        request = self._running
        if request is None or message.get("id") != request.ident:
            return
        if "step" in message:
            request.steps = tuple(message["step"])
        elif "rest" in message:  # the worker had no room left: a fresh one takes the rest
            request.steps = (message["rest"], request.steps[1])
            request.state = "queued"
            request.worker_costs.append(_cost(message))
            self._running = None
            self._queue.insert(0, request)
            self._end_worker()
            self._serve()
        elif "done" in message or "error" in message:
            request.state = "done" if "done" in message else "failed"
            request.error, request.ended = message.get("error", ""), time.monotonic()
            request.worker_costs.append(_cost(message))
            self._running = None
            self._failed_workers = 0 if request.state == "done" else self._failed_workers
            if message.get("full"):  # it ends now: the next request goes to a fresh worker
                self._end_worker()
            self._serve()
        self._lock.notify_all()

    def _end_worker(self):
        """Let the worker go (it ends by itself once it said it is full; lock held)."""
        self._worker.stdin.close()
        self._worker = None

    def _worker_ended(self, reason):
        """The worker is gone (its memory budget, or a failure): fail what it was running."""
        self._worker = None
        if self._running is not None:
            self._running.state, self._running.error = "failed", reason
            self._running.ended = time.monotonic()
            self._running = None
            self._failed_workers += 1
        self._lock.notify_all()
        self._serve()

    def close(self):
        """End the worker (its input closes; it ends after its current step)."""
        with self._lock:
            self._queue.clear()
            if self._worker is not None:
                self._worker.stdin.close()


def _cost(message):
    """The worker's CPU seconds and peak MB so far, as a message of it says them."""
    return {k: message[k] for k in ("cpu_s", "peak_mb") if k in message}


_PREPARATION = []
_PREPARATION_LOCK = threading.Lock()


def preparation():
    """This process's :class:`KernelPreparation`, made on first use."""
    with _PREPARATION_LOCK:
        if not _PREPARATION:
            _PREPARATION.append(KernelPreparation())
        return _PREPARATION[0]


def steps_of(what):
    """How many steps a request of ``what`` has (a part's steps; a plan's, ``plan_steps``)."""
    return len(PARTS[what[1]]) if what[0] == "part" else len(plan_steps(*what[1:]))


def _part_names(text):
    """``--parts``: names of ``trees.kernels.PARTS`` separated by commas."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in PARTS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown parts {unknown}; the parts are {', '.join(PARTS)}"
        )
    return names


def add_kernels_parser(commands):
    """The ``kernels`` command of ``python -m lab``."""
    kernels = commands.add_parser(
        "kernels",
        help="compile the tree engine on this machine now, as the app's first start would",
    )
    kernels.add_argument("--parts", type=_part_names, help="parts to compile (default: all)")


def run_kernels(args, store, out):
    """Compile (or load) every part, or those of ``--parts``, saying how long each took.

    The parts compile in the app's workers, one part a request (a worker past its memory
    budget is replaced): every part in one process keeps all that numba took, over 2 GB
    measured; a part whose worker failed compiles here."""
    names = args.parts or list(PARTS)
    work = KernelPreparation()
    try:
        for number, name in enumerate(names, start=1):
            compiled_before, started = part_compiled(name), time.perf_counter()
            request = work.request(("part", name))
            if not work.wait([request]):
                warm_up_part(name)
            how = "loaded" if compiled_before else "compiled"
            seconds = time.perf_counter() - started
            out.write(f"{number}/{len(names)} {name}: {how} in {seconds:.1f} s\n")
    finally:
        work.close()
