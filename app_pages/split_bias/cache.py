"""The split-bias page's cached computations: the Monte Carlo grid, null Gini gains, noise roots,
the roots of the user's own columns.

Keyed as ``ui.cached`` explains: settings hashed, arrays passed unhashed (``_``-prefixed).
"""

import os

import numpy as np

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

__all__ = ["LARGE_NOISE_WORK", "LARGE_TRIALS", "bias_grid", "grid_when_ready", "noise_is_large",
           "noise_roots", "null_gains", "root_choices"]  # fmt: skip


def _simulate(n1, n2, trials, grid, progress=None, should_stop=None):
    """:func:`trees.bias_experiment` on ``grid`` ``(N_grid, p1_grid)``."""
    N_grid, p1_grid = grid
    return bias_experiment(n1=n1, n2=n2, N=list(N_grid), p1=list(p1_grid), trials=trials,
                           seed=0, n_jobs=_GRID_THREADS, progress=progress,
                           should_stop=should_stop)  # fmt: skip


@cache_budget.data(show_spinner="Simulating datasets under the Null Hypothesis...", max_entries=16)
def bias_grid(n1, n2, trials, N_grid, p1_grid):
    """:func:`_simulate`, cached across sessions (it depends on its settings only)."""
    return _simulate(n1, n2, trials, (N_grid, p1_grid))


def grid_when_ready(n1, n2, trials, N_grid, p1_grid):
    """The page's grid: :func:`bias_grid` below :data:`LARGE_TRIALS` datasets per cell; from
    there, simulated in the server's background worker with progress and a Stop drawn here,
    and None until it is there."""
    if trials < LARGE_TRIALS:
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
