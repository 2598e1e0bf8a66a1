"""The tree engine's preparation on the page: compiled once per machine, and said while it is.

The lab's compiled kernels, its tree engine, compile on a machine's first use of each
(``trees.kernels``), in a worker process (``lab.kernels``). Before a page runs, the frame
asks for the parts its first view needs (``PageSpec.kernels``) and, while they compile,
shows "Preparing the tree engine for this machine, once: 1 of 3 (12 s)" above the page; a
plan the page then uses that this machine never compiled (another criterion, random
splits, categorical features) is prepared the same way when the page first asks for it
(:func:`install`: the kernels' preparer). After the first run of the server, every other
part is prepared in the background, in the order of the pages (:func:`start_background`).
On a machine that compiled them before, nothing is shown: they load in a moment.

A page may answer before the parts of one of its first view's parts (``PageSpec.later_kernels``:
the random forest of the Evaluate and Cultivated pages, a plan of its own that compiles after
the tree's). The worker takes them right after the page's own parts; the page draws what it
can, and in the forest's place :func:`show_waiting` says what comes and how far the engine is,
asking again every second without blocking the page's widgets (a fragment that reruns alone,
``st.fragment(run_every=...)``); once they are ready it runs the whole page again, which draws
the forest, and its asking ends with the run that no longer draws it.

With ``TREE_BIAS_LAB_KERNEL_WORKER=0`` in the environment, or when no worker can run, a
page's parts compile in the app's own process, step by step with the same message, and a
new plan where it is first used.
"""

import contextlib
import os
import threading
import time

import streamlit as st

from lab.kernels import preparation
from trees.kernels import PARTS, part_compiled, set_kernel_preparer, warm_up_part

from . import cache_budget
from .navigation import PAGES

__all__ = [
    "MESSAGE",
    "background_order",
    "install",
    "prepare",
    "later_parts_ready",
    "progress_text",
    "reporting",
    "show_waiting",
    "start_background",
    "start_preparing",
    "uses_workers",
]

MESSAGE = "Preparing the tree engine for this machine, once: {done} of {total} ({seconds} s)"
_ONCE = {"installed": False, "background": False}
_ONCE_LOCK = threading.Lock()
# The message's place on the page this thread is running, if it runs one, and the parts the
# page shows later (:func:`reporting`).
_PAGE = threading.local()
# When this process began waiting for each set of later parts (:func:`show_waiting`): the
# seconds it says count from the first page that waited, not from its last rerun.
_WAITING_SINCE = {}
# How often a part waiting for the engine asks again, in seconds.
POLL_S = 1.0


def uses_workers():
    """Whether kernels compile in a worker process (not ``TREE_BIAS_LAB_KERNEL_WORKER=0``, and
    workers did not fail too often)."""
    return os.environ.get("TREE_BIAS_LAB_KERNEL_WORKER", "1") != "0" and not preparation().gave_up


def progress_text(done, total, seconds):
    """:data:`MESSAGE` filled in (``seconds``: since the page began waiting)."""
    return MESSAGE.format(done=done, total=total, seconds=int(seconds))


@contextlib.contextmanager
def reporting(slot, later=()):
    """While the page runs, a plan's preparation shows its message in ``slot`` (``st.empty()``
    above the page), emptied once the page is done; ``later``: the parts the page shows later
    (``PageSpec.later_kernels``, read by :func:`later_parts_ready` and :func:`show_waiting`)."""
    _PAGE.slot, _PAGE.later = slot, tuple(later)
    try:
        yield
    finally:
        _PAGE.slot, _PAGE.later = None, ()
        slot.empty()


def _show(text):
    slot = getattr(_PAGE, "slot", None)
    # Inside a cached function the page waits without the message (the function's own
    # spinner stands instead): writing it would fail the page (``cache_budget.computing``).
    if slot is not None and not cache_budget.computing():
        slot.info(text, icon=":material/hourglass_top:")


def _counted(requests):
    """``requests`` and, first, the request the worker is running if it is not one of them (it
    finishes that first): what the message counts."""
    ahead = preparation().ahead_of(requests)
    return ([ahead] if ahead is not None else []) + list(requests)


def _progress(counted, started):
    """The message for the requests ``counted``: their steps done of all, seconds since
    ``started`` (``time.monotonic()``)."""
    done = sum(r.steps[1] if r.finished else r.steps[0] for r in counted)
    total = sum(r.steps[1] for r in counted)
    return progress_text(done, total, time.monotonic() - started)


