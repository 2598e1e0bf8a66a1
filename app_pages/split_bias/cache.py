"""The split-bias page's cached computations: the Monte Carlo grid, null Gini gains, noise roots.

Keyed as ``ui.cached`` explains: settings hashed, arrays passed unhashed (``_``-prefixed).
"""

import os

import numpy as np
import streamlit as st

from trees import bias_experiment
from trees.selection_bias import noise_root_study, null_gini_gains

# Threads for a page's Monte Carlo grid: its cells are independent and release the GIL, and a
# user waits on them; more than four threads would only crowd the other sessions of the server.
_GRID_THREADS = min(4, os.cpu_count() or 1)

__all__ = ["bias_grid", "noise_roots", "null_gains"]


@st.cache_data(show_spinner="Simulating datasets under the Null Hypothesis...", max_entries=16)
def bias_grid(n1, n2, trials, N_grid, p1_grid):
    """:func:`trees.bias_experiment` on a grid (cached across sessions: it depends on its settings only)."""
    return bias_experiment(
        n1=n1, n2=n2, N=list(N_grid), p1=list(p1_grid), trials=trials, seed=0, n_jobs=_GRID_THREADS
    )


@st.cache_data(show_spinner=False, max_entries=32)
def null_gains(n_values, rows, priors):
    """Monte Carlo Gini gains under the null and the row totals (``priors`` a tuple)."""
    return null_gini_gains(n_values, rows, np.asarray(priors), trials=20_000)


@st.cache_data(show_spinner="Fitting stumps on resamples with noise columns...", max_entries=16)
def noise_roots(data_key, n_noise, resamples, permutations, _X, _y):
    """:func:`trees.noise_root_study` on the page's rows."""
    return noise_root_study(
        _X, _y, n_noise=n_noise, n_resamples=resamples, n_permutations=permutations
    )
