"""The split-bias page's cached computations: the Monte Carlo grid, null Gini gains, noise roots,
the roots of the user's own columns.

Keyed as ``ui.cached`` explains: settings hashed, arrays passed unhashed (``_``-prefixed).
"""

import logging
import os
import threading

import numpy as np
import streamlit as st

from app_pages.split_bias import keys
from trees import bias_experiment
from trees.selection_bias import noise_root_study, null_gini_gains, root_choice_study
from ui import cache_budget
from ui.experiments import computed_in_background

# Threads for a page's Monte Carlo grid: its cells are independent and release the GIL, and a
# user waits on them; more than four threads would only crowd the other sessions of the server.
_GRID_THREADS = min(4, os.cpu_count() or 1)

# Datasets per cell from which the grid is simulated in the server's background worker, with
# progress and a Stop: about two seconds of the page's 35 cells on two cores (7 s at 20,000).
LARGE_TRIALS = 5_000

__all__ = ["LARGE_NOISE_WORK", "LARGE_TRIALS", "N_GRID", "P1_GRID", "VALUES", "bias_grid", "grid_when_ready",
           "neighbour_settings", "noise_is_large", "noise_roots", "null_gains", "prefetch_neighbours",
           "root_choices", "shared_study"]  # fmt: skip

VALUES = (2, 50)  # the values of X1 and X2 the page's widgets take
# The page's grid: dataset sizes N and priors p1 of the first class.
N_GRID = (10, 30, 100, 300, 1000)
P1_GRID = tuple(float(p) for p in np.round(np.geomspace(1e-3, 0.5, 7), 6))


def _simulate(n1, n2, trials, grid, progress=None, should_stop=None):
    """:func:`trees.bias_experiment` on ``grid`` ``(N_grid, p1_grid)``."""
    N_grid, p1_grid = grid
    return bias_experiment(n1=n1, n2=n2, N=list(N_grid), p1=list(p1_grid), trials=trials,
                           seed=0, n_jobs=_GRID_THREADS, progress=progress,
                           should_stop=should_stop)  # fmt: skip


@cache_budget.data(show_spinner=False, max_entries=16)
def bias_grid(n1, n2, trials, N_grid, p1_grid):
    """:func:`_simulate`, cached across sessions (it depends on its settings only).

    No spinner of its own: the prefetch thread, outside any script run, has no page to show
    one in (it would fail); the page's call shows its own (:func:`grid_when_ready`).
    """
    return _simulate(n1, n2, trials, (N_grid, p1_grid))


def neighbour_settings(n1, n2, trials):
    """The settings one click of the page's number inputs away from ``(n1, n2, trials)``: X1's
    values up and down, then X2's, within the widgets' range (the likeliest next clicks first).
    """
    low, high = VALUES
    steps = [(n1 + 1, n2), (n1 - 1, n2), (n1, n2 + 1), (n1, n2 - 1)]
    return [(a, b, trials) for a, b in steps if low <= a <= high and low <= b <= high]


_PREFETCH_THREAD = "tree-bias-lab-bias-grid-prefetch"
# Streamlit warns, once per cached call, that a thread outside a script run has no run context
# ("missing ScriptRunContext"): true and harmless for this thread (it draws nothing), and a line
# in the server's log at every click. Only this thread's warnings are left out.
_CONTEXT_LOGGER = "streamlit.runtime.scriptrunner_utils.script_run_context"


class _NotFromPrefetch(logging.Filter):
    def filter(self, record):
        return record.threadName != _PREFETCH_THREAD


logging.getLogger(_CONTEXT_LOGGER).addFilter(_NotFromPrefetch())


class _Prefetch:
    """One thread of the server that simulates the grids a click away, ahead of the click.

    A grid of the page's default size costs about 0.2 s of CPU (the datasets' draws and the
    incomplete-gamma p-values are most of it, and are the same numbers at any speed): simulated
    when a number input is clicked, the page answers in about that time on an idle machine,
    and misses half a second on a loaded one. Simulated ahead into the same cache
    (:func:`bias_grid`; Streamlit's per-entry lock makes a click that comes during the
    simulation wait for it rather than simulate it twice), the click reads it back. One thread
    for the whole server, and only the latest page's neighbours wait: a class of sessions
    clicking at once queues no more than one simulation each, and a stale request is dropped.
    """

    def __init__(self):
        self._lock = threading.Lock()
        self._wanted = []
        self._thread = None

    def request(self, settings, grid):
        """Simulate ``settings`` (a list of ``(n1, n2, trials)``) on ``grid``, in the thread."""
        with self._lock:
            self._wanted = [(*s, *grid) for s in settings]
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name=_PREFETCH_THREAD, daemon=True
                )
                self._thread.start()

    def _next(self):
        with self._lock:
            return self._wanted.pop(0) if self._wanted else None

    def _run(self):
        while (arguments := self._next()) is not None:
            bias_grid(*arguments)