def _wait(requests):
    """Wait for the worker to finish ``requests``, the message updated meanwhile; whether all
    of them were done (False: the page compiles what failed itself)."""
    work = preparation()
    counted = _counted(requests)
    started = time.monotonic()

    def tick():
        _show(_progress(counted, started))

    tick()
    done = work.wait(requests, tick=tick)
    tick()
    return done


def _in_this_process(names):
    """Compile the parts ``names`` here, step by step, the message updated between steps."""
    total = sum(len(PARTS[name]) for name in names)
    started, done = time.monotonic(), 0
    for name in names:

        def step(part_done, _, before=done):
            _show(progress_text(before + part_done, total, time.monotonic() - started))

        step(0, None)
        warm_up_part(name, progress=step)
        done += len(PARTS[name])


def start_preparing(names, later=()):
    """Have the worker start on the parts ``names`` a page needs (if this machine has not
    compiled them) while the frame draws the rest, then on the parts ``later`` the page shows
    later (before any other); :func:`prepare` then waits for ``names``."""
    if not uses_workers():
        return
    # One request of both, in order: an idle worker takes the first part asked for at once, so
    # asking for ``later`` first sent the forest to a worker on a cache without the tree's
    # kernels, whose compiling then peaked at 505 MB instead of about 390.
    missing = [name for name in (*names, *later) if not part_compiled(name)]
    if missing:
        preparation().request_parts(missing, urgent=True)


def prepare(names):
    """Before a page: the parts ``names`` it needs, compiled if this machine has not (the
    message above the page meanwhile); nothing to wait for on a machine that compiled them."""
    missing = [name for name in names if not part_compiled(name)]
    if not missing:
        return
    if uses_workers():
        requests = preparation().request_parts(missing, urgent=True)
        if _wait(requests):
            return
        missing = [request.what[1] for request in requests if request.state != "done"]
    _in_this_process(missing)


def _ready(names):
    """Whether the parts ``names`` may run now: compiled on this machine, or their worker
    failed (the page then compiles them where it uses them, as after :func:`prepare`). Asks the
    worker for those missing, in the queue's order (the frame asked first, ahead of the
    background: :func:`start_preparing`); without a worker, compiles them here, saying so."""
    missing = [name for name in names if not part_compiled(name)]
    if not missing:
        return True
    if not uses_workers():
        _in_this_process(missing)
        return True
    return all(request.finished for request in preparation().request_parts(missing))


def later_parts_ready():
    """Whether the parts this page shows later (``PageSpec.later_kernels``) may run now: a page draws
    the part that needs them when they are, else :func:`show_waiting` in its place."""
    return _ready(getattr(_PAGE, "later", ()))


def show_waiting(what):
    """In the place of the part that needs the parts the page shows later: ``what`` it will
    show ("The random forest's curve comes ..."), then the engine's progress, asked again every
    :data:`POLL_S` seconds; once the parts are ready the whole page runs again and draws the
    part (module docstring)."""
    _waiting(getattr(_PAGE, "later", ()), what)


@st.fragment(run_every=POLL_S)
def _waiting(names, what):
    """:func:`show_waiting`'s part, run alone every :data:`POLL_S` seconds while it is drawn."""
    if _ready(names):
        _WAITING_SINCE.pop(names, None)
        st.rerun()  # the whole page: it draws the part, and this one no more (its polling ends)
    started = _WAITING_SINCE.setdefault(names, time.monotonic())
    requests = [preparation().request(("part", name)) for name in names]
    st.info(f"{what} {_progress(_counted(requests), started)}", icon=":material/hourglass_top:")


def _prepare_plan(kind, plan):
    """The kernels' preparer (:func:`install`): a plan this machine has not compiled, compiled
    by the worker while the page says so; without a worker it compiles where it is used."""
    if not uses_workers():
        _show(progress_text(0, 1, 0))
        return
    _wait([preparation().request(("plan", kind, plan), urgent=True)])


def install():
    """Once per process: new plans are prepared by the worker (``trees.kernels``)."""
    with _ONCE_LOCK:
        if not _ONCE["installed"]:
            set_kernel_preparer(_prepare_plan)
            _ONCE["installed"] = True


def background_order():
    """Every part, in the order the pages first need them, then the others."""
    order = [name for spec in PAGES for name in (*spec.kernels, *spec.later_kernels)]
    return list(dict.fromkeys(order + list(PARTS)))


def start_background():
    """Once per process, after its first run: the worker prepares every part not yet compiled
    on this machine, in :func:`background_order`."""
    with _ONCE_LOCK:
        if _ONCE["background"] or not uses_workers():
            return
        _ONCE["background"] = True
    preparation().request_parts([n for n in background_order() if not part_compiled(n)])
