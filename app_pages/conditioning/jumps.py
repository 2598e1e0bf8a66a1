"""Rows on a threshold jumping sides as ``x <= t`` becomes ``x < t`` (``viz.animation``).

The split shown is the tree's split with the most of the data's rows exactly on its
threshold; the rows are those that reach it under both tests, and each row's side under
each test is read from the tree's own routing (``Tree.decision_path``).
"""

import numpy as np

from viz.animation import ThresholdJump

__all__ = ["nodes_with_rows_on_threshold", "threshold_jump"]


def _reaching(tree, X):
    """Per test, the rows' decision paths (a sparse rows x nodes matrix, by column)."""
    return {op: tree.decision_path(X, op).tocsc() for op in ("<=", "<")}


def _visits(path, node):
    """Whether each row's path visits ``node``."""
    return np.asarray(path[:, node].todense()).ravel().astype(bool)


def _reach(paths, node):
    return _visits(paths["<="], node) & _visits(paths["<"], node)


def nodes_with_rows_on_threshold(tree, X):
    """``{node: rows on its threshold}`` of the splits some rows of ``X`` sit exactly on, most
    first (rows that reach the node under both tests)."""
    paths = _reaching(tree, X)
    counts = {}
    for node in np.flatnonzero(tree.feature >= 0):
        reach = _reach(paths, node)
        on = reach & (X[:, tree.feature[node]] == tree.threshold[node])
        if on.any():
            counts[int(node)] = int(on.sum())
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def threshold_jump(tree, X, classes, names, node):
    """The :class:`viz.animation.ThresholdJump` of ``node`` on the rows of ``X``.

    ``classes`` are the rows' class indices (their dots' colours; zeros for a regression).
    """
    paths = _reaching(tree, X)
    reach = _reach(paths, node)
    feature, threshold = int(tree.feature[node]), float(tree.threshold[node])
    left_child = int(tree.left[node])
    return ThresholdJump(
        node=int(node),
        feature_name=names[feature],
        threshold=threshold,
        values=X[reach, feature],
        classes=np.asarray(classes)[reach],
        on_threshold=X[reach, feature] == threshold,
        goes_left={op: _visits(paths[op], left_child)[reach] for op in ("<=", "<")},
    )
