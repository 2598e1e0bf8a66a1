"""The Evaluate page's computations: the test split, importances, Table 4.1's trees, the grid search.

Cached like ``ui/cached.py``: keyed on the dataset's fingerprint and the
settings, arrays passed as ``_``-prefixed arguments. The long runs (the
grid search, Table 4.1's four trees) go through
``ui.experiments.run_with_progress`` one step at a time, so the progress
bar moves, Stop keeps the steps that finished, and a step done before is
taken from the cache.
"""

from dataclasses import dataclass

import numpy as np
import streamlit as st
from sklearn.inspection import permutation_importance

from trees import (
    SearchResult,
    cross_validated_search,
    exhaustive_trees,
    holdout_tuning,
    nested_cross_validation,
)
from trees.studies import train_test_rows

__all__ = [
    "METHODS",
    "MAX_ROWS",
    "SearchRecord",
    "Split",
    "exhaustive_row",
    "permutation_importances",
    "run_search",
    "test_split",
]

# The interactive tree is fitted on at most this many rows (a random sample, said on the page).
MAX_ROWS = 20_000
METHODS = ("k-fold cross-validation", "holdout validation", "nested cross-validation")


@dataclass(frozen=True)
class Split:
    """Training and test rows of the page, and a name that keys the caches."""

    X_train: np.ndarray
    X_test: np.ndarray
    y_train: np.ndarray
    y_test: np.ndarray
    name: str


@st.cache_data(show_spinner=False, max_entries=32)
def _split_rows(data_key, task, test_share, seed, _y):
    return train_test_rows(task, _y, test_share, seed)


def test_split(data_key, task, test_share, seed, X, y, label="page"):
    """The rows held out for testing (stratified by class), as a :class:`Split`."""
    train, test = _split_rows((data_key, label, len(y)), task, float(test_share), int(seed), y)
    name = f"{label} {len(y)} rows, test share {test_share}, seed {int(seed)}"
    return Split(X[train], X[test], y[train], y[test], name)


@st.cache_data(show_spinner="Shuffling each feature of the test rows...", max_entries=16)
def permutation_importances(data_key, split_name, params, _model, _X_test, _y_test):
    """Mean and SD over 5 shuffles of the rise of the test error when each feature is shuffled.

    The score is accuracy (classification) or R² (regression), so its fall is
    the rise of the page's error (1 - accuracy, 1 - R²).
    """
    result = permutation_importance(_model, _X_test, _y_test, n_repeats=5, random_state=0)
    return result.importances_mean, result.importances_std


@st.cache_data(show_spinner=False, max_entries=64)
def exhaustive_row(data_key, split_name, criterion, base, _X_train, _y_train, _X_test, _y_test):
    """One row of Table 4.1: the tree grown to purity with ``criterion`` (``base`` a tuple of pairs)."""
    return exhaustive_trees(
        _X_train, _y_train, _X_test, _y_test, criteria=[criterion], base_params=dict(base)
    )[0]


@dataclass
class SearchRecord:
    """A grid search as the page shows it: how it was run, and its result."""

    method: str
    folds: int
    inner: int
    grid_text: str
    result: SearchResult

    def describe(self):
        """The method in words ("5-fold cross-validation", "holdout validation on 20% ...")."""
        if self.method == "k-fold cross-validation":
            how = f"{self.folds}-fold cross-validation"
        elif self.method == "holdout validation":
            how = f"holdout validation on {self.inner}% of the training rows"
        else:
            how = f"nested cross-validation ({self.folds} outer, {self.inner} inner folds)"
        tried = int(np.isfinite(self.result.errors).sum())
        total = len(self.result.configurations)
        stopped = f", stopped after {tried} of {total}" if tried < total else ""
        return f"{how}, {total} configurations{stopped}"


def _partial(configurations, errors, cancelled):
    """A SearchResult of the configurations scored so far (the first best on ties)."""
    finite = np.isfinite(errors)
    best = int(np.nanargmin(np.where(finite, errors, np.inf))) if finite.any() else 0
    return SearchResult(
        list(configurations), errors.copy(), configurations[best], float(errors[best]),
        cancelled=cancelled,
    )  # fmt: skip


def run_search(progress, task, grid, method, folds, inner, seed, base, X, y):
    """Search ``grid`` by ``method``, reporting ``progress(done, total, partial SearchResult)``.

    k-fold and holdout searches score one configuration at a time on the same
    folds (the same numbers as one call of ``cross_validated_search`` or
    ``holdout_tuning``), so a Stop keeps what was scored; a nested search
    reports its progress but keeps nothing before it ends.
    """
    if method == "nested cross-validation":
        return nested_cross_validation(
            task, grid, X, y, outer_k=folds, inner_k=inner, seed=seed, base_params=base,
            progress=lambda done, total: progress(done, total, None),
        )  # fmt: skip
    errors = np.full(len(grid), np.nan)
    for i, params in enumerate(grid):
        if method == "k-fold cross-validation":
            one = cross_validated_search(task, [params], X, y, k=folds, seed=seed, base_params=base)
        else:
            one = holdout_tuning(
                task, [params], X, y, validation_size=inner / 100, seed=seed, base_params=base
            )
        errors[i] = one.errors[0]
        progress(i + 1, len(grid), _partial(grid, errors, cancelled=i + 1 < len(grid)))
    return _partial(grid, errors, cancelled=False)