_PREFETCH = _Prefetch()


def prefetch_neighbours(n1, n2, trials, N_grid, p1_grid):
    """Simulate the grids one click away (:func:`neighbour_settings`) in the server's prefetch
    thread, below :data:`LARGE_TRIALS` datasets per cell (larger grids run in the background
    worker, with their own progress)."""
    if trials < LARGE_TRIALS:
        _PREFETCH.request(neighbour_settings(n1, n2, trials), (tuple(N_grid), tuple(p1_grid)))


def grid_when_ready(n1, n2, trials, N_grid, p1_grid):
    """The page's grid: :func:`bias_grid` below :data:`LARGE_TRIALS` datasets per cell; from
    there, simulated in the server's background worker with progress and a Stop drawn here,
    and None until it is there."""
    if trials < LARGE_TRIALS:
        with st.spinner("Simulating datasets under the Null Hypothesis..."):
            return bias_grid(n1, n2, trials, N_grid, p1_grid)
    grid = (N_grid, p1_grid)
    return computed_in_background(
        keys.GRID,
        ("selection-bias grid", n1, n2, trials, N_grid, p1_grid),
        f"Simulating {trials:,} datasets in each of the {len(N_grid) * len(p1_grid)} cells, "
        "cells done",
        lambda progress, should_stop: _simulate(n1, n2, trials, grid, progress, should_stop),
        "Simulate the grid",
    )


@cache_budget.data(show_spinner="Simulating 20,000 datasets with no informative feature...",
                   max_entries=32)  # fmt: skip
def null_gains(n_values, rows, priors):
    """Monte Carlo Gini gains under the null and the row totals (``priors`` a tuple)."""
    return null_gini_gains(n_values, rows, np.asarray(priors), trials=20_000)


# Rows x resamples x (permutations + 1) from which the noise-root study runs in the server's
# background worker: a few seconds on two cores (the widgets' limits on 5,000 rows: minutes).
LARGE_NOISE_WORK = 10_000_000


def noise_is_large(n_rows, resamples, permutations):
    """Whether the noise-root study of these sizes runs in the background."""
    return n_rows * resamples * (permutations + 1) >= LARGE_NOISE_WORK


def noise_roots(X, y, n_noise, resamples, permutations, progress, should_stop=None):
    """:func:`trees.noise_root_study` on the page's rows, reporting ``progress(done, total,
    partial)`` after each resample (run under ``ui.experiments.run_with_progress``, whose Stop
    keeps the resamples done; or in the background, where ``should_stop`` ends it with the
    resamples done, marked ``cancelled``)."""
    return noise_root_study(
        X, y, n_noise=n_noise, n_resamples=resamples, n_permutations=permutations,
        progress=progress, should_stop=should_stop,
    )  # fmt: skip


def root_choices(X, y, categorical, refits, permutations, progress):
    """:func:`trees.selection_bias.root_choice_study` on the page's rows, reporting
    ``progress(done, total, partial)`` after each refit (run under
    ``ui.experiments.run_with_progress``, whose Stop keeps the refits done)."""
    return root_choice_study(
        X, y, n_refits=refits, n_permutations=permutations, categorical=categorical,
        progress=progress,
    )  # fmt: skip


class _FinishedStudy:
    """The place of one study's finished outcome (None until a session finishes it)."""

    __slots__ = ("outcome",)

    def __init__(self):
        self.outcome = None


@cache_budget.resource(show_spinner=False, max_entries=32)
def _finished_study(kind, data_key, identity):
    """The server's place for the finished ``kind`` study of ``identity`` on the rows of
    ``data_key``, shared by every session. Its outcome is a few numbers per column (KB), which
    the byte budget, estimating the place when it is made, leaves out. An upload's entries go
    when no session holds its data any more (``ui.cache_budget``)."""
    return _FinishedStudy()


def shared_study(kind, data_key, identity, run_here):
    """A study's outcome, finished once for the whole server.

    The studies of the "On your data" tab run in the session, with progress and a Stop
    (``run_here()``, ``ui.experiments.latest_study``), so a session's own result may be cut
    short. A finished one (not ``cancelled``) is the same for every session that asks for the
    same rows and settings (the studies are seeded), so it is kept for them: the tab opened
    on the bundled data by the class's next student answers at once instead of rerunning a
    third of a second of refits (``bench/bench_pages.py``'s "tab On your data").
    """
    place = _finished_study(kind, data_key, identity)
    if place.outcome is not None:
        return place.outcome
    outcome = run_here()
    if outcome is not None and not outcome["cancelled"]:
        place.outcome = outcome
    return outcome
