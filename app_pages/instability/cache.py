"""The instability page's computations, cached by the dataset and the settings they depend on.

Every function takes the dataset key and its settings as hashed arguments
and the arrays unhashed (``_``-prefixed), so a widget change recomputes only
what depends on it: a new epsilon regrows the near-tie trees, not the refits.
Results that hold trees are cached with ``st.cache_resource`` (shared,
never mutated); tables with ``st.cache_data``. The scoreboard, the one long
run, is not here: the page runs it on request with progress and Stop.
"""

from dataclasses import dataclass

import numpy as np

from trees import perturbation_study
from trees.instability import (
    compare_trees,
    near_tie_trees,
    node_cutpoints,
    prediction_agreement,
    refit_map,
    refit_without_row,
    split_confidence,
    tie_break_study,
    tree_distances,
)
from trees.tasks import make_tree
from ui import cache_budget

__all__ = [
    "Comparison",
    "agreement",
    "comparisons",
    "confidence",
    "cutpoints",
    "first_influential_row",
    "near_ties",
    "reference_tree",
    "refits",
    "removal",
    "tie_breaks",
]


@cache_budget.resource(show_spinner="Fitting the tree...", max_entries=32)
def reference_tree(data_key, task, params, _X, _y):
    """The tree fitted on the page's training rows (``params``: a tuple of pairs)."""
    return make_tree(task, dict(params)).fit(_X, _y)


@cache_budget.data(show_spinner="Judging how firmly each split holds...", max_entries=32)
def confidence(data_key, task, params, n_bootstrap, _model, _X, _y, _names):
    """``trees.split_confidence`` of the reference tree, its splits written with ``_names``."""
    return split_confidence(
        _model, _X, _y, n_bootstrap=n_bootstrap, random_state=0, feature_names=_names
    )


@cache_budget.resource(show_spinner="Refitting the tree on changed data...", max_entries=16)
def refits(data_key, task, params, kind, amount, n_fits, _X, _y, _X_test):
    """``trees.perturbation_study``: the refits and their distances to the reference."""
    return perturbation_study(
        _X,
        _y,
        task,
        params=dict(params),
        n_fits=n_fits,
        perturbation=kind,
        amount=amount,
        X_test=_X_test,
        random_state=0,
    )


@cache_budget.data(show_spinner=False, max_entries=16)
def agreement(data_key, task, params, kind, amount, n_fits, _trees, _X_test):
    """Pairwise prediction agreement of the refits on the held-out rows (Turney, 1995)."""
    return prediction_agreement(_trees, _X_test)


@dataclass(frozen=True)
class Comparison:
    """The refits compared with each other: agreement, a distance, and the map of the refits."""

    agreement: np.ndarray
    distances: np.ndarray
    map: object
    kind: str


@cache_budget.resource(show_spinner="Comparing the refits with each other...", max_entries=16)
def comparisons(data_key, task, params, kind, amount, n_fits, distance, _trees, _X_test):
    """Pairwise agreement and ``distance`` between the refits, and their MDS map."""
    distances = tree_distances(_trees, _X_test, kind=distance)
    matrix = agreement(data_key, task, params, kind, amount, n_fits, _trees, _X_test)
    return Comparison(matrix, distances, refit_map(distances), distance)


@cache_budget.resource(show_spinner="Growing the near-tie trees...", max_entries=16)
def near_ties(data_key, task, params, epsilon, max_trees, _X, _y, _X_test, _y_test, _names):
    """``trees.near_tie_trees`` on the training rows, judged on the held-out rows."""
    params = dict(params)
    criterion = "gini" if task == "classification" else "squared_error"
    return near_tie_trees(
        _X,
        _y,
        epsilon=epsilon,
        max_trees=max_trees,
        task=task,
        X_test=_X_test,
        y_test=_y_test,
        feature_names=_names,
        criterion=criterion,
        max_depth=params.get("max_depth"),
    )


@cache_budget.data(show_spinner=False, max_entries=16)
def cutpoints(data_key, task, params, kind, amount, n_fits, depth, _trees, _names):
    """``trees.node_cutpoints`` of the refits down to ``depth``."""
    return node_cutpoints(_trees, max_depth=depth, feature_names=_names)


@cache_budget.resource(show_spinner="Refitting with random tie-breaks...", max_entries=16)
def tie_breaks(data_key, task, params, n_seeds, _X, _y, _X_test):
    """``trees.tie_break_study`` on the training rows."""
    return tie_break_study(_X, _y, task, dict(params), n_seeds=n_seeds, X_test=_X_test)


@cache_budget.data(show_spinner=False, max_entries=32)
def first_influential_row(data_key, task, params, _X, _y, _reference, limit=100):
    """The first of the first ``limit`` training rows whose removal changes the tree (0 if none)."""
    for row in range(min(limit, len(_y))):
        keep = np.ones(len(_y), dtype=bool)
        keep[row] = False
        after = make_tree(task, dict(params)).fit(_X[keep], _y[keep]).tree_
        changed, _ = compare_trees(_reference, after)
        if changed:
            return row
    return 0


@cache_budget.resource(show_spinner="Refitting without the row...", max_entries=64)
def removal(data_key, task, params, row, _X, _y):
    """:func:`trees.refit_without_row` (``params`` a tuple of pairs)."""
    return refit_without_row(_X, _y, task, row, dict(params))
