"""Compiling the kernels ahead of use: :func:`warm_up`.

The kernels are compiled the first time they run, or loaded from numba's
on-disk cache when this machine compiled them before. An app calls
:func:`warm_up` in a background thread when it starts, so that the first
page does not wait for the compiler.
"""

import numpy as np

from ._classes import DecisionTreeClassifier, DecisionTreeRegressor
from ._criterion import CRITERIA_CLF
from ._grower import TreeGrower
from ._kernels_criteria import GINI
from ._kernels_cultivated import node_neighbourhoods
from ._kernels_draws import (
    add_weighted_draw_counts,
    bootstrap_counts,
    bootstrap_rows,
    draw_cdf,
    generator_seeds,
    weighted_bootstrap_rows,
)
from ._kernels_search import keep_rows
from ._kernels_traversal import forest_predict
from ._splitter import (
    SegmentBatch,
    partition_segments,
    search_splits,
    sort_features,
    sorted_values,
)
from ._tree import pack_trees

__all__ = ["warm_up"]


def _tiny_data():
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.integers(0, 3, 40), rng.normal(size=40), rng.normal(size=40)])
    y = (X[:, 1] + (X[:, 0] == 1) > 0).astype(int)
    return X, y


def _warm_trees(X, y):
    """Growth (both orders, categorical splits, random draws) and every walk of one tree."""
    tree = DecisionTreeClassifier(
        categorical_features=[0], max_features=2, tie_break="random", random_state=0
    ).fit(X, y)
    DecisionTreeRegressor(max_leaf_nodes=4).fit(X, X[:, 1])
    # Random splits on their one-row layout (categorical draws too).
    DecisionTreeClassifier(splitter="random", categorical_features=[0], random_state=0).fit(X, y)
    # The absolute error's values and impurities are medians from each node's rows.
    DecisionTreeRegressor(criterion="absolute_error", max_depth=2).fit(X[:, 1:], X[:, 1])
    # scikit-learn's sums (the root's variance is computed from Python, in its own kernel)
    DecisionTreeRegressor(max_depth=2, variance_sums="raw").fit(X, X[:, 1])
    # Selection by p-value (source 001): the compiled permutation test of ordered features.
    DecisionTreeClassifier(selection="p_value", max_depth=2, n_permutations=9).fit(X, y)
    # Pruning: the path (its weakest links to the root) and a fit that stops at an alpha.
    DecisionTreeClassifier(ccp_alpha=0.01).fit(X, y).cost_complexity_pruning_path(X, y)
    for op in ("<=", "<", "average"):
        tree.tree_.predict(X, op)
    tree.tree_.apply(X, "<")
    tree.tree_.decision_path(X, "<=")
    return tree


def _warm_grower(X, y):
    """The step-by-step grower, classification and regression: search, splits, score tables.

    A regression grower's statistics have another layout, so numba compiles
    its own specialisations: without it the first regression step of a
    session waited seconds for the compiler.
    """
    for target, criterion in ((y, "gini"), (X[:, 1], "squared_error")):
        grower = TreeGrower(X, target, criterion=criterion, categorical_features=[0])
        grower.step()
        grower.candidates(0)
        grower.score_curve(0, 1)
        grower.expand(grower.leaves()[0], feature=1)


def _warm_forest_and_cultivated(X, y, tree):
    """The forests' draws, pack walk and row filter; the cultivated forest's neighbourhoods
    (a forest's batches are the ensembles' own: ``trees.ensemble.warm_up``)."""
    generator_seeds(np.array([0, 1]))
    bootstrap_rows(0, X.shape[0], X.shape[0])
    bootstrap_counts(0, X.shape[0], X.shape[0])
    cdf = draw_cdf(np.ones(X.shape[0]))  # a weighted forest's draws
    weighted_bootstrap_rows(0, cdf, X.shape[0])
    add_weighted_draw_counts(0, cdf, X.shape[0], np.zeros(X.shape[0]))
    packed, values, roots = pack_trees([tree.tree_, tree.tree_], [tree.tree_.value] * 2)
    out = np.zeros((X.shape[0], values.shape[1]))
    ops = np.array([0, 2], dtype=np.intp)
    forest_predict((packed, values, roots, ops), np.ascontiguousarray(X), (0, X.shape[0]), out)
    rows = keep_rows(sort_features(X), np.ones(X.shape[0], dtype=bool))
    xs = sorted_values(X, rows)
    stats = np.vstack([1.0 - y, y.astype(float)])
    batch = SegmentBatch(rows, xs, np.array([0]), np.array([X.shape[0]]))
    table = search_splits(batch, stats, CRITERIA_CLF["gini"]())
    count, n_features = X.shape[0], X.shape[1]
    out = (
        np.empty(n_features, dtype=np.int64),
        np.empty(n_features),
        np.empty(n_features, dtype=np.int64),
        *(np.empty((n_features, count)) for _ in range(3)),
    )
    parent = np.ascontiguousarray(table.parent[:, 0])
    node_neighbourhoods(xs, rows, count, table.proxy, np.ones(count), parent, GINI, 2.0, out)
    batch = SegmentBatch.from_rows(X, [np.arange(20), np.arange(20, 40)])
    partition_segments(batch, np.array([10, 10]), np.arange(40) % 2 == 0)


def warm_up():
    """Compile every kernel of the package, or load it from numba's on-disk cache.

    Runs each kernel once on tiny data, with the argument types the package
    uses. Safe to call from a background thread (numba compiles under a lock;
    a kernel called meanwhile waits for it). Takes a few seconds when the
    kernels are in the on-disk cache, and about a minute when this machine
    compiles them for the first time.
    """
    X, y = _tiny_data()
    tree = _warm_trees(X, y)
    _warm_grower(X, y)
    _warm_forest_and_cultivated(X, y, tree)
