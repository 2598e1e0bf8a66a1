"""The split-bias page's cached computations: the Monte Carlo grid, null Gini gains, noise roots,
the roots of the user's own columns.

Keyed as ``ui.cached`` explains: settings hashed, arrays passed unhashed (``_``-prefixed).
"""

import os

import numpy as np

from trees import bias_experiment
from trees.selection_bias import noise_root_study, null_gini_gains, root_choice_study
from ui import cache_budget

# Threads for a page's Monte Carlo grid: its cells are independent and release the GIL, and a
# user waits on them; more than four threads would only crowd the other sessions of the server.
_GRID_THREADS = min(4, os.cpu_count() or 1)

__all__ = ["bias_grid", "noise_roots", "null_gains", "root_choices"]


@cache_budget.data(show_spinner="Simulating datasets under the Null Hypothesis...", max_entries=16)
def bias_grid(n1, n2, trials, N_grid, p1_grid):
    """:func:`trees.bias_experiment` on a grid (cached across sessions: it depends on its settings only)."""
    return bias_experiment(
        n1=n1, n2=n2, N=list(N_grid), p1=list(p1_grid), trials=trials, seed=0, n_jobs=_GRID_THREADS
    )


@cache_budget.data(show_spinner=False, max_entries=32)
def null_gains(n_values, rows, priors):
    """Monte Carlo Gini gains under the null and the row totals (``priors`` a tuple)."""
    return null_gini_gains(n_values, rows, np.asarray(priors), trials=20_000)


def noise_roots(X, y, n_noise, resamples, permutations, progress):
    """:func:`trees.noise_root_study` on the page's rows, reporting ``progress(done, total,
    partial)`` after each resample (run under ``ui.experiments.run_with_progress``, whose Stop
    keeps the resamples done)."""
    return noise_root_study(
        X, y, n_noise=n_noise, n_resamples=resamples, n_permutations=permutations,
        progress=progress,
    )  # fmt: skip


def root_choices(X, y, categorical, refits, permutations, progress):
    """:func:`trees.selection_bias.root_choice_study` on the page's rows, reporting
    ``progress(done, total, partial)`` after each refit (run under
    ``ui.experiments.run_with_progress``, whose Stop keeps the refits done)."""
    return root_choice_study(
        X, y, n_refits=refits, n_permutations=permutations, categorical=categorical,
        progress=progress,
    )  # fmt: skip
