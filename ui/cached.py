"""The pages' heavy computations, cached so a widget change reruns only what depends on it.

Every function takes the dataset key (``state.dataset_key()``, a content
fingerprint) and the settings it depends on as hashed arguments; the arrays
themselves are passed as ``_``-prefixed arguments, which Streamlit does not
hash, so a rerun costs a dictionary lookup, not a hash of the data. Fitted
models are cached with ``st.cache_resource`` (shared, never mutated);
tables and arrays with ``st.cache_data``.
"""

import os

import numpy as np
import pandas as pd
import streamlit as st
from sklearn.linear_model import LogisticRegression

from datasets import generate, preprocess
from trees import (
    CultivatedForestClassifier,
    DecisionTreeClassifier,
    RandomForestClassifier,
    bias_experiment,
    complexity_curve,
)
from trees.instability import refit_without_row
from trees.reliability import out_of_fold_reliability
from trees.selection_bias import noise_root_study, null_gini_gains
from trees.tasks import make_model, make_tree, subsample, train_test_rows
from trees.tuning import exhaustive_trees

# Threads for a page's Monte Carlo grid: its cells are independent and release the GIL, and a
# user waits on them; more than four threads would only crowd the other sessions of the server.
_GRID_THREADS = min(4, os.cpu_count() or 1)

__all__ = [
    "SMALL",
    "bias_grid",
    "complexity_curves",
    "crf_references",
    "exhaustive",
    "fit_crf",
    "fit_forest",
    "fit_model",
    "fit_tree",
    "held_out_split",
    "logistic_fit",
    "noise_roots",
    "null_gains",
    "oof_reliability",
    "removal",
    "sample",
    "staircase_example",
    "staircase_tree",
]

# Below this many rows nothing is held out: the model is fitted on all rows.
SMALL = 20


@st.cache_data(show_spinner=False, max_entries=32)
def sample(data_key, max_rows, seed, _X, _y):
    """At most ``max_rows`` rows of the dataset, and whether rows were dropped."""
    return subsample(_X, _y, max_rows, seed)


@st.cache_data(show_spinner=False, max_entries=32)
def held_out_split(data_key, task, test_share, seed, _X, _y):
    """``X_train, X_test, y_train, y_test``; with fewer than ``SMALL`` rows, all rows for both."""
    if len(_y) < SMALL:
        return _X, _X, _y, _y
    train, test = train_test_rows(task, _y, test_share, seed)
    return _X[train], _X[test], _y[train], _y[test]


@st.cache_resource(show_spinner="Fitting...", max_entries=32)
def fit_model(data_key, rows, kind, task, params, seed, _X, _y):
    """A ``"tree"`` or ``"forest"`` fitted on the rows named by ``rows`` (part of the key).

    ``params`` is a tuple of ``(name, value)`` pairs (hashable).
    """
    return make_model(kind, task, dict(params), seed).fit(_X, _y)


def fit_tree(data_key, rows, task, params, _X, _y):
    """A project tree fitted on ``rows`` (see :func:`fit_model`)."""
    return fit_model(data_key, rows, "tree", task, tuple(sorted(params.items())), None, _X, _y)


def fit_forest(data_key, rows, task, params, seed, _X, _y):
    """A project forest (two threads) fitted on ``rows`` (see :func:`fit_model`)."""
    params = {"n_jobs": 2, **params}
    return fit_model(data_key, rows, "forest", task, tuple(sorted(params.items())), seed, _X, _y)


@st.cache_data(show_spinner="Growing one tree per criterion...", max_entries=16)
def exhaustive(data_key, split, base, _X_train, _y_train, _X_test, _y_test):
    """:func:`trees.exhaustive_trees` as a table (``split`` and ``base`` are part of the key)."""
    return pd.DataFrame(
        exhaustive_trees(_X_train, _y_train, _X_test, _y_test, base_params=dict(base))
    )


@st.cache_resource(show_spinner="Cultivating the forest...", max_entries=8)
def fit_crf(data_key, variant, depth, eta0, k_scale, _X, _y):
    """A cultivated forest on the page's rows."""
    return CultivatedForestClassifier(variant, max_depth=depth, eta0=eta0, k_factor=k_scale).fit(
        _X, _y
    )


@st.cache_resource(show_spinner="Fitting CART and a random forest...", max_entries=8)
def crf_references(data_key, _X, _y):
    """CART and a 200-tree random forest, the cultivated forest's references (source 002)."""
    cart = DecisionTreeClassifier(min_samples_split=20).fit(_X, _y)
    forest = RandomForestClassifier(n_estimators=200, random_state=0, n_jobs=2).fit(_X, _y)
    return cart, forest


@st.cache_data(show_spinner="Cross-validating the cultivated forest...", max_entries=8)
def oof_reliability(data_key, variant, depth, eta0, k_scale, n_splits, _X, _y):
    """Out-of-fold ``(y01, probability, spread)`` of a cultivated forest."""
    model = CultivatedForestClassifier(variant, max_depth=depth, eta0=eta0, k_factor=k_scale)
    return out_of_fold_reliability(_X, _y, model, n_splits=n_splits)


@st.cache_resource(show_spinner="Refitting without the row...", max_entries=64)
def removal(data_key, task, params, row, _X, _y):
    """:func:`trees.refit_without_row` (``params`` a tuple of pairs)."""
    return refit_without_row(_X, _y, task, row, dict(params))


def as_key(params):
    """A dict of settings as a hashable, ordered tuple."""
    return tuple(
        sorted((k, v.item() if isinstance(v, np.generic) else v) for k, v in params.items())
    )


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


@st.cache_data(show_spinner=False, max_entries=64)
def staircase_example(name, params):
    """A generator's data as arrays (``params`` a tuple of pairs), preprocessed."""
    data, _ = preprocess(generate(name, **dict(params)))
    return data.arrays()


@st.cache_resource(show_spinner=False, max_entries=64)
def staircase_tree(task, max_depth, _X, _y, data_key):
    """A tree of ``max_depth`` on a generated example (``data_key`` names the example's settings)."""
    return make_tree(task, {"max_depth": max_depth}).fit(_X, _y).tree_


@st.cache_resource(show_spinner=False, max_entries=32)
def logistic_fit(_X, _y, data_key):
    """The logistic-regression line a staircase is compared with."""
    return LogisticRegression().fit(_X, _y)


@st.cache_data(
    show_spinner="Cross-validating trees of every depth and leaf size...", max_entries=16
)
def complexity_curves(signature, _X, _y):
    """Depth and leaf-size curves; ``signature`` = (data key, task, folds, repeats, error name)."""
    _, task, folds, repeats, error_name = signature
    options = {"n_splits": folds, "n_repeats": repeats, "error_name": error_name}
    depths = [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, None]
    depth_curve = complexity_curve(_X, _y, task, "max_depth", depths, **options)
    leaves = [
        v for v in sorted({1, 2, 5, 10, 20, 50, 100, max(1, len(_y) // 20)}) if v <= len(_y) // 4
    ] or [1]
    leaf_curve = complexity_curve(_X, _y, task, "min_samples_leaf", leaves, **options)
    return depth_curve, leaf_curve
